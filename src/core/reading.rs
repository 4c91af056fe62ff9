//! Which words of an intent the judge can read.
//!
//! An intent only narrows what counts as the expected effect, and words the judge could not
//! read count neither for nor against. A word is unread when the sentence is written in
//! another language than the page (told by their function words, `intent::language`), and
//! the word is neither shown on the page (before or after the action) nor one the judge's
//! own tables know (action and staying verbs, collection nouns, removal and failure words):
//! "Der Warenkorb enthält jetzt ein Hemd in Größe M" on an English shop reads as "Warenkorb
//! enthält … M" (a cart, one, M) and leaves "Hemd" and "Größe" unread. In the page's own
//! language every word is read, so a wrong name ("the cart holds a hat") still narrows.
//!
//! A sentence is in another language when the page's is not among those whose function
//! words it holds most of (`intent::likely_languages`: "Se descarta la confirmación" may be
//! Spanish or French, but is not English); the verbs of the judge's tables count as
//! function words ("Berichte kommen täglich" is German). A sentence with neither ("Berichte
//! geprüft") is read as written, unless not one of its words is known or shown: then
//! nothing of it is read.
//!
//! Trade-off: the languages are told apart by small stop-word tables, so a page with no
//! sentence of its own (only product names) has no known language, and then every word is
//! read, as before: the honest refusal stays where the reading cannot be sure.

use super::claims;
use super::intent::{self, stem};
use super::model::Snapshot;
use super::text;
use std::collections::HashSet;

/// What the judge reads of an intent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reading {
    /// The sentence without its unread words (the whole sentence when every word is read).
    pub read: String,
    /// The unread words, folded, in order.
    pub unread: Vec<String>,
}

impl Reading {
    /// Reads `sentence` against the page shown in `before` and `after`.
    pub fn of(sentence: &str, before: &Snapshot, after: &Snapshot) -> Reading {
        let tokens = text::tokens(&intent::strip_elisions(sentence));
        let whole = || Reading {
            read: sentence.to_owned(),
            unread: Vec::new(),
        };
        let spoken = intent::likely_languages(tokens.iter().map(String::as_str));
        let page = page_words(before, after);
        let Some(shown) = intent::language(page.tokens.iter().map(String::as_str)) else {
            return whole();
        };
        if spoken.contains(&shown) {
            return whole();
        }
        let mut read: Vec<&str> = Vec::new();
        let mut unread: Vec<String> = Vec::new();
        for t in &tokens {
            if is_readable(t, &page.stems) {
                read.push(t);
            } else {
                unread.push(t.clone());
            }
        }
        // A sentence with no function word of a known language is read as written unless
        // not one of its words is known or shown: then nothing of it can be read.
        if unread.is_empty() || (spoken.is_empty() && !read.is_empty()) {
            return whole();
        }
        Reading {
            read: read.join(" "),
            unread,
        }
    }

    /// `not read: hemd, grosse`, for reasons; empty when every word was read.
    pub fn note(&self) -> String {
        if self.unread.is_empty() {
            String::new()
        } else {
            format!(" (not read: {})", self.unread.join(", "))
        }
    }
}

/// A word is read when it is a function word, a word of the judge's tables, a number or a
/// single letter (a size, a count), or a word the page shows.
fn is_readable(token: &str, page: &HashSet<String>) -> bool {
    let st = stem(token);
    intent::is_stop_word(token)
        || intent::is_action(&st)
        || claims::container_of(token).is_some()
        || claims::is_removal(token)
        || claims::is_failure(token)
        || intent::is_negation(token)
        || token.chars().count() <= 1
        || token.chars().all(|c| c.is_ascii_digit())
        || page.contains(st.as_ref())
}

struct PageWords {
    tokens: Vec<String>,
    stems: HashSet<String>,
}

/// Every folded word the page shows in a label, a value or a text, before or after.
fn page_words(before: &Snapshot, after: &Snapshot) -> PageWords {
    let mut tokens = Vec::new();
    for s in [before, after] {
        for e in &s.elements {
            tokens.extend(text::tokens(e.label()));
        }
        for t in &s.texts {
            tokens.extend(text::tokens(&t.text));
        }
    }
    let stems = tokens.iter().map(|t| stem(t).into_owned()).collect();
    PageWords { tokens, stems }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::Role;
    use crate::core::testing::{el, text};

    fn shop() -> Snapshot {
        Snapshot {
            elements: vec![el("b1", Role::Button, "Add Shirt M", "main")],
            texts: vec![text("Your cart is empty", "region[Cart]")],
            ..Default::default()
        }
    }

    #[test]
    fn readings() {
        let page = shop();
        #[rustfmt::skip]
        let cases: &[(&str, &str, &[&str])] = &[
            ("the cart holds a shirt M", "the cart holds a shirt M", &[]),
            ("the cart holds a hat", "the cart holds a hat", &[]),
            ("Der Warenkorb enthält jetzt ein Hemd in Größe M", "der warenkorb enthalt jetzt ein in m", &["hemd", "grosse"]),
            ("Der Warenkorb enthält jetzt ein Shirt M", "Der Warenkorb enthält jetzt ein Shirt M", &[]),
            ("el carrito contiene una camisa M", "el carrito contiene una m", &["camisa"]),
            // Spanish or French, not English: the page's language is not among them.
            ("Se ordena la camisa", "se la", &["ordena", "camisa"]),
            // No function word: read as written while a word is known or shown ...
            ("Shirt M added", "Shirt M added", &[]),
            ("Hemd M hinzugefügt", "Hemd M hinzugefügt", &[]),
            // ... and not at all when none is.
            ("Berichte geprüft", "", &["berichte", "gepruft"]),
            // A verb of the judge's tables tells the language as a function word does.
            ("Berichte kommen täglich", "kommen", &["berichte", "taglich"]),
            ("Trousers added", "Trousers added", &[]),
        ];
        for (sentence, read, unread) in cases {
            let r = Reading::of(sentence, &page, &page);
            assert_eq!(r.read, *read, "{sentence}");
            assert_eq!(r.unread, *unread, "{sentence}");
        }
        // A page with no sentence of its own has no language: every word is read.
        let names_only = Snapshot {
            texts: Vec::new(),
            ..page.clone()
        };
        let r = Reading::of("Der Warenkorb enthält ein Hemd", &names_only, &names_only);
        assert!(r.unread.is_empty());
    }
}
