//! A click or key press that loaded a new document: the action's effect, or a hijack?
//!
//! No verdict is computed across two documents (the new page may well show the target's
//! name). A new document is the effect asked for when its address is the one the target
//! leads to, read from the live element before input (a link's `href`, fragment aside; a
//! submitting control's form action, query and fragment aside, since a GET form adds its
//! fields there; never a `dialog` form), or when the step's intent is supported by the new
//! document alone (judged as a `goto` against a blank page). Otherwise the run goes back in
//! history and stops with `STALE_OBSERVATION`: it never continues on a page it did not mean
//! to reach, and never repeats the action there.

use serde::{Deserialize, Serialize};

/// Where activating an element would load a new document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Destination {
    /// `link` or `form`.
    pub kind: String,
    /// Absolute, as the page resolved it (`a.href`, `form.action`).
    pub url: String,
    /// A form's method (`get`, `post`, `dialog`); empty for a link.
    #[serde(default)]
    pub method: String,
}

impl Destination {
    /// Is `now` (the main frame's address) where this destination leads?
    pub fn reached(&self, now: &str) -> bool {
        let form = self.kind == "form";
        same_address(&self.url, now, form) && !(form && self.method.eq_ignore_ascii_case("dialog"))
    }

    /// `the link's address` or `the form's action`.
    pub fn what(&self) -> &'static str {
        if self.kind == "form" {
            "the form's action"
        } else {
            "the link's address"
        }
    }
}

/// Is `now` the address `expected` leads to? Fragments never count; for a form, neither does
/// the query. Both addresses come from the browser, already absolute and normalised, so they
/// compare as text once those parts are cut; anything without a scheme is no address.
pub fn same_address(expected: &str, now: &str, form: bool) -> bool {
    match (cut(expected, form), cut(now, form)) {
        (Some(e), Some(n)) => e == n,
        _ => false,
    }
}

fn cut(url: &str, query: bool) -> Option<&str> {
    let url = url.trim();
    let scheme = url.split(':').next()?;
    let is_scheme = url.contains(':')
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !is_scheme {
        return None;
    }
    let url = url.split('#').next().unwrap_or(url);
    Some(if query {
        url.split('?').next().unwrap_or(url)
    } else {
        url
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_compare_without_fragment_and_a_form_without_query() {
        #[rustfmt::skip]
        let cases = [
            ("http://h/p.html", "http://h/p.html", false, true),
            ("http://h/p.html#a", "http://h/p.html", false, true),
            ("http://h/p.html?x=1", "http://h/p.html", false, false),
            ("http://h/r.html", "http://h/r.html?q=shoes", true, true),
            ("http://h/r.html?old=1", "http://h/r.html?q=shoes", true, true),
            ("http://h/p.html", "http://h/elsewhere.html", false, false),
            ("http://h/r.html", "http://other/r.html?q=1", true, false),
            ("not a url", "http://h/p.html", false, false),
            ("not a url", "not a url", false, false),
        ];
        for (expected, now, form, same) in cases {
            assert_eq!(
                same_address(expected, now, form),
                same,
                "{expected} vs {now}"
            );
        }
        let dialog = Destination {
            kind: "form".into(),
            url: "http://h/r.html".into(),
            method: "dialog".into(),
        };
        assert!(!dialog.reached("http://h/r.html"));
    }
}
