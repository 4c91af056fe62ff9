//! Is the page still working? A page that announces it is (an `aria-busy` region, a progress
//! indicator that appeared, a target that became disabled while busy) has not settled, even
//! when its DOM is quiet: the outcome is yet to come, and judging the spinner as the outcome
//! would be a MATCH that cannot be believed.
//!
//! One decision, used twice: the stabiliser keeps waiting while [`busy`] answers, and the
//! judge never says MATCH on a page it answers for (a deadline reached while busy is
//! unstable, so AMBIGUOUS).

use super::identity::{describe_element, Identity};
use super::model::{Element, Role, Snapshot, Text};
use super::text;
use rustc_hash::FxHashSet;

/// Words that say the page is working on it, folded ("Saving draft", "Cargando",
/// "Chargement"). Matched whole, in a short text.
#[rustfmt::skip]
pub const BUSY_WORDS: &[&str] = &[
    "saving", "loading", "processing", "submitting", "sending", "uploading", "updating",
    "deleting", "working",
    "guardando", "cargando", "procesando", "enviando", "subiendo", "actualizando",
    "eliminando",
    "ladt", "speichert", "verarbeitet", "sendet",
    "enregistrement", "chargement", "traitement", "envoi",
];

/// Phrases that say so, folded tokens in order ("please wait", "wird gespeichert").
#[rustfmt::skip]
pub const BUSY_PHRASES: &[&[&str]] = &[
    &["please", "wait"], &["one", "moment"], &["espere", "por", "favor"], &["un", "momento"],
    &["bitte", "warten"], &["wird", "gespeichert"], &["wird", "geladen"],
    &["wird", "verarbeitet"], &["veuillez", "patienter"], &["en", "cours"],
];

/// A text longer than this many words is content, not a busy message.
pub const MAX_BUSY_WORDS: usize = 8;

/// Does `s` say the page is working: a short text with a busy word or phrase, or one that
/// trails off ("Saving draft…", "Bitte warten...")?
pub fn says_busy(s: &str) -> bool {
    let tokens = text::tokens(s);
    if tokens.is_empty() || tokens.len() > MAX_BUSY_WORDS {
        return false;
    }
    let trimmed = s.trim_end();
    trimmed.ends_with('…')
        || trimmed.ends_with("...")
        || tokens.iter().any(|t| BUSY_WORDS.contains(&t.as_str()))
        || BUSY_PHRASES.iter().any(|p| {
            tokens
                .windows(p.len())
                .any(|w| w.iter().zip(p.iter()).all(|(a, b)| a == b))
        })
}

/// Why `after` is still busy, compared with `before` (the observation before the action);
/// `None` when it does not say it is working.
///
/// Busy means one of:
/// - a visible element is inside (or is) an `aria-busy="true"` subtree;
/// - a visible progress indicator (`progressbar`) that was not there before, or that has no
///   value (indeterminate), is on the page;
/// - a text, or a status or alert element, that says it is working ("Saving draft…",
///   "Loading", "Cargando…", "Wird gespeichert", "Chargement") and was not showing before.
///   A message already there before the action, unchanged, says nothing about it.
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
    if let Some(why) = busy_message(before, after, &keep, &keep_text) {
        return Some(why);
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

/// A busy message that appeared: a text, or a status or alert element's label.
fn busy_message(
    before: &Snapshot,
    after: &Snapshot,
    keep: &impl Fn(&Element) -> bool,
    keep_text: &impl Fn(&Text) -> bool,
) -> Option<String> {
    let shown: FxHashSet<(&str, &str, &str)> = before
        .texts
        .iter()
        .map(|t| (t.frame.as_str(), t.region.as_str(), t.text.as_str()))
        .collect();
    if let Some(t) = after.texts.iter().find(|t| {
        keep_text(t)
            && says_busy(&t.text)
            && !shown.contains(&(t.frame.as_str(), t.region.as_str(), t.text.as_str()))
    }) {
        return Some(format!(
            "text '{}' in {} says it is working",
            t.text, t.region
        ));
    }
    let alerting = |e: &Element| {
        e.visible && matches!(e.role, Role::Status | Role::Alert) && says_busy(e.label())
    };
    let earlier: FxHashSet<(Identity, &str)> = before
        .elements
        .iter()
        .filter(|e| alerting(e))
        .map(|e| (Identity::of(e), e.label()))
        .collect();
    after
        .elements
        .iter()
        .find(|e| alerting(e) && keep(e) && !earlier.contains(&(Identity::of(e), e.label())))
        .map(|e| format!("{} says it is working", describe_element(e)))
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
    fn busy_messages() {
        use crate::core::testing::text;
        let page = |texts: Vec<Text>| Snapshot {
            texts,
            ..Default::default()
        };
        #[rustfmt::skip]
        let cases: Vec<(&str, Vec<Text>, Vec<Text>, bool)> = vec![
            ("a toast that trails off", vec![], vec![text("Saving draft…", "region[Notifications]")], true),
            ("three dots", vec![], vec![text("Please wait...", "main")], true),
            ("a busy word", vec![], vec![text("Loading results", "main")], true),
            ("es", vec![], vec![text("Guardando borrador", "main")], true),
            ("de", vec![], vec![text("Entwurf wird gespeichert", "main")], true),
            ("de, lädt", vec![], vec![text("Seite lädt", "main")], true),
            ("fr", vec![], vec![text("Enregistrement en cours", "main")], true),
            ("done", vec![text("Saving draft…", "main")], vec![text("Draft saved", "main")], false),
            ("already there, unchanged", vec![text("Loading…", "contentinfo")], vec![text("Loading…", "contentinfo")], false),
            ("a paragraph that mentions it", vec![], vec![text("Our loading dock is open from nine to five on weekdays and Saturdays", "main")], false),
            ("a plain message", vec![], vec![text("Draft saved", "main")], false),
        ];
        for (name, before, after, want) in cases {
            let (before, after) = (page(before), page(after));
            assert_eq!(busy(&before, &after).is_some(), want, "{name}");
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
        assert!(busy(
            &page(vec![]),
            &Snapshot {
                elements: vec![status.clone()],
                ..Default::default()
            }
        )
        .is_some());
        let same = Snapshot {
            elements: vec![status],
            ..Default::default()
        };
        assert!(busy(&same, &same).is_none(), "a status already saying so");
    }
}
