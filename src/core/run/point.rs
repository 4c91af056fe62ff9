//! A point in the top document's viewport. Input goes to one ([`super::need::Gesture`]) and
//! a refusal names the one where the target was found covered ([`super::ready::Refusal`]),
//! so it is a module of its own: both name it and neither depends on the other.

use serde::{Deserialize, Serialize};

/// A point in the top document's viewport, in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    /// Is the point inside the box at `x`, `y` of `width` by `height`? Its right and bottom
    /// edges are outside, so boxes side by side never share a point.
    pub fn within(self, x: f64, y: f64, width: f64, height: f64) -> bool {
        self.x >= x && self.y >= y && self.x < x + width && self.y < y + height
    }
}
