//! What people call a widget's own states, and which way a sentence says one went.
//!
//! A switch is "on" or "off", a tab "selected" or "open", a disclosure "expanded" or
//! "collapsed", a slider's value "up" or "down": the states of WAI-ARIA's own fields
//! (`aria-checked`, `aria-pressed`, `aria-selected`, `aria-expanded`, `aria-valuenow`), in
//! the words of the four languages prufe reads. The judge adds a changed field's words to
//! the effect's context, so an intent that says the state ("Autosave is turned off", "se
//! abre la pestaña Security") is explained by the target's own change; and [`said`] tells
//! which way the sentence says the state went, so the opposite way contradicts it.
//!
//! A sentence that says a state stopped ("no longer selected", "ya no se saltan", "nicht
//! mehr ausgewählt") says the other way: [`is_cessation`] keeps such a sentence from reading
//! as a negation, which a diff could not check.
//!
//! Trade-off: word lists, not grammar. "on" and "an" (also prepositions) count only as the
//! last word of a sentence ("is turned on", "die Heizung ist an").

use super::diff::Field;
use super::text;

/// Words for a field turning true (on, selected, expanded) and false, folded.
struct Words {
    on: &'static [&'static str],
    off: &'static [&'static str],
}

/// `aria-checked` and `aria-pressed`: a switch, checkbox or toggle button.
#[rustfmt::skip]
const TOGGLED: Words = Words {
    on: &[
        "checked", "ticked", "enabled", "enable", "activated", "activate", "active", "switched",
        "pressed", "included", "selected", "chosen",
        "activa", "activas", "activan", "activado", "activada", "activados", "activadas",
        "encendido", "encendida", "encendidos", "encendidas", "enciende", "encienden",
        "marcado", "marcada", "marcados", "marcadas", "marca", "seleccionado", "seleccionada",
        "aktiviert", "aktiv", "eingeschaltet", "angeschaltet", "angehakt", "markiert",
        "ausgewahlt", "gewahlt",
        "active", "activee", "coche", "cochee", "allume", "allumee",
    ],
    off: &[
        "off", "unchecked", "unticked", "disabled", "disable", "deactivated", "deactivate",
        "inactive", "unselected", "deselected", "cleared", "excluded",
        "desactiva", "desactivan", "desactivado", "desactivada", "desactivados",
        "desactivadas", "apagado", "apagada", "apagados", "apagadas", "apaga", "apagan",
        "desmarcado", "desmarcada", "desmarca",
        "deaktiviert", "inaktiv", "ausgeschaltet", "abgeschaltet", "abgewahlt",
        "desactive", "desactivee", "decoche", "decochee", "eteint", "eteinte",
    ],
};

/// `aria-selected`: a tab, option, row or tree item.
#[rustfmt::skip]
const SELECTED: Words = Words {
    on: &[
        "selected", "chosen", "picked", "active", "current", "open", "opens", "opened", "shown",
        "muestra", "muestran", "angezeigt", "affiche", "affichee",
        "seleccionado", "seleccionada", "seleccionados", "seleccionadas", "selecciona",
        "elegido", "elegida", "elige", "escogido", "escogida", "abre", "abierta", "abierto",
        "activa", "activo",
        "ausgewahlt", "gewahlt", "aktiv", "aktuell", "offen", "geoffnet", "offnet",
        "selectionne", "selectionnee", "choisi", "choisie", "ouvert", "ouverte", "ouvre",
    ],
    off: &[
        "deselected", "unselected", "cleared",
        "deseleccionado", "deseleccionada", "abgewahlt", "deselectionne", "deselectionnee",
    ],
};

/// `aria-expanded`: a disclosure, accordion, menu button, combobox or tree item.
#[rustfmt::skip]
const EXPANDED: Words = Words {
    on: &[
        "open", "opens", "opened", "expanded", "expands", "expand", "unfolded", "unfolds",
        "shown", "muestra", "muestran", "angezeigt", "affiche", "affichee",
        "abre", "abren", "abierto", "abierta", "despliega", "despliegan", "desplegado",
        "desplegada", "expande", "expandido", "expandida",
        "offnet", "geoffnet", "offen", "aufgeklappt", "ausgeklappt", "klappt", "erweitert",
        "ouvre", "ouvert", "ouverte", "deplie", "depliee",
    ],
    off: &[
        "close", "closes", "closed", "collapsed", "collapses", "collapse", "folded", "folds",
        "cierra", "cierran", "cerrado", "cerrada", "pliega", "plegado", "plegada", "contrae",
        "contraido", "contraida",
        "schliesst", "geschlossen", "zugeklappt", "eingeklappt",
        "ferme", "fermee", "replie", "repliee",
    ],
};

/// `aria-valuenow` (and a field's number): up or down.
#[rustfmt::skip]
const VALUE: Words = Words {
    on: &[
        "increase", "increases", "increased", "raise", "raised", "raises", "higher", "louder",
        "grows", "rises", "increment", "incremented", "warmer", "hotter", "more",
        "sube", "suben", "subido", "subida", "aumenta", "aumentan", "aumentado", "aumentada",
        "incrementa", "incrementado", "mas",
        "steigt", "erhoht", "hoher", "lauter", "mehr",
        "augmente", "augmentee", "monte", "plus",
    ],
    off: &[
        "decrease", "decreases", "decreased", "lower", "lowered", "lowers", "quieter",
        "reduced", "reduce", "falls", "drops", "decrement", "decremented", "minus", "cooler",
        "colder", "fewer", "less",
        "baja", "bajan", "bajado", "bajada", "disminuye", "disminuido", "disminuida", "reduce",
        "reducido", "reducida", "menos",
        "sinkt", "verringert", "reduziert", "niedriger", "leiser", "weniger",
        "baisse", "baissee", "diminue", "diminuee", "moins",
    ],
};

/// Verbs that set a state without saying which ("turned", "schaltet"), folded.
#[rustfmt::skip]
const SETTING: &[&str] = &[
    "turn", "turns", "turned", "switch", "switches", "switched", "toggle", "toggles", "toggled",
    "set", "sets", "flip", "flipped",
    "pone", "puesto", "puesta", "cambia", "cambiado", "cambiada",
    "schaltet", "geschaltet", "stellt", "gestellt",
    "met", "mis", "mise", "bascule",
];

/// Prepositions that are also state words, counted as one only at a sentence's end.
const LAST_ON: &[&str] = &["on", "an", "ein"];
const LAST_OFF: &[&str] = &["aus"];

fn words(field: Field) -> Option<&'static Words> {
    match field {
        Field::Checked | Field::Pressed => Some(&TOGGLED),
        Field::Selected => Some(&SELECTED),
        Field::Expanded => Some(&EXPANDED),
        Field::Value => Some(&VALUE),
        _ => None,
    }
}

/// The words of `field`'s states, both ways and the setting verbs, as one string for an
/// effect's context; empty for a field that is no widget state.
pub fn vocabulary(field: Field) -> String {
    let Some(w) = words(field) else {
        return String::new();
    };
    let mut out: Vec<&str> = Vec::new();
    out.extend(w.on);
    out.extend(w.off);
    out.extend(SETTING);
    out.join(" ")
}

/// Does the sentence say a state stopped ("no longer", "not … anymore", "stops being", "ya
/// no", "deja de", "nicht mehr", "kein … mehr", "ne … plus", "cesse d'")? Such a sentence states the other way; it is no
/// negation.
pub fn is_cessation(sentence: &str) -> bool {
    let tokens = text::tokens(sentence);
    let has = |a: &str| tokens.iter().any(|t| t == a);
    let pair = |a: &str, b: &str| tokens.windows(2).any(|w| w[0] == a && w[1] == b);
    pair("no", "longer")
        || (has("not") && has("anymore"))
        || pair("stops", "being")
        || pair("deja", "de")
        || pair("dejan", "de")
        || pair("cesse", "d")
        || pair("cesse", "de")
        || pair("ya", "no")
        || pair("nicht", "mehr")
        || (has("kein") || has("keine")) && has("mehr")
        || (has("ne") || has("n")) && has("plus")
}

/// Is `token` one of the words a cessation phrase is made of?
pub fn is_cessation_word(token: &str) -> bool {
    matches!(token, "longer" | "anymore" | "mehr")
}

/// Which way the sentence says `field` went: `Some(true)` on (checked, selected, expanded,
/// up), `Some(false)` off, `None` when it says neither or both. A cessation flips it.
pub fn said(sentence: &str, field: Field) -> Option<bool> {
    let w = words(field)?;
    let tokens = text::tokens(sentence);
    let on = tokens.iter().any(|t| w.on.contains(&t.as_str()))
        || (matches!(field, Field::Checked | Field::Pressed)
            && tokens.last().is_some_and(|t| LAST_ON.contains(&t.as_str())));
    let off = tokens.iter().any(|t| w.off.contains(&t.as_str()))
        || (matches!(field, Field::Checked | Field::Pressed)
            && tokens
                .last()
                .is_some_and(|t| LAST_OFF.contains(&t.as_str())));
    let way = match (on, off) {
        (true, false) => true,
        (false, true) => false,
        _ => return None,
    };
    Some(way != is_cessation(sentence))
}

/// Which way `field` went from `before` to `after`: `Some(true)` on or up.
pub fn went(field: Field, before: Option<&str>, after: Option<&str>) -> Option<bool> {
    match field {
        Field::Value => {
            let n = |v: Option<&str>| {
                v.and_then(|v| {
                    let digits: String = v
                        .chars()
                        .filter(|c| c.is_ascii_digit() || matches!(c, '.' | '-'))
                        .collect();
                    digits.parse::<f64>().ok()
                })
            };
            let (b, a) = (n(before)?, n(after)?);
            (a != b).then_some(a > b)
        }
        _ if words(field).is_some() => {
            let on = |v: Option<&str>| matches!(v, Some("true" | "mixed"));
            (on(before) != on(after)).then_some(on(after))
        }
        _ => None,
    }
}

/// Words of a control that steps through a sequence (a pagination's or a carousel's "Next
/// page", "Previous slide"), folded: forward, then back.
#[rustfmt::skip]
const SEQUENCE: Words = Words {
    on: &[
        "next", "forward", "siguiente", "proxima", "proximo", "adelante", "nachste",
        "nachstes", "nachster", "weiter", "suivant", "suivante",
    ],
    off: &[
        "previous", "prev", "anterior", "atras", "vorherige", "vorheriges", "vorheriger",
        "vorige", "zuruck", "precedent", "precedente",
    ],
};

/// Which way a control's name steps through a sequence: `Some(true)` forward ("Go to next
/// page", "Siguiente"), `Some(false)` back ("Previous slide"), `None` when it says neither or
/// both.
pub fn steps(label: &str) -> Option<bool> {
    let tokens = text::tokens(label);
    let on = tokens.iter().any(|t| SEQUENCE.on.contains(&t.as_str()));
    let off = tokens.iter().any(|t| SEQUENCE.off.contains(&t.as_str()));
    (on != off).then_some(on)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_way_a_sentence_says_a_state_went() {
        #[rustfmt::skip]
        let cases: &[(&str, Field, Option<bool>)] = &[
            ("Autosave is turned off", Field::Checked, Some(false)),
            ("Dark mode is turned on", Field::Checked, Some(true)),
            ("Se desactiva el guardado automático", Field::Checked, Some(false)),
            ("Die Heizung ist an", Field::Checked, Some(true)),
            ("Die Lichter bleiben aus", Field::Checked, Some(false)),
            ("Cheese is no longer selected", Field::Selected, Some(false)),
            ("Cheese ist nicht mehr ausgewählt", Field::Selected, Some(false)),
            ("Cheese deja de estar seleccionado", Field::Selected, Some(false)),
            ("Ya no se saltan los silencios", Field::Checked, None),
            ("Se abre la pestaña Security", Field::Selected, Some(true)),
            ("Das Menü More öffnet sich", Field::Expanded, Some(true)),
            ("The menu closes", Field::Expanded, Some(false)),
            ("The quantity is increased by one", Field::Value, Some(true)),
            ("Die Menge sinkt", Field::Value, Some(false)),
            ("Email an Ana senden", Field::Checked, None),
            ("The dialog opens", Field::Checked, None),
        ];
        for (sentence, field, want) in cases {
            assert_eq!(said(sentence, *field), *want, "{sentence}");
        }
    }

    #[test]
    fn a_cessation_is_no_negation() {
        assert!(is_cessation("Silences are no longer skipped"));
        assert!(is_cessation("Stille wird nicht mehr übersprungen"));
        assert!(is_cessation("Ya no se saltan los silencios"));
        assert!(!is_cessation("the account is not deleted"));
    }

    #[test]
    fn which_way_a_field_went() {
        assert_eq!(
            went(Field::Checked, Some("true"), Some("false")),
            Some(false)
        );
        assert_eq!(
            went(Field::Selected, Some("false"), Some("true")),
            Some(true)
        );
        assert_eq!(went(Field::Value, Some("30"), Some("31")), Some(true));
        assert_eq!(went(Field::Value, Some("1"), Some("1")), None);
        assert_eq!(went(Field::Href, Some("a"), Some("b")), None);
    }
}
