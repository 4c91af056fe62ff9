//! The box an observable element covers (`prufe.hitBoxes`): what a screenshot's points are
//! checked against, and what the machine reads again under a point (`super::locate`). A
//! module of its own, so that the needs and the screen both name it.

use serde::{Deserialize, Serialize};

use super::point::Point;
use crate::core::model::Element;

/// The box of an observable element (`prufe.hitBoxes`), in CSS pixels of a viewport: the top
/// one in a screenshot's boxes, a root's own in what that root answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HitBox {
    pub element: Element,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    /// The element was the topmost at the centre of its visible part (not covered).
    pub topmost: bool,
}

impl HitBox {
    /// Is `p` inside the box ([`Point::within`])?
    pub fn contains(&self, p: Point) -> bool {
        p.within(self.x, self.y, self.width, self.height)
    }
}
