//! Text normalisation shared by names, resolve and intent matching.

use std::borrow::Cow;

/// Collapses runs of whitespace (including NBSP) to one space and trims.
/// Returns the input unchanged, without allocating, when it is already normal.
pub fn normalize_whitespace(s: &str) -> Cow<'_, str> {
    let needs = s.starts_with(is_space)
        || s.ends_with(is_space)
        || s.chars()
            .zip(s.chars().skip(1))
            .any(|(a, b)| is_space(a) && is_space(b))
        || s.chars().any(|c| is_space(c) && c != ' ');
    if !needs {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for word in s.split(is_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    Cow::Owned(out)
}

fn is_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{a0}' || c == '\u{200b}'
}

/// Whitespace-normalised and lowercased: how resolve compares names and roles.
pub fn normalize_key(s: &str) -> String {
    normalize_whitespace(s).to_lowercase()
}

/// Cuts `s` to at most `max` characters on a char boundary, marking the cut with `…`.
pub fn cap(s: &str, max: usize) -> Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => Cow::Borrowed(s),
        Some((i, _)) => {
            let mut out = String::with_capacity(i + 3);
            out.push_str(&s[..i]);
            out.push('…');
            Cow::Owned(out)
        }
    }
}

/// Folds a character to its base letter: case and the common Latin diacritics removed, so
/// "Añadir", "AÑADIR" and "anadir" compare equal. Returns up to two chars (ß → ss).
pub fn fold_char(c: char, out: &mut String) {
    let base = match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' | 'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' => {
            'a'
        }
        'æ' | 'Æ' => {
            out.push_str("ae");
            return;
        }
        'ç' | 'ć' | 'č' | 'Ç' | 'Ć' | 'Č' => 'c',
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' | 'È' | 'É' | 'Ê' | 'Ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'Ì' | 'Í' | 'Î' | 'Ï' => 'i',
        'ñ' | 'ń' | 'ň' | 'Ñ' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' | 'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' | 'Ø' => {
            'o'
        }
        'œ' | 'Œ' => {
            out.push_str("oe");
            return;
        }
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' | 'Ù' | 'Ú' | 'Û' | 'Ü' => 'u',
        'ý' | 'ÿ' | 'Ý' => 'y',
        'ß' => {
            out.push_str("ss");
            return;
        }
        'ś' | 'š' | 'Ś' | 'Š' => 's',
        'ź' | 'ż' | 'ž' | 'Ź' | 'Ż' | 'Ž' => 'z',
        'ł' | 'Ł' => 'l',
        'đ' | 'Đ' => 'd',
        'ř' | 'Ř' => 'r',
        'ť' | 'Ť' => 't',
        _ => {
            out.extend(c.to_lowercase());
            return;
        }
    };
    out.push(base);
}

/// Case- and accent-folded copy of `s`.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        fold_char(c, &mut out);
    }
    out
}

/// Folded alphanumeric tokens of `s`, in order ("Añadir Camiseta-M" → anadir, camiseta, m).
pub fn tokens(s: &str) -> Vec<String> {
    fold(s)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Whether `needle` occurs in `hay` where a word begins: not glued to a letter or digit before
/// it ("shoes" in "3 results for shoes", "lamp" in "Desk lamps" as a search finds it, but not
/// "ho" in "show"). Scripts written without spaces between words (Han, kana, Hangul with its
/// particles, Thai and its neighbours) have no such edge, so there any occurrence counts. Both
/// are compared as they are: fold them first.
pub fn begins_word_in(hay: &str, needle: &str) -> bool {
    let joins = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() && !unspaced(c));
    !needle.is_empty()
        && hay
            .match_indices(needle)
            .any(|(at, _)| !(joins(hay[..at].chars().next_back()) && joins(needle.chars().next())))
}

/// A letter of a script that does not put spaces between words.
fn unspaced(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0EFF // Thai, Lao
        | 0x1000..=0x109F // Myanmar
        | 0x1780..=0x17FF // Khmer
        | 0x3040..=0x30FF // Hiragana, Katakana
        | 0x3400..=0x4DBF // CJK extension A
        | 0x4E00..=0x9FFF // CJK
        | 0xAC00..=0xD7AF // Hangul syllables
        | 0xF900..=0xFAFF // CJK compatibility
        | 0x20000..=0x2FA1F // CJK extensions
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_cases() {
        for (input, want) in [
            ("Save", "Save"),
            ("  Save \n draft\t", "Save draft"),
            ("a\u{a0}b", "a b"),
            ("", ""),
            ("   ", ""),
        ] {
            assert_eq!(normalize_whitespace(input), want, "{input:?}");
        }
        assert!(matches!(
            normalize_whitespace("already normal"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn keys_lowercase() {
        assert_eq!(normalize_key(" SAVE  Draft"), "save draft");
    }

    #[test]
    fn cap_marks_the_cut_on_char_boundaries() {
        assert_eq!(cap("ñññññ", 3), "ñññ…");
        assert_eq!(cap("abc", 3), "abc");
    }

    #[test]
    fn folding_across_languages() {
        assert_eq!(fold("Añadir CAMISETA"), "anadir camiseta");
        assert_eq!(fold("Größe"), "grosse");
        assert_eq!(fold("Élément supprimé"), "element supprime");
        assert_eq!(
            tokens("Añadir Camiseta-M!"),
            vec!["anadir", "camiseta", "m"]
        );
    }

    #[test]
    fn where_a_word_begins() {
        for (hay, needle, want) in [
            ("3 results for shoes", "shoes", true),
            ("results: shoes, 3", "shoes", true),
            ("red shoes found", "red shoes", true),
            ("desk lamps", "lamp", true),
            ("show more", "ho", false),
            ("shoes", "hoe", false),
            ("this", "hi", false),
            ("said hi", "hi", true),
            ("3 resultados para zapatos", "zapatos", true),
            ("靴の検索結果 3 件", "靴", true),
            ("신발을 찾았습니다", "신발", true),
            ("c++ tutorials", "c++", true),
            ("abc++", "c++", false),
            ("(c++)", "c++", true),
            ("anything", "", false),
        ] {
            assert_eq!(begins_word_in(hay, needle), want, "{needle:?} in {hay:?}");
        }
    }
}
