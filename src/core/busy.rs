//! Is the page still working? A page that announces it is, in a form a machine reads (an
//! `aria-busy` region, a progress indicator that appeared or has no value), has not settled,
//! even when its DOM is quiet: the outcome is yet to come, and judging the spinner as the
//! outcome would be a MATCH that cannot be believed.
//!
//! Words in text are never read as a busy signal: "Orders ship within 2 working days" is
//! content, whatever its words. The one typographic signal kept is a short message that
//! trails off and was not there before ("Saving draft…", "Bitte warten..."): the ellipsis is
//! how a page writes that it has not finished, in every language, and the outcome it
//! announces ("Draft saved") is yet to come. A text the engine cut at its length cap (which
//! it marks with "…") is not short, so it never counts.
//!
//! One decision, used twice: the stabiliser keeps waiting while [`busy`] answers, and the
//! judge never says MATCH on a page it answers for (a deadline reached while busy is
//! unstable, so AMBIGUOUS).

use super::identity::{describe_element, Identity};
use super::model::{Element, Role, Snapshot, Text};
use super::text;
use rustc_hash::FxHashSet;

/// A message longer than this many words is content, not a sign of work in progress.
pub const MAX_BUSY_WORDS: usize = 8;

/// Does `s` trail off: a short message ending in an ellipsis ("Saving draft…")?
pub fn trails_off(s: &str) -> bool {
    let trimmed = s.trim_end();
    let words = text::tokens(trimmed).len();
    (1..=MAX_BUSY_WORDS).contains(&words) && (trimmed.ends_with('…') || trimmed.ends_with("..."))
}

/// Why `after` is still busy, compared with `before` (the observation before the action);
/// `None` when it does not say it is working.
///
/// Busy means one of:
/// - a visible element is inside (or is) an `aria-busy="true"` subtree;
/// - a visible progress indicator (`progressbar`) that was not there before, or that has no
///   value (indeterminate), is on the page;
/// - a short message that trails off (see [`trails_off`]) is showing that was not before.
pub fn busy(before: &Snapshot, after: &Snapshot) -> Option<String> {
    busy_where(before, after, |_| true, |_| true)
}

/// [`busy`], looking only at the elements `keep` and the texts `keep_text` accept: the
/// judge keeps the regions it judges and leaves out the slots the page was changing by
/// itself (a loader that polls).
pub fn busy_where(
    before: &Snapshot,
    after: &Snapshot,
    keep: impl Fn(&Element) -> bool,
    keep_text: impl Fn(&Text) -> bool,
) -> Option<String> {
    let shown: FxHashSet<(&str, &str, &str)> = before
        .texts
        .iter()
        .map(|t| (t.frame.as_str(), t.region.as_str(), t.text.as_str()))
        .collect();
    if let Some(t) = after.texts.iter().find(|t| {
        keep_text(t)
            && trails_off(&t.text)
            && !shown.contains(&(t.frame.as_str(), t.region.as_str(), t.text.as_str()))
    }) {
        return Some(format!("text '{}' in {} trails off", t.text, t.region));
    }
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
                busy_where(&before, &after, elsewhere, |_| true).is_none(),
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
        let cases: Vec<(&str, Vec<Text>, Vec<Text>, bool)> = vec![
            ("a toast that trails off", vec![], vec![text("Saving draft…", "region[Notifications]")], true),
            ("three dots, any language", vec![], vec![text("Bitte warten...", "main")], true),
            ("done", vec![text("Saving draft…", "main")], vec![text("Draft saved", "main")], false),
            ("already there, unchanged", vec![text("Loading…", "contentinfo")], vec![text("Loading…", "contentinfo")], false),
            ("a busy word", vec![], vec![text("Loading results", "main")], false),
            ("content that says working", vec![], vec![text("Orders ship within 2 working days.", "region[Shipping details]")], false),
            ("de", vec![], vec![text("Entwurf wird gespeichert", "main")], false),
            ("a long text cut at the cap", vec![], vec![text(&format!("{}…", "word ".repeat(100)), "main")], false),
        ];
        for (name, before, after, want) in cases {
            assert_eq!(busy(&page(before), &page(after)).is_some(), want, "{name}");
        }
        let loader = page(vec![text("Loading…", "contentinfo")]);
        assert!(
            busy_where(
                &page(vec![]),
                &loader,
                |_| true,
                |t| t.region != "contentinfo"
            )
            .is_none(),
            "a loader in a slot left out"
        );
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
