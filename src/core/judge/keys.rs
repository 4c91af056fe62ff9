//! Keys and gestures: what Escape, Enter and Tab are meant to do, a reorder by drag, and
//! focus that moved.

use super::*;

impl<'a> Judge<'a> {
    /// What the key of a press is meant to do, when it did it: Escape closes a popup (a
    /// dialog, listbox, menu or tooltip, or a control that was expanded), Enter submits the
    /// focused form or picks the active option, Tab and Shift+Tab move focus, a formatting
    /// key formats the words of the field it is pressed in (`formatting`). A failure message
    /// next to it makes it AMBIGUOUS.
    pub(super) fn key_effect(&self, target: Option<&'a Element>) -> Option<Finding> {
        let key = self.action.key.as_deref()?;
        if let Some((f, _)) = self.formatting_key(target) {
            return Some(f);
        }
        let base = key.rsplit('+').next().unwrap_or(key);
        let effects = Effect::all(self.diff);
        let found = match base {
            "Escape" | "Esc" => effects
                .iter()
                .find(|e| closes_popup(e))
                .map(|e| format!("{key} closed a popup: {}", e.line())),
            "Enter" => self.enter_effect(&effects, target),
            "Tab" => {
                let f = self.focus_moved()?;
                return Some(Finding {
                    reason: format!("{key}: {}", f.reason),
                    ..f
                });
            }
            _ => None,
        }?;
        if let Some(e) = effects.iter().find(|e| e.is_failure_message()) {
            return Some(ambiguous(format!(
                "{found}, but a failure message appeared: {}",
                e.line()
            )));
        }
        Some(matched(found, target))
    }

    /// Escape that closed a dialog and did nothing else: the dialog was dismissed, held
    /// against the intent as a dismissing button is (`dismissed`).
    pub(super) fn escaped(&self, target: Option<&'a Element>) -> Option<Finding> {
        let key = self.action.key.as_deref()?;
        if !matches!(key, "Escape" | "Esc") {
            return None;
        }
        let effects = Effect::all(self.diff);
        let closed = closed_dialogs(&effects);
        if closed.is_empty() || !effects.iter().all(|e| is_closing(e, &closed)) {
            return None;
        }
        let found = matched(format!("{key} dismissed {}", closed[0]), target);
        Some(self.dismissed(found, &effects, None))
    }

    /// Enter: an option picked (selected, a combo box's value, its listbox closing), or the
    /// focused form submitted (effects in its region, or the form going away).
    pub(super) fn enter_effect(
        &self,
        effects: &[Effect<'a>],
        target: Option<&'a Element>,
    ) -> Option<String> {
        let picked = effects.iter().find(|e| match *e {
            Effect::Changed(c) => {
                (c.has(Field::Selected) && c.after.selected == Some(true))
                    || (c.after.role == Role::Combobox && c.has(Field::Value))
            }
            _ => false,
        });
        if let Some(e) = picked {
            return Some(format!("Enter picked the active option: {}", e.line()));
        }
        let focused = target.or_else(|| self.before.elements.iter().find(|e| e.focused));
        // In a field of several lines (a `<textarea>`, a rich-text editor's body) Enter starts
        // a new line: the field's value gains one, and the form it is in is not submitted.
        let lines = |e: &Element| e.value.as_deref().map_or(0, |v| v.matches('\n').count());
        if let Some((f, c)) = focused.and_then(|f| Some((f, self.target_change(f)?))) {
            if c.has(Field::Value) && !c.after.sensitive && lines(&c.after) > lines(&c.before) {
                return Some(format!(
                    "Enter started a new line in {}: {}",
                    describe_element(f),
                    diff::line_changed(c)
                ));
            }
        }
        if let Some(form) = focused.and_then(|f| form_region(&f.region)) {
            if let Some(e) = effects
                .iter()
                .find(|e| diff::region_matches(e.region(), &form))
            {
                return Some(format!("Enter submitted {form}: {}", e.line()));
            }
        }
        // A search submitted from its field: its results carry what was typed where a word
        // begins ("3 results for shoes", "Desk lamps" for "lamp"; not "ho" in "Show more"),
        // wherever they are shown.
        let typed = focused
            .filter(|f| !f.sensitive && f.value_hash.is_none())
            .and_then(|f| f.value.as_deref())
            .map(text::fold)
            .filter(|v| v.trim().chars().count() >= 2 && v != REDACTED);
        if let Some(typed) = typed {
            let typed = typed.trim();
            if let Some(e) = effects
                .iter()
                .find(|e| e.is_appearance() && text::begins_word_in(&text::fold(e.label()), typed))
            {
                return Some(format!(
                    "Enter submitted what was typed in {}: {}",
                    describe_element(focused.expect("typed comes from it")),
                    e.line()
                ));
            }
        }
        effects
            .iter()
            .find(|e| {
                closes_popup(e)
                    && matches!(
                        e.element().map(|el| el.role),
                        Some(Role::Listbox | Role::Combobox)
                    )
            })
            .map(|e| format!("Enter closed the list, picking its option: {}", e.line()))
    }

    /// A key that moves the item it is pressed on within its list (`Alt+ArrowUp`, a sortable
    /// list's keyboard move) leaves the multiset diff empty: the item moved the way its arrow
    /// points, and the list's other items kept their order among themselves, is the key's
    /// effect ([`Judge::reordered`], the intent held against it as a drag's is). The other
    /// way, or other items changed places too (the wrong one moved): MISMATCH. Not an arrow,
    /// or the item did not move: none.
    pub(super) fn keyed_reorder(&self, t: &'a Element) -> Option<Finding> {
        let key = self.action.key.as_deref()?;
        let earlier = match key.rsplit('+').next().unwrap_or(key) {
            "ArrowUp" | "ArrowLeft" => true,
            "ArrowDown" | "ArrowRight" => false,
            _ => return None,
        };
        let (from, to) = self.moved(t)?;
        let what = format!("{}[{}]", t.role.as_str(), t.label());
        if (to < from) != earlier {
            return Some(mismatch(
                format!("{key} moved {what} from position {from} to {to}, the other way from where its arrow points"),
                Some(t),
            ));
        }
        let others = |e: &Element| {
            e.role == t.role
                && e.region == t.region
                && e.frame == t.frame
                && !same_ref(e, t)
                && Identity::of(e) != Identity::of(t)
        };
        if crate::core::order::changed(self.before, self.after, others) {
            return Some(mismatch(
                format!("{key} on {what}, but other items of its list changed places too"),
                Some(t),
            ));
        }
        self.reordered(t)
    }

    /// The target's position among the items of its role and region, before and after,
    /// when it changed (from 1).
    fn moved(&self, t: &'a Element) -> Option<(usize, usize)> {
        let position = |s: &'a Snapshot| -> Option<usize> {
            let items: Vec<&Element> = s
                .elements
                .iter()
                .filter(|e| e.role == t.role && e.region == t.region && e.frame == t.frame)
                .collect();
            items
                .iter()
                .position(|e| same_ref(e, t))
                .or_else(|| {
                    items
                        .iter()
                        .position(|e| Identity::of(e) == Identity::of(t))
                })
                .map(|at| at + 1)
        };
        let (from, to) = (position(self.before)?, position(self.after)?);
        (from != to).then_some((from, to))
    }

    /// A drag that reorders a list leaves the multiset diff empty; the target's position
    /// among the items of its role and region says whether it moved.
    pub(super) fn reordered(&self, t: &'a Element) -> Option<Finding> {
        if self.own_change(t).is_some() {
            return None;
        }
        let (from, to) = self.moved(t)?;
        let region = if t.region.is_empty() {
            "document"
        } else {
            &t.region
        };
        let reason = format!(
            "moved {}[{}] from position {from} to {to} in {region}",
            t.role.as_str(),
            t.label()
        );
        let context = Terms::of(&format!("{} {region}", role_words(t.role)));
        // An intent that names the item and says which way it goes ("Olwen moves up one
        // place"): the direction must be the move's.
        let names_item = |i: &Intent| {
            let label = Terms::of(t.label());
            !label.is_empty() && label.iter().all(|term| i.terms().matches(term))
        };
        let way = self.action.intent.as_deref().and_then(claims::direction);
        Some(match self.intent {
            None => matched(reason, Some(t)),
            Some(_) if way.is_some_and(|up| up != (to < from)) => mismatch(
                format!("{reason}, the other way from what the intent says"),
                Some(t),
            ),
            Some(i) if i.score(&Terms::of(t.label()), &context) > 0.0 || names_item(i) => {
                matched(format!("{reason}, as the intent says"), Some(t))
            }
            Some(_) => ambiguous(format!("{reason}, but the intent does not explain it")),
        })
    }

    /// A key press whose only effect is moving focus (Tab, arrow keys in a group): focus is
    /// not part of the diff, so it is read from the two snapshots directly.
    pub(super) fn focus_moved(&self) -> Option<Finding> {
        let focused = |s: &'a Snapshot| s.elements.iter().find(|e| e.focused);
        let (before, after) = (focused(self.before), focused(self.after));
        let moved = match (before, after) {
            (Some(b), Some(a)) => !same_ref(a, b) || Identity::of(a) != Identity::of(b),
            (None, Some(_)) | (Some(_), None) => true,
            (None, None) => false,
        };
        if !moved {
            return None;
        }
        Some(match after {
            Some(a) => matched(format!("focus moved to {}", describe_element(a)), Some(a)),
            None => matched("focus left the observed elements".to_owned(), None),
        })
    }

    /// A click on a field that takes text, which holds the focus afterwards: its effect is
    /// the focus it took (focus is not part of the diff, so it is read from `after`).
    pub(super) fn took_focus(&self, t: &Element) -> bool {
        t.role.has_value() && self.current(t).is_some_and(|e| e.focused)
    }
}
