//! When a target is ready for input, and the words of each refusal: once for every driver
//! that answers a [`super::Need::Prepare`], each with the page's own `prufe.prepare`
//! (`src/dom/prepare.rs`) in the target's root.
//!
//! A box holds still when it is read twice [`TWO_FRAMES_MS`] apart and moved by less than
//! half a pixel on every side, or once on a page that `quietFor` says showed no mutation,
//! layout event or animation for that long. A box with no area cannot be clicked; one that
//! keeps moving until the deadline is `TARGET_NOT_STABLE`; a hit test that lands elsewhere
//! is `TARGET_OBSCURED`. Nothing is dispatched after any refusal.
//!
//! A driver that answers in the page reports a refusal as data ([`Refusal`], answer
//! `refused`); the machine words it with its own name for the target, the one of the merged
//! page, so a step in a frame reads the same whichever driver ran it.
//!
//! A target in a frame root is prepared in that root, its point in the frame's own viewport;
//! the machine then moves it to the top viewport and asks each document above whether input
//! there reaches the frame (`super::lift`).

use serde::{Deserialize, Serialize};

use super::point::Point;
use crate::core::error::{Error, ErrorCode};

/// Why an element is not ready for input, without words: see [`Refusal::error`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Refusal {
    /// The box has no area.
    EmptyBox,
    /// No part of the box is visible.
    NoVisibleArea,
    /// The box kept moving for the whole timeout.
    KeptMoving { timeout_ms: u64 },
    /// Input at `point` lands on `by` (`tag#id.class "text"`).
    Covered { by: String, point: Point },
}

impl Refusal {
    /// The typed error, `what` naming the element.
    pub fn error(&self, what: &str) -> Error {
        match self {
            Refusal::EmptyBox => empty_box(what),
            Refusal::NoVisibleArea => no_visible_area(what),
            Refusal::KeptMoving { timeout_ms } => kept_moving(what, *timeout_ms),
            Refusal::Covered { by, point } => covered(what, by, point.x, point.y),
        }
    }
}

/// Two animation frames at 60 Hz: how long a box must hold still.
pub const TWO_FRAMES_MS: f64 = 34.0;

/// An element's border box: x, y, width, height in CSS pixels.
pub type Extent = [f64; 4];

/// A frame root's `<iframe>`: its content box in the top document's viewport (what a point
/// of the frame's own viewport is moved by, and where the frame shows).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FrameBox {
    /// The root's path (`0`, `0.1`).
    pub path: String,
    /// The content box, in top-viewport CSS pixels.
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl FrameBox {
    /// Is `p`, a point of the top viewport, inside the content box ([`Point::within`])?
    pub fn contains(&self, p: Point) -> bool {
        p.within(self.x, self.y, self.width, self.height)
    }
}

/// A viewport's size in CSS pixels, scroll bars left out.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Size {
    pub width: f64,
    pub height: f64,
}

/// Did the box hold still between two reads?
pub fn holds_still(before: Extent, now: Extent) -> bool {
    before.iter().zip(now).all(|(a, b)| (a - b).abs() < 0.5)
}

/// A box with no area.
pub fn is_empty(b: Extent) -> bool {
    !(b[2] > 0.0 && b[3] > 0.0)
}

pub fn empty_box(what: &str) -> Error {
    Error::new(
        ErrorCode::TargetNotVisible,
        format!("{what} has an empty box; it cannot be clicked"),
    )
}

pub fn no_visible_area(what: &str) -> Error {
    Error::new(
        ErrorCode::TargetNotVisible,
        format!("{what} has no visible area"),
    )
}

pub fn kept_moving(what: &str, timeout_ms: u64) -> Error {
    Error::new(
        ErrorCode::TargetNotStable,
        format!("{what} kept moving for {timeout_ms} ms; nothing was dispatched"),
    )
}

pub fn covered(what: &str, by: &str, x: f64, y: f64) -> Error {
    Error::new(
        ErrorCode::TargetObscured,
        format!(
            "{what} is covered by {by} at ({}, {}); nothing was clicked",
            x.round(),
            y.round()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_holds_still_within_half_a_pixel() {
        let b = [10.0, 20.0, 100.0, 30.0];
        assert!(holds_still(b, [10.4, 19.6, 100.2, 30.0]));
        assert!(!holds_still(b, [10.0, 20.5, 100.0, 30.0]));
        assert!(!holds_still(b, [10.0, 20.0, 99.0, 30.0]));
    }

    #[test]
    fn empty_boxes_and_refusals() {
        assert!(is_empty([0.0, 0.0, 0.0, 10.0]));
        assert!(is_empty([0.0, 0.0, 10.0, f64::NAN]));
        assert!(!is_empty([0.0, 0.0, 1.0, 1.0]));
        let e = covered("button \"Buy\"", "div.veil", 10.4, 20.6);
        assert_eq!(e.code, ErrorCode::TargetObscured);
        assert_eq!(
            e.message,
            "button \"Buy\" is covered by div.veil at (10, 21); nothing was clicked"
        );
        assert_eq!(kept_moving("x", 5000).code, ErrorCode::TargetNotStable);
        assert_eq!(empty_box("x").code, ErrorCode::TargetNotVisible);
        assert_eq!(no_visible_area("x").code, ErrorCode::TargetNotVisible);
    }

    #[test]
    fn a_refusal_is_worded_by_the_machine_and_reads_back_from_json() {
        let covered = Refusal::Covered {
            by: "div.veil".into(),
            point: Point { x: 10.4, y: 20.6 },
        };
        let wire = serde_json::to_value(&covered).unwrap();
        assert_eq!(
            wire,
            serde_json::json!({ "kind": "covered", "by": "div.veil", "point": { "x": 10.4, "y": 20.6 } })
        );
        assert_eq!(serde_json::from_value::<Refusal>(wire).unwrap(), covered);
        assert_eq!(
            covered.error("button[Buy] in frame[0]/main").message,
            "button[Buy] in frame[0]/main is covered by div.veil at (10, 21); nothing was clicked"
        );
        let moving: Refusal =
            serde_json::from_value(serde_json::json!({ "kind": "keptMoving", "timeoutMs": 400 }))
                .unwrap();
        assert_eq!(moving.error("x"), kept_moving("x", 400));
        assert_eq!(Refusal::EmptyBox.error("x"), empty_box("x"));
        assert_eq!(Refusal::NoVisibleArea.error("x"), no_visible_area("x"));
        assert!(serde_json::from_value::<Refusal>(
            serde_json::json!({ "kind": "covered", "by": "x", "point": { "x": 1, "y": 2 }, "extra": 1 })
        )
        .is_err());
    }
}
