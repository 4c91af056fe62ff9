//! Hit testing at a viewport point, in the page.
//!
//! The question "what would a click at (x, y) land on?" is asked where the answer is made:
//! in the engine's isolated world, with `elementFromPoint` in viewport coordinates (the
//! coordinates `DOM.getContentQuads` gives and `Input.dispatchMouseEvent` takes), then into
//! an open shadow root's `elementFromPoint`, then into a same-origin frame's document with
//! the point moved to the frame's content box (border and padding off). A cross-origin frame
//! is another root (see `observe`): a target there is hit-tested in its own document, and the
//! machine asks each document above whether input reaches the frame's `<iframe>` (core
//! `run::lift`; the needs `frame`, `hitFrame` and `revealFrame` are answered here), the
//! `<iframe>`'s content box as DevTools reports it.
//!
//! Chromium 156: `DOM.getNodeForLocation` reads its point in document coordinates, so on a
//! scrolled page it tested another place than the one clicked (every target below the fold
//! read as covered). Asking the page keeps one coordinate space from the box to the input.

use crate::error::{Error, Result};
use crate::inject::{owner_box_in_top, Engine};
use crate::observe::{root_of, Root};
use prufe::core::error::ErrorCode;
use prufe::core::run::ready::FrameBox;
use prufe::core::run::Point;
use serde_json::json;

/// Called on an element node: does the deepest hit at a viewport point of its document land
/// on it, inside it, or on a `<label>` forwarding to it? (`prufe.hitTest`)
const HIT: &str = "function (x, y) { return globalThis.prufe.hitTest(this, x, y); }";

/// What covers `handle` (an element, in its root's world) at (`x`, `y`) of its document's
/// viewport; `None` when input there lands on it.
async fn covers(engine: &Engine, handle: &str, x: f64, y: f64) -> Result<Option<String>> {
    let r = engine.call_on(handle, HIT, &[json!(x), json!(y)]).await?;
    Ok(r.as_str().map(str::to_owned))
}

/// `Need::Frame`: the `<iframe>` content box, in the top viewport, of the root at each of
/// `paths` (one no longer on the page left out).
pub async fn frame_boxes(engine: &Engine, roots: &[Root], paths: &[String]) -> Vec<FrameBox> {
    let mut out = Vec::new();
    for path in paths {
        let Some(root) = roots.iter().find(|r| &r.path == path) else {
            continue;
        };
        if let Ok(owner) = frame_owner(engine, root).await {
            out.push(FrameBox {
                path: path.clone(),
                x: owner.x,
                y: owner.y,
                width: owner.width,
                height: owner.height,
            });
        }
    }
    out
}

/// `Need::HitFrame`: what input at `at` (a point of the viewport of the root above the root
/// at `path`) lands on there when not on that root's `<iframe>`.
pub async fn hit_frame(
    engine: &Engine,
    roots: &[Root],
    path: &str,
    at: Point,
) -> Result<Option<String>> {
    let inner = root_of(roots, path)?;
    let outer = above(roots, inner)?;
    let owner = frame_owner(engine, inner).await?;
    let handle = engine.resolve_node(&outer.frame, owner.backend).await?;
    covers(engine, &handle, at.x, at.y).await
}

/// `Need::RevealFrame`: the `<iframe>` of the root at `path` scrolled into view in every
/// document above it, the innermost first.
pub async fn reveal_frame(engine: &Engine, roots: &[Root], path: &str) -> Result<()> {
    let mut root = root_of(roots, path)?;
    while !root.path.is_empty() {
        let outer = above(roots, root)?;
        let owner = frame_owner(engine, root).await?;
        let handle = engine.resolve_node(&outer.frame, owner.backend).await?;
        engine
            .cmd_on(
                &handle,
                "DOM.scrollIntoViewIfNeeded",
                json!({ "objectId": handle }),
            )
            .await?;
        root = outer;
    }
    Ok(())
}

/// The root above `root`, which must be one of the page's.
fn above<'r>(roots: &'r [Root], root: &Root) -> Result<&'r Root> {
    parent_root(roots, root).ok_or_else(|| {
        Error::core(
            ErrorCode::BrowserError,
            "the element's frame is not inside the observed page",
        )
    })
}

/// The root whose document holds `root`'s frame: the longest other root path that `root`'s
/// path continues (`0.1` is inside `0`, and everything is inside the top document `""`).
fn parent_root<'r>(roots: &'r [Root], root: &Root) -> Option<&'r Root> {
    let paths: Vec<&str> = roots.iter().map(|r| r.path.as_str()).collect();
    let parent = prufe::core::frames::parent(&paths, &root.path)?;
    roots.iter().find(|r| r.path == parent)
}

/// A frame's `<iframe>`: its node, and its content box in top-viewport pixels.
struct Owner {
    backend: i64,
    x: f64,
    y: f64,
    width: f64,
    height: f64,
}

async fn frame_owner(engine: &Engine, root: &Root) -> Result<Owner> {
    let (backend, [x, y, width, height]) = owner_box_in_top(engine, &root.frame).await?;
    Ok(Owner {
        backend,
        x,
        y,
        width,
        height,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(path: &str) -> Root {
        Root {
            frame: format!("F{path}"),
            path: path.into(),
        }
    }

    #[test]
    fn parents_are_the_longest_enclosing_root() {
        let roots = vec![root(""), root("0"), root("0.1"), root("1")];
        let parent = |p: &str| parent_root(&roots, &root(p)).map(|r| r.path.clone());
        assert_eq!(parent(""), None);
        assert_eq!(parent("0").as_deref(), Some(""));
        assert_eq!(parent("0.1").as_deref(), Some("0"));
        assert_eq!(parent("0.1.2").as_deref(), Some("0.1"));
        assert_eq!(parent("1.0").as_deref(), Some("1"));
        assert_eq!(parent("10").as_deref(), Some(""), "10 is not inside 1");
    }
}
