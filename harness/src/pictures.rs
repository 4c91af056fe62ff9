//! Pictures in traces: a small JPEG of the viewport before a step's input and after its
//! effect, with every secret covered before the capture.
//!
//! ```text
//! traces/0003-click-mismatch.json          the record, with "pictures": {before, after}
//! traces/0003-click-mismatch.before.jpg    right before the step's own input
//! traces/0003-click-mismatch.after.jpg     the judged effect, before any undo
//! ```
//!
//! **When.** The machine asks for each picture (`Need::Picture`, core `run::camera`): the
//! *before* picture when the step's own input is asked for, once per attempt, the *after*
//! picture right after each observation of the effect, so the last one is the page the
//! verdict was judged on, wrong effect included, before it is undone. Each names the
//! target's ref, the effect's refs (what the core diff of the two observations says
//! appeared, changed or moved) and the point input went to; this module outlines their
//! boxes, in image pixels, and the boxes that were covered.
//!
//! **Secrets.** Before the capture, every root's engine covers its sensitive elements
//! (`prufe.cover`, `src/dom/cover.rs`: the engine's rule, the refs declared sensitive, and any
//! element showing a secret the caller declared or a sensitive field holds); after it,
//! `prufe.uncover`. A root that cannot be covered means no picture: the capture is skipped,
//! never taken half covered. The cover is taken away whatever the capture did.
//!
//! **Size.** `Page.captureScreenshot` with the machine's parameters of a step's picture
//! (`core::run::screen::picture`, the same through every driver): JPEG, the viewport only,
//! at most 800 pixels wide: 11-14 kB a picture on `fixtures/trace-pictures.html`.

use crate::error::{Error, Result};
use crate::inject::Engine;
use crate::observe::{root_of, route, Root, Sensitive};
use prufe::core::error::ErrorCode;
use prufe::core::run::picture;
use prufe::core::run::screen::Viewport;
use prufe::core::run::Point;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Which traced steps keep their pictures (`--screenshots`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Screenshots {
    /// None.
    Off,
    /// The steps that did not pass.
    #[default]
    Failures,
    /// Every step.
    All,
}

impl Screenshots {
    /// Are pictures taken at all (a failure is only known at the end of the step)?
    pub fn captures(self) -> bool {
        self != Screenshots::Off
    }

    /// Does a step that passed (`ok`) or not keep them?
    pub fn keeps(self, ok: bool) -> bool {
        match self {
            Screenshots::Off => false,
            Screenshots::Failures => !ok,
            Screenshots::All => true,
        }
    }
}

impl std::str::FromStr for Screenshots {
    type Err = prufe::core::Error;

    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        match s {
            "off" => Ok(Screenshots::Off),
            "failures" => Ok(Screenshots::Failures),
            "all" => Ok(Screenshots::All),
            other => Err(prufe::core::Error::new(
                ErrorCode::InvalidOptions,
                format!("screenshots must be off, failures or all, not {other:?}"),
            )),
        }
    }
}

/// `--screenshots` as clap reads it: a refused value is a usage error that names its code.
pub fn parse_option(s: &str) -> std::result::Result<Screenshots, String> {
    s.parse::<Screenshots>()
        .map_err(|e| format!("{}: {}", e.code.as_str(), e.message))
}

impl std::fmt::Display for Screenshots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Screenshots::Off => "off",
            Screenshots::Failures => "failures",
            Screenshots::All => "all",
        })
    }
}

/// A box, in CSS pixels of the top viewport (from the engine) or in image pixels.
pub use prufe::core::run::picture::Rect;

/// `r` moved by (`dx`, `dy`): a frame root's box in the top viewport.
fn moved(r: Rect, dx: f64, dy: f64) -> Rect {
    Rect {
        x: r.x + dx,
        y: r.y + dy,
        ..r
    }
}

/// One picture and what it shows, in image pixels (`core::run::picture::marks`).
#[derive(Debug, Clone)]
pub struct Shot {
    pub jpeg: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// Image pixels per CSS pixel, to four decimals.
    pub scale: f64,
    pub target: Option<Rect>,
    pub effect: Vec<Rect>,
    pub point: Option<Point>,
    /// The covered boxes.
    pub masked: Vec<Rect>,
}

/// The pictures of one step.
#[derive(Debug, Clone, Default)]
pub struct Pictures {
    pub before: Option<Shot>,
    pub after: Option<Shot>,
}

impl Pictures {
    pub fn is_empty(&self) -> bool {
        self.before.is_none() && self.after.is_none()
    }

    /// Writes `STEM.before.jpg` and `STEM.after.jpg` into `dir` and returns the record's
    /// `pictures` value naming them.
    pub fn write(&self, dir: &std::path::Path, stem: &str) -> std::io::Result<Value> {
        let mut out = serde_json::Map::new();
        for (name, shot) in [("before", &self.before), ("after", &self.after)] {
            let Some(s) = shot else { continue };
            let file = format!("{stem}.{name}.jpg");
            std::fs::write(dir.join(&file), &s.jpeg)?;
            out.insert(
                name.to_owned(),
                json!({
                    "file": file,
                    "width": s.width,
                    "height": s.height,
                    "scale": s.scale,
                    "target": s.target,
                    "effect": s.effect,
                    "point": s.point,
                    "masked": s.masked,
                }),
            );
        }
        Ok(Value::Object(out))
    }
}

/// What the drive of one step keeps for its pictures, as the machine asks for them
/// (`Need::Picture`, core `run::camera`).
#[derive(Debug, Default)]
pub(crate) struct Camera {
    pub(crate) pictures: Pictures,
}

/// What is marked on a picture: refs to outline, and the point input goes to.
pub struct Marks<'a> {
    pub target: Option<&'a str>,
    pub effect: &'a [String],
    pub point: Option<Point>,
}

#[derive(Deserialize)]
struct CoverAnswer {
    boxes: Vec<Rect>,
}

/// Covers the secrets of every root, captures the viewport, uncovers.
pub async fn capture(
    engine: &Engine,
    roots: &[Root],
    sensitive: &Sensitive,
    secrets: &[String],
    marks: &Marks<'_>,
) -> Result<Shot> {
    let frames = if roots.len() > 1 {
        crate::coords::page::root_boxes(engine, roots).await
    } else {
        Vec::new()
    };
    let offset = |path: &str| -> Option<(f64, f64)> {
        if path.is_empty() {
            return Some((0.0, 0.0));
        }
        frames
            .iter()
            .find(|b| b.root.path == path)
            .map(|b| (b.x, b.y))
    };
    // The marked boxes, read before the cover goes on (the cover changes no box).
    let mut wanted: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for r in marks
        .target
        .into_iter()
        .chain(marks.effect.iter().map(String::as_str))
    {
        let (path, local) = route(r);
        wanted.entry(path).or_default().push(local);
    }
    let mut found: BTreeMap<String, Rect> = BTreeMap::new();
    for (path, locals) in &wanted {
        let (Ok(root), Some((dx, dy))) = (root_of(roots, path), offset(path)) else {
            continue;
        };
        let boxes: Vec<Option<Rect>> = engine
            .call(
                &root.frame,
                "(P, a) => P.boxes(a.refs)",
                &json!({ "refs": locals }),
            )
            .await
            .unwrap_or_default();
        for (local, b) in locals.iter().zip(boxes) {
            if let Some(b) = b.filter(|b| b.width > 0.0 && b.height > 0.0) {
                found.insert(crate::observe::merged_ref(path, local), moved(b, dx, dy));
            }
        }
    }

    let mut covered: Vec<&Root> = Vec::new();
    let mut masked = Vec::new();
    let mut failure = None;
    for root in roots {
        let args = json!({ "sensitive": sensitive.for_root(&root.path), "secrets": secrets });
        match engine
            .call::<CoverAnswer>(&root.frame, "(P, a) => P.cover(a)", &args)
            .await
        {
            Ok(c) => {
                covered.push(root);
                let (dx, dy) = offset(&root.path).unwrap_or((0.0, 0.0));
                masked.extend(c.boxes.into_iter().map(|b| moved(b, dx, dy)));
            }
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    let shot = match failure {
        None => screenshot(engine).await,
        Some(e) => Err(e),
    };
    for root in covered {
        let _ = engine
            .call_value(&root.frame, "(P) => P.uncover()", &Value::Null)
            .await;
    }
    let (jpeg, width, height, css_width) = shot?;
    let m = picture::marks(&picture::Measured {
        image_width: f64::from(width),
        css_width,
        target: marks.target.and_then(|t| found.get(t)).copied(),
        effect: marks.effect.iter().map(|r| found.get(r).copied()).collect(),
        point: marks.point,
        masked,
    });
    Ok(Shot {
        jpeg,
        width,
        height,
        scale: m.scale,
        target: m.target,
        effect: m.effect,
        point: m.point,
        masked: m.masked,
    })
}

/// The viewport as a JPEG at most 800 pixels wide: (bytes, width, height, viewport
/// width in CSS pixels).
async fn screenshot(engine: &Engine) -> Result<(Vec<u8>, u32, u32, f64)> {
    // Through the watchdog: a crashed or hung tab ends the capture at once.
    let m = engine.cmd("Page.getLayoutMetrics", json!({})).await?;
    let css = &m["cssVisualViewport"];
    let n = |k: &str| css[k].as_f64().unwrap_or(0.0);
    let view = Viewport {
        page_x: n("pageX"),
        page_y: n("pageY"),
        client_width: n("clientWidth"),
        client_height: n("clientHeight"),
        dpr: 1.0,
    };
    let width = view.client_width;
    let picture = picture::picture(&view, m["visualViewport"]["clientWidth"].as_f64());
    let params = serde_json::to_value(picture).map_err(|e| {
        Error::core(
            ErrorCode::Internal,
            format!("the picture's parameters: {e}"),
        )
    })?;
    let r = engine.cmd("Page.captureScreenshot", params).await?;
    let jpeg = crate::coords::page::decode_base64(r["data"].as_str().unwrap_or_default())
        .ok_or_else(|| Error::core(ErrorCode::BrowserError, "the screenshot is not base64"))?;
    let (w, h) = jpeg_size(&jpeg).ok_or_else(|| {
        Error::core(
            ErrorCode::BrowserError,
            "the browser returned no JPEG screenshot",
        )
    })?;
    Ok((jpeg, w, h, width))
}

/// Width and height of a JPEG, from its start-of-frame segment.
pub fn jpeg_size(jpeg: &[u8]) -> Option<(u32, u32)> {
    if jpeg.get(..2)? != [0xff, 0xd8] {
        return None;
    }
    let mut i = 2;
    while i + 9 < jpeg.len() {
        if jpeg[i] != 0xff {
            return None;
        }
        let marker = jpeg[i + 1];
        let len = usize::from(u16::from_be_bytes([jpeg[i + 2], jpeg[i + 3]]));
        // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
        if (0xc0..=0xcf).contains(&marker) && !matches!(marker, 0xc4 | 0xc8 | 0xcc) {
            let h = u16::from_be_bytes([jpeg[i + 5], jpeg[i + 6]]);
            let w = u16::from_be_bytes([jpeg[i + 7], jpeg[i + 8]]);
            return Some((u32::from(w), u32::from(h)));
        }
        i += 2 + len;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_reads_three_words_and_refuses_others() {
        assert_eq!("off".parse::<Screenshots>().unwrap(), Screenshots::Off);
        assert_eq!(
            "failures".parse::<Screenshots>().unwrap(),
            Screenshots::Failures
        );
        assert_eq!("all".parse::<Screenshots>().unwrap(), Screenshots::All);
        let e = "sometimes".parse::<Screenshots>().unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidOptions);
        assert!(e.message.contains("off, failures or all"), "{}", e.message);
        assert_eq!(Screenshots::default(), Screenshots::Failures);
        assert!(!Screenshots::Failures.keeps(true));
        assert!(Screenshots::Failures.keeps(false));
        assert!(Screenshots::All.keeps(true));
        assert!(!Screenshots::Off.keeps(false));
        assert!(!Screenshots::Off.captures());
    }

    #[test]
    fn jpeg_sizes_come_from_the_frame_header() {
        // SOI, an APP0 segment of 16 bytes, SOF0 for 640 × 360.
        let mut j = vec![0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10];
        j.extend_from_slice(&[0; 14]);
        j.extend_from_slice(&[0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x68, 0x02, 0x80, 0x03]);
        j.extend_from_slice(&[0; 8]);
        assert_eq!(jpeg_size(&j), Some((640, 360)));
        assert_eq!(jpeg_size(b"\x89PNG\r\n"), None);
        assert_eq!(jpeg_size(&j[..12]), None);
    }
}
