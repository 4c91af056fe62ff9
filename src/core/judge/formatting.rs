//! A formatting key pressed in a rich-text editor's body: Control (or Meta) with B makes the
//! selected words bold, with I italic.
//!
//! Inside an editing host the engine observes the words' formatting (`strong[review]`,
//! `emphasis[review]`: the host's inline text semantics, by their words), and nowhere else.
//! The key is explained by that formatting appearing or going in the host it was pressed in:
//! a formatting element of the key's kind, in the host's frame and region, whose words are in
//! the host's text. A toolbar toggle of the host's region that turned pressed as the words
//! took the format (or released as they lost it) shows the same effect. Other formatting in
//! the host (Control+B that made the words italic), or formatting that landed only outside it
//! (in another editor), is MISMATCH; other effects leave the key to the other rules.

use super::*;

impl<'a> Judge<'a> {
    /// The formatting key of a press on a field (Control+B, Meta+I), judged by the formatting
    /// it changed in that field, and whether the intent says that format of those words;
    /// `None` when the key formats nothing or nothing formatting changed anywhere.
    pub(super) fn formatting_key(&self, target: Option<&'a Element>) -> Option<(Finding, bool)> {
        let key = self.action.key.as_deref()?;
        let (wanted, what) = formatting_of(key)?;
        let t = target.filter(|t| t.role.has_value() && !t.sensitive)?;
        let effects = Effect::all(self.diff);
        let formatting: Vec<&Effect<'a>> = effects.iter().filter(|e| is_formatting(e)).collect();
        if formatting.is_empty() {
            return None;
        }
        let host = describe_element(t);
        let (inside, outside): (Vec<&Effect<'a>>, Vec<&Effect<'a>>) =
            formatting.into_iter().partition(|e| self.in_host(e, t));
        let refused = |reason: String| Some((mismatch(reason, Some(t)), false));
        let Some(first) = inside.first() else {
            return refused(format!(
                "{key} in {host}, but the formatting changed outside it: {}",
                outside[0].line()
            ));
        };
        if let Some(other) = inside
            .iter()
            .find(|e| e.element().is_some_and(|el| el.role != wanted))
        {
            return refused(format!(
                "{key} in {host} is meant to make its words {what}, but: {}",
                other.line()
            ));
        }
        // The format came (or went) where the key was pressed; a toolbar button of the host's
        // region that follows it is the same effect, anything else is left to the other rules.
        let came = inside.iter().any(|e| matches!(e, Effect::Appeared(_)));
        let explained = |e: &Effect<'a>| {
            inside.iter().any(|i| std::ptr::eq(*i, e)) || self.toolbar_follows(e, t, came)
        };
        if !effects.iter().all(explained) {
            return None;
        }
        let how = if came {
            format!("made words {what}")
        } else {
            format!("took {what} off words")
        };
        let reason = format!("{key} {how} in {host}: {}", first.line());
        if self.intent_says(what, &inside, t) {
            return Some((
                matched(format!("{reason}, as the intent says"), Some(t)),
                true,
            ));
        }
        Some((matched(reason, Some(t)), false))
    }

    /// An intent that says the format the key made ("Make the selected word bold") and, of
    /// the words the host holds, names only those that took it: it is the key's effect, the
    /// selection being what a formatting key acts on. "Make draft bold" when `review` became
    /// bold names other words of the host, and is left to the other rules.
    fn intent_says(&self, what: &str, inside: &[&Effect<'a>], t: &'a Element) -> bool {
        let Some(intent) = self.intent.filter(|i| i.is_usable()) else {
            return false;
        };
        let said = Terms::of(what).iter().all(|w| intent.terms().matches(w));
        let text = self
            .current(t)
            .and_then(|h| h.value.as_deref())
            .or(t.value.as_deref())
            .unwrap_or("");
        let (host, formatted) = (Terms::of(text), Terms::of(&labels(inside)));
        said && intent
            .terms()
            .iter()
            .all(|x| !host.matches(x) || formatted.matches(x))
    }

    /// The formatting element of `e` is in the host `t`: its frame and region, its words in
    /// the host's text (before for one that went, after for one that came).
    fn in_host(&self, e: &Effect<'a>, t: &'a Element) -> bool {
        let Some(el) = e.element() else {
            return false;
        };
        if el.frame != t.frame || el.region != t.region {
            return false;
        }
        let host = match e {
            Effect::Disappeared(_) => Some(t),
            _ => self.current(t),
        };
        let text = host.and_then(|h| h.value.as_deref()).map(text::fold);
        let words = text::fold(el.label());
        !words.trim().is_empty() && text.is_some_and(|v| v.contains(words.trim()))
    }

    /// A button of the host's region that turned pressed as the format came (released as it
    /// went).
    fn toolbar_follows(&self, e: &Effect<'a>, t: &Element, came: bool) -> bool {
        let Effect::Changed(c) = e else {
            return false;
        };
        c.after.role == Role::Button
            && c.after.frame == t.frame
            && c.after.region == t.region
            && c.fields.iter().all(|f| f.field == Field::Pressed)
            && c.after.pressed == Some(Tristate::from(came))
    }
}

/// The role a formatting key gives the selected words, and its word: Control or Meta (or
/// Playwright's ControlOrMeta) with B (bold) or I (italic), nothing else held.
fn formatting_of(key: &str) -> Option<(Role, &'static str)> {
    let (modifier, base) = key.rsplit_once('+')?;
    if !matches!(modifier, "Control" | "Meta" | "ControlOrMeta") {
        return None;
    }
    match base {
        "b" | "B" => Some((Role::Strong, "bold")),
        "i" | "I" => Some((Role::Emphasis, "italic")),
        _ => None,
    }
}

/// The words of the formatting effects, one after another.
fn labels(effects: &[&Effect]) -> String {
    effects
        .iter()
        .map(|e| e.label())
        .collect::<Vec<_>>()
        .join(" ")
}

/// An element of formatting that came, went or moved.
fn is_formatting(e: &Effect) -> bool {
    matches!(
        e,
        Effect::Appeared(_) | Effect::Disappeared(_) | Effect::Moved(_)
    ) && e.element().is_some_and(|el| el.role.is_formatting())
}
