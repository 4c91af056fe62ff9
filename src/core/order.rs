//! The order of a page's elements between two snapshots: what the multiset diff leaves out
//! (a reorder is no change to it, `diff`) and the page's fingerprint holds in its claims
//! (`fingerprint::Claims::order`).
//!
//! Only the elements both snapshots show are compared, each identity as many times as both
//! show it: an element that appeared, went or changed its identity (its label, its region)
//! is the diff's, and two elements of one identity are interchangeable, so their swapping
//! places is no reorder. The order is the document order of what is left.

use super::identity::{describe_parts, Identity};
use super::model::{Element, Snapshot};
use rustc_hash::FxHashMap;

/// One list whose elements changed places: the first element out of its old place, and
/// where it went (positions count from 1 among the compared elements of its role in
/// `region`, or in the whole document when no single region's order changed, as when two
/// parts of the page changed places).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reorder {
    /// The region whose order changed; empty for the document.
    pub region: String,
    /// `role[label]` of the element out of its old place.
    pub element: String,
    pub from: usize,
    pub to: usize,
}

impl Reorder {
    /// `listitem[Olwen] went from position 4 to 3 in main/list:speakers`.
    pub fn line(&self) -> String {
        let region = if self.region.is_empty() {
            "the document"
        } else {
            &self.region
        };
        format!(
            "{} went from position {} to {} in {region}",
            self.element, self.from, self.to
        )
    }
}

/// The elements of `of` that `keeps` keeps and `other` shows too, in document order.
fn shared<'a>(
    of: &'a [Element],
    other: &[Element],
    keeps: &impl Fn(&Element) -> bool,
) -> Vec<&'a Element> {
    let mut left: FxHashMap<Identity, usize> = FxHashMap::default();
    for e in other.iter().filter(|e| keeps(e)) {
        *left.entry(Identity::of(e)).or_default() += 1;
    }
    of.iter()
        .filter(|e| keeps(e))
        .filter(|e| match left.get_mut(&Identity::of(e)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        })
        .collect()
}

/// Did the elements `keeps` keeps change places between `before` and `after`?
pub fn changed(before: &Snapshot, after: &Snapshot, keeps: impl Fn(&Element) -> bool) -> bool {
    let b = shared(&before.elements, &after.elements, &keeps);
    let a = shared(&after.elements, &before.elements, &keeps);
    !same_order(&b, &a)
}

fn same_order(before: &[&Element], after: &[&Element]) -> bool {
    before
        .iter()
        .map(|e| Identity::of(e))
        .eq(after.iter().map(|e| Identity::of(e)))
}

fn in_region<'a>(v: &[&'a Element], region: &str) -> Vec<&'a Element> {
    v.iter().filter(|e| e.region == region).copied().collect()
}

/// The lists whose elements (those `keeps` keeps) changed places between `before` and
/// `after`, one [`Reorder`] for each, in the order their regions first show; none when the
/// order is the same.
pub fn reordered(
    before: &Snapshot,
    after: &Snapshot,
    keeps: impl Fn(&Element) -> bool,
) -> Vec<Reorder> {
    let b = shared(&before.elements, &after.elements, &keeps);
    let a = shared(&after.elements, &before.elements, &keeps);
    if same_order(&b, &a) {
        return Vec::new();
    }
    let mut regions: Vec<&str> = Vec::new();
    for e in &b {
        if !regions.contains(&e.region.as_str()) {
            regions.push(&e.region);
        }
    }
    let mut out: Vec<Reorder> = regions
        .into_iter()
        .filter_map(|region| first_moved(&in_region(&b, region), &in_region(&a, region), region))
        .collect();
    if out.is_empty() {
        out.extend(first_moved(&b, &a, ""));
    }
    out
}

/// The first element of `after` out of its place in `before` (the same elements, in
/// another order), and its positions among the elements of its role there.
fn first_moved(before: &[&Element], after: &[&Element], region: &str) -> Option<Reorder> {
    let at = before
        .iter()
        .zip(after)
        .position(|(b, a)| Identity::of(b) != Identity::of(a))?;
    let moved = Identity::of(after[at]);
    let (was, now) = (of_role(before, moved), of_role(&after[..at], moved));
    // The same occurrence of its identity in `before`.
    let nth = now.iter().filter(|i| **i == moved).count();
    let from = was
        .iter()
        .enumerate()
        .filter(|(_, i)| **i == moved)
        .nth(nth)
        .map_or(now.len(), |(i, _)| i);
    Some(Reorder {
        region: region.to_owned(),
        element: describe_parts(moved.role.as_str(), moved.label, ""),
        from: from + 1,
        to: now.len() + 1,
    })
}

/// The identities of `v` of `like`'s role, in order.
fn of_role<'a>(v: &[&'a Element], like: Identity) -> Vec<Identity<'a>> {
    v.iter()
        .filter(|e| e.role == like.role)
        .map(|e| Identity::of(e))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::Role;
    use crate::core::testing::{el, item};

    fn page(items: &[(&str, &str)]) -> Snapshot {
        Snapshot {
            elements: items
                .iter()
                .enumerate()
                .map(|(i, (text, region))| item(&format!("r{i}"), text, region))
                .collect(),
            ..Snapshot::default()
        }
    }

    const L: &str = "main/list:speakers";
    const M: &str = "main/list:other";

    #[test]
    fn only_the_places_of_what_both_show_count() {
        let before = page(&[("Aled", L), ("Bryn", L), ("Carys", L), ("Olwen", L)]);
        #[rustfmt::skip]
        let cases: Vec<(&str, Snapshot, Vec<&str>)> = vec![
            ("the same order", before.clone(), vec![]),
            ("one row up", page(&[("Aled", L), ("Bryn", L), ("Olwen", L), ("Carys", L)]), vec!["listitem[Olwen] went from position 4 to 3 in main/list:speakers"]),
            ("a row gone and one come: the diff's", page(&[("Aled", L), ("Carys", L), ("Olwen", L), ("Dai", L)]), vec![]),
            ("a row renamed in place: the diff's", page(&[("Aled", L), ("Bryn", L), ("Carys", L), ("Olwyn", L)]), vec![]),
            ("a row renamed and another moved", page(&[("Carys", L), ("Aled", L), ("Bryn", L), ("Olwyn", L)]), vec!["listitem[Carys] went from position 3 to 1 in main/list:speakers"]),
        ];
        for (name, after, want) in cases {
            let got: Vec<String> = reordered(&before, &after, |_| true)
                .iter()
                .map(Reorder::line)
                .collect();
            assert_eq!(got, want, "{name}");
            assert_eq!(
                changed(&before, &after, |_| true),
                !want.is_empty(),
                "{name}"
            );
        }
    }

    #[test]
    fn twins_swapping_places_is_no_reorder_and_each_list_is_named() {
        let before = page(&[("Tea", L), ("Tea", L), ("Cake", L), ("x", M), ("y", M)]);
        let twins = page(&[("Tea", L), ("Tea", L), ("Cake", L), ("x", M), ("y", M)]);
        assert!(!changed(&before, &twins, |_| true));
        let both = page(&[("Cake", L), ("Tea", L), ("Tea", L), ("y", M), ("x", M)]);
        let lines: Vec<String> = reordered(&before, &both, |_| true)
            .iter()
            .map(Reorder::line)
            .collect();
        assert_eq!(
            lines,
            [
                "listitem[Cake] went from position 3 to 1 in main/list:speakers",
                "listitem[y] went from position 2 to 1 in main/list:other"
            ]
        );
        // Left out of what is compared, a list's reorder is none.
        assert!(!changed(&before, &both, |e| e.region == M && e.label() == "x"));
        assert!(reordered(&before, &both, |e| e.region != M && e.label() != "Cake").is_empty());
    }

    #[test]
    fn positions_count_among_the_elements_of_the_moved_ones_role() {
        let with_list = |names: &[&str]| {
            let mut p = page(&names.iter().map(|n| (*n, L)).collect::<Vec<_>>());
            p.elements.insert(0, el("ol", Role::List, "Speakers", L));
            p
        };
        let before = with_list(&["Aled", "Bryn", "Carys", "Olwen"]);
        let after = with_list(&["Aled", "Bryn", "Olwen", "Carys"]);
        let lines: Vec<String> = reordered(&before, &after, |_| true)
            .iter()
            .map(Reorder::line)
            .collect();
        assert_eq!(
            lines,
            ["listitem[Olwen] went from position 4 to 3 in main/list:speakers"]
        );
    }

    #[test]
    fn parts_of_the_page_that_changed_places_are_the_documents_reorder() {
        let before = page(&[("a", L), ("b", L), ("x", M), ("y", M)]);
        let after = page(&[("x", M), ("y", M), ("a", L), ("b", L)]);
        let lines: Vec<String> = reordered(&before, &after, |_| true)
            .iter()
            .map(Reorder::line)
            .collect();
        assert_eq!(
            lines,
            ["listitem[x] went from position 3 to 1 in the document"]
        );
    }
}
