//! Is the page still working? A page that announces it is, in a form a machine reads (an
//! `aria-busy` region, a progress indicator that appeared or has no value), has not settled,
//! even when its DOM is quiet: the outcome is yet to come, and judging the spinner as the
//! outcome would be a MATCH that cannot be believed.
//!
//! Words in text are never read as a busy signal: "Orders ship within 2 working days" is
//! content, and "Saving…" in a toast says nothing a progress indicator or `aria-busy` would
//! not say better. A page that only writes such words and keeps changing them is unstable,
//! which the settle sees anyway.
//!
//! One decision, used twice: the stabiliser keeps waiting while [`busy`] answers, and the
//! judge never says MATCH on a page it answers for (a deadline reached while busy is
//! unstable, so AMBIGUOUS).

use super::identity::{describe_element, Identity};
use super::model::{Element, Role, Snapshot};
use rustc_hash::FxHashSet;

/// Why `after` is still busy, compared with `before` (the observation before the action);
/// `None` when it does not say it is working.
///
/// Busy means one of:
/// - a visible element is inside (or is) an `aria-busy="true"` subtree;
/// - a visible progress indicator (`progressbar`) that was not there before, or that has no
///   value (indeterminate), is on the page.
pub fn busy(before: &Snapshot, after: &Snapshot) -> Option<String> {
    busy_where(before, after, |_| true)
}

/// [`busy`], looking only at the elements `keep` accepts: the judge keeps the regions it
/// judges and leaves out the slots the page was changing by itself (a loader that polls).
pub fn busy_where(
    before: &Snapshot,
    after: &Snapshot,
    keep: impl Fn(&Element) -> bool,
) -> Option<String> {
    if let Some(e) = after
        .elements
        .iter()
        .find(|e| e.visible && e.busy && keep(e))
    {
        return Some(format!(
            "{} is inside a region marked aria-busy",
            describe_element(e)
        ));
    }
    let earlier: FxHashSet<Identity> = before
        .elements
        .iter()
        .filter(|e| e.visible && e.role == Role::Progressbar && keep(e))
        .map(Identity::of)
        .collect();
    after
        .elements
        .iter()
        .find(|e| {
            e.visible
                && e.role == Role::Progressbar
                && keep(e)
                && (e.value.is_none() || !earlier.contains(&Identity::of(e)))
        })
        .map(|e| format!("{} is showing", describe_element(e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::Text;
    use crate::core::testing::el;

    fn page(elements: Vec<Element>) -> Snapshot {
        Snapshot {
            elements,
            ..Default::default()
        }
    }

    #[test]
    fn busy_decisions() {
        let button = el("b1", Role::Button, "Book", "main");
        let busy_button = Element {
            busy: true,
            disabled: true,
            ..button.clone()
        };
        let spinner = el("p1", Role::Progressbar, "Loading", "main");
        let bar = |v: &str| Element {
            value: Some(v.into()),
            ..el("p2", Role::Progressbar, "Upload", "main")
        };
        let hidden_busy = Element {
            busy: true,
            visible: false,
            ..button.clone()
        };
        #[rustfmt::skip]
        let cases: Vec<(&str, Vec<Element>, Vec<Element>, bool)> = vec![
            ("quiet page", vec![button.clone()], vec![button.clone()], false),
            ("aria-busy region", vec![button.clone()], vec![busy_button.clone()], true),
            ("busy but hidden", vec![button.clone()], vec![hidden_busy], false),
            ("indeterminate spinner", vec![button.clone()], vec![button.clone(), spinner.clone()], true),
            ("spinner already there", vec![spinner.clone()], vec![spinner.clone()], true),
            ("determinate bar appeared", vec![], vec![bar("40")], true),
            ("determinate bar was there", vec![bar("40")], vec![bar("100")], false),
        ];
        for (name, before, after, want) in cases {
            let (before, after) = (page(before), page(after));
            assert_eq!(busy(&before, &after).is_some(), want, "{name}");
            let elsewhere = |e: &Element| e.region != "main";
            assert!(
                busy_where(&before, &after, elsewhere).is_none(),
                "{name}: outside what is kept"
            );
        }
    }

    #[test]
    fn words_in_text_are_never_busy() {
        use crate::core::testing::text;
        let page = |texts: Vec<Text>| Snapshot {
            texts,
            ..Default::default()
        };
        #[rustfmt::skip]
        let cases: Vec<(&str, Vec<Text>)> = vec![
            ("a toast that trails off", vec![text("Saving draft…", "region[Notifications]")]),
            ("a busy word", vec![text("Loading results", "main")]),
            ("content that says working", vec![text("Orders ship within 2 working days.", "region[Shipping details]")]),
            ("de", vec![text("Entwurf wird gespeichert", "main")]),
        ];
        for (name, after) in cases {
            assert!(busy(&page(vec![]), &page(after)).is_none(), "{name}");
        }
        let status = Element {
            name: "Processing payment".into(),
            ..el("s1", Role::Status, "", "main")
        };
        let with_status = Snapshot {
            elements: vec![status],
            ..Default::default()
        };
        assert!(
            busy(&page(vec![]), &with_status).is_none(),
            "a status's words"
        );
    }
}
