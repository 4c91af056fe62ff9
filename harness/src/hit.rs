//! Hit testing at a viewport point, in the page.
//!
//! The question "what would a click at (x, y) land on?" is asked where the answer is made:
//! in the engine's isolated world, with `elementFromPoint` in viewport coordinates (the
//! coordinates `DOM.getContentQuads` gives and `Input.dispatchMouseEvent` takes), then into
//! an open shadow root's `elementFromPoint`, then into a same-origin frame's document with
//! the point moved to the frame's content box (border and padding off). A cross-origin frame
//! is another root (see `observe`): the parent's hit must land on its `<iframe>`, and the
//! frame's own world is asked with the point offset by the `<iframe>`'s content box as
//! DevTools reports it.
//!
//! Chromium 156: `DOM.getNodeForLocation` reads its point in document coordinates, so on a
//! scrolled page it tested another place than the one clicked (every target below the fold
//! read as covered). Asking the page keeps one coordinate space from the box to the input.

use crate::error::{Error, Result};
use crate::inject::{owner_box_in_top, Engine};
use crate::observe::Root;
use prufe::core::error::ErrorCode;
use serde_json::json;

/// Called on an element node: does the deepest hit at a viewport point of its document land
/// on it, inside it, or on a `<label>` forwarding to it? (`prufe.hitTest`)
const HIT: &str = "function (x, y) { return globalThis.prufe.hitTest(this, x, y); }";

/// What covers `handle` (an element of `root`, in `root`'s world) at the top-viewport point
/// (`x`, `y`); `None` when a click there lands on it.
pub async fn covered_by(
    engine: &Engine,
    roots: &[Root],
    root: &Root,
    handle: &str,
    x: f64,
    y: f64,
) -> Result<Option<String>> {
    // The chain of roots from the top document down to the element's root.
    let mut chain = vec![root.clone()];
    while let Some(parent) = parent_root(roots, &chain[chain.len() - 1]) {
        chain.push(parent.clone());
    }
    chain.reverse();
    if !chain[0].path.is_empty() {
        return Err(Error::core(
            ErrorCode::BrowserError,
            "the element's frame is not inside the observed page",
        ));
    }
    // The point in each root's own viewport: the top one's, less the root's <iframe>
    // content box.
    let mut at = (x, y);
    for pair in chain.windows(2) {
        let (outer, inner) = (&pair[0], &pair[1]);
        let owner = frame_owner(engine, inner).await?;
        let owner_handle = engine.resolve_node(&outer.frame, owner.backend).await?;
        if let Some(by) = ask(engine, &owner_handle, at.0, at.1).await? {
            return Ok(Some(by));
        }
        at = (x - owner.x, y - owner.y);
    }
    ask(engine, handle, at.0, at.1).await
}

async fn ask(engine: &Engine, handle: &str, x: f64, y: f64) -> Result<Option<String>> {
    let r = engine.call_on(handle, HIT, &[json!(x), json!(y)]).await?;
    Ok(r.as_str().map(str::to_owned))
}

/// The root whose document holds `root`'s frame: the longest other root path that `root`'s
/// path continues (`0.1` is inside `0`, and everything is inside the top document `""`).
fn parent_root<'r>(roots: &'r [Root], root: &Root) -> Option<&'r Root> {
    let paths: Vec<&str> = roots.iter().map(|r| r.path.as_str()).collect();
    let parent = prufe::core::frames::parent(&paths, &root.path)?;
    roots.iter().find(|r| r.path == parent)
}

/// A frame's `<iframe>`: its node, and its content box's top-left in top-viewport pixels.
struct Owner {
    backend: i64,
    x: f64,
    y: f64,
}

async fn frame_owner(engine: &Engine, root: &Root) -> Result<Owner> {
    let (backend, [x, y, ..]) = owner_box_in_top(engine, &root.frame).await?;
    Ok(Owner { backend, x, y })
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
