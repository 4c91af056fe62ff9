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
use super::frames;
use super::model::{Element, Role, Snapshot, Text, TextKind};
use serde::{Deserialize, Serialize};

/// At most this many slots are kept; a page that changes more than that everywhere is not
/// settled anyway.
pub const MAX_SLOTS: usize = 256;

/// A shape is kept up to this many characters.
pub const MAX_SHAPE_CHARS: usize = 80;

/// The shape of a text: whitespace-normalised, every run of digits replaced by `#`, capped.
pub fn shape(text: &str) -> String {
    let mut out = String::new();
    let mut in_digits = false;
    for c in text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
    {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('#');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
        if out.chars().count() >= MAX_SHAPE_CHARS {
            break;
        }
    }
    out
}

/// Where a text changed by itself.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TextSlot {
    pub frame: String,
    pub region: String,
    pub kind: TextKind,
    /// [`shape`] of a text seen changing there; empty (or absent) for any shape.
    #[serde(default)]
    pub shape: String,
}

/// Where an element appeared, disappeared or changed by itself.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ElementSlot {
    pub frame: String,
    pub region: String,
    pub role: Role,
    /// [`shape`] of the label of an element seen changing there; empty (or absent) for any.
    #[serde(default)]
    pub shape: String,
}

/// The slots a page was changing by itself before the action.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Background {
    pub texts: Vec<TextSlot>,
    pub elements: Vec<ElementSlot>,
    /// The page moved its focus, the order of its records or its selection by itself (a
    /// carousel that rotates by moving nodes, a ticker that reorders rows): the fingerprint
    /// then leaves its claims out (`core::fingerprint::with_claims`), so a settle waits on
    /// the diffed part alone, as before claims were seen.
    #[serde(skip_serializing_if = "is_false")]
    pub claims: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Background {
    /// Nothing was seen changing.
    pub fn is_empty(&self) -> bool {
        !self.has_slots() && !self.claims
    }

    /// Some text or element was seen changing (the fingerprint leaves records out).
    pub fn has_slots(&self) -> bool {
        !self.texts.is_empty() || !self.elements.is_empty()
    }

    /// The page moved its claims by itself, between two fingerprints whose diffed parts
    /// agree. With `once` (a look, where a page just opened may still be settling its
    /// focus: an autofocus), only the second time counts.
    pub fn observe_claims(&mut self, once: Option<&mut Background>) {
        match once {
            Some(once) if !once.claims => once.claims = true,
            _ => self.claims = true,
        }
    }

    /// Records the slots that differ between two observations taken before the action.
    pub fn observe(&mut self, earlier: &Snapshot, later: &Snapshot) {
        let d = diff(earlier, later, &DiffOptions::default());
        for t in d.texts_appeared.iter().chain(&d.texts_disappeared) {
            self.add_text_of(t);
        }
        let changed = d.changed.iter().flat_map(|c| [&c.before, &c.after]);
        for e in d.appeared.iter().chain(&d.disappeared).chain(changed) {
            self.add_element_of(e);
        }
    }

    /// Learns from a pair taken while a page is first looked at (`run::Run::look`), where
    /// what changes may be content still arriving: a slot counts only once it has been seen
    /// changing in two pairs, as a clock, a ticker or a carousel does and a list that loads
    /// once does not. `once` holds the slots seen in one pair so far.
    pub fn observe_repeated(
        &mut self,
        once: &mut Background,
        earlier: &Snapshot,
        later: &Snapshot,
    ) {
        let mut fresh = Background::default();
        fresh.observe(earlier, later);
        for slot in fresh.texts {
            if once.texts.contains(&slot) {
                self.add_text(slot);
            } else {
                once.add_text(slot);
            }
        }
        for slot in fresh.elements {
            if once.elements.contains(&slot) {
                self.add_element(slot);
            } else {
                once.add_element(slot);
            }
        }
    }

    /// Records the slot of a text seen changing by itself: its place and its shape.
    pub fn add_text_of(&mut self, t: &Text) {
        self.add_text(TextSlot {
            frame: t.frame.clone(),
            region: t.region.clone(),
            kind: t.kind,
            shape: shape(&t.text),
        });
    }

    /// Records the slot of an element seen changing by itself: its place, role and shape.
    pub fn add_element_of(&mut self, e: &Element) {
        self.add_element(ElementSlot {
            frame: e.frame.clone(),
            region: e.region.clone(),
            role: e.role,
            shape: shape(e.label()),
        });
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

    /// Was a text of this shape, in this place, already changing?
    ///
    /// Only the shapes seen count (a clock's one shape, a carousel's slides): a place that
    /// showed other texts by itself is no cover for a new one, so "Saved" beside a carousel,
    /// or a "Connection error" where headlines were turning, is judged as an effect. A text
    /// the page would have shown by itself but did not while settling is judged too, which
    /// errs towards AMBIGUOUS, never towards MATCH.
    pub fn has_text(&self, t: &Text) -> bool {
        let sh = shape(&t.text);
        self.texts.iter().any(|s| {
            s.frame == t.frame
                && s.region == t.region
                && s.kind == t.kind
                && (s.shape.is_empty() || s.shape == sh)
        })
    }

    /// Was an element of this role, with a label of this shape, in this place, already
    /// changing? Shapes count as for texts.
    pub fn has_element(&self, e: &Element) -> bool {
        let sh = shape(e.label());
        self.elements.iter().any(|s| {
            s.frame == e.frame
                && s.region == e.region
                && s.role == e.role
                && (s.shape.is_empty() || s.shape == sh)
        })
    }

    /// Did an element of this role in this place leave a slot that turns by itself (one
    /// seen showing two or more shapes: a carousel's slides)? What turns out of such a
    /// slot is background whatever it showed, since what the slot turns in next is judged
    /// by its shape ([`Background::has_element`]).
    pub fn has_left(&self, e: &Element) -> bool {
        let mut shapes = self
            .elements
            .iter()
            .filter(|s| s.frame == e.frame && s.region == e.region && s.role == e.role)
            .map(|s| s.shape.as_str());
        shapes
            .next()
            .is_some_and(|first| shapes.any(|other| other != first))
    }

    /// Is this element of the root at `path` (in that root's own terms) in a slot of the
    /// page's background, so that a settle leaves it out? Slots are in the merged page's
    /// terms (`core::frames`).
    pub fn hides_element(&self, path: &str, e: &Element) -> bool {
        if path.is_empty() {
            return self.has_element(e);
        }
        let sh = shape(e.label());
        let (frame, region) = (
            frames::merged_frame(path, &e.frame),
            frames::merged_region(path, &e.frame, &e.region),
        );
        self.elements.iter().any(|s| {
            s.frame == frame
                && s.region == region
                && s.role == e.role
                && (s.shape.is_empty() || s.shape == sh)
        })
    }

    /// [`Background::hides_element`], for a text.
    pub fn hides_text(&self, path: &str, t: &Text) -> bool {
        if path.is_empty() {
            return self.has_text(t);
        }
        let sh = shape(&t.text);
        let (frame, region) = (
            frames::merged_frame(path, &t.frame),
            frames::merged_region(path, &t.frame, &t.region),
        );
        self.texts.iter().any(|s| {
            s.frame == frame
                && s.region == region
                && s.kind == t.kind
                && (s.shape.is_empty() || s.shape == sh)
        })
    }

    /// Does `content` (what an element of the page holds now: its text, or its label) have
    /// the shape of a text or a label seen changing by itself? The page's own measure of
    /// quiet (`prufe.quietFor`, after a fingerprint that left the background out) uses it to
    /// leave out what changed inside the clock, the ticker or the slides, so that a settle
    /// over a page that keeps changing there is as quick as over a still one; the settle's
    /// fingerprint, which places each record, still decides what changed.
    ///
    /// Whitespace does not count (a run joins its parts with spaces the element's own
    /// text does not have), shapes cut at [`MAX_SHAPE_CHARS`] compare on what both hold,
    /// and a slot that takes any shape covers nothing here (it says nothing of what to
    /// leave out).
    pub fn has_shape_of(&self, content: &str) -> bool {
        fn squash(s: &str) -> String {
            s.chars().filter(|c| !c.is_whitespace()).collect()
        }
        let cut = |s: &str| s.chars().count() >= MAX_SHAPE_CHARS;
        let own = shape(content);
        if own.is_empty() {
            return false;
        }
        let (own_cut, own) = (cut(&own), squash(&own));
        let shapes = self.texts.iter().map(|s| s.shape.as_str());
        let shapes = shapes.chain(self.elements.iter().map(|s| s.shape.as_str()));
        shapes.filter(|s| !s.is_empty()).any(|s| {
            let slot = squash(s);
            slot == own
                || ((own_cut || cut(s))
                    && slot.chars().zip(own.chars()).all(|(a, b)| a == b)
                    && slot.chars().count().min(own.chars().count()) >= MAX_SHAPE_CHARS / 2)
        })
    }

    /// Is anything in this place (any shape) already changing? For the busy check, which
    /// asks of a place, not of one text.
    pub fn has_place(&self, frame: &str, region: &str, role: Role) -> bool {
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
        assert_eq!(b.texts.len(), 1, "{:?}", b.texts);
        let at = |text: &str, region: &str, kind: TextKind| Text {
            kind,
            text: text.into(),
            region: region.into(),
            frame: String::new(),
        };
        assert!(b.has_text(&at("10:07", "banner", TextKind::Plain)));
        assert!(!b.has_text(&at("10:07", "main", TextKind::Plain)));
        assert!(!b.has_text(&at("10:07", "banner", TextKind::Status)));
        // An honest effect beside the clock, in the same place, is not background.
        assert!(!b.has_text(&at("Saved", "banner", TextKind::Plain)));
        // A ticker of headlines, a carousel: what it was seen showing is background, a new
        // text in the same place is not.
        let mut t = Background::default();
        t.observe(&clock("Rain in Oslo"), &clock("Markets up"));
        assert!(t.has_text(&at("Rain in Oslo", "banner", TextKind::Plain)));
        assert!(t.has_text(&at("Markets up", "banner", TextKind::Plain)));
        assert!(!t.has_text(&at("Connection error", "banner", TextKind::Plain)));
        assert!(!t.has_text(&at("Saved", "banner", TextKind::Plain)));
    }

    #[test]
    fn what_leaves_a_turning_slot_is_background() {
        let slide = |name: &str| Snapshot {
            elements: vec![crate::core::testing::el(
                "s",
                Role::Generic,
                name,
                "region[Carousel]",
            )],
            ..Default::default()
        };
        let mut b = Background::default();
        b.observe(&slide("Kitchen: 19 °C"), &slide("Bedroom: 18 °C"));
        let gone = crate::core::testing::el(
            "s0",
            Role::Generic,
            "Living room: 21 °C",
            "region[Carousel]",
        );
        assert!(b.has_left(&gone));
        assert!(
            !b.has_element(&gone),
            "a new slide is no cover by its shape"
        );
        let elsewhere =
            crate::core::testing::el("s0", Role::Generic, "Living room: 21 °C", "region[Lights]");
        assert!(!b.has_left(&elsewhere));
        // A slot seen with one shape only (a clock) does not turn.
        let mut clock = Background::default();
        clock.observe(&slide("10:00"), &slide("10:01"));
        assert!(!clock.has_left(&crate::core::testing::el(
            "s0",
            Role::Generic,
            "Alarm",
            "region[Carousel]"
        )));
    }

    #[test]
    fn content_of_a_changing_slot_has_its_shape() {
        let mut b = Background::default();
        b.observe(&clock("10:00:01.2"), &clock("10:00:02.3"));
        b.observe(
            &clock("ACME 104.1 GLOBEX 111.1"),
            &clock("ACME 109.7 GLOBEX 112.7"),
        );
        assert!(b.has_shape_of("10:59:00.1"));
        // The element's own text, without the spaces the run put between its parts.
        assert!(b.has_shape_of("ACME 101.0GLOBEX 99.9"));
        assert!(!b.has_shape_of("ACME 101.0"), "a part is not the slot");
        assert!(!b.has_shape_of("Saved"));
        assert!(!b.has_shape_of(""));
        // Long texts compare on what both shapes hold.
        let long = |n: u32| format!("Headline {n}: {}", "news ".repeat(40));
        let mut t = Background::default();
        t.observe(&clock(&long(1)), &clock(&long(2)));
        assert!(t.has_shape_of(&long(3)));
        assert!(!t.has_shape_of(&format!("Other {}", "news ".repeat(40))));
        // A slot of any shape covers nothing.
        let any = Background {
            texts: vec![TextSlot {
                frame: String::new(),
                region: "banner".into(),
                kind: TextKind::Plain,
                shape: String::new(),
            }],
            elements: Vec::new(),
            claims: false,
        };
        assert!(!any.has_shape_of("Saved"));
    }

    #[test]
    fn shapes_mask_digits() {
        #[rustfmt::skip]
        let cases = [
            ("10:01:59", "#:#:#"),
            ("AAPL 181.20", "AAPL #.#"),
            ("  Saved\n now ", "Saved now"),
            ("Slide 2 of 5", "Slide # of #"),
            ("", ""),
        ];
        for (text, want) in cases {
            assert_eq!(shape(text), want, "{text:?}");
        }
        assert_eq!(shape(&"x".repeat(500)).chars().count(), MAX_SHAPE_CHARS);
    }
}
