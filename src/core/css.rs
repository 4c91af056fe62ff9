//! What the text of a style rule says about generated content: the one reading the engine's
//! style scan (`dom::style`) makes of `::before`/`::after` rules.
//!
//! A page's names include the text its `::before`/`::after` rules generate, so the engine
//! reads generated content only where some rule can produce text, and a page that has such
//! rules is walked without the cache (the content can change with the rules that match).
//! A rule that touches the pseudo-elements without generating text — the universal
//! `*, ::before, ::after { box-sizing: border-box }` of nearly every CSS reset, a decorative
//! `content: ""` underline — cannot change a name, so it must not cost the page its cache.

/// Can this rule (as `CSSRule.cssText` serialises it) generate text in a `::before` or
/// `::after`? Yes when it names one of them and sets `content` to anything but `none`,
/// `normal` or an empty string. An at-rule's text holds its inner rules, so it is judged on
/// all of them at once, which can only say yes more often.
pub fn generates_text(rule: &str) -> bool {
    (rule.contains(":before") || rule.contains(":after")) && sets_content(rule)
}

/// Does the text set `content` to a value that can show something?
fn sets_content(rule: &str) -> bool {
    rule.match_indices("content:").any(|(i, _)| {
        // `align-content:`, `justify-content:`, `place-content:` are other properties.
        let property_starts = rule[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !(c == '-' || c.is_alphanumeric()));
        if !property_starts {
            return false;
        }
        let value = rule[i + "content:".len()..]
            .split([';', '}'])
            .next()
            .unwrap_or_default()
            .trim();
        let value = value.strip_suffix("!important").unwrap_or(value).trim();
        !matches!(value, "none" | "normal" | "\"\"" | "''")
    })
}

#[cfg(test)]
mod tests {
    use super::generates_text;

    #[test]
    fn rules_that_generate_text() {
        for rule in [
            ".icon-cart::before { content: \"Cart\"; }",
            ".suffix::after { content: \" (new)\"; }",
            "li::before { content: counter(item) \". \"; }",
            "abbr:hover::after { content: attr(title); }",
            ".i::before { content: var(--glyph); }",
            ".x::before { content: \"\\f101\" !important; }",
            "@media print { a::after { content: \" (\" attr(href) \")\"; } }",
            ".q::before { content: \";\"; }",
        ] {
            assert!(generates_text(rule), "{rule}");
        }
    }

    #[test]
    fn rules_that_touch_pseudo_elements_without_text() {
        for rule in [
            "*, ::before, ::after { box-sizing: border-box; }",
            "*, *::before, *::after { box-sizing: inherit; border-width: 0px; }",
            ".underline::after { content: \"\"; border-bottom: 1px solid; }",
            ".u::before { content: ''; }",
            ".n::before { content: none; }",
            ".m::after { content: normal; }",
            ".grid::before { align-content: center; justify-content: start; }",
            ".e::after { content: \"\" !important; display: block; }",
            // Text content, but on no pseudo-element.
            ".plain { content: \"x\"; }",
        ] {
            assert!(!generates_text(rule), "{rule}");
        }
    }
}
