//! What the coordinate executor asks the page: a capture, the hit boxes of the observable
//! elements, the element under a point, the focused element, a scroll container's position.
//!
//! Every question runs in the engine's isolated world (a page cannot patch the answers) and
//! goes through shadow roots and same-origin frames the way the engine's own `prufe.at`
//! does: `elementFromPoint`, then into an open shadow root's `elementFromPoint`, then into a
//! same-origin frame's document with the point offset by the frame's content box. A
//! cross-origin frame is another root (see `observe`): it is asked in its own world, with the
//! point offset by its `<iframe>`'s content box as DevTools reports it.

use crate::error::{Error, Result};
use crate::executor::{HitBox, Point, Size};
use crate::inject::{owner_box_in_top, send, Engine};
use crate::observe::Root;
use prufe::core::error::ErrorCode;
use prufe::core::model::Element;
use prufe::core::run::{screen, ScrollPosition, Selection};
use serde_json::{json, Value};

/// The observable element under a point of the root's viewport.
const AT: &str = "(P, a) => P.at(a.x, a.y)";

/// The focused observable element, through shadow roots and same-origin frames.
const FOCUS_HERE: &str = "(P) => ({ has: document.hasFocus(), element: P.focused() })";

/// Boxes of the visible observable elements that meet the viewport, and whether each is the
/// topmost at the centre of its visible part.
const HIT_BOXES: &str = "(P) => P.hitBoxes()";

/// Finds and keeps (in the engine's world) the scroll container under a point.
const SCROLL_FROM: &str = "(P, a) => P.scrollFrom(a.x, a.y)";

/// Where the container `SCROLL_FROM` kept stands now.
const SCROLL_POSITION: &str = "(P) => P.scrollPosition()";

/// Right before typing: the field's raw value and selection when the focus is on it.
const SELECTION: &str = "(P, a) => P.selection(a.ref)";

/// What `Page.captureScreenshot` gave.
#[derive(Debug, Clone)]
pub struct Captured {
    /// PNG, base64.
    pub png: String,
    /// The image's size (what the agent sees).
    pub image: Size,
    /// The capture's size in device pixels (before any downscale).
    pub capture: Size,
    pub device_pixel_ratio: f64,
}

/// The origin of a cross-origin root's `<iframe>` content box, in top-viewport CSS pixels.
#[derive(Debug, Clone)]
pub struct RootBox {
    pub root: Root,
    pub x: f64,
    pub y: f64,
}

/// The viewport, in CSS pixels: (pageX, pageY, width, height).
async fn visual_viewport(engine: &Engine) -> Result<(f64, f64, f64, f64)> {
    let m = send(engine.page(), "Page.getLayoutMetrics", json!({})).await?;
    let v = if m.get("cssVisualViewport").is_some() {
        &m["cssVisualViewport"]
    } else {
        &m["visualViewport"]
    };
    let n = |k: &str| v[k].as_f64().unwrap_or(0.0);
    Ok((n("pageX"), n("pageY"), n("clientWidth"), n("clientHeight")))
}

/// Captures the viewport as PNG, downscaled to at most `max_width` pixels wide.
pub async fn capture(engine: &Engine, top: &Root, max_width: Option<f64>) -> Result<Captured> {
    let (page_x, page_y, client_width, client_height) = visual_viewport(engine).await?;
    let ratio = engine
        .call_value(&top.frame, "(P) => P.page()", &Value::Null)
        .await?["devicePixelRatio"]
        .as_f64()
        .unwrap_or(0.0);
    let view = screen::Viewport {
        page_x,
        page_y,
        client_width,
        client_height,
        dpr: ratio,
    };
    let framing = screen::framing(&view, max_width);
    let mut params = json!({ "format": "png", "captureBeyondViewport": false });
    if let Some(clip) = framing.clip {
        params["clip"] = json!(clip);
    }
    let r = send(engine.page(), "Page.captureScreenshot", params).await?;
    let png = r["data"].as_str().unwrap_or_default().to_owned();
    let image = png_size(&png).ok_or_else(|| {
        Error::core(
            ErrorCode::BrowserError,
            "the browser returned no PNG screenshot",
        )
    })?;
    Ok(Captured {
        png,
        capture: if framing.clip.is_some() {
            framing.full
        } else {
            image
        },
        image,
        device_pixel_ratio: framing.dpr,
    })
}

/// The boxes of the roots other than the top document.
pub async fn root_boxes(engine: &Engine, roots: &[Root]) -> Vec<RootBox> {
    let mut out = Vec::new();
    for root in roots.iter().filter(|r| !r.path.is_empty()) {
        let Ok((_, [x, y, _, _])) = owner_box_in_top(engine, &root.frame).await else {
            continue;
        };
        out.push(RootBox {
            root: root.clone(),
            x,
            y,
        });
    }
    out
}

/// The hit boxes of one root (`prufe.hitBoxes`), in its own viewport and terms.
pub async fn hit_boxes_of(engine: &Engine, root: &Root) -> Result<Vec<HitBox>> {
    engine.call(&root.frame, HIT_BOXES, &json!({})).await
}

/// The observable element under `p`, a point of `root`'s viewport, in that root's terms
/// (`prufe.at`, through shadow roots and same-origin frames; a frame of another origin is an
/// opaque `iframe` record, which the machine looks into: core `run::locate`).
pub async fn element_at(engine: &Engine, root: &Root, p: Point) -> Result<Option<Element>> {
    engine
        .call(&root.frame, AT, &json!({ "x": p.x, "y": p.y }))
        .await
}

/// The focused observable element of the root at `root` (through shadow roots and frames of
/// its own origin), in that root's terms, and whether its document has the focus. The
/// machine follows a focus inside a frame of another origin (core `run::focus`).
pub async fn focused_in(engine: &Engine, root: &Root) -> Result<(bool, Option<Element>)> {
    #[derive(serde::Deserialize)]
    struct Here {
        has: bool,
        element: Option<Element>,
    }
    let here: Here = engine.call(&root.frame, FOCUS_HERE, &Value::Null).await?;
    Ok((here.has, here.element))
}

/// Finds and keeps the scroll container under `p` (top document); where it stands, named.
pub async fn scroll_begin(engine: &Engine, top: &Root, p: Point) -> Result<ScrollPosition> {
    engine
        .call(&top.frame, SCROLL_FROM, &json!({ "x": p.x, "y": p.y }))
        .await
}

/// The kept container's position now; `None` in a new document.
pub async fn scroll_read(engine: &Engine, top: &Root) -> Result<Option<ScrollPosition>> {
    engine.call(&top.frame, SCROLL_POSITION, &Value::Null).await
}

/// The raw value and selection of the field of `reference` (merged terms) when the focus is
/// on it, asked in the field's own world.
pub async fn selection(
    engine: &Engine,
    roots: &[Root],
    reference: &str,
) -> Result<Option<Selection>> {
    let (path, local) = crate::observe::route(reference);
    let root = crate::observe::root_of(roots, path)?;
    engine
        .call(&root.frame, SELECTION, &json!({ "ref": local }))
        .await
}

/// Width and height of a base64 PNG, from its IHDR chunk.
pub fn png_size(base64: &str) -> Option<Size> {
    let head = decode_base64(base64.get(..32)?)?;
    if head.len() < 24
        || head[..8] != [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a]
        || &head[12..16] != b"IHDR"
    {
        return None;
    }
    let be = |i: usize| u32::from_be_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
    Some(Size {
        width: f64::from(be(16)),
        height: f64::from(be(20)),
    })
}

/// Standard base64 (RFC 4648 §4), padding optional. `None` on any other character.
pub fn decode_base64(s: &str) -> Option<Vec<u8>> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD_PAD_INDIFFERENT
        .decode(s)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    #[test]
    fn base64_round_trips_known_vectors() {
        // https://www.rfc-editor.org/rfc/rfc4648#section-10
        for (enc, dec) in [
            ("", ""),
            ("Zg==", "f"),
            ("Zm8=", "fo"),
            ("Zm9v", "foo"),
            ("Zm9vYg==", "foob"),
            ("Zm9vYmE=", "fooba"),
            ("Zm9vYmFy", "foobar"),
        ] {
            assert_eq!(decode_base64(enc).as_deref(), Some(dec.as_bytes()), "{enc}");
        }
        assert_eq!(
            decode_base64("Zg").as_deref(),
            Some(&b"f"[..]),
            "padding is optional"
        );
        assert_eq!(decode_base64("Zm9v!"), None);
        assert_eq!(decode_base64("Z"), None);
    }

    #[test]
    fn png_size_reads_the_header() {
        // A 1×1 PNG header, then a 3×2 one built from the same bytes.
        let one = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
        assert_eq!(
            png_size(one),
            Some(Size {
                width: 1.0,
                height: 1.0
            })
        );
        let mut bytes = decode_base64(one).unwrap();
        bytes[19] = 3;
        bytes[23] = 2;
        let reencoded = base64::engine::general_purpose::STANDARD.encode(&bytes);
        assert_eq!(
            png_size(&reencoded),
            Some(Size {
                width: 3.0,
                height: 2.0
            })
        );
        assert_eq!(
            png_size("R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw=="),
            None,
            "a GIF is not a PNG"
        );
        assert_eq!(png_size("iVBO"), None);
    }
}
