//! A target whose name grew when the pointer arrived on it.
//!
//! A name read from an element's content takes in the names of the controls inside it, and
//! many widgets show those controls only while the pointer is over their element: a data
//! grid's column header shows its sort and menu buttons (MUI X: "Orders" reads "Orders Sort
//! Orders column menu" once hovered, in Chromium's tree as in the engine's), a list row its
//! Delete button. Described again after the pointer's arrival, such a target has another
//! identity; it is still the element the step was resolved to when:
//! - it is the same node (the description is of the ref the step resolved), in the same
//!   frame and region, with the same role;
//! - its name is its old name with words after it (a recycled node shows other words, not
//!   the same ones with more);
//! - every added word is a word of an element of the same frame and region that was hidden
//!   in the observation the step was resolved on: what the pointer revealed.
//!
//! Anything else (other words, words nobody hid, another role or place) is a target that
//! changed under the pointer, observed again as before.

use crate::core::model::{Element, Snapshot};

/// Is `live`, described again after the pointer's arrival, the target `was` with the names
/// of controls revealed inside it added to its name? `before` is the observation `was` was
/// resolved on.
pub(super) fn on_arrival(was: &Element, live: &Element, before: &Snapshot) -> bool {
    if live.role != was.role || live.region != was.region || live.frame != was.frame {
        return false;
    }
    let old = was.label();
    let Some(added) = live
        .label()
        .strip_prefix(old)
        .and_then(|rest| rest.strip_prefix(' '))
    else {
        return false;
    };
    if old.trim().is_empty() || added.trim().is_empty() {
        return false;
    }
    let hidden: Vec<String> = before
        .elements
        .iter()
        .filter(|e| !e.visible && e.frame == was.frame && e.region == was.region)
        .flat_map(|e| words(e.label()))
        .collect();
    words(added).all(|w| hidden.contains(&w))
}

fn words(s: &str) -> impl Iterator<Item = String> + '_ {
    s.split_whitespace().map(str::to_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::Role;

    fn el(reference: &str, role: Role, name: &str, visible: bool) -> Element {
        Element {
            reference: reference.into(),
            role,
            name: name.into(),
            region: "main/list:Customers".into(),
            visible,
            ..Element::default()
        }
    }

    fn grid() -> Snapshot {
        Snapshot {
            elements: vec![
                el("h", Role::Columnheader, "Orders", true),
                el("s", Role::Button, "Sort Orders in ascending order", false),
                el("m", Role::Button, "Orders column menu", false),
            ],
            ..Snapshot::default()
        }
    }

    #[test]
    fn a_header_that_shows_its_buttons_is_the_same_header() {
        let before = grid();
        let was = &before.elements[0];
        let hovered = el(
            "h2",
            Role::Columnheader,
            "Orders Sort Orders column menu",
            true,
        );
        assert!(on_arrival(was, &hovered, &before));
    }

    #[test]
    fn other_words_another_role_or_words_nobody_hid_are_a_changed_target() {
        let before = grid();
        let was = &before.elements[0];
        let cases = [
            // A recycled node: other words.
            el("h2", Role::Columnheader, "Total Sort", true),
            // The old name inside another word ("Orders" → "Orders2 …").
            el("h2", Role::Columnheader, "Orders2 Sort", true),
            // A word no hidden element carries.
            el("h2", Role::Columnheader, "Orders Sort Refunds", true),
            // Another role.
            el("h2", Role::Button, "Orders Sort Orders column menu", true),
            // The same name: not this rule's case.
            el("h2", Role::Columnheader, "Orders", true),
        ];
        for live in cases {
            assert!(!on_arrival(was, &live, &before), "{}", live.name);
        }
        // The words must come from hidden elements: shown ones were there all along.
        let mut shown = grid();
        for e in &mut shown.elements {
            e.visible = true;
        }
        let hovered = el(
            "h2",
            Role::Columnheader,
            "Orders Sort Orders column menu",
            true,
        );
        assert!(!on_arrival(&shown.elements[0], &hovered, &shown));
        // And from the target's own region.
        let mut elsewhere = grid();
        for e in elsewhere.elements.iter_mut().skip(1) {
            e.region = "main/list:Orders".into();
        }
        assert!(!on_arrival(&elsewhere.elements[0], &hovered, &elsewhere));
    }
}
