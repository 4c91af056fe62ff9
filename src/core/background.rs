//! Background: what a page changes by itself (a clock, a ticker, a carousel), seen while
//! settling before an action, and kept apart from the action's effect.
//!
//! The stabiliser feeds [`Background::observe`] every pair of observations it takes before
//! acting; the judge is handed the result (`JudgeOptions::background`) and does not count a
//! change in a slot that was already changing as evidence for or against the action.
//!
//! A slot is where a change was seen, not what it showed: a text's `(frame, region, kind)`
//! and an element's `(frame, region, role)`, since a clock's text and a carousel's slide name
//! change every time. Trade-off: an action whose only effect lands in a slot that was
//! already changing cannot be told from the background, so it is judged on its other
//! effects (and, with none, as no effect yet: AMBIGUOUS, settled or not, since the diff
//! cannot prove the action did nothing).

use super::diff::{diff, DiffOptions};
use super::model::{Role, Snapshot, TextKind};
use serde::{Deserialize, Serialize};

/// At most this many slots are kept; a page that changes more than that everywhere is not
/// settled anyway.
pub const MAX_SLOTS: usize = 256;

/// Where a text changed by itself.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TextSlot {
    pub frame: String,
    pub region: String,
    pub kind: TextKind,
}

/// Where an element appeared, disappeared or changed by itself.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ElementSlot {
    pub frame: String,
    pub region: String,
    pub role: Role,
}

/// The slots a page was changing by itself before the action.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Background {
    pub texts: Vec<TextSlot>,
    pub elements: Vec<ElementSlot>,
}

impl Background {
    /// Nothing was seen changing.
    pub fn is_empty(&self) -> bool {
        self.texts.is_empty() && self.elements.is_empty()
    }

    /// Records the slots that differ between two observations taken before the action.
    pub fn observe(&mut self, earlier: &Snapshot, later: &Snapshot) {
        let d = diff(earlier, later, &DiffOptions::default());
        for t in d.texts_appeared.iter().chain(&d.texts_disappeared) {
            self.add_text(TextSlot {
                frame: t.frame.clone(),
                region: t.region.clone(),
                kind: t.kind,
            });
        }
        let changed = d.changed.iter().map(|c| &c.after);
        for e in d.appeared.iter().chain(&d.disappeared).chain(changed) {
            self.add_element(ElementSlot {
                frame: e.frame.clone(),
                region: e.region.clone(),
                role: e.role,
            });
        }
    }

    fn add_text(&mut self, slot: TextSlot) {
        if self.texts.len() + self.elements.len() < MAX_SLOTS && !self.texts.contains(&slot) {
            self.texts.push(slot);
        }
    }

    fn add_element(&mut self, slot: ElementSlot) {
        if self.texts.len() + self.elements.len() < MAX_SLOTS && !self.elements.contains(&slot) {
            self.elements.push(slot);
        }
    }

    /// Was a text in this slot already changing?
    pub fn has_text(&self, frame: &str, region: &str, kind: TextKind) -> bool {
        self.texts
            .iter()
            .any(|s| s.frame == frame && s.region == region && s.kind == kind)
    }

    /// Was an element in this slot already changing?
    pub fn has_element(&self, frame: &str, region: &str, role: Role) -> bool {
        self.elements
            .iter()
            .any(|s| s.frame == frame && s.region == region && s.role == role)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::Text;

    fn clock(time: &str) -> Snapshot {
        Snapshot {
            texts: vec![Text {
                kind: TextKind::Plain,
                text: time.into(),
                region: "banner".into(),
                frame: String::new(),
            }],
            ..Default::default()
        }
    }

    #[test]
    fn a_ticking_clock_is_background() {
        let mut b = Background::default();
        b.observe(&clock("10:00"), &clock("10:00"));
        assert!(b.is_empty());
        b.observe(&clock("10:00"), &clock("10:01"));
        b.observe(&clock("10:01"), &clock("10:02"));
        assert_eq!(b.texts.len(), 1);
        assert!(b.has_text("", "banner", TextKind::Plain));
        assert!(!b.has_text("", "main", TextKind::Plain));
        assert!(!b.has_text("", "banner", TextKind::Status));
    }
}
