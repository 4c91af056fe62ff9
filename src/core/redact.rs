//! Redaction rules: which values are secrets, and how to keep them out of every output.
//!
//! The page may add sensitivity, never remove it: every source below only ever turns
//! `sensitive` on. A secret's value is replaced by `[redacted]` and any echo of it elsewhere
//! (text, names, titles, attributes we report) is scrubbed before anything leaves the page.
//! A change stays observable through a keyed hash whose key never leaves the page.

use super::model::REDACTED;
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

/// Collects the secrets of one walk and scrubs their echoes from any text.
#[derive(Debug, Default, Clone)]
pub struct Redactor {
    secrets: Vec<String>,
}

impl Redactor {
    /// Registers a secret value (whitespace-normalised forms are registered too).
    pub fn add_secret(&mut self, value: &str) {
        for form in [
            value.to_owned(),
            super::text::normalize_whitespace(value).into_owned(),
        ] {
            if form.chars().count() >= MIN_ECHO_CHARS && !self.secrets.contains(&form) {
                self.secrets.push(form);
            }
        }
        // Longest first, so a secret containing another is replaced whole.
        self.secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    }

    /// Registers a secret and the forms a page is likely to echo it in: percent-encoded as by
    /// `encodeURIComponent` (`&` → `%26`, space → `%20`), lowercased, and as a form field
    /// (space → `+`).
    pub fn add_secret_and_encodings(&mut self, value: &str) {
        self.add_secret(value);
        let encoded = percent_encode(value);
        if encoded != value {
            self.add_secret(&encoded);
            self.add_secret(&encoded.replace("%20", "+"));
            self.add_secret(&encoded.to_ascii_lowercase());
        }
    }

    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }

    /// The registered secrets and their forms, longest first (what a screenshot must cover
    /// wherever the page shows them: `prufe.cover({ secrets })`).
    pub fn secrets(&self) -> &[String] {
        &self.secrets
    }

    /// Replaces every occurrence of every secret with `[redacted]`.
    pub fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(text);
        for secret in &self.secrets {
            if out.contains(secret.as_str()) {
                out = Cow::Owned(out.replace(secret.as_str(), REDACTED));
            }
        }
        out
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
    fn keyed_hash_depends_on_key_and_value() {
        let k1 = [1u8; 16];
        let k2 = [2u8; 16];
        assert_eq!(keyed_hash(&k1, "x"), keyed_hash(&k1, "x"));
        assert_ne!(keyed_hash(&k1, "x"), keyed_hash(&k2, "x"));
        assert_ne!(keyed_hash(&k1, "x"), keyed_hash(&k1, "y"));
        assert_eq!(keyed_hash(&k1, "x").len(), 32);
    }
}
