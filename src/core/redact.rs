//! Redaction rules: which values are secrets, and how to keep them out of every output.
//!
//! The page may add sensitivity, never remove it: every source below only ever turns
//! `sensitive` on. A secret's value is replaced by `[redacted]` and any echo of it elsewhere
//! (text, names, titles, attributes we report) is scrubbed before anything leaves the page.
//! A change stays observable through a keyed hash whose key never leaves the page.

use super::model::REDACTED;
use super::ordered_json::{self, OrderedJson};
use serde_json::Value;
use siphasher::sip128::{Hasher128, SipHasher13};
use std::borrow::Cow;
use std::hash::Hasher;

/// Echoes of secrets shorter than this are not scrubbed from other text (a one-letter
/// password would otherwise erase that letter everywhere). The value itself is always redacted.
pub const MIN_ECHO_CHARS: usize = 3;

/// Is an `<input type=…>` sensitive by its type alone?
pub fn is_sensitive_input_type(input_type: &str) -> bool {
    input_type.eq_ignore_ascii_case("password")
}

/// Is a field sensitive by its `autocomplete` tokens? Payment (`cc-*`), `one-time-code`,
/// and `*-password` (`current-password`, `new-password`).
// https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#autofill-field
pub fn is_sensitive_autocomplete(autocomplete: &str) -> bool {
    autocomplete.split_ascii_whitespace().any(|token| {
        let t = token.to_ascii_lowercase();
        t.starts_with("cc-") || t == "one-time-code" || t.ends_with("-password")
    })
}

/// The forms of a caller's secret that are scrubbed wherever they appear: the value, its
/// whitespace-collapsed form, and the forms a page is likely to echo it in: percent-encoded
/// as by `encodeURIComponent` (`&` → `%26`, space → `%20`), as a form field (space → `+`),
/// and that encoding lowercased. Forms shorter than [`MIN_ECHO_CHARS`] are left out. This is
/// the one rule of every surface: the harness and the machine (`core::run`) register a
/// caller's secret with it, and the Node and Python packages ask the machine module for it
/// (`secretForms`).
///
/// Whitespace is collapsed as names are (`text::normalize_whitespace`: NBSP and zero-width
/// space count), the strictest of the forms the packages used to compute themselves.
pub fn secret_forms(value: &str) -> Vec<String> {
    let mut forms = vec![
        value.to_owned(),
        super::text::normalize_whitespace(value).into_owned(),
    ];
    let encoded = percent_encode(value);
    if encoded != value {
        forms.push(encoded.replace("%20", "+"));
        forms.push(encoded.to_ascii_lowercase());
        forms.insert(2, encoded);
    }
    let mut out: Vec<String> = Vec::with_capacity(forms.len());
    for form in forms {
        if form.chars().count() >= MIN_ECHO_CHARS && !out.contains(&form) {
            out.push(form);
        }
    }
    out
}

/// What a secret is replaced by while the others are looked for: a noncharacter (U+FFFF),
/// which no page text, URL or key holds, so no secret can be found in or across it.
pub const HELD: &str = "\u{ffff}";

/// Collects the secrets of one walk (or one run) and scrubs their echoes from any text.
///
/// Scrubbing replaces each registered form, longest first, one form after the other: a
/// secret containing another is replaced whole, and a driver that holds the same list
/// ([`Redactor::secrets`]) gets the same text with a plain replace loop (through [`HELD`],
/// then `[redacted]`).
#[derive(Debug, Default, Clone)]
pub struct Redactor {
    secrets: Vec<String>,
}

impl Redactor {
    /// Registers a secret value (whitespace-normalised forms are registered too): what the
    /// page's own secrets (password, payment fields) need.
    pub fn add_secret(&mut self, value: &str) {
        self.add_forms([
            value.to_owned(),
            super::text::normalize_whitespace(value).into_owned(),
        ]);
    }

    /// Registers a caller's secret with every form of [`secret_forms`].
    pub fn add_secret_and_encodings(&mut self, value: &str) {
        self.add_forms(secret_forms(value));
    }

    /// Registers forms as they are (those of [`secret_forms`], handed back by a driver):
    /// each once, none shorter than [`MIN_ECHO_CHARS`].
    pub fn add_forms(&mut self, forms: impl IntoIterator<Item = String>) {
        for form in forms {
            if form.chars().count() >= MIN_ECHO_CHARS && !self.secrets.contains(&form) {
                self.secrets.push(form);
            }
        }
        // Longest first, so a secret containing another is replaced whole; ties in text
        // order, so the list does not depend on the order secrets were registered in.
        self.secrets
            .sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    }

    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }

    /// The registered secrets and their forms, longest first (what a screenshot must cover
    /// wherever the page shows them: `prufe.cover({ secrets })`).
    pub fn secrets(&self) -> &[String] {
        &self.secrets
    }

    /// Replaces every occurrence of every secret with `[redacted]`. Each is first replaced by
    /// [`HELD`], a character no text a page shows holds, and the marks become `[redacted]`
    /// at the end: a short secret ("act") is never found inside the word an earlier one was
    /// replaced by.
    pub fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(text);
        for secret in &self.secrets {
            if out.contains(secret.as_str()) {
                out = Cow::Owned(out.replace(secret.as_str(), HELD));
            }
        }
        match out {
            Cow::Owned(held) => Cow::Owned(held.replace(HELD, REDACTED)),
            borrowed => borrowed,
        }
    }

    /// Scrubs every string of a JSON value, object keys included (two keys that scrub to
    /// the same text keep the later value).
    pub fn scrub_value(&self, v: &mut Value) {
        if self.is_empty() {
            return;
        }
        let mut ordered = OrderedJson::from(std::mem::take(v));
        self.scrub_json(&mut ordered);
        *v = ordered.into();
    }

    /// Scrubs every string of a JSON value, object keys included, each object's keys kept in
    /// their order (two keys that scrub to the same text keep the first one's place and the
    /// later value).
    pub fn scrub_json(&self, v: &mut OrderedJson) {
        if self.is_empty() {
            return;
        }
        match v {
            OrderedJson::String(s) => {
                if let Cow::Owned(clean) = self.scrub(s) {
                    *s = clean;
                }
            }
            OrderedJson::Array(items) => items.iter_mut().for_each(|i| self.scrub_json(i)),
            OrderedJson::Object(entries) => {
                if entries
                    .iter()
                    .all(|(k, _)| matches!(self.scrub(k), Cow::Borrowed(_)))
                {
                    entries.iter_mut().for_each(|(_, i)| self.scrub_json(i));
                    return;
                }
                for (k, mut val) in std::mem::take(entries) {
                    self.scrub_json(&mut val);
                    ordered_json::insert(entries, self.scrub(&k).into_owned(), val);
                }
            }
            OrderedJson::Null | OrderedJson::Bool(_) | OrderedJson::Number(_) => {}
        }
    }
}

/// `encodeURIComponent`: every byte but `A-Z a-z 0-9 - _ . ! ~ * ' ( )` as `%XX`.
fn percent_encode(s: &str) -> String {
    use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
    const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'_')
        .remove(b'.')
        .remove(b'!')
        .remove(b'~')
        .remove(b'*')
        .remove(b'\'')
        .remove(b'(')
        .remove(b')');
    utf8_percent_encode(s, COMPONENT).to_string()
}

/// A keyed 128-bit SipHash of a value, hex-encoded. Without the key it cannot be reversed
/// or checked against guesses, so it may leave the page.
pub fn keyed_hash(key: &[u8; 16], value: &str) -> String {
    let mut h = SipHasher13::new_with_key(key);
    h.write(value.as_bytes());
    let v = h.finish128();
    format!("{:016x}{:016x}", v.h1, v.h2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_encoded_as_encode_uri_component_does() {
        assert_eq!(percent_encode("a-b_c.d é"), "a-b_c.d%20%C3%A9");
        assert_eq!(percent_encode("!~*'()&+"), "!~*'()%26%2B");
    }

    #[test]
    fn autocomplete_rules() {
        for (ac, want) in [
            ("cc-number", true),
            ("billing cc-csc", true),
            ("one-time-code", true),
            ("current-password", true),
            ("new-password", true),
            ("email", false),
            ("", false),
            ("username", false),
        ] {
            assert_eq!(is_sensitive_autocomplete(ac), want, "{ac:?}");
        }
        assert!(is_sensitive_input_type("PASSWORD"));
        assert!(!is_sensitive_input_type("text"));
    }

    #[test]
    fn scrub_replaces_every_echo_longest_first() {
        let mut r = Redactor::default();
        r.add_secret("hunter2");
        r.add_secret("hunter22");
        r.add_secret("ab");
        assert_eq!(
            r.scrub("pw hunter22 / hunter2 ab"),
            "pw [redacted] / [redacted] ab"
        );
        assert!(matches!(r.scrub("nothing here"), Cow::Borrowed(_)));
    }

    #[test]
    fn secrets_are_registered_with_their_url_encodings() {
        let mut r = Redactor::default();
        r.add_secret_and_encodings("Tr0ub4dor&3 lamp");
        for echo in [
            "Tr0ub4dor&3 lamp",
            "Tr0ub4dor%263%20lamp",
            "Tr0ub4dor%263+lamp",
            "tr0ub4dor%263%20lamp",
        ] {
            assert_eq!(r.scrub(&format!("#t={echo}")), "#t=[redacted]", "{echo}");
        }
        assert_eq!(percent_encode("a-b_c.d é"), "a-b_c.d%20%C3%A9");
    }

    #[test]
    fn secret_forms_are_the_value_collapsed_and_encoded() {
        for (value, want) in [
            ("hunter2", &["hunter2"][..]),
            ("ab", &[][..]),
            (
                "Tr0ub4dor&3  lamp",
                &[
                    "Tr0ub4dor&3  lamp",
                    "Tr0ub4dor&3 lamp",
                    "Tr0ub4dor%263%20%20lamp",
                    "Tr0ub4dor%263++lamp",
                    "tr0ub4dor%263%20%20lamp",
                ][..],
            ),
            (
                "a\u{a0}b\u{200b}c",
                &[
                    "a\u{a0}b\u{200b}c",
                    "a b c",
                    "a%C2%A0b%E2%80%8Bc",
                    "a%c2%a0b%e2%80%8bc",
                ][..],
            ),
            ("é", &["%C3%A9", "%c3%a9"][..]),
            (" x ", &[" x ", "%20x%20", "+x+"][..]),
        ] {
            assert_eq!(secret_forms(value), want, "{value:?}");
        }
    }

    #[test]
    fn scrub_value_scrubs_keys_and_nested_strings() {
        let mut r = Redactor::default();
        r.add_secret_and_encodings("s3cret pw");
        let mut v = serde_json::json!({
            "s3cret pw": { "list": ["x s3cret%20pw y", 3, null, { "k": "s3cret+pw" }] },
            "plain": "nothing",
            "n": 1,
        });
        r.scrub_value(&mut v);
        assert_eq!(
            v,
            serde_json::json!({
                "[redacted]": { "list": ["x [redacted] y", 3, null, { "k": "[redacted]" }] },
                "plain": "nothing",
                "n": 1,
            })
        );
        // Keys keep their order; two that scrub alike keep the first place, the later value.
        let mut ordered: OrderedJson =
            serde_json::from_str(r#"{"z":1,"s3cret pw":"s3cret pw","a":2,"[redacted]":3}"#)
                .unwrap();
        r.scrub_json(&mut ordered);
        assert_eq!(
            serde_json::to_string(&ordered).unwrap(),
            r#"{"z":1,"[redacted]":3,"a":2}"#
        );
        let mut untouched = serde_json::json!({ "a": ["b"] });
        Redactor::default().scrub_value(&mut untouched);
        assert_eq!(untouched, serde_json::json!({ "a": ["b"] }));
    }

    #[test]
    fn a_short_secret_is_not_found_in_the_word_another_became() {
        let mut r = Redactor::default();
        r.add_secret("hunter2");
        r.add_secret("act");
        r.add_secret("dac");
        assert_eq!(
            r.scrub("pw hunter2, act, redacted"),
            "pw [redacted], [redacted], red[redacted]ed"
        );
        assert!(!r.scrub("hunter2").contains(HELD));
    }

    #[test]
    fn overlapping_secrets_are_replaced_longest_first() {
        let mut r = Redactor::default();
        for s in ["4111", "4111 1111 1111 1111", "1111 1111"] {
            r.add_secret_and_encodings(s);
        }
        assert_eq!(r.secrets()[0], "4111%201111%201111%201111");
        assert_eq!(
            r.scrub("card 4111 1111 1111 1111, pin 4111, 1111 1111"),
            "card [redacted], pin [redacted], [redacted]"
        );
        let mut same = Redactor::default();
        same.add_forms(r.secrets().iter().rev().cloned());
        assert_eq!(same.secrets(), r.secrets());
    }

    #[test]
    fn keyed_hash_depends_on_key_and_value() {
        let k1 = [1u8; 16];
        let k2 = [2u8; 16];
        assert_eq!(keyed_hash(&k1, "x"), keyed_hash(&k1, "x"));
        assert_ne!(keyed_hash(&k1, "x"), keyed_hash(&k2, "x"));
        assert_ne!(keyed_hash(&k1, "x"), keyed_hash(&k1, "y"));
        assert_eq!(keyed_hash(&k1, "x").len(), 32);
    }
}
