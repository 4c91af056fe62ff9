//! What a change of an element's class tokens can restyle: the one reading of style-rule
//! selectors the engine's visual memo (`dom::cache`) makes when a `class` attribute changes.
//!
//! A rule can start or stop matching an element X because element E's classes changed only
//! if its selector mentions a token that changed. Where it does, X must match the rule's
//! subject compound (the last one, pseudo-elements aside); when that compound does not
//! mention a changed token, whether X matches it is the same before and after, and the
//! other compounds reach X from E through descendant, child and sibling combinators: X is
//! in E's subtree, or with `+`/`~` in its parent's. So if no element there matches the
//! subject compound, no style changed. What this reading cannot follow (`:has()`, nesting,
//! `:host`, `::slotted`, `:nth-*(of …)`, escapes, `[class…]` attribute selectors, an at-rule
//! prelude naming the token, a subject compound naming it) it says so ([`Reach::Any`]).

/// Where a class change can restyle, by the selectors that mention a changed token.
#[derive(Debug, PartialEq, Eq)]
pub enum Reach {
    /// No selector mentions a changed token: no style changed.
    Nothing,
    /// Only elements matching one of these subject compounds, in the changed element's
    /// subtree (excluding itself), or with `siblings` in its parent's subtree.
    Subjects(Vec<Subject>),
    /// Anything: a selector this reading cannot follow mentions a changed token.
    Any,
}

#[derive(Debug, PartialEq, Eq)]
pub struct Subject {
    /// A compound selector, valid for `querySelector`.
    pub compound: String,
    /// The selector has a sibling combinator (`+`, `~`).
    pub siblings: bool,
}

/// Separates the preludes [`preludes`] keeps.
pub const SEPARATOR: char = '\n';

/// Appends to `out` the preludes (selectors and at-rule preludes) of a rule's text (as
/// `CSSRule.cssText` serialises it, inner rules included) that may mention a class: those
/// with a `.`, a backslash or `[class`; each followed by [`SEPARATOR`].
pub fn preludes(rule: &str, out: &mut String) {
    let mut start = 0;
    for (i, c) in unquoted(rule) {
        match c {
            '{' => {
                let p = rule[start..i].trim();
                if may_mention_class(p) {
                    out.push_str(&p.replace(SEPARATOR, " "));
                    out.push(SEPARATOR);
                }
                start = i + 1;
            }
            '}' | ';' => start = i + 1,
            _ => {}
        }
    }
}

fn may_mention_class(prelude: &str) -> bool {
    prelude.contains('.')
        || prelude.contains('\\')
        || prelude.to_ascii_lowercase().contains("[class")
}

/// The tokens that differ between the values a `class` attribute had (its old values and
/// its current one): in some of them and not in all.
pub fn changed_tokens<'a>(values: &[&'a str]) -> Vec<&'a str> {
    let mut all: Vec<&str> = Vec::new();
    for v in values {
        for t in v.split_ascii_whitespace() {
            if !all.contains(&t) {
                all.push(t);
            }
        }
    }
    all.retain(|t| {
        !values
            .iter()
            .all(|v| v.split_ascii_whitespace().any(|u| u == *t))
    });
    all
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_' || !c.is_ascii()
}

/// Does `text` name class `token` (`.token` not followed by more of an identifier),
/// ignoring ASCII case (quirks-mode documents match classes so)?
fn names(text: &str, token: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let dotted = format!(".{}", token.to_ascii_lowercase());
    lower.match_indices(&dotted).any(|(i, _)| {
        lower[i + dotted.len()..]
            .chars()
            .next()
            .is_none_or(|c| !is_ident(c))
    })
}

/// Does `text` mention any of `tokens`, or could it without saying so plainly?
fn mentions(text: &str, tokens: &[&str]) -> bool {
    text.contains('\\')
        || text.to_ascii_lowercase().contains("[class")
        || tokens.iter().any(|t| names(text, t))
}

/// The characters of `text` outside quoted strings, with their byte offsets (the quotes
/// themselves left out).
fn unquoted(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut quote: Option<char> = None;
    text.char_indices().filter(move |&(_, c)| match quote {
        Some(q) => {
            if c == q {
                quote = None;
            }
            false
        }
        None if c == '"' || c == '\'' => {
            quote = Some(c);
            false
        }
        None => true,
    })
}

/// Splits `text` at the top-level (outside brackets, parentheses and quotes) characters
/// `at` says are separators.
fn split_top(text: &str, at: impl Fn(char) -> bool) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in unquoted(text) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ if depth == 0 && at(c) => {
                out.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// The subject compound of a complex selector, its pseudo-element dropped (`*` when
/// nothing is left).
fn subject(complex: &str) -> &str {
    let pieces = split_top(complex.trim(), |c| {
        c.is_ascii_whitespace() || c == '>' || c == '+' || c == '~'
    });
    let last = pieces
        .iter()
        .rev()
        .map(|p| p.trim())
        .find(|p| !p.is_empty())
        .unwrap_or("");
    let mut end = last.len();
    for pseudo in ["::", ":before", ":after", ":first-line", ":first-letter"] {
        if let Some(i) = last.find(pseudo) {
            end = end.min(i);
        }
    }
    match last[..end].trim() {
        "" => "*",
        s => s,
    }
}

/// Where a change of class `tokens` can restyle, given the [`preludes`] of every sheet.
pub fn reach(preludes: &str, tokens: &[&str]) -> Reach {
    if tokens.is_empty() {
        return Reach::Nothing;
    }
    if tokens.iter().any(|t| !t.chars().all(is_ident)) {
        return Reach::Any;
    }
    let mut subjects: Vec<Subject> = Vec::new();
    for prelude in preludes.split(SEPARATOR).filter(|p| !p.is_empty()) {
        if !mentions(prelude, tokens) {
            continue;
        }
        if prelude.starts_with('@') {
            return Reach::Any;
        }
        for complex in split_top(prelude, |c| c == ',') {
            if !mentions(complex, tokens) {
                continue;
            }
            let lower = complex.to_ascii_lowercase();
            // `:nth-child(2 of .x)` counts siblings by class; `:nth-child(2n+1)` does not.
            let nth_of = lower.contains(":nth-") && lower.contains(" of ");
            if nth_of
                || ["\\", "[class", ":has(", "&", ":host", "::slotted", "|"]
                    .iter()
                    .any(|x| lower.contains(x))
            {
                return Reach::Any;
            }
            let compound = subject(complex);
            if mentions(compound, tokens) {
                return Reach::Any;
            }
            let s = Subject {
                compound: compound.to_string(),
                siblings: complex.contains('+') || complex.contains('~'),
            };
            if !subjects.contains(&s) {
                subjects.push(s);
            }
        }
    }
    if subjects.is_empty() {
        Reach::Nothing
    } else {
        Reach::Subjects(subjects)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pre(rules: &[&str]) -> String {
        let mut out = String::new();
        for r in rules {
            preludes(r, &mut out);
        }
        out
    }

    fn subjects(list: &[(&str, bool)]) -> Reach {
        Reach::Subjects(
            list.iter()
                .map(|(c, s)| Subject {
                    compound: c.to_string(),
                    siblings: *s,
                })
                .collect(),
        )
    }

    #[test]
    fn preludes_keep_selectors_that_may_name_a_class() {
        let p = pre(&[
            "body.odd .hidden { display: none; }",
            "section { margin: 4px; }",
            "@media (min-width: 10px) { .a > .b { color: red; } div { content: \"{.x}\"; } }",
            "[CLASS~=\"x\"] { color: red; }",
        ]);
        assert_eq!(p, "body.odd .hidden\n.a > .b\n[CLASS~=\"x\"]\n");
    }

    #[test]
    fn changed_tokens_are_those_not_in_every_value() {
        assert_eq!(changed_tokens(&["a b", "b c"]), vec!["a", "c"]);
        assert_eq!(changed_tokens(&["a  b", "b a"]), Vec::<&str>::new());
        assert_eq!(changed_tokens(&["", "x"]), vec!["x"]);
    }

    #[test]
    fn a_token_no_selector_names_reaches_nothing() {
        let p = pre(&[
            "body.odd-one .hidden { display: none; }",
            ".odd { color: red; }",
        ]);
        assert_eq!(reach(&p, &["odd-on"]), Reach::Nothing);
        assert_eq!(reach(&p, &["other"]), Reach::Nothing);
        assert_eq!(reach(&p, &[]), Reach::Nothing);
    }

    #[test]
    fn an_ancestor_token_reaches_the_subject_compound() {
        let p = pre(&["body.odd .hidden::before, .odd > li:first-child { display: none; }"]);
        assert_eq!(
            reach(&p, &["ODD"]),
            subjects(&[(".hidden", false), ("li:first-child", false)])
        );
        let p = pre(&[".odd ~ * { display: none; }", ".odd + p { display: none; }"]);
        assert_eq!(reach(&p, &["odd"]), subjects(&[("*", true), ("p", true)]));
        let p = pre(&[".x :is(.odd .y) ::after { color: red; }"]);
        assert_eq!(reach(&p, &["odd"]), subjects(&[("*", false)]));
        let p = pre(&[".odd li:nth-child(2n) { color: red; }"]);
        assert_eq!(
            reach(&p, &["odd"]),
            subjects(&[("li:nth-child(2n)", false)])
        );
    }

    #[test]
    fn what_cannot_be_followed_reaches_anything() {
        for rule in [
            ".odd { display: none; }",
            "div:not(.odd) { display: none; }",
            ":is(.odd .x) { display: none; }",
            "li:has(.odd) { display: none; }",
            ":host(.odd) span { display: none; }",
            ".odd ::slotted(span) { display: none; }",
            "li:nth-child(2 of .odd) { display: none; }",
            ".a { .odd & { display: none; } }",
            "@scope (.odd) { span { display: none; } }",
            "[class~=\"odd\"] span { display: none; }",
            ".od\\64 span { display: none; }",
        ] {
            assert_eq!(reach(&pre(&[rule]), &["odd"]), Reach::Any, "{rule}");
        }
        assert_eq!(
            reach(&pre(&[".a span { color: red; }"]), &["a:b"]),
            Reach::Any
        );
    }
}
