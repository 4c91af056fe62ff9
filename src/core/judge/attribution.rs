//! Attribution of a click's effects: by the target's own state, by the names effects
//! carry, in another row, on checked rows, and an action that happened twice.

use super::*;

impl<'a> Judge<'a> {
    /// Attribution by own state, then names, then intent.
    pub(super) fn attribute(&self, t: &'a Element, effects: &[Effect<'a>]) -> Finding {
        if let Some(line) = self.own_change(t) {
            let found = matched(format!("the target's own state changed: {line}"), Some(t));
            return self.with_intent(found, effects, t);
        }
        // A dialog's dismissing button ("Close", "×", "Cancel", "Keep it") whose dialog
        // closed, and nothing else changed: the dialog was dismissed, as the button is for.
        if claims::is_dismissal(t.label()) {
            let closed = closed_dialogs(effects);
            let own = closed.iter().any(|d| diff::region_matches(&t.region, d));
            if own && effects.iter().all(|e| is_closing(e, &closed)) {
                let line = effects.first().map(Effect::line).unwrap_or_default();
                let found = matched(
                    format!("the dialog's own dismissing button closed it: {line}"),
                    Some(t),
                );
                return self.dismissed(found, effects, Some(t));
            }
        }
        if let Some(f) = self.submitted_dialog(t, effects) {
            return self.with_intent(f, effects, t);
        }
        // A field that took the name of the target's sibling (the option beside it, gone
        // with its popup): the sibling was picked.
        if !effects.iter().any(|e| takes_name(e, t)) {
            let sibling = effects.iter().find_map(|e| {
                self.before
                    .elements
                    .iter()
                    .filter(|s| s.role == t.role && s.region == t.region && !same_ref(s, t))
                    .find(|s| takes_name(e, s))
                    .map(|s| (s, e))
            });
            if let Some((s, e)) = sibling {
                return mismatch(
                    format!(
                        "the field took the name of {}, not the target's: {}",
                        describe_element(s),
                        e.line()
                    ),
                    Some(s),
                );
            }
        }
        if let Some(f) = self.stepped(t, effects) {
            return f;
        }
        if let Some(f) = self.paged(t, effects) {
            return f;
        }
        if let Some(f) = self.sorted_its_rows(t, effects) {
            return f;
        }
        if let Some(f) = self.closed_its_menu(t, effects) {
            return f;
        }
        if let Some(f) = self.opened_its_popup(t, effects) {
            return f;
        }
        if let Some(f) = self.replaced_its_line(t, effects) {
            return f;
        }
        // The words that mark the current one (a carousel's "Slide 3" for "Go to slide 3 of
        // 3") left a sibling for the target: the target became the current one, its own
        // state, as a tab's selection.
        if let Some((was, now)) = self.renamed(t) {
            if let Some(e) = effects.iter().find(|e| self.is_marker_moved(e, t)) {
                let found = matched(
                    format!(
                        "the target became the current one: {} is now named '{}', and a sibling lost that mark: {}",
                        describe_element(was),
                        now.label(),
                        e.line()
                    ),
                    Some(t),
                );
                return self.with_intent(found, effects, t);
            }
        } else if let Some(f) = self.marked_another(t, effects) {
            return f;
        }
        if let Some(f) = self.on_checked_rows(t, effects) {
            return self.with_intent(f, effects, t);
        }
        // A control of a row acting on its own row ("Delete" in the row "Walk dog", which
        // goes): the row is the target's place, so its effect is the target's.
        if let Some(place) = t.within.as_deref() {
            // A control shown or hidden in the row (on hover) is no effect of the row's own.
            let of_row = |e: &&Effect| {
                e.element().is_some_and(|el| is_in_place(el, place))
                    && (!matches!(e, Effect::Changed(_)) || e.is_own_state())
            };
            if let Some(e) = effects.iter().find(of_row) {
                let found = matched(
                    format!(
                        "the effect is on the target's own row {place}: {}",
                        e.line()
                    ),
                    Some(t),
                );
                return self.with_intent(found, effects, t);
            }
        }
        // A tooltip shows when the pointer comes to rest on its control (MUI's pagination
        // buttons): the pointer's arrival, not the press. A press whose only effect is the
        // target's tooltip did nothing.
        let tooltip = |e: &Effect| matches!(*e, Effect::Appeared(el) if el.role == Role::Tooltip);
        if self.action.kind == ActionKind::Click
            && !effects.is_empty()
            && effects.iter().all(tooltip)
        {
            return self
                .no_effect("only a tooltip showed, as the pointer came to rest on the target");
        }
        let candidates = Candidates::new(t, self.before, self.after);
        let (named, variants) = self.named(&candidates, effects);
        let like = |a: &Effect, b: &Effect| {
            let (ka, kb) = (a.kind_key(), b.kind_key());
            (ka.0, ka.1, ka.2) == (kb.0, kb.1, kb.2)
        };
        match named {
            // A variant's row gone (or added) along with the target's own: not what was meant.
            Named::Target(e) if variants.iter().any(|v| like(v, &e)) => {
                let v = variants.iter().find(|v| like(v, &e)).copied().unwrap_or(e);
                mismatch(
                    format!(
                        "the effect is on the target's '{}' and also on a variant of it: {}",
                        t.label(),
                        v.line()
                    ),
                    v.element(),
                )
            }
            Named::Target(e) => self.with_intent(
                matched(
                    format!("the effect carries the target's name: {}", e.line()),
                    Some(t),
                ),
                effects,
                t,
            ),
            Named::Neighbour(n, e) => mismatch(
                format!(
                    "the effect belongs to {}, not to the target: {}",
                    describe_element(n),
                    e.line()
                ),
                Some(n),
            ),
            Named::Both {
                target,
                neighbour,
                effect,
            } => ambiguous(format!(
                "the effect carries the target's name ({}) and also {}'s ({})",
                target.line(),
                describe_element(neighbour),
                effect.line()
            )),
            Named::Nobody => match variants.first() {
                Some(v) => mismatch(
                    format!(
                        "the effect is on a variant of the target's name '{}', not on it: {}",
                        t.label(),
                        v.line()
                    ),
                    v.element(),
                ),
                None => self.by_intent(effects, Some(t)).unwrap_or_else(|| {
                    self.unexplained(effects, "no element's name explains the effect")
                }),
            },
        }
    }

    /// A sibling named as the target is ("Go to slide 1 of 3" beside "Go to slide 3 of 3")
    /// lost the words that the target still has and became the current one ("Slide 1"),
    /// while the target stayed as it was: the action went to that sibling.
    fn marked_another(&self, t: &'a Element, effects: &[Effect<'a>]) -> Option<Finding> {
        let own = Terms::of(t.label());
        let shape = crate::core::background::shape(t.label());
        effects.iter().find_map(|e| {
            let Effect::Appeared(el) = *e else {
                return None;
            };
            if el.role != t.role || el.region != t.region || el.frame != t.frame {
                return None;
            }
            let (was, now) = self.renamed(el)?;
            if same_ref(was, t) || crate::core::background::shape(was.label()) != shape {
                return None;
            }
            let (w, n) = (Terms::of(was.label()), Terms::of(now.label()));
            let gone = w.without(&n);
            let lost: Vec<&str> = gone
                .iter()
                .filter(|x| !x.chars().all(|c| c.is_ascii_digit()))
                .collect();
            let took =
                !lost.is_empty() && n.without(&w).is_empty() && lost.iter().all(|x| own.matches(x));
            took.then(|| {
                mismatch(
                    format!(
                        "another became the current one, not the target: {} is now named '{}'",
                        describe_element(was),
                        now.label()
                    ),
                    Some(was),
                )
            })
        })
    }

    /// A target in a row (`Element::within`) acts on its row: an effect on another row of
    /// the same kind (the next row's checkbox ticked, the next row deleted too) is explained
    /// neither by the target nor by its row, so a MATCH found for the target's own effect
    /// does not stand. A sibling giving up a selection the target took is part of it; an
    /// intent that names the other row explains it.
    pub(super) fn in_other_row(&self, t: &'a Element) -> Option<Finding> {
        let place = t.within.as_deref()?;
        let (kind, key) = place.strip_suffix(']')?.split_once('[')?;
        let effects = Effect::all(self.diff);
        // The target's own row, named with the target's name first (MUI X's "Select row Chen
        // Wei"), renamed as the target was ("Unselect row Chen Wei"): still the target's row.
        let renamed = self.renamed(t);
        let own_row = |el: &Element| {
            renamed.is_some_and(|(was, now)| {
                [was, now].iter().any(|x| {
                    text::normalize_key(el.label())
                        == text::normalize_key(&format!("{} {key}", x.label()))
                })
            })
        };
        let other = effects.iter().find(|e| {
            if is_deselected_sibling(e, Some(t), &effects) || self.is_reveal_rename(e, &effects) {
                return false;
            }
            let Some(el) = e.element() else {
                return false;
            };
            if el.role.as_str() == kind && own_row(el) {
                return false;
            }
            // A named control's place only describes it: the diff pairs twins of one name
            // ("Delete todo" in every row) as it finds them, so only the place of an element
            // without a label, which its identity holds, says which row changed.
            match Identity::of(el).within {
                Some(w) => {
                    w != place
                        && w.strip_prefix(kind).is_some_and(|r| r.starts_with('['))
                        && el.frame == t.frame
                }
                None => {
                    el.role.as_str() == kind
                        && matches!(
                            e,
                            Effect::Appeared(_) | Effect::Disappeared(_) | Effect::Changed(_)
                        )
                        && el.frame == t.frame
                        && !is_in_place(el, place)
                }
            }
        })?;
        if let Some(intent) = self.intent.filter(|i| i.is_usable()) {
            if intent.explains(other.label(), &other.context()) {
                return None;
            }
        }
        let row = other
            .element()
            .and_then(|el| el.within.clone())
            .unwrap_or_else(|| other.element().map(describe_element).unwrap_or_default());
        Some(mismatch(
            format!(
                "the target is in {place}, but the effect reaches {row} too, which neither the target nor the intent explains: {}",
                other.line()
            ),
            other.element(),
        ))
    }

    /// A control outside the rows whose effect is that exactly the rows whose checkbox was
    /// checked went ("Clear completed", "Delete selected"): a bulk action acts on the checked
    /// rows. Rows with an unchecked box going too, or a checked one staying, is not this.
    pub(super) fn on_checked_rows(&self, t: &Element, effects: &[Effect<'a>]) -> Option<Finding> {
        if t.within.is_some() || self.action.kind != ActionKind::Click {
            return None;
        }
        let checked_in = |s: &Snapshot, place: &str| {
            s.elements.iter().any(|e| {
                e.within.as_deref() == Some(place)
                    && matches!(e.role, Role::Checkbox | Role::Switch)
                    && e.checked == Some(Tristate::True)
            })
        };
        let is_row = |e: &Element| {
            matches!(
                e.role,
                Role::Listitem | Role::Row | Role::Treeitem | Role::Article
            ) && e.within.is_none()
        };
        let places: Vec<String> = self
            .before
            .elements
            .iter()
            .filter_map(|e| e.within.clone())
            .collect::<FxHashSet<_>>()
            .into_iter()
            .collect();
        let place_of = |row: &Element| places.iter().find(|p| is_in_place(row, p)).cloned();
        let mut gone = 0;
        for e in effects {
            if let Effect::Disappeared(row) = *e {
                if is_row(row) {
                    let place = place_of(row)?;
                    if !checked_in(self.before, &place) {
                        return None;
                    }
                    gone += 1;
                }
            }
        }
        let still_checked = self
            .after
            .elements
            .iter()
            .filter(|e| e.visible && is_row(e))
            .filter_map(place_of)
            .any(|p| checked_in(self.after, &p));
        if gone == 0 || still_checked {
            return None;
        }
        Some(matched(
            format!(
                "the rows whose checkbox was checked went ({gone}), and no checked row is left"
            ),
            Some(t),
        ))
    }

    /// One click or key that showed the same new message twice (two toasts "Invitation sent
    /// to Ana", a toast region reading "Price alert setPrice alert set"), when neither the
    /// target's name nor the intent gives a number: the action happened twice. A message is a
    /// text, or a list item or status known by its words; controls are left out (a popup's
    /// two hidden Dismiss buttons are one popup).
    pub(super) fn twice(&self, target: Option<&Element>) -> Option<Finding> {
        if !matches!(self.action.kind, ActionKind::Click | ActionKind::Press) {
            return None;
        }
        let digits = |s: &str| s.chars().any(|c| c.is_ascii_digit());
        if target.is_some_and(|t| digits(t.label()))
            || self.claims.count.as_ref().is_some_and(|c| c.n != 1)
            || self.action.intent.as_deref().is_some_and(digits)
        {
            return None;
        }
        let doubled = |s: &str| {
            let s = s.trim();
            let n = s.chars().count();
            n >= 6 && n % 2 == 0 && {
                let half: String = s.chars().take(n / 2).collect();
                s.chars().skip(n / 2).collect::<String>() == half
            }
        };
        let mut seen: FxHashMap<(&str, &str, String), u32> = FxHashMap::default();
        let mut line = None;
        for t in &self.diff.texts_appeared {
            if doubled(&t.text) {
                return Some(mismatch(
                    format!(
                        "the same message shows twice: {}",
                        diff::line_text_appeared(t)
                    ),
                    target,
                ));
            }
            let n = seen
                .entry((
                    t.frame.as_str(),
                    t.region.as_str(),
                    text::normalize_key(&t.text),
                ))
                .or_default();
            *n += 1;
            if *n == 2 {
                line = Some(diff::line_text_appeared(t));
            }
        }
        let message = |e: &Element| {
            matches!(
                e.role,
                Role::Listitem | Role::Status | Role::Alert | Role::Article
            ) && text::normalize_key(e.label()).chars().count() >= 3
        };
        for e in self.diff.appeared.iter().filter(|e| message(e)) {
            let key = (
                e.frame.as_str(),
                e.region.as_str(),
                text::normalize_key(e.label()),
            );
            let before = self
                .before
                .elements
                .iter()
                .filter(|b| {
                    b.visible
                        && (
                            b.frame.as_str(),
                            b.region.as_str(),
                            text::normalize_key(b.label()),
                        ) == key
                })
                .count();
            let n = seen.entry(key).or_default();
            *n += 1;
            if *n == 2 && before == 0 {
                line = Some(diff::line_appeared(e));
            }
        }
        line.map(|l| {
            mismatch(
                format!("the same message appeared twice from one action: {l}"),
                target,
            )
        })
    }
}
