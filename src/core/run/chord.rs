//! Key names and chords, the one table every driver presses from.
//!
//! A step names a key as a person writes it (`enter`, `ctrl+shift+k`, `Esc`); the machine
//! reads the chord once, at the start of the run, refuses an unknown key with
//! `INVALID_ACTION` before anything is sent, and from then on knows it only by its canonical
//! name: the `key` value of UI Events (`Enter`, `Control`, `ArrowUp`), which Playwright,
//! Puppeteer and CDP's key tables all take, or the character itself. The judge, the record
//! and the driver's `Gesture::Press` all see that name, so `enter` on the CLI and `enter` in
//! a package press the same key and are judged as the same key.
//!
//! Trade-off: the table is the intersection of what the drivers can press (named keys of a
//! US keyboard, letters, digits, any other printable character); a key only one browser
//! library knows (`NumpadEnter`) is refused everywhere rather than working on one surface.

use crate::core::error::{Error, ErrorCode};

/// The longest chord read, in characters.
pub const MAX_CHORD_CHARS: usize = 64;

/// The modifiers, as a chord names them. They are pressed first, in the chord's order, and
/// released last, in reverse.
pub const MODIFIERS: &[&str] = &["Alt", "Control", "Meta", "Shift"];

// https://www.w3.org/TR/uievents-key/#named-key-attribute-values (the ones a US keyboard
// has; `Space` is the code's name of the key whose `key` is " ", as Playwright and
// Puppeteer take it).
pub const NAMED: &[&str] = &[
    "Alt",
    "Control",
    "Meta",
    "Shift",
    "Enter",
    "Tab",
    "Escape",
    "Backspace",
    "Delete",
    "Space",
    "ArrowUp",
    "ArrowDown",
    "ArrowLeft",
    "ArrowRight",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "Insert",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "F6",
    "F7",
    "F8",
    "F9",
    "F10",
    "F11",
    "F12",
];

/// Other spellings of the named keys (compared without case; a name of `NAMED` in any case
/// is its own alias).
const ALIASES: &[(&str, &str)] = &[
    ("ctrl", "Control"),
    ("cmd", "Meta"),
    ("command", "Meta"),
    ("super", "Meta"),
    ("option", "Alt"),
    ("return", "Enter"),
    ("esc", "Escape"),
    ("del", "Delete"),
    ("up", "ArrowUp"),
    ("down", "ArrowDown"),
    ("left", "ArrowLeft"),
    ("right", "ArrowRight"),
];

/// Is `name` (canonical) a modifier?
pub fn is_modifier(name: &str) -> bool {
    MODIFIERS.contains(&name)
}

/// The canonical name of one key: a named key in any case or one of its aliases (`enter`,
/// `ctrl`, `Esc` → `Enter`, `Control`, `Escape`), or one printable character, kept as it is.
pub fn key_name(name: &str) -> Result<String, Error> {
    if let Some(named) = NAMED
        .iter()
        .find(|n| n.eq_ignore_ascii_case(name))
        .or_else(|| {
            ALIASES
                .iter()
                .find(|(alias, _)| alias.eq_ignore_ascii_case(name))
                .map(|(_, n)| n)
        })
    {
        return Ok((*named).to_owned());
    }
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if !c.is_control() && !c.is_whitespace() => Ok(c.to_string()),
        _ => Err(Error::new(
            ErrorCode::InvalidAction,
            format!(
                "unknown key {:?}: use a letter, a digit or a named key such as Enter, Tab, \
                 Escape, ArrowDown, optionally with Shift+, Control+, Alt+ or Meta+",
                crate::core::text::cap(name, 40)
            ),
        )),
    }
}

/// The keys of a chord (`Control+S`, `shift+tab`, `Shift++`), canonical, modifiers first and
/// the one key they modify last.
pub fn keys(chord: &str) -> Result<Vec<String>, Error> {
    let malformed = || {
        Error::new(
            ErrorCode::InvalidAction,
            format!(
                "malformed key chord {:?}: write it like Control+S",
                crate::core::text::cap(chord, 40)
            ),
        )
    };
    if chord.trim().is_empty() || chord.chars().count() > MAX_CHORD_CHARS {
        return Err(malformed());
    }
    let parts: Vec<&str> = parts(chord).into_iter().map(str::trim).collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(malformed());
    }
    let keys = parts
        .iter()
        .map(|p| key_name(p))
        .collect::<Result<Vec<_>, _>>()?;
    let (_, modifiers) = keys.split_last().ok_or_else(malformed)?;
    if modifiers.iter().any(|k| !is_modifier(k)) {
        return Err(Error::new(
            ErrorCode::InvalidAction,
            format!(
                "in {:?} only the last key may be a non-modifier",
                crate::core::text::cap(chord, 40)
            ),
        ));
    }
    Ok(keys)
}

/// A chord with every key by its canonical name (`ctrl+shift+k` → `Control+Shift+k`).
pub fn canonical(chord: &str) -> Result<String, Error> {
    Ok(keys(chord)?.join("+"))
}

/// The keys of a chord already read ([`canonical`]), as `Gesture::Press` carries them to the
/// driver: modifiers first, the key they modify last (`Shift++` → `Shift`, `+`). With Shift
/// held a letter is its capital, as a keyboard types it (`Control+Shift+k` → `Control`,
/// `Shift`, `K`), whatever the driver's library would make of a lowercase one. No driver
/// splits a chord or decides a key itself.
pub fn pressed(canonical: &str) -> Vec<String> {
    let mut keys: Vec<String> = parts(canonical).into_iter().map(str::to_owned).collect();
    let shifted = keys.iter().any(|k| k == "Shift");
    if let Some(key) = keys.last_mut().filter(|k| shifted && k.len() == 1) {
        key.make_ascii_uppercase();
    }
    keys
}

/// A chord cut at its `+`s; `+` itself is a key alone or as the last key of a chord
/// (`Shift++`).
fn parts(chord: &str) -> Vec<&str> {
    match chord.strip_suffix("++") {
        Some(head) => head.split('+').chain(["+"]).collect(),
        None if chord.trim() == "+" => vec!["+"],
        None => chord.split('+').collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[rustfmt::skip]
    fn chords_read_to_canonical_names() {
        for (chord, want) in [
            ("Enter", "Enter"),
            ("enter", "Enter"),
            ("RETURN", "Enter"),
            ("esc", "Escape"),
            ("ctrl+shift+K", "Control+Shift+K"),
            ("Control + a", "Control+a"),
            ("cmd+s", "Meta+s"),
            ("shift+tab", "Shift+Tab"),
            ("up", "ArrowUp"),
            ("arrowdown", "ArrowDown"),
            ("pageup", "PageUp"),
            ("f5", "F5"),
            ("space", "Space"),
            ("7", "7"),
            ("+", "+"),
            ("Shift++", "Shift++"),
            ("é", "é"),
        ] {
            assert_eq!(canonical(chord).as_deref(), Ok(want), "{chord}");
        }
    }

    #[test]
    fn a_chord_read_is_pressed_key_by_key_modifiers_first() {
        for (chord, want) in [
            ("Shift++", &["Shift", "+"][..]),
            ("ctrl+shift+k", &["Control", "Shift", "K"]),
            ("shift+é", &["Shift", "é"]),
            ("Control+k", &["Control", "k"]),
            ("enter", &["Enter"]),
            ("+", &["+"]),
            ("Control+Alt+Delete", &["Control", "Alt", "Delete"]),
        ] {
            let read = canonical(chord).expect(chord);
            assert_eq!(pressed(&read), want, "{chord}");
        }
    }

    #[test]
    #[rustfmt::skip]
    fn unknown_keys_and_malformed_chords_are_refused() {
        for (chord, says) in [
            ("", "malformed key chord"),
            ("  ", "malformed key chord"),
            ("Shift+", "malformed key chord"),
            ("+a", "malformed key chord"),
            ("Control++a", "malformed key chord"),
            (&"a+".repeat(40), "malformed key chord"),
            ("Hyper+a", "unknown key \"Hyper\""),
            ("Shift+Nope", "unknown key \"Nope\""),
            ("ab", "unknown key \"ab\""),
            ("NumpadEnter", "unknown key"),
            ("\t", "malformed key chord"),
            ("a+b", "only the last key may be a non-modifier"),
            ("Enter+Shift", "only the last key may be a non-modifier"),
        ] {
            let e = canonical(chord).expect_err(chord);
            assert_eq!(e.code, ErrorCode::InvalidAction, "{chord}");
            assert!(e.message.contains(says), "{chord}: {}", e.message);
        }
    }
}
