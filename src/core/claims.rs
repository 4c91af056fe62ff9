//! Claims: a sentence of intent split into parts the diff can check one by one.
//!
//! An intent only narrows what counts as the expected effect, so the judge checks every
//! claim and answers MATCH only when each is supported and none contradicted:
//! - **object**: the distinguishing phrase ("Shirt M"). An effect whose label carries it, or
//!   that the sentence explains as a whole (`Intent::score`), supports it; a *variant* (a run
//!   of the same length that differs in exactly one distinguishing word, "Shirt L") of a
//!   phrase the page shows contradicts it.
//! - **container**: nouns that name a collection (cart, wishlist, carrito, Warenkorb,
//!   panier…), held against the regions and labels of the supporting effects.
//! - **count**: "a", "one", "exactly one", "two", "3", "una", "zwei", "deux"…, held against
//!   how many like effects there are.
//! - **polarity**: a positive sentence is contradicted by a failure message ("declined",
//!   "rechazado", "abgelehnt", "échoué"…) that appeared.
//! - **kept**: a clause whose predicate says its object stays ("the order is kept", "se
//!   mantiene", "bleibt", "est conservée") is contradicted by a message carrying the object
//!   and a removal word ("Order 1042 deleted", "gelöscht", "supprimée") or by an element
//!   carrying it going away (a popup closing, or what was inside one, is not that).
//! - **literal**: a name given after a naming word ("renamed Call the supplier", "heißt",
//!   "renombrada a", "intitulé") must be shown token for token, stop words included, by
//!   some effect: "Call supplier" is not it.
//!
//! Trade-off: words are told apart by small tables, not grammar. Action words ("add",
//! "quitar", "löschen") and container nouns are never the distinguishing word of a variant,
//! and a phrase is only checked for variants when the page shows it, so a predicate ("the
//! account is kept") is never mistaken for a name.

use super::intent::{self, is_stop_word, stem, Intent, Terms};
pub use super::intent::{is_action, ACTION_WORDS, KEEP_WORDS};
use super::text;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

/// Nouns that name a collection, by concept, folded. A concept is matched by stem, so
/// plurals count ("carts", "carritos").
// Sorted by concept; every word is folded (no accents, lowercase).
pub const CONTAINERS: &[(&str, &[&str])] = &[
    (
        "cart",
        &[
            "cart",
            "basket",
            "trolley",
            "carrito",
            "carro",
            "cesta",
            "panier",
            "caddie",
            "warenkorb",
            "einkaufswagen",
        ],
    ),
    (
        "comparison",
        &[
            "compare",
            "comparison",
            "comparar",
            "comparacion",
            "comparateur",
            "vergleich",
        ],
    ),
    (
        "wishlist",
        &[
            "wishlist",
            "wish",
            "favourites",
            "favorites",
            "favoritos",
            "deseos",
            "favoris",
            "envies",
            "wunschliste",
            "merkliste",
            "merkzettel",
            "favoriten",
        ],
    ),
];

/// Count words of the four languages, folded, with their number. Articles count as one:
/// "the cart gains a shirt" claims one shirt.
#[rustfmt::skip]
pub const COUNT_WORDS: &[(&str, u32)] = &[
    ("a", 1), ("an", 1), ("one", 1), ("single", 1), ("two", 2), ("three", 3), ("four", 4),
    ("five", 5),
    ("un", 1), ("una", 1), ("uno", 1), ("dos", 2), ("tres", 3), ("cuatro", 4), ("cinco", 5),
    ("une", 1), ("deux", 2), ("trois", 3), ("quatre", 4), ("cinq", 5),
    ("ein", 1), ("eine", 1), ("einen", 1), ("einem", 1), ("einer", 1), ("eines", 1),
    ("zwei", 2), ("drei", 3), ("vier", 4), ("funf", 5),
];

/// Words that join two claims in one sentence, folded.
pub const CONJUNCTIONS: &[&str] = &["and", "y", "und", "et"];

/// Words after which an intent gives a name or title word for word ("renamed Call the
/// supplier"), folded.
#[rustfmt::skip]
pub const NAMING_WORDS: &[&str] = &[
    "renamed", "named", "called", "titled", "retitled",
    "renombra", "renombrado", "renombrada", "llama", "titulado", "titulada",
    "umbenannt", "heisst", "genannt", "betitelt",
    "renomme", "renommee", "appele", "appelee", "intitule", "intitulee",
];

/// Prepositions that may sit between a naming word and the name ("renamed to", "umbenannt
/// in", "renombrado a", "renommé en").
const NAMING_LINKS: &[&str] = &["to", "as", "a", "in", "en", "zu"];

/// At most this many clauses of one sentence are checked (the first ones).
pub const MAX_CLAUSES: usize = 8;

/// Words that only sharpen a count ("exactly one"), folded: not part of the object.
pub const QUALIFIERS: &[&str] = &[
    "exactly",
    "only",
    "just",
    "exactamente",
    "solo",
    "exactement",
    "seulement",
    "genau",
    "nur",
];

/// A count up to this many, when written in digits ("3 shirts"), is a claim.
pub const MAX_COUNT: u32 = 99;

/// Words of failure, folded: a message carrying one contradicts a positive intent.
#[rustfmt::skip]
pub const FAILURE_WORDS: &[&str] = &[
    "fail", "failed", "fails", "failure", "declined", "error", "errors", "denied", "rejected",
    "refused", "unsuccessful",
    "rechazado", "rechazada", "fallido", "fallida", "fallo", "denegado", "denegada",
    "echoue", "echouee", "echec", "refuse", "refusee", "erreur", "rejete", "rejetee",
    "abgelehnt", "fehlgeschlagen", "fehler", "verweigert",
];

/// Words that say a thing went, folded: a message carrying one and a kept object
/// ("Order 1042 deleted") contradicts the clause that keeps it.
#[rustfmt::skip]
pub const REMOVAL_WORDS: &[&str] = &[
    "deleted", "removed", "cancelled", "canceled", "erased", "discarded", "destroyed",
    // An account, an order or a ticket closed is ended ("Account closed").
    "closed", "cerrado", "cerrada", "geschlossen", "fermee",
    "eliminado", "eliminada", "eliminados", "eliminadas", "borrado", "borrada", "borrados",
    "suprimido", "suprimida", "cancelado", "cancelada",
    "geloscht", "entfernt", "storniert", "verworfen",
    "supprime", "supprimee", "supprimes", "supprimees", "efface", "effacee", "annule",
    "annulee", "retire", "retiree",
];

/// Names of a dialog's own close control, folded: the name the Authoring Practices give it,
/// in the four languages, and the glyphs pages draw it with.
const CLOSE_WORDS: &[&str] = &[
    "close",
    "dismiss",
    "x",
    "×",
    "✕",
    "✖",
    "cerrar",
    "fermer",
    "schliessen",
];

/// Is `name` the name of a close control ("Close", "×", "Schließen")?
pub fn is_close_word(name: &str) -> bool {
    let t = name.trim();
    if matches!(t, "×" | "✕" | "✖") {
        return true;
    }
    let tokens = text::tokens(t);
    tokens.len() == 1 && CLOSE_WORDS.contains(&tokens[0].as_str())
}

/// Names a dialog's dismissing button has by itself (the Authoring Practices' "Cancel" of a
/// confirmation, "No", "Not now"), folded.
#[rustfmt::skip]
const DISMISS_WORDS: &[&str] = &[
    "cancel", "close", "dismiss", "no", "back", "later", "not", "now",
    "cancelar", "cerrar", "volver", "ahora",
    "abbrechen", "schliessen", "nein", "zuruck", "spater", "nicht", "jetzt",
    "annuler", "fermer", "non", "retour", "tard", "pas", "maintenant",
];

/// Verbs a dismissing button starts with when it names what it keeps ("Keep editing",
/// "Stay subscribed", "Seguir editando", "Abo behalten"), folded.
#[rustfmt::skip]
const STAY_WORDS: &[&str] = &[
    "keep", "stay", "continue", "remain",
    "mantener", "conservar", "seguir", "quedarme", "continuar",
    "behalten", "bleiben", "weiter", "weitermachen",
    "garder", "rester", "continuer", "conserver",
];

/// Is `name` the name of a button that dismisses its dialog and does nothing else: its own
/// dismissing words alone ("Cancel", "Not now", "×"), or a verb of staying first ("Keep
/// it", "Keep booking", "Stay subscribed")? "Cancel booking now" names an object: it acts.
pub fn is_dismissal(name: &str) -> bool {
    if is_close_word(name) {
        return true;
    }
    let tokens = text::tokens(name);
    let Some(first) = tokens.first() else {
        return false;
    };
    STAY_WORDS.contains(&first.as_str())
        || tokens.iter().all(|t| DISMISS_WORDS.contains(&t.as_str()))
}

/// Verbs that call an action off, folded.
#[rustfmt::skip]
const CALL_OFF_WORDS: &[&str] = &[
    "cancel", "cancels", "cancelled", "canceled", "abort", "aborted", "abandon",
    "cancela", "cancelar", "cancelado", "cancelada", "anula", "anulado", "anulada",
    "abgebrochen", "abbrechen", "bricht", "abgesagt",
    "annule", "annuler", "annulee",
];

/// Stems of the verbs of removing, for their nouns ("deletion", "borrado", "Löschen").
const REMOVAL_STEMS: &[&str] = &[
    "delet", "remov", "borr", "elimin", "losch", "supprim", "entfern",
];

/// Does the sentence call off a removal ("Cancel the deletion", "Se cancela el borrado",
/// "Das Löschen wird abgebrochen")? Its object is the removal, which then does not happen.
pub fn calls_off_removal(sentence: &str) -> bool {
    let tokens = text::tokens(sentence);
    let calls_off = |t: &String| CALL_OFF_WORDS.contains(&t.as_str());
    tokens.iter().any(calls_off)
        && tokens
            .iter()
            .filter(|t| !calls_off(t))
            .any(|t| REMOVAL_STEMS.iter().any(|s| t.starts_with(s)))
}

/// Words that say which way an item moves in its list, folded: toward the start or the end.
const UP_WORDS: &[&str] = &[
    "up", "earlier", "higher", "top", "first", "before", "arriba", "subir", "sube", "antes",
    "hoch", "oben", "vorne", "haut", "monte", "avant",
];
const DOWN_WORDS: &[&str] = &[
    "down", "later", "lower", "bottom", "last", "after", "abajo", "bajar", "baja", "despues",
    "runter", "unten", "hinten", "bas", "descend", "apres",
];

/// The way an intent says an item moves: `Some(true)` toward the start of its list,
/// `Some(false)` toward the end, `None` when it says neither (or both).
pub fn direction(sentence: &str) -> Option<bool> {
    let tokens = text::tokens(sentence);
    let up = tokens.iter().any(|t| UP_WORDS.contains(&t.as_str()));
    let down = tokens.iter().any(|t| DOWN_WORDS.contains(&t.as_str()));
    match (up, down) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    }
}

/// Is a stem the stem of a removal word ("delet" of "deleted")?
pub fn is_removal_stem(st: &str) -> bool {
    static SET: OnceLock<HashSet<String>> = OnceLock::new();
    SET.get_or_init(|| REMOVAL_WORDS.iter().map(|w| stem(w).into_owned()).collect())
        .contains(st)
}

/// Does `s` say something was removed?
pub fn is_removal(s: &str) -> bool {
    text::tokens(s)
        .iter()
        .any(|t| REMOVAL_WORDS.contains(&t.as_str()))
}

/// The object of a clause that says it stays ("the order is kept" → "order"), if the
/// clause says so and names one.
fn kept_object(tokens: &[String]) -> Option<Terms> {
    if !tokens.iter().any(|t| KEEP_WORDS.contains(&t.as_str())) {
        return None;
    }
    let rest: Vec<&str> = tokens
        .iter()
        .map(String::as_str)
        .filter(|t| !KEEP_WORDS.contains(t))
        .collect();
    let object = Claims::parse(&rest.join(" ")).object;
    (!object.is_empty()).then_some(object)
}

/// The stems of `s`'s content words, in order (stop-words dropped, repeats kept).
pub fn stems(s: &str) -> Vec<String> {
    intent::content_tokens(s)
        .iter()
        .map(|t| stem(t).into_owned())
        .collect()
}

fn container_stems() -> &'static HashMap<String, &'static str> {
    static MAP: OnceLock<HashMap<String, &'static str>> = OnceLock::new();
    MAP.get_or_init(|| {
        CONTAINERS
            .iter()
            .flat_map(|(concept, words)| words.iter().map(|w| (stem(w).into_owned(), *concept)))
            .collect()
    })
}

/// The container concept a folded token (or stem) names, if any.
pub fn container_of(token: &str) -> Option<&'static str> {
    container_stems().get(stem(token).as_ref()).copied()
}

/// The container concepts named in `s` (a region such as `main/list:cart`, or a label).
pub fn containers_in(s: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for t in text::tokens(s) {
        if let Some(c) = container_of(&t) {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// Does `s` say something failed?
pub fn is_failure(s: &str) -> bool {
    text::tokens(s)
        .iter()
        .any(|t| FAILURE_WORDS.contains(&t.as_str()))
}

/// Month names of the four languages, folded: a number before one is a day of a date ("14
/// December"), not a count.
#[rustfmt::skip]
const MONTHS: &[&str] = &[
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
    "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
    "setiembre", "octubre", "noviembre", "diciembre",
    "janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout", "septembre",
    "octobre", "novembre", "decembre",
    "januar", "februar", "marz", "juni", "juli", "oktober", "dezember",
];

fn count_of(token: &str) -> Option<u32> {
    if let Some(&(_, n)) = COUNT_WORDS.iter().find(|(w, _)| *w == token) {
        return Some(n);
    }
    if token.len() <= 2 && token.bytes().all(|b| b.is_ascii_digit()) {
        return token.parse().ok().filter(|n| (1..=MAX_COUNT).contains(n));
    }
    None
}

/// How many of what a sentence claims: `n` of the thing whose stem is `of`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    pub n: u32,
    /// The stem of the word counted ("shirt").
    pub of: String,
    /// The count as written before it, folded ("a", "2").
    pub word: String,
}

/// A sentence of intent as claims.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Claims {
    /// The object's terms: content terms less container nouns, action words and counts.
    pub object: Terms,
    /// Runs of two or more consecutive content words (stems), where a variant may hide.
    pub phrases: Vec<Vec<String>>,
    /// Container concepts named ("cart").
    pub containers: Vec<&'static str>,
    pub count: Option<Count>,
    /// A positive statement (no failure word): a failure message contradicts it.
    pub positive: bool,
    /// With two or more clauses joined by "and" ("y", "und", "et"), each clause and its
    /// object, every one of which some effect must support.
    pub clauses: Vec<(Intent, Terms)>,
    /// The objects of the clauses that say a thing stays ("the order is kept"): an effect
    /// that removes one contradicts the sentence.
    pub kept: Vec<Terms>,
    /// A name given word for word after a naming word ("renamed Call the supplier" → the
    /// folded tokens "call the supplier"): an effect must show exactly these tokens in a row.
    pub literal: Option<Vec<String>>,
}

impl Claims {
    /// Reads the claims of a sentence (a negated sentence is refused earlier, by `Intent`).
    pub fn parse(sentence: &str) -> Claims {
        let tokens = text::tokens(&intent::strip_elisions(sentence));
        let mut claims = Claims {
            positive: !tokens.iter().any(|t| FAILURE_WORDS.contains(&t.as_str())),
            ..Claims::default()
        };
        let mut object = String::new();
        let mut run: Vec<String> = Vec::new();
        for (i, t) in tokens.iter().enumerate() {
            let next = tokens.get(i + 1);
            if let Some(n) = count_of(t) {
                let counted = next.filter(|w| {
                    w.chars().all(char::is_alphabetic)
                        && !is_stop_word(w)
                        && count_of(w).is_none()
                        && !MONTHS.contains(&w.as_str())
                        && container_of(w).is_none()
                        && !is_action(&stem(w))
                });
                if let (None, Some(w)) = (&claims.count, counted) {
                    claims.count = Some(Count {
                        n,
                        of: stem(w).into_owned(),
                        word: t.clone(),
                    });
                    flush(&mut run, &mut claims.phrases);
                    continue;
                }
            }
            if is_stop_word(t) || QUALIFIERS.contains(&t.as_str()) {
                flush(&mut run, &mut claims.phrases);
                continue;
            }
            if let Some(c) = container_of(t) {
                if !claims.containers.contains(&c) {
                    claims.containers.push(c);
                }
                flush(&mut run, &mut claims.phrases);
                continue;
            }
            let st = stem(t).into_owned();
            if !is_action(&st) {
                object.push_str(t);
                object.push(' ');
            }
            run.push(st);
        }
        flush(&mut run, &mut claims.phrases);
        claims.object = Terms::of(&object);
        let clauses: Vec<&[String]> = tokens
            .split(|t| CONJUNCTIONS.contains(&t.as_str()))
            .filter(|c| !c.is_empty())
            .take(MAX_CLAUSES)
            .collect();
        claims.kept = clauses.iter().filter_map(|c| kept_object(c)).collect();
        claims.literal = literal(&tokens);
        if clauses.len() >= 2 {
            claims.clauses = clauses
                .iter()
                .map(|c| {
                    let clause = c.join(" ");
                    (Intent::parse(&clause), Claims::parse(&clause).object)
                })
                .collect();
        }
        claims
    }
}

/// The tokens after the last naming word, up to a conjunction, less a linking preposition.
fn literal(tokens: &[String]) -> Option<Vec<String>> {
    let at = tokens
        .iter()
        .rposition(|t| NAMING_WORDS.contains(&t.as_str()))?;
    let mut rest = &tokens[at + 1..];
    if rest.len() > 1 && NAMING_LINKS.contains(&rest[0].as_str()) {
        rest = &rest[1..];
    }
    let name: Vec<String> = rest
        .iter()
        .take_while(|t| !CONJUNCTIONS.contains(&t.as_str()))
        .cloned()
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Does `label` hold the tokens of `literal` in a row?
pub fn shows_literal(label: &str, literal: &[String]) -> bool {
    text::tokens(label)
        .windows(literal.len())
        .any(|w| w == literal)
}

/// Does `label` show the count as a value ("Cart: 2 items" for "2 items")? Then it is a
/// figure the page displays, not a number of effects.
pub fn shows_count(label: &str, count: &Count) -> bool {
    let tokens = text::tokens(label);
    tokens
        .windows(2)
        .any(|w| count_of(&w[0]) == Some(count.n) && intent::same_term(&stem(&w[1]), &count.of))
}

/// Ends a run of content words: kept as a phrase when it has two words or more.
fn flush(run: &mut Vec<String>, phrases: &mut Vec<Vec<String>>) {
    if run.len() >= 2 {
        phrases.push(std::mem::take(run));
    }
    run.clear();
}

/// Does `label` (stems in order) hold `run` contiguously?
pub fn holds(label: &[String], run: &[String]) -> bool {
    run.len() <= label.len()
        && label
            .windows(run.len())
            .any(|w| w.iter().zip(run).all(|(a, b)| intent::same_term(a, b)))
}

/// Nouns that stand for a name or a title, folded: in an intent, such a word is whatever
/// name the thing now has.
const NAMING_NOUNS: &[&str] = &[
    "name",
    "title",
    "label",
    "nombre",
    "titulo",
    "etiqueta",
    "nom",
    "titre",
    "libelle",
    "bezeichnung",
    "titel",
];

fn naming_noun_stems() -> &'static HashSet<String> {
    static SET: OnceLock<HashSet<String>> = OnceLock::new();
    SET.get_or_init(|| NAMING_NOUNS.iter().map(|w| stem(w).into_owned()).collect())
}

/// Is `label` (stems in order) a variant of `run`: a window of the same length that differs
/// from it in exactly one word, where neither word is an action word or a container noun,
/// the label's word is not one of `source` (the sentence the run came from) and the run's is
/// not in the label, and one of the words kept is neither? "Remove Shirt L" is a variant of
/// "Remove Shirt M"; "Remove Shirt M" is not one of "Add Shirt M", nor "Added Order labels"
/// of "Add task".
pub fn is_variant(run: &[String], label: &[String], source: &Terms) -> bool {
    if run.len() < 2 || run.len() > label.len() || holds(label, run) {
        return false;
    }
    let label_terms: Vec<&String> = label.iter().collect();
    let in_label = |st: &str| label_terms.iter().any(|l| intent::same_term(l, st));
    let neutral = |st: &str| is_action(st) || container_of(st).is_some();
    // "The project name is saved": the word "name" stands for whatever the name now is
    // ("Project Gemini"), so the run has no variant there.
    let placeholder = |st: &str| naming_noun_stems().contains(st);
    label.windows(run.len()).any(|w| {
        let differ: Vec<usize> = (0..run.len())
            .filter(|&i| !intent::same_term(&w[i], &run[i]))
            .collect();
        // The words kept must name a thing: "Added Order labels" shares only the verb with
        // "Add task", and a new row is not a variant of the button that added it.
        let names_kept = |i: usize| (0..run.len()).any(|j| j != i && !neutral(&run[j]));
        match differ.as_slice() {
            [i] => {
                let (got, want) = (&w[*i], &run[*i]);
                !neutral(got)
                    && !neutral(want)
                    && !placeholder(want)
                    && !source.matches(got)
                    && !in_label(want)
                    && names_kept(*i)
            }
            _ => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strs(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }

    /// (sentence, object terms, phrases, containers, count (n, of), positive)
    type ClaimCase<'a> = (
        &'a str,
        &'a [&'a str],
        Vec<Vec<&'a str>>,
        &'a [&'a str],
        Option<(u32, &'a str)>,
        bool,
    );

    #[test]
    fn a_count_is_shown_in_words_or_digits() {
        let five = Claims::parse("give five stars").count.expect("a count");
        assert!(shows_count("5 stars", &five));
        assert!(shows_count("five stars", &five));
        assert!(!shows_count("4 stars", &five));
        assert!(!shows_count("5 nights", &five));
    }

    #[test]
    fn claims_of_sentences() {
        #[rustfmt::skip]
        let cases: Vec<ClaimCase> = vec![
            ("Shirt M is removed from the cart", &["shirt", "m"], vec![vec!["shirt", "m"]], &["cart"], None, true),
            ("the cart gains a mug", &["mug"], vec![], &["cart"], Some((1, "mug")), true),
            ("the wishlist gains exactly one mug", &["mug"], vec![], &["wishlist"], Some((1, "mug")), true),
            ("the cart gains two shirts", &["shirt"], vec![], &["cart"], Some((2, "shirt")), true),
            ("3 tickets are added", &["ticket"], vec![], &[], Some((3, "ticket")), true),
            ("el carrito suma una camiseta", &["camiset"], vec![], &["cart"], Some((1, "camiset")), true),
            ("der Warenkorb enthält zwei Hemden", &["hemd"], vec![], &["cart"], Some((2, "hemd")), true),
            ("le panier contient deux chemises", &["chemis"], vec![], &["cart"], Some((2, "chemis")), true),
            ("the booking is confirmed", &["book"], vec![], &[], None, true),
            ("an error message appears", &["error", "messag"], vec![vec!["error", "messag"]], &[], Some((1, "error")), false),
            ("the total shows 19.99", &["total", "19", "99"], vec![vec!["19", "99"]], &[], None, true),
            ("añadir a la cesta", &[], vec![], &["cart"], None, true),
            // A day of a date is no count.
            ("the delivery date is 14 December 2026", &["delivery", "dat", "14", "decemb", "2026"], vec![vec!["delivery", "dat"], vec!["14", "decemb", "2026"]], &[], None, true),
        ];
        for (sentence, object, phrases, containers, count, positive) in cases {
            let c = Claims::parse(sentence);
            assert_eq!(
                c.object.iter().collect::<Vec<_>>(),
                object,
                "{sentence}: object"
            );
            let got: Vec<Vec<&str>> = c.phrases.iter().map(|p| strs(p)).collect();
            assert_eq!(got, phrases, "{sentence}: phrases");
            assert_eq!(c.containers, containers, "{sentence}: containers");
            assert_eq!(
                c.count.as_ref().map(|c| (c.n, c.of.as_str())),
                count,
                "{sentence}: count"
            );
            assert_eq!(c.positive, positive, "{sentence}: polarity");
        }
        let clauses = |s: &str| {
            Claims::parse(s)
                .clauses
                .iter()
                .map(|(_, object)| {
                    object
                        .iter()
                        .map(str::to_owned)
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            clauses("the dialog closes and the account is kept"),
            ["dialog", "account"]
        );
        assert_eq!(
            clauses("der Warenkorb enthält ein Hemd und eine Mütze"),
            ["hemd", "mutz"]
        );
        assert!(clauses("the cart gains a shirt").is_empty());
        let kept = |s: &str| {
            Claims::parse(s)
                .kept
                .iter()
                .map(|o| o.iter().collect::<Vec<_>>().join(" "))
                .collect::<Vec<_>>()
        };
        assert_eq!(kept("the dialog closes and the order is kept"), ["ord"]);
        assert_eq!(kept("the account is kept"), ["account"]);
        assert_eq!(
            kept("el diálogo se cierra y el pedido se mantiene"),
            ["ped"]
        );
        assert_eq!(
            kept("der Dialog schließt sich und die Bestellung bleibt"),
            ["bestell"]
        );
        assert_eq!(
            kept("le dialogue se ferme et la commande est conservée"),
            ["command"]
        );
        assert!(kept("the order is deleted").is_empty());
        assert!(is_removal("Order 1042 deleted"));
        assert!(is_removal("Pedido eliminado"));
        assert!(is_removal("Bestellung gelöscht"));
        assert!(is_removal("Commande supprimée"));
        assert!(!is_removal("Order 1042 kept"));
    }

    #[test]
    fn variants() {
        // (run source, label, variant?)
        #[rustfmt::skip]
        let cases = [
            ("Remove Shirt M", "Remove Shirt L", true),
            ("Remove Shirt M", "Shirt L Remove Shirt L", true),
            ("Remove Shirt M", "Shirt M Remove Shirt M", false),
            ("Add Shirt M", "Remove Shirt M", false),
            ("Add Shirt M", "Shirt L", false),
            ("Shirt M", "Shirt L Remove Shirt L", true),
            ("Shirt M", "Trousers L", false),
            ("Shirt M", "Shirt added", false),
            ("Room 101", "Room 102", true),
            ("View cart", "View wishlist", false),
            ("Camiseta M", "Camiseta L Quitar Camiseta L", true),
            ("Add task", "Added Order labels", false),
            ("Añadir tarea", "Añadido Comprar pan", false),
            ("Aufgabe hinzufügen", "Einkauf hinzugefügt", false),
            ("Ajouter tâche", "Ajouté Appeler Paul", false),
            ("Remove task", "Removed Pack order", false),
            // "name" stands for whatever the name now is.
            ("project name", "Project Gemini", false),
            ("project phase", "Project Gemini", true),
        ];
        for (source, label, want) in cases {
            let run = stems(source);
            let got = is_variant(&run, &stems(label), &Terms::of(source));
            assert_eq!(got, want, "{source} ~ {label}");
        }
        assert!(holds(&stems("Shirt M Remove Shirt M"), &stems("Shirt M")));
        assert!(!holds(&stems("Shirt"), &stems("Shirt M")));
    }

    #[test]
    fn words_of_containers_and_failure() {
        assert_eq!(containers_in("main/list:cart-items"), ["cart"]);
        assert_eq!(containers_in("complementary[Wishlist]"), ["wishlist"]);
        assert_eq!(
            containers_in("Mi carrito y mis favoritos"),
            ["cart", "wishlist"]
        );
        assert!(containers_in("main/list:catalogue").is_empty());
        for (s, want) in [
            ("Payment declined", true),
            ("Pago rechazado", true),
            ("Zahlung fehlgeschlagen", true),
            ("Le paiement a échoué", true),
            ("Accès refusé", true),
            ("Booking confirmed", false),
            ("Terror movies", false),
        ] {
            assert_eq!(is_failure(s), want, "{s}");
        }
    }
}
