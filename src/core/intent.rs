//! Deterministic word matching: does an effect carry an element's name, does a sentence of
//! intent describe an effect?
//!
//! Plain lexical matching, so the same inputs always give the same verdict and nothing has to
//! leave the page: folded tokens (`text::tokens`: case and accents removed), the stop-words
//! of Spanish, English, French and German dropped, and a light stemmer that strips common
//! plural, gender, participle and nominalisation endings ("eliminada" ~ "eliminar",
//! "supprimée" ~ "supprimer", "gelöscht" ~ "löschen", "shirts" ~ "shirt"). Two stems also
//! match when they share a prefix of at least [`MIN_SHARED_PREFIX`] letters that covers three
//! quarters of the shorter one ("deletion" ~ "deleted").
//!
//! Trade-off: no dictionary and no model. Synonyms do not match ("Confirm" is not "delete"),
//! and a sentence that repeats the words of an effect matches it whatever its grammar says.
//! Negated intents ("the account is not deleted") cannot be checked this way, so they never
//! match: a wrong MATCH is worse than an honest AMBIGUOUS.

use super::text;
use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::OnceLock;

/// At most this many distinct terms are kept from one phrase (names and texts are capped by
/// the page, but judge inputs may come from anywhere).
pub const MAX_TERMS: usize = 64;

/// Two different stems match when they share at least this many leading letters (and the
/// shared part covers three quarters of the shorter stem).
pub const MIN_SHARED_PREFIX: usize = 5;

/// An intent explains an effect when the effect covers at least this share of its terms.
pub const INTENT_COVERAGE: f32 = 0.5;

/// ... or when the intent covers at least this share of the effect's label terms (and two or
/// more of them).
pub const LABEL_COVERAGE: f32 = 0.75;

// Function words of the four languages prufe is tested in, folded (no accents, lowercase).
// Light verbs that only link subject and state ("queda", "wurde", "becomes") and verbs of
// appearing ("appears", "aparece", "s'affiche", "erscheint") are included: they never name
// what changed.
const STOP_WORDS_ES: &[&str] = &[
    "a", "al", "aparece", "aparecen", "como", "con", "de", "del", "e", "el", "ella", "en", "era",
    "es", "esa", "ese", "eso", "esta", "estan", "este", "esto", "fue", "ha", "han", "hay", "la",
    "las", "le", "les", "lo", "los", "mi", "mis", "o", "otra", "otras", "otro", "otros", "para",
    "pasa", "pero", "por", "queda", "quedan", "que", "se", "sera", "ser", "si", "sin", "son", "su",
    "sus", "tu", "tus", "u", "un", "una", "unas", "unos", "y", "ya",
];
const STOP_WORDS_EN: &[&str] = &[
    "a", "am", "an", "and", "another", "appear", "appears", "are", "as", "at", "be", "become",
    "becomes", "been", "being", "by", "show", "shown", "shows", "can", "did", "do", "does", "for",
    "from", "get", "gets", "got", "had", "has", "have", "her", "his", "i", "in", "into", "is",
    "it", "its", "me", "my", "now", "of", "on", "or", "our", "should", "so", "than", "that", "the",
    "their", "then", "there", "more", "less", "longer", "anymore", "these", "this", "those", "to",
    "up", "was", "we", "were", "when", "while", "will", "with", "would", "you", "your",
];
const STOP_WORDS_FR: &[&str] = &[
    "affiche", "apparait", "au", "autre", "aux", "avec", "ce", "ces", "cet", "cette", "dans", "de",
    "des", "devient", "du", "elle", "en", "est", "et", "etait", "ete", "etre", "il", "la", "le",
    "les", "leur", "ma", "mes", "mon", "nos", "notre", "ou", "par", "pour", "qui", "que", "sa",
    "se", "ses", "son", "sont", "sur", "ta", "tes", "ton", "un", "une", "vos", "votre",
];
const STOP_WORDS_DE: &[&str] = &[
    "am",
    "an",
    "angezeigt",
    "auf",
    "aus",
    "bei",
    "das",
    "dein",
    "deine",
    "dem",
    "den",
    "der",
    "des",
    "die",
    "erscheint",
    // "nicht mehr": a cessation (see `states`); "more" is a stop word too.
    "mehr",
    "ein",
    "eine",
    "einem",
    "einen",
    "einer",
    "eines",
    "er",
    "es",
    "fur",
    "hat",
    "haben",
    "ihr",
    "im",
    "in",
    "ist",
    "jetzt",
    "mein",
    "meine",
    "mit",
    "noch",
    "nun",
    "oder",
    "sein",
    "seine",
    "sich",
    "sie",
    "sind",
    "um",
    "und",
    "vom",
    "von",
    "war",
    "werden",
    "wir",
    "wird",
    "worden",
    "wurde",
    "zu",
    "zum",
    "zur",
];
/// The redaction marker carries no meaning of its own.
const STOP_WORDS_PRUFE: &[&str] = &["redacted"];

/// Words that turn a sentence into a statement about an absence, which a diff cannot confirm.
const NEGATIONS: &[&str] = &[
    "not", "no", "never", "nothing", "none", "nicht", "kein", "keine", "keinen", "keiner", "nie",
    "niemals", "pas", "jamais", "aucun", "aucune", "rien", "nunca", "jamas", "ningun", "ninguna",
    "nada",
];

// Endings stripped by `stem`, longer before shorter where both could match; the first one
// that leaves at least three letters wins. Folded forms (é → e).
#[rustfmt::skip]
const SUFFIXES: &[&str] = &[
    // Spanish, French and English nominalisations; English and French -ment; German -ung.
    "aciones", "ations", "acion", "ation", "iones", "ions", "ion", "ments", "ment", "ungen", "ung",
    // Spanish participles and gerunds.
    "iendo", "ados", "adas", "idos", "idas", "ando", "ado", "ada", "ido", "ida",
    // English gerund and past; French feminine and plural participles; agent nouns.
    "ing", "ees", "ers", "ern", "ed", "ee",
    // Infinitives and German plurals.
    "en", "er", "ar", "ir",
    // Plural and gender.
    "es", "as", "os", "s", "a", "o", "e",
];

/// Words that name an action, not a thing, by language: never the distinguishing word of a
/// variant, and not part of the object. Folded; compared by stem. They tell a sentence's
/// language too (`likely_languages`).
#[rustfmt::skip]
pub const ACTION_WORDS: [(Language, &[&str]); 4] = [
    (Language::English, &[
        "add", "added", "gain", "gains", "remove", "removed", "delete", "deleted", "erase", "buy",
        "save", "saved", "cancel", "submit", "send", "sent", "close", "closes", "closed", "open",
        "opens", "opened", "confirm", "confirmed", "pay", "paid", "view", "edit", "update",
        "select", "choose", "pick", "move", "moved", "keep", "kept", "hide", "display", "give",
        "reveal", "arrives", "lands", "go", "goes", "enters",
        // Verbs of telling someone: what they name is the news, not the telling.
        "notify", "notifies", "notified",
        // Verbs that set a state ("Turn off", "Switch on"): the state names what changes.
        "turn", "turns", "turned", "switch", "switches", "switched",
        // Verbs of holding, which name no thing either.
        "contain", "contains", "holds",
    ]),
    (Language::Spanish, &[
        "anadir", "anade", "anadido", "suma", "sumar", "quitar", "quita", "eliminar", "borrar",
        "comprar", "guardar", "cancelar", "enviar", "cerrar", "cierra", "abrir", "abre",
        "confirmar", "pagar", "mover", "ver", "mostrar", "muestra", "ocultar", "dar", "guarda",
        "elimina", "borra", "envia", "paga", "confirma", "mueve", "cancela", "llega", "entra",
        "contiene", "contienen",
    ]),
    (Language::French, &[
        "ajouter", "ajoute", "retirer", "supprimer", "enlever", "acheter", "enregistrer",
        "annuler", "envoyer", "fermer", "ferme", "ouvrir", "ouvre", "confirmer", "payer",
        "deplacer", "afficher", "voir", "masquer", "donner", "contient",
    ]),
    (Language::German, &[
        "hinzufugen", "entfernen", "loschen", "kaufen", "speichern", "abbrechen", "senden",
        "schliessen", "offnen", "bestatigen", "zahlen", "bezahlen", "verschieben", "anzeigen",
        "zeigen", "ausblenden", "geben",
        // Finite forms and participles the stemmer does not bring to the infinitive's stem.
        "schliesst", "geschlossen", "offnet", "entfernt", "loscht", "speichert", "zeigt", "zahlt",
        "bezahlt", "bestatigt", "sendet", "kauft", "verschiebt", "bricht", "abgebrochen", "gibt",
        // Verbs of arriving: "eine Tasse kommt in den Warenkorb" names a mug and a cart.
        "kommt", "kommen", "landet", "landen",
        "enthalt", "enthalten",
    ]),
];

/// Predicates that say a thing stays, folded: a clause holding one ("the order is kept")
/// claims its object is still there.
#[rustfmt::skip]
pub const KEEP_WORDS: &[&str] = &[
    "kept", "keep", "keeps", "remains", "remain", "stays", "stay", "retained", "preserved",
    "intact", "unchanged",
    "mantiene", "mantienen", "mantenido", "mantenida", "conserva", "conservan", "conservado",
    "conservada", "permanece", "permanecen", "sigue", "siguen",
    "bleibt", "bleiben", "erhalten", "behalten", "unverandert",
    "reste", "restent", "conserve", "conservee", "conserves", "garde", "gardee", "intacte",
];

fn action_stems() -> &'static HashSet<String> {
    static SET: OnceLock<HashSet<String>> = OnceLock::new();
    // Predicates of staying name no thing either.
    SET.get_or_init(|| {
        ACTION_WORDS
            .iter()
            .flat_map(|(_, words)| words.iter())
            .chain(KEEP_WORDS)
            .map(|w| stem(w).into_owned())
            .collect()
    })
}

/// Is this stem an action word (or a predicate of staying)? Such words name the gesture,
/// never the thing it acts on.
pub fn is_action(st: &str) -> bool {
    action_stems().contains(st)
}

fn stop_words() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| {
        [
            STOP_WORDS_ES,
            STOP_WORDS_EN,
            STOP_WORDS_FR,
            STOP_WORDS_DE,
            STOP_WORDS_PRUFE,
        ]
        .iter()
        .flat_map(|words| words.iter().copied())
        .collect()
    })
}

/// Is a folded token a function word of Spanish, English, French or German?
pub fn is_stop_word(token: &str) -> bool {
    stop_words().contains(token)
}

/// A language prufe knows the function words of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    Spanish,
    English,
    French,
    German,
}

/// The function words of each language prufe knows.
const FUNCTION_WORDS: [(Language, &[&str]); 4] = [
    (Language::Spanish, STOP_WORDS_ES),
    (Language::English, STOP_WORDS_EN),
    (Language::French, STOP_WORDS_FR),
    (Language::German, STOP_WORDS_DE),
];

/// The language of folded tokens, told by the function words that belong to one language
/// only ("der", "jetzt"; "your", "the"): the one with the most, `None` on a tie or when
/// there is none.
pub fn language<'t>(tokens: impl Iterator<Item = &'t str>) -> Option<Language> {
    let mut hits = [0usize; 4];
    for t in tokens {
        let mut owner = None;
        for (i, (_, list)) in FUNCTION_WORDS.iter().enumerate() {
            if list.contains(&t) {
                if owner.is_some() {
                    owner = None;
                    break;
                }
                owner = Some(i);
            }
        }
        if let Some(i) = owner {
            hits[i] += 1;
        }
    }
    let best = *hits.iter().max()?;
    if best == 0 || hits.iter().filter(|h| **h == best).count() > 1 {
        return None;
    }
    hits.iter()
        .position(|h| *h == best)
        .map(|i| FUNCTION_WORDS[i].0)
}

/// The languages whose function words and action verbs a sentence's folded tokens hold most
/// of, counting a word shared by several languages for each ("la" and "se" are Spanish and French): empty
/// when it holds none. A short sentence may leave two ("Se descarta la confirmación"); what
/// the reading needs is only whether the page's language is among them.
pub fn likely_languages<'t>(tokens: impl Iterator<Item = &'t str>) -> Vec<Language> {
    let verbs = FUNCTION_WORDS.map(|(language, _)| {
        ACTION_WORDS
            .iter()
            .find(|(l, _)| *l == language)
            .map_or(&[][..], |(_, w)| *w)
    });
    let mut hits = [0usize; 4];
    for t in tokens {
        for (i, (_, list)) in FUNCTION_WORDS.iter().enumerate() {
            hits[i] += (list.contains(&t) || verbs[i].contains(&t)) as usize;
        }
    }
    let best = hits.iter().copied().max().unwrap_or(0);
    if best == 0 {
        return Vec::new();
    }
    (0..4)
        .filter(|i| hits[*i] == best)
        .map(|i| FUNCTION_WORDS[i].0)
        .collect()
}

/// Ordinal words of the four languages, folded, with the place they name: "the third offer"
/// names what "Go to slide 3" goes to.
#[rustfmt::skip]
const ORDINALS: &[(&str, u32)] = &[
    ("first", 1), ("second", 2), ("third", 3), ("fourth", 4), ("fifth", 5), ("sixth", 6),
    ("primero", 1), ("primera", 1), ("segundo", 2), ("segunda", 2), ("tercero", 3),
    ("tercera", 3), ("tercer", 3), ("cuarto", 4), ("cuarta", 4), ("quinto", 5), ("quinta", 5),
    ("premier", 1), ("premiere", 1), ("deuxieme", 2), ("troisieme", 3), ("quatrieme", 4),
    ("cinquieme", 5),
    ("erste", 1), ("ersten", 1), ("erster", 1), ("zweite", 2), ("zweiten", 2), ("dritte", 3),
    ("dritten", 3), ("vierte", 4), ("vierten", 4), ("funfte", 5), ("funften", 5),
];

/// The place a folded token names when it is an ordinal ("third", "dritte": 3).
pub fn ordinal(token: &str) -> Option<u32> {
    ORDINALS.iter().find(|(w, _)| *w == token).map(|(_, n)| *n)
}

/// Is a folded token a negation ("not", "nicht", "pas", "nunca"...)?
pub fn is_negation(token: &str) -> bool {
    NEGATIONS.contains(&token)
}

/// Drops French elisions (`l'`, `d'`, `qu'`...) and English possessive `'s`, so
/// "l'article" is "article" and "shirt's" is "shirt".
pub fn strip_elisions(s: &str) -> Cow<'_, str> {
    if !s.contains(['\'', '’']) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    // Byte offset in `out` where the current word starts.
    let mut word_start = 0;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\'' || c == '’' {
            let word = out[word_start..].to_lowercase();
            if matches!(
                word.as_str(),
                "l" | "d" | "j" | "s" | "c" | "n" | "m" | "t" | "qu"
            ) {
                out.truncate(word_start);
            } else if chars.peek().is_some_and(|&n| n == 's' || n == 'S') {
                let mut rest = chars.clone();
                rest.next();
                if !rest.peek().is_some_and(|n| n.is_alphanumeric()) {
                    chars.next();
                }
            }
            out.push(' ');
            word_start = out.len();
        } else {
            out.push(c);
            if !c.is_alphanumeric() {
                word_start = out.len();
            }
        }
    }
    Cow::Owned(out)
}

/// Folded content words of `s` in order: elisions removed, stop-words dropped, not stemmed.
/// "La cuenta queda eliminada" → `["cuenta", "eliminada"]`.
pub fn content_tokens(s: &str) -> Vec<String> {
    text::tokens(&strip_elisions(s))
        .into_iter()
        .filter(|t| !is_stop_word(t))
        .collect()
}

/// Irregular participles and past forms that no ending rule relates to their verb, folded,
/// each with that verb: "Paid" is what "pay" did. Only forms with no other common meaning in
/// the four languages: a wrong entry could only make more words match.
#[rustfmt::skip]
const IRREGULAR: &[(&str, &str)] = &[
    // English.
    ("began", "begin"), ("begun", "begin"), ("bought", "buy"), ("brought", "bring"),
    ("built", "build"), ("forgot", "forget"), ("forgotten", "forget"), ("found", "find"),
    ("froze", "freeze"), ("frozen", "freeze"), ("gave", "give"), ("given", "give"),
    ("hidden", "hide"), ("kept", "keep"), ("lost", "lose"), ("made", "make"), ("paid", "pay"),
    ("sent", "send"), ("sold", "sell"), ("spent", "spend"), ("taken", "take"), ("took", "take"),
    ("undone", "undo"), ("withdrawn", "withdraw"), ("written", "write"), ("wrote", "write"),
    // Spanish, every gender and number.
    ("abierto", "abrir"), ("abierta", "abrir"), ("abiertos", "abrir"), ("abiertas", "abrir"),
    ("devuelto", "devolver"), ("devuelta", "devolver"), ("devueltos", "devolver"),
    ("devueltas", "devolver"), ("escrito", "escribir"), ("escrita", "escribir"),
    ("escritos", "escribir"), ("escritas", "escribir"), ("hecho", "hacer"), ("hecha", "hacer"),
    ("hechos", "hacer"), ("hechas", "hacer"), ("impreso", "imprimir"), ("impresa", "imprimir"),
    ("impresos", "imprimir"), ("impresas", "imprimir"), ("resuelto", "resolver"),
    ("resuelta", "resolver"), ("roto", "romper"), ("rota", "romper"),
    // French.
    ("ecrit", "ecrire"), ("ecrite", "ecrire"), ("ecrits", "ecrire"), ("ecrites", "ecrire"),
    ("offert", "offrir"), ("offerte", "offrir"), ("offerts", "offrir"), ("offertes", "offrir"),
    ("ouvert", "ouvrir"), ("ouverte", "ouvrir"), ("ouverts", "ouvrir"), ("ouvertes", "ouvrir"),
    ("pris", "prendre"), ("prise", "prendre"), ("prises", "prendre"),
];

/// The stem of a folded token: an irregular form ([`IRREGULAR`]) is its verb's stem, a
/// German `ge…t` participle loses both ends, an English `-ied`/`-ies` becomes `-y`
/// ("applied" → "apply"), otherwise the first ending of [`SUFFIXES`] that leaves at least
/// three letters goes. Numbers and words of three letters or fewer are kept whole.
pub fn stem(token: &str) -> Cow<'_, str> {
    static VERBS: OnceLock<std::collections::HashMap<&'static str, &'static str>> = OnceLock::new();
    if let Some(verb) = VERBS
        .get_or_init(|| IRREGULAR.iter().copied().collect())
        .get(token)
    {
        return stem(verb);
    }
    if token.len() <= 3 || token.bytes().all(|b| b.is_ascii_digit()) {
        return Cow::Borrowed(token);
    }
    // German past participle: gelöscht → losch (löschen → losch), gekauft → kauf.
    if token.len() >= 6 && token.starts_with("ge") && token.ends_with('t') {
        return Cow::Borrowed(&token[2..token.len() - 1]);
    }
    if let Some(rest) = token
        .strip_suffix("ied")
        .or_else(|| token.strip_suffix("ies"))
    {
        if rest.len() >= 2 {
            return Cow::Owned(format!("{rest}y"));
        }
    }
    for suffix in SUFFIXES {
        if let Some(rest) = token.strip_suffix(suffix) {
            if rest.len() >= 3 {
                return Cow::Borrowed(rest);
            }
        }
    }
    Cow::Borrowed(token)
}

/// Do two stems name the same thing? Equal, or sharing a prefix of at least
/// [`MIN_SHARED_PREFIX`] characters that covers three quarters of the shorter stem.
pub fn same_term(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let shared = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let shorter = a.chars().count().min(b.chars().count());
    shared >= MIN_SHARED_PREFIX && shared * 4 >= shorter * 3
}

/// The key under which a stem is indexed so that every stem it may match (per [`same_term`])
/// shares it: its first [`MIN_SHARED_PREFIX`] characters.
pub fn bucket(stem: &str) -> &str {
    match stem.char_indices().nth(MIN_SHARED_PREFIX) {
        Some((i, _)) => &stem[..i],
        None => stem,
    }
}

/// The distinct stems of a phrase's content words, in order of first appearance, at most
/// [`MAX_TERMS`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Terms {
    stems: Vec<String>,
}

impl Terms {
    pub fn of(s: &str) -> Terms {
        let mut stems: Vec<String> = Vec::new();
        for token in content_tokens(s) {
            if stems.len() == MAX_TERMS {
                break;
            }
            let st = stem(&token);
            let st = st.as_ref();
            if !stems.iter().any(|s| s == st) {
                stems.push(st.to_owned());
            }
        }
        Terms { stems }
    }

    /// The union of two term sets (`self` first), still capped at [`MAX_TERMS`].
    pub fn with(mut self, other: &Terms) -> Terms {
        for st in &other.stems {
            if self.stems.len() == MAX_TERMS {
                break;
            }
            if !self.stems.contains(st) {
                self.stems.push(st.clone());
            }
        }
        self
    }

    /// These terms less those `other` matches.
    pub fn without(&self, other: &Terms) -> Terms {
        Terms {
            stems: self
                .stems
                .iter()
                .filter(|s| !other.matches(s))
                .cloned()
                .collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.stems.is_empty()
    }

    pub fn len(&self) -> usize {
        self.stems.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.stems.iter().map(String::as_str)
    }

    /// Does any of these terms match `stem`?
    pub fn matches(&self, stem: &str) -> bool {
        self.stems.iter().any(|s| same_term(s, stem))
    }

    /// How many of these terms `by` matches.
    pub fn matched_by(&self, by: &Terms) -> usize {
        self.iter().filter(|t| by.matches(t)).count()
    }
}

/// The share of `of`'s terms that `by` matches; 0 when `of` has none.
pub fn coverage(of: &Terms, by: &Terms) -> f32 {
    if of.is_empty() {
        return 0.0;
    }
    of.matched_by(by) as f32 / of.len() as f32
}

/// A caller's sentence of intent, ready to be held against effects.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Intent {
    terms: Terms,
    negated: bool,
}

impl Intent {
    /// Parses a sentence in any of the supported languages.
    pub fn parse(sentence: &str) -> Intent {
        let folded = text::fold(sentence);
        // "no longer selected" says the other state, not an absence (see `states`).
        let cessation = super::states::is_cessation(sentence);
        let negated = !cessation
            && (folded.contains("n't")
                || folded.contains("n’t")
                || text::tokens(&folded).iter().any(|t| is_negation(t)));
        // The words of "no longer", "ya no", "nicht mehr" say which way a state went; they
        // name no thing.
        let terms = if cessation {
            let kept: Vec<String> = text::tokens(&strip_elisions(sentence))
                .into_iter()
                .filter(|t| !is_negation(t) && !super::states::is_cessation_word(t))
                .collect();
            Terms::of(&kept.join(" "))
        } else {
            Terms::of(sentence)
        };
        Intent { terms, negated }
    }

    /// The intent's content terms.
    pub fn terms(&self) -> &Terms {
        &self.terms
    }

    /// False for an empty or negated sentence: such an intent never explains anything.
    pub fn is_usable(&self) -> bool {
        !self.negated && !self.terms.is_empty()
    }

    /// How well the intent explains an effect whose label (name or text) has the terms
    /// `label`, in a context (region, changed field names, new values) with the terms
    /// `context`. 0 means not at all; otherwise the larger of:
    /// - the share of the intent's terms found in label and context (1 when every term that
    ///   is not an action word is found), when it reaches [`INTENT_COVERAGE`] and at least
    ///   one of them is in the label;
    /// - the share of the label's terms found in the intent, when it reaches
    ///   [`LABEL_COVERAGE`] with two terms or more.
    pub fn score(&self, label: &Terms, context: &Terms) -> f32 {
        if !self.is_usable() || label.is_empty() {
            return 0.0;
        }
        let mut best = 0.0f32;
        let from_label = self.terms.matched_by(label);
        if from_label > 0 {
            let found = |t: &&str| label.matches(t) || context.matches(t);
            let total = self.terms.iter().filter(found).count();
            // Action words name no thing: when every other term is found, the verbs do not
            // hold the share down ("bleibt erhalten" weighs no more than "is kept").
            let things = self.terms.iter().filter(|t| !is_action(t));
            let (n, thing_total) = things.fold((0, 0), |(n, f), t| (n + 1, f + found(&t) as usize));
            let all_things = n > 0 && thing_total == n;
            let share = if all_things {
                1.0
            } else {
                total as f32 / self.terms.len() as f32
            };
            if share >= INTENT_COVERAGE {
                best = share;
            }
        }
        let label_matched = label.matched_by(&self.terms);
        let label_share = label_matched as f32 / label.len() as f32;
        if label_matched >= 2 && label_share >= LABEL_COVERAGE {
            best = best.max(label_share);
        }
        best
    }

    /// Does the intent explain an effect labelled `label` in `context`? See [`Intent::score`].
    pub fn explains(&self, label: &str, context: &str) -> bool {
        self.score(&Terms::of(label), &Terms::of(context)) > 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_and_elisions() {
        #[rustfmt::skip]
        let cases: [(&str, &[&str]); 10] = [
            ("La cuenta queda eliminada", &["cuenta", "eliminada"]),
            ("the cart gains a shirt size M", &["cart", "gains", "shirt", "size", "m"]),
            ("le compte est supprimé", &["compte", "supprime"]),
            ("das Konto wurde gelöscht", &["konto", "geloscht"]),
            ("l'article d'Anna est supprimé", &["article", "anna", "supprime"]),
            ("l’article", &["article"]),
            ("the shirt's size", &["shirt", "size"]),
            ("Trousers L", &["trousers", "l"]),
            ("", &[]),
            ("[redacted]", &[]),
        ];
        for (input, want) in cases {
            assert_eq!(content_tokens(input), want, "{input:?}");
        }
    }

    #[test]
    fn stems() {
        for (token, want) in [
            ("eliminada", "elimin"),
            ("eliminado", "elimin"),
            ("eliminar", "elimin"),
            ("eliminacion", "elimin"),
            ("cuentas", "cuent"),
            ("cuenta", "cuent"),
            ("supprime", "supprim"),
            ("supprimee", "supprim"),
            ("supprimer", "supprim"),
            ("geloscht", "losch"),
            ("loschen", "losch"),
            ("konto", "kont"),
            ("konten", "kont"),
            ("shirts", "shirt"),
            ("shirt", "shirt"),
            ("deleted", "delet"),
            ("delete", "delet"),
            ("deletion", "delet"),
            ("orders", "ord"),
            ("order", "ord"),
            ("users", "user"),
            ("payment", "pay"),
            ("pay", "pay"),
            ("bestellung", "bestell"),
            ("bestellen", "bestell"),
            ("applied", "apply"),
            ("apply", "apply"),
            ("categories", "category"),
            ("pagar", "pag"),
            ("pago", "pag"),
            ("add", "add"),
            ("m", "m"),
            ("2024", "2024"),
            // Irregular forms are their verb's stem, as its regular forms are.
            ("paid", "pay"),
            ("paying", "pay"),
            ("bought", "buy"),
            ("sent", "send"),
            ("made", "mak"),
            ("making", "mak"),
            ("escrita", "escrib"),
            ("escribir", "escrib"),
            ("ouvertes", "ouvr"),
            ("ouvrir", "ouvr"),
            ("mad", "mad"),
        ] {
            assert_eq!(stem(token), want, "{token:?}");
        }
    }

    #[test]
    fn ordinals_name_places() {
        for (token, want) in [
            ("third", Some(3)),
            ("dritte", Some(3)),
            ("tercera", Some(3)),
            ("offer", None),
        ] {
            assert_eq!(ordinal(token), want, "{token}");
        }
    }

    #[test]
    fn same_term_cases() {
        for (a, b, want) in [
            ("delet", "delet", true),
            ("speich", "speicher", true),
            ("confirm", "configur", false),
            ("cart", "car", false),
            ("m", "l", false),
            ("losch", "loscht", true),
        ] {
            assert_eq!(same_term(a, b), want, "{a} ~ {b}");
            assert_eq!(same_term(b, a), want, "{b} ~ {a}");
            if want {
                assert_eq!(bucket(a), bucket(b), "{a} and {b} must share a bucket");
            }
        }
    }

    #[test]
    fn intents_explain_effects_in_four_languages() {
        // (case, intent, effect label, effect context, explained?)
        #[rustfmt::skip]
        let cases = [
            ("es account", "la cuenta queda eliminada", "Cuenta eliminada", "main", true),
            ("es cart", "el carrito suma una camiseta talla M", "Camiseta M Quitar Camiseta M", "carrito", true),
            ("es wrong product", "el carrito suma una camiseta", "Pantalon L Quitar Pantalon L", "carrito", false),
            ("es counter only", "el carrito suma una camiseta", "Carrito: 1 artículo", "carrito", false),
            ("es appears", "aparece el mensaje de confirmación", "Mensaje de confirmación enviado", "", true),
            ("en cart", "the cart gains a shirt size M", "Shirt M", "cart", true),
            ("en wrong size", "the cart gains a shirt size M", "Trousers L", "cart", false),
            ("en long intent", "after confirming the dialog the account is deleted for good", "Account deleted", "", true),
            ("en checked", "the newsletter box is checked", "Subscribe to the newsletter", "checked true", true),
            ("en role word", "the profile menu shows", "Profile", "menu item banner", true),
            ("en negated", "the account is not deleted", "Account deleted", "", false),
            ("en contraction", "the account isn't deleted", "Account deleted", "", false),
            ("fr account", "le compte est supprimé", "Compte supprimé", "", true),
            ("fr feminine", "la commande est confirmée", "Commande confirmée", "", true),
            ("fr elision", "l'adresse s'affiche", "Adresse enregistrée", "", true),
            ("fr unrelated", "le compte est supprimé", "Panier mis à jour", "", false),
            ("de account", "das Konto wurde gelöscht", "Konto gelöscht", "", true),
            ("de infinitive", "Konto löschen", "Das Konto wurde gelöscht", "", true),
            ("de plural", "die Konten werden gelöscht", "Konto gelöscht", "", true),
            ("de unrelated", "das Konto wurde gelöscht", "Warenkorb aktualisiert", "", false),
            ("en irregular", "the payment is made", "Paid", "", true),
            ("en irregular, another effect", "the payment is made", "Newsletter sent", "", false),
            ("en irregular, the verb alone", "the order is bought", "Buy", "", true),
            ("es irregular", "la puerta queda abierta", "Puerta abierta", "", true),
            ("fr irregular", "le dossier est ouvert", "Dossier ouvert", "", true),
            ("region alone", "the cart gains a shirt", "Total 19.99", "cart", false),
            ("empty intent", "", "Saved", "", false),
            ("stop words only", "it is the one", "Saved", "", false),
        ];
        for (name, intent, label, context, want) in cases {
            assert_eq!(
                Intent::parse(intent).explains(label, context),
                want,
                "{name}"
            );
        }
    }

    #[test]
    fn terms_are_distinct_capped_and_unioned() {
        let t = Terms::of("Shirt shirts SHIRT M");
        assert_eq!(t.iter().collect::<Vec<_>>(), vec!["shirt", "m"]);
        let many: String = (0..200).map(|i| format!("word{i} ")).collect();
        assert_eq!(Terms::of(&many).len(), MAX_TERMS);
        let u = Terms::of("shirt").with(&Terms::of("cart shirt"));
        assert_eq!(u.iter().collect::<Vec<_>>(), vec!["shirt", "cart"]);
        assert_eq!(
            coverage(
                &Terms::of("Shirt M"),
                &Terms::of("the cart gains a shirt size M")
            ),
            1.0
        );
        assert_eq!(coverage(&Terms::default(), &Terms::of("x")), 0.0);
    }
}
