//! The actions that name what they want: click, hover, watch, fill, check, uncheck,
//! select, a stepper's step and a dialog's submit.

use super::intended::Check;
use super::*;

/// The outcome of comparing a field's value with what the action asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ValueCheck {
    Equal,
    /// Equal up to the formatting the page added.
    Formatted,
    Differs,
    /// Nothing was requested.
    NoRequest,
    /// The value cannot be compared without reading a secret (or is absent).
    Unverifiable,
}

impl<'a> Judge<'a> {
    pub(super) fn click(&self, t: &'a Element) -> Finding {
        self.attribute(t, &Effect::all(self.diff))
    }

    /// Hover: something must appear that the target's name or the intent explains.
    pub(super) fn hover(&self, t: &'a Element) -> Finding {
        if let Some(line) = self.own_change(t) {
            return matched(format!("the target's own state changed: {line}"), Some(t));
        }
        let shown: Vec<Effect> = Effect::all(self.diff)
            .into_iter()
            .filter(Effect::is_appearance)
            .collect();
        if shown.is_empty() {
            let first = self.diff.lines.first().cloned().unwrap_or_default();
            return ambiguous(format!(
                "nothing appeared on hover, though the page changed ({first})"
            ));
        }
        self.attribute(t, &shown)
    }

    pub(super) fn watch(&self) -> Finding {
        let effects = Effect::all(self.diff);
        match self.intent {
            None => ambiguous(format!(
                "the page changed ({} differences) but no intent was declared, so nothing says whether that was meant",
                self.diff.lines.len()
            )),
            Some(i) if !i.is_usable() => self.unexplained(&effects, "the page changed"),
            Some(_) => self.by_intent(&effects, None).unwrap_or_else(|| {
                let first = effects.first().map(Effect::line).unwrap_or_default();
                mismatch(format!("the intent explains none of the observed changes ({first})"), None)
            }),
        }
    }

    /// Compares an element's value with the request: by keyed hash when the element is
    /// sensitive (never reading the value), else by text.
    /// `loose` compares case-insensitively (option labels); a fill compares exactly, up to
    /// whitespace.
    pub(super) fn check_value(
        &self,
        e: &Element,
        target: &Element,
        wanted: Option<&str>,
        loose: bool,
    ) -> ValueCheck {
        let secret = target.sensitive
            || e.sensitive
            || e.value_hash.is_some()
            || e.value.as_deref() == Some(REDACTED);
        let by_hash = match (&self.action.value_hash, &e.value_hash) {
            (Some(want), Some(got)) => Some(if want == got {
                ValueCheck::Equal
            } else {
                ValueCheck::Differs
            }),
            (Some(_), None) => Some(ValueCheck::Unverifiable),
            (None, _) => None,
        };
        if secret {
            return by_hash.unwrap_or(if wanted.is_some() {
                ValueCheck::Unverifiable
            } else {
                ValueCheck::NoRequest
            });
        }
        match (wanted, e.value.as_deref()) {
            (Some(want), Some(got)) => {
                let capped = text::cap(want, limits::MAX_TEXT_CHARS);
                let equal = got == want
                    || got == capped
                    || text::normalize_whitespace(got) == text::normalize_whitespace(&capped)
                    || (loose && text::normalize_key(got) == text::normalize_key(&capped));
                if equal {
                    ValueCheck::Equal
                } else if !loose && is_formatted(&capped, got) {
                    ValueCheck::Formatted
                } else {
                    ValueCheck::Differs
                }
            }
            (Some(_), None) => ValueCheck::Unverifiable,
            (None, _) => by_hash.unwrap_or(ValueCheck::NoRequest),
        }
    }

    /// Fill: only the target's value changed, to the requested one.
    pub(super) fn fill(&self, t: &'a Element) -> Finding {
        let own = self.target_change(t).filter(|c| c.has(Field::Value));
        let wanted = self.action.value.as_deref();
        if let Some(other) = self
            .diff
            .changed
            .iter()
            .find(|c| c.has(Field::Value) && !own.is_some_and(|o| std::ptr::eq(*c, o)))
        {
            let how = if own.is_some() {
                "as well as the target's"
            } else {
                "instead of the target's"
            };
            return mismatch(
                format!(
                    "the value of {} changed {how}: {}",
                    describe_element(&other.after),
                    diff::line_changed(other)
                ),
                Some(&other.after),
            );
        }
        if let Some(c) = own {
            let line = diff::line_changed(c);
            return match self.check_value(&c.after, t, wanted, false) {
                ValueCheck::Equal => matched(format!("the target holds the requested value: {line}"), Some(t)),
                ValueCheck::Formatted => matched(format!("the target holds the requested value as the page formats it: {line}"), Some(t)),
                ValueCheck::NoRequest => matched(format!("the target's value changed (nothing to compare it with): {line}"), Some(t)),
                ValueCheck::Differs => mismatch(format!("the target's value changed, but not to the requested one: {line}"), Some(t)),
                ValueCheck::Unverifiable => ambiguous(format!(
                    "the target's value changed, but it is sensitive and no valueHash was given to compare it: {line}"
                )),
            };
        }
        if self.current(t).is_some_and(|e| {
            matches!(
                self.check_value(e, t, wanted, false),
                ValueCheck::Equal | ValueCheck::Formatted
            )
        }) {
            return matched(
                "the target already held the requested value".to_owned(),
                Some(t),
            );
        }
        self.no_effect(if self.diff.empty {
            "the page did not change"
        } else {
            "the target's value did not change"
        })
    }

    /// Check and uncheck: the target's checked state (pressed, for a toggle button) became
    /// the one asked for.
    pub(super) fn toggle(&self, t: &'a Element, on: bool) -> Finding {
        let field = if t.checked.is_none() && t.pressed.is_some() {
            Field::Pressed
        } else {
            Field::Checked
        };
        let state = |e: &Element| {
            if field == Field::Checked {
                e.checked
            } else {
                e.pressed
            }
        };
        let want = Tristate::from(on);
        let word = if on { "checked" } else { "unchecked" };
        if let Some(c) = self.target_change(t).filter(|c| c.has(field)) {
            let line = diff::line_changed(c);
            return if state(&c.after) == Some(want) {
                matched(format!("the target is now {word}: {line}"), Some(t))
            } else {
                mismatch(format!("the target was to be {word}, but: {line}"), Some(t))
            };
        }
        // A box named for what its next press does (MUI X's row checkbox, "Select row" →
        // "Unselect row") is a new element to the diff: the one in its place that took the
        // asked state under its new name is the target.
        if let Some((was, now)) = self.renamed(t) {
            if state(now) == Some(want) && state(was) != Some(want) {
                return matched(
                    format!(
                        "the target is now {word}, renamed for its next press: {} is now {}",
                        describe_element(was),
                        describe_element(now)
                    ),
                    Some(t),
                );
            }
        }
        if let Some(other) = self
            .diff
            .changed
            .iter()
            .find(|c| c.has(Field::Checked) || c.has(Field::Pressed))
        {
            return mismatch(
                format!(
                    "{} changed instead of the target: {}",
                    describe_element(&other.after),
                    diff::line_changed(other)
                ),
                Some(&other.after),
            );
        }
        if self.current(t).is_some_and(|e| state(e) == Some(want)) {
            return matched(format!("the target was already {word}"), Some(t));
        }
        self.no_effect(if self.diff.empty {
            "the page did not change"
        } else {
            "the target's state did not change"
        })
    }

    /// Select: the target shows the requested option, or that option became selected.
    pub(super) fn select(&self, t: &'a Element) -> Finding {
        let wanted = self.action.option.as_deref();
        let key = wanted.map(text::normalize_key);
        let is_wanted = |label: &str| {
            key.as_deref()
                .is_none_or(|k| text::normalize_key(label) == k)
        };
        let chosen: Vec<&Changed> = self
            .diff
            .changed
            .iter()
            .filter(|c| c.has(Field::Selected) && c.after.selected == Some(true))
            .collect();
        let own = self.target_change(t).filter(|c| c.has(Field::Value));
        if let Some(c) = own {
            let line = diff::line_changed(c);
            return match self.check_value(&c.after, t, wanted, true) {
                ValueCheck::Equal | ValueCheck::Formatted | ValueCheck::NoRequest => matched(format!("the target shows the requested option: {line}"), Some(t)),
                _ if chosen.iter().any(|o| is_wanted(o.after.label())) => {
                    matched(format!("the requested option is selected: {line}"), Some(t))
                }
                ValueCheck::Differs => mismatch(format!("the target shows another option than the requested one: {line}"), Some(t)),
                ValueCheck::Unverifiable => ambiguous(format!(
                    "the target's value changed, but it cannot be compared without reading it: {line}"
                )),
            };
        }
        if let Some(o) = chosen.iter().find(|o| is_wanted(o.after.label())) {
            return matched(
                format!(
                    "the requested option is selected: {}",
                    diff::line_changed(o)
                ),
                Some(t),
            );
        }
        if let Some(o) = chosen.first() {
            return mismatch(
                format!(
                    "{} was selected, not the requested option: {}",
                    describe_element(&o.after),
                    diff::line_changed(o)
                ),
                Some(&o.after),
            );
        }
        if let Some(other) = self.diff.changed.iter().find(|c| c.has(Field::Value)) {
            return mismatch(
                format!(
                    "the value of {} changed instead of the target's: {}",
                    describe_element(&other.after),
                    diff::line_changed(other)
                ),
                Some(&other.after),
            );
        }
        let shows = self
            .current(t)
            .is_some_and(|e| self.check_value(e, t, wanted, true) == ValueCheck::Equal);
        let option_selected = wanted.is_some()
            && self.after.elements.iter().any(|e| {
                e.role == Role::Option
                    && e.selected == Some(true)
                    && is_wanted(e.label())
                    && diff::region_matches(&e.region, &t.region)
            });
        if shows || option_selected {
            return matched(
                "the requested option was already selected".to_owned(),
                Some(t),
            );
        }
        self.no_effect(if self.diff.empty {
            "the page did not change"
        } else {
            "the selection did not change"
        })
    }

    /// A button whose name says a way for a value ("Increase Quantity", "Decrease", "+1"),
    /// whose effect is a value going that way (a spin button's increment and decrement
    /// buttons, the Authoring Practices' spinbutton pattern): its own effect. A number the
    /// intent gives for the new value must be the one shown.
    pub(super) fn stepped(&self, t: &'a Element, effects: &[Effect<'a>]) -> Option<Finding> {
        if t.role != Role::Button {
            return None;
        }
        let way = states::said(t.label(), Field::Value)?;
        let (c, value) = effects.iter().find_map(|e| match *e {
            Effect::Changed(c) if !same_ref(&c.after, t) => c
                .fields
                .iter()
                .find(|f| {
                    f.field == Field::Value
                        && states::went(f.field, f.before.as_deref(), f.after.as_deref())
                            == Some(way)
                })
                .map(|f| (c, f.after.clone().unwrap_or_default())),
            _ => None,
        })?;
        let found = matched(
            format!(
                "the value went the way the target's name says: {}",
                diff::line_changed(c)
            ),
            Some(t),
        );
        let Some(sentence) = self.action.intent.as_deref() else {
            return Some(self.with_intent(found, effects, t));
        };
        let numbers: Vec<String> = text::tokens(sentence)
            .into_iter()
            .filter(|w| w.chars().all(|ch| ch.is_ascii_digit()))
            .collect();
        let shown = text::tokens(&value);
        if !numbers.is_empty() && !numbers.iter().any(|n| shown.contains(n)) {
            return Some(mismatch(
                format!(
                    "the intent gives the value {}, but it is '{value}': {}",
                    numbers.join(" or "),
                    diff::line_changed(c)
                ),
                Some(t),
            ));
        }
        if states::said(sentence, Field::Value) == Some(!way) {
            return Some(mismatch(
                format!(
                    "the intent says the value goes the other way: {}",
                    diff::line_changed(c)
                ),
                Some(t),
            ));
        }
        Some(matched(
            format!("{}, as the intent says", found.reason),
            Some(t),
        ))
    }

    /// A button or link whose name steps through a sequence ("Go to next page", "Previous
    /// slide", the Authoring Practices' carousel and a pagination), whose effect is a shown
    /// position going one step that way: a line that replaced another with one number
    /// changed ("page 1 of 3" → "page 2 of 3", "1 / 5" → "2 / 5"; from the last back to the
    /// first where the sequence wraps). Its own effect; a position that moved further is not
    /// one step (the action done twice, or another control's): MISMATCH. When the page turns
    /// the position by itself too (its line is in a slot of the background: an autoplaying
    /// carousel, seen turning before the action or in the watch after it, `run::rewatch`),
    /// the line is read from the whole diff: one step is the target's, as where the page was
    /// not seen turning it; any other move cannot be told from the page's own turns landing
    /// inside the step (on a loop of three, two forward is also one back): AMBIGUOUS.
    pub(super) fn paged(&self, t: &'a Element, effects: &[Effect<'a>]) -> Option<Finding> {
        if !matches!(t.role, Role::Button | Role::Link) {
            return None;
        }
        let forward = states::steps(t.label())?;
        let all = Effect::all(self.full);
        let ((line, from, to, last), own_turns) = match position_line(effects) {
            Some(found) => (found, false),
            None => (position_line(&all)?, true),
        };
        let (step, wrapped) = if forward {
            (to.checked_sub(from), from == last && to == 1)
        } else {
            (from.checked_sub(to), from == 1 && to == last)
        };
        let way = if forward { "forward" } else { "back" };
        if step == Some(1) || wrapped {
            let found = matched(
                format!("the position went one step {way}, as the target's name says: {line}"),
                Some(t),
            );
            return Some(self.with_intent(found, effects, t));
        }
        if own_turns {
            return Some(ambiguous(format!(
                "the target's name says one step {way} and the position went from {from} to {to}, but the page turns it by itself too, so its own turns inside the step cannot be told apart: {line}"
            )));
        }
        Some(mismatch(
            format!(
                "the target's name says one step {way}, but the position went from {from} to {to}: {line}"
            ),
            Some(t),
        ))
    }
}

impl<'a> Judge<'a> {
    /// A column header's press orders its grid's rows (the Authoring Practices' sortable
    /// table; AG Grid and MUI X sort on a header click, their virtualised rows going and
    /// coming in the new order): rows of the header's own grid, and their cells, that came,
    /// went or moved are the header's effect, when nothing else of the grid changed.
    pub(super) fn sorted_its_rows(
        &self,
        t: &'a Element,
        effects: &[Effect<'a>],
    ) -> Option<Finding> {
        if t.role != Role::Columnheader || self.action.kind != ActionKind::Click {
            return None;
        }
        let of_grid = |el: &Element| el.frame == t.frame && el.region == t.region;
        let rowish = |el: &Element| {
            matches!(
                el.role,
                Role::Row | Role::Gridcell | Role::Cell | Role::Rowheader
            ) || (el.label().trim().is_empty() && matches!(el.role, Role::Generic | Role::None))
        };
        let mut rows = effects.iter().filter(|e| match *e {
            Effect::Appeared(el) | Effect::Disappeared(el) => el.role == Role::Row && of_grid(el),
            Effect::Moved(m) => m.after.role == Role::Row && of_grid(&m.after),
            _ => false,
        });
        let first = rows.next()?;
        // The header's own controls, named for its column and renamed for their next press
        // (MUI X's "Sort Orders in ascending order" becomes "… descending order"), go and
        // come with the sort: the header's doing too. Another column's say another name.
        let own_control = |el: &Element| names_column(el.label(), t.label());
        let other_in_grid = effects.iter().any(|e| match *e {
            Effect::Appeared(el) | Effect::Disappeared(el) => {
                of_grid(el) && !rowish(el) && !own_control(el)
            }
            Effect::Moved(m) => of_grid(&m.after) && !rowish(&m.after),
            Effect::Changed(c) => of_grid(&c.after) && !same_ref(&c.after, t) && !rowish(&c.after),
            _ => false,
        });
        if other_in_grid {
            return None;
        }
        let found = matched(
            format!(
                "the rows of the header's grid changed order: {}",
                first.line()
            ),
            Some(t),
        );
        Some(self.with_intent(found, effects, t))
    }
}

/// Does `label` carry the column name `column` as whole words ("Sort Orders in ascending
/// order" carries "Orders"; "Sort Name …" does not, nor "Reorders")?
fn names_column(label: &str, column: &str) -> bool {
    let words = |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_lowercase).collect() };
    let (label, column) = (words(label), words(column));
    !column.is_empty()
        && label.len() > column.len()
        && label.windows(column.len()).any(|w| w == column.as_slice())
}

/// A shown position among `effects`: a line that replaced another with one number changed
/// ("page 1 of 3" → "page 2 of 3"), its words, the two numbers and the largest number shown.
fn position_line(effects: &[Effect<'_>]) -> Option<(String, u32, u32, u32)> {
    effects.iter().find_map(|e| {
        let now = match *e {
            Effect::TextAppeared(t) => t.text.as_str(),
            Effect::Appeared(el) => el.label(),
            _ => return None,
        };
        // A time of day ("19:07:13") counts, it holds no position.
        if is_time(now) {
            return None;
        }
        let was = counterpart(e, effects)?;
        let (a, b) = (text::tokens(was), text::tokens(now));
        if a.len() != b.len() {
            return None;
        }
        let changed: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
        let number = |w: &str| w.parse::<u32>().ok();
        let (x, y, last) = match *changed.as_slice() {
            [i] => match (number(&a[i]), number(&b[i])) {
                (Some(x), Some(y)) => (x, y, b.iter().filter_map(|w| number(w)).max()?),
                _ if i + 1 < a.len() => month_step(&a[i..=i + 1], &b[i..=i + 1])?,
                _ => return None,
            },
            [i, j] if j == i + 1 => {
                month_step(&a[i..=j], &b[i..=j]).or_else(|| range_step(&a[i..=j], &b[i..=j], &b))?
            }
            _ => return None,
        };
        Some((e.line(), x, y, last))
    })
}

/// A pagination's shown range that moved ("1–5 of 12" → "6–10 of 12", MUI's table
/// pagination): the page each range is on, counted in the longer range's length (the last
/// page may hold fewer), and the last page of the largest number shown.
fn range_step(was: &[String], now: &[String], all: &[String]) -> Option<(u32, u32, u32)> {
    let n = |w: &String| w.parse::<u32>().ok().filter(|&k| k > 0);
    let (a1, a2, b1, b2) = (n(&was[0])?, n(&was[1])?, n(&now[0])?, n(&now[1])?);
    if a2 < a1 || b2 < b1 {
        return None;
    }
    let size = (a2 - a1 + 1).max(b2 - b1 + 1);
    let total = all.iter().filter_map(n).max()?;
    let page = |first: u32| (first - 1) / size + 1;
    Some((page(a1), page(b1), total.div_ceil(size)))
}

/// A calendar's month that turned ("December 2026" → "January 2027", a date picker's
/// caption): the months counted from year zero; a calendar has no last month.
fn month_step(was: &[String], now: &[String]) -> Option<(u32, u32, u32)> {
    let at = |w: &[String]| {
        let month = MONTHS
            .iter()
            .position(|names| names.contains(&w[0].as_str()))? as u32;
        let year = w[1]
            .parse::<u32>()
            .ok()
            .filter(|y| (1000..10000).contains(y))?;
        Some(year * 12 + month)
    };
    Some((at(was)?, at(now)?, u32::MAX))
}

/// The months by name, January first, as a calendar's caption writes them (folded: English,
/// Spanish, German, French).
const MONTHS: [&[&str]; 12] = [
    &["january", "enero", "januar", "janvier"],
    &["february", "febrero", "februar", "fevrier"],
    &["march", "marzo", "marz", "mars"],
    &["april", "abril", "avril"],
    &["may", "mayo", "mai"],
    &["june", "junio", "juni", "juin"],
    &["july", "julio", "juli", "juillet"],
    &["august", "agosto", "aout"],
    &["september", "septiembre", "septembre"],
    &["october", "octubre", "oktober", "octobre"],
    &["november", "noviembre", "novembre"],
    &["december", "diciembre", "dezember", "decembre"],
];

impl<'a> Judge<'a> {
    /// A menu item whose menu closed, and nothing else changed (a "Share" that copies a link,
    /// a checkbox item whose new state shows only when the menu opens again): activating an
    /// item closes its menu (the Authoring Practices' menu pattern), so the closing is the
    /// item's effect. Anything else that changed is judged as effects are.
    pub(super) fn closed_its_menu(
        &self,
        t: &'a Element,
        effects: &[Effect<'a>],
    ) -> Option<Finding> {
        if !matches!(
            t.role,
            Role::Menuitem | Role::Menuitemcheckbox | Role::Menuitemradio
        ) {
            return None;
        }
        let of_menu = |e: &Effect| {
            closes_popup(e)
                || match *e {
                    Effect::Disappeared(el) => {
                        el.region == t.region
                            || (el.label().trim().is_empty()
                                && matches!(el.role, Role::Generic | Role::None | Role::Separator))
                    }
                    Effect::Changed(c) => {
                        c.after.region == t.region
                            && c.fields.iter().all(|f| {
                                f.field == Field::Visible && !c.after.visible
                                    || f.field == Field::Disabled
                            })
                    }
                    _ => false,
                }
        };
        let closing = effects.iter().find(|e| closes_popup(e))?;
        // What else changed (a message "Trip link copied") follows from the item unless
        // another element's name explains it, or it is on a variant of the item's name.
        let rest: Vec<Effect<'a>> = effects.iter().filter(|e| !of_menu(e)).copied().collect();
        let followed = match rest.first() {
            None => String::new(),
            Some(first) => {
                // The menu's own words (its opener's name, its title) name no one else.
                let menu: Vec<&str> = effects
                    .iter()
                    .filter_map(|e| match *e {
                        Effect::Changed(c) if closes_popup(e) => Some(c.after.label()),
                        _ => None,
                    })
                    .collect();
                let menu = Terms::of(&menu.join(" "));
                let own = Terms::of(t.label());
                let names_another = rest.iter().any(|e| {
                    Terms::of(e.label()).iter().any(|w| {
                        !claims::is_action(w)
                            && !own.matches(w)
                            && !menu.matches(w)
                            && self
                                .before
                                .elements
                                .iter()
                                .any(|el| !same_ref(el, t) && Terms::of(el.label()).matches(w))
                    })
                });
                let candidates = Candidates::new(t, self.before, self.after);
                match self.named(&candidates, &rest) {
                    (Named::Target(_) | Named::Nobody, variants)
                        if variants.is_empty() && !names_another =>
                    {
                        format!(", and then {}", first.line())
                    }
                    _ => return None,
                }
            }
        };
        let found = matched(
            format!(
                "the menu closed as its item was activated: {}{followed}",
                closing.line()
            ),
            Some(t),
        );
        if self.intent.is_none() {
            return Some(found);
        }
        // Nothing but the menu changed: a claim the closing cannot show is read as about
        // the item (see `as_read`), one it contradicts is held against it.
        Some(match self.check_claims(effects, Some(t)) {
            Check::Holds(_) => matched(format!("{}, and the intent holds", found.reason), Some(t)),
            Check::Contradicted(f) => f,
            Check::Open(_) | Check::NoObject => self.as_read(found, effects, t),
        })
    }

    /// A button that says nothing of a popup (no `aria-expanded`, no `aria-controls`) and
    /// right after which, in the page's order, a menu or listbox opened, nothing else
    /// changing: the popup is the button's own (a menu anchored to its button, as Material
    /// Web's menu is, opens beside it), and named by it, as the Authoring Practices' menu
    /// is labelled by its button. A popup placed after another control, or one that opened
    /// with anything else, is judged as effects are.
    pub(super) fn opened_its_popup(
        &self,
        t: &'a Element,
        effects: &[Effect<'a>],
    ) -> Option<Finding> {
        if effects.is_empty() || !effects.iter().all(|e| self.opened_after(e, t)) {
            return None;
        }
        let line = effects[0].line();
        // The popup opening is the button's state going open, as `aria-expanded` would say.
        let said = self
            .action
            .intent
            .as_deref()
            .and_then(|i| states::said(i, Field::Expanded));
        if said == Some(false) {
            return Some(mismatch(
                format!("the intent says the target's popup closed, but it opened: {line}"),
                Some(t),
            ));
        }
        let found = matched(
            format!("the popup that follows the target opened: {line}"),
            Some(t),
        );
        Some(self.with_intent(found, effects, t))
    }

    /// Is the effect a menu or listbox, or an item of one, shown right after the button `t`
    /// in the page's order (nothing visible between them but the popup itself), while `t`
    /// holds no state of its own that would say what it opened?
    pub(super) fn opened_after(&self, e: &Effect<'a>, t: &Element) -> bool {
        if t.role != Role::Button || t.expanded.is_some() {
            return false;
        }
        let in_popup = |r: Role| {
            is_popup(r)
                || matches!(
                    r,
                    Role::Menuitem | Role::Menuitemcheckbox | Role::Menuitemradio | Role::Option
                )
        };
        let el = match *e {
            Effect::Appeared(el) => el,
            Effect::Changed(c)
                if c.after.visible && c.fields.iter().all(|f| f.field == Field::Visible) =>
            {
                &c.after
            }
            _ => return false,
        };
        let after = &self.after.elements;
        let (Some(at), Some(to)) = (
            after.iter().position(|x| same_ref(x, t)),
            after.iter().position(|x| same_ref(x, el)),
        ) else {
            return false;
        };
        in_popup(el.role)
            && at < to
            && after[at + 1..to]
                .iter()
                .all(|x| !x.visible || in_popup(x.role))
    }

    /// A control at the end of a message that the page replaced with another (a toast's
    /// "Undo" in "Conversation archived Undo", replaced by "Archive undone"): the control
    /// went with its message, and the line that took its place is the control's doing,
    /// whatever other control its words also name (the "Archive" whose work it undid).
    pub(super) fn replaced_its_line(
        &self,
        t: &'a Element,
        effects: &[Effect<'a>],
    ) -> Option<Finding> {
        let gone = effects.iter().any(|e| {
            matches!(*e, Effect::Disappeared(el) if same_ref(el, t) || Identity::of(el) == Identity::of(t))
        });
        if !gone || t.label().trim().is_empty() {
            return None;
        }
        let own = text::tokens(t.label());
        // The message that held it: a line gone in its place that ends with its name.
        let held = |x: &Text| {
            x.frame == t.frame && x.region == t.region && text::tokens(&x.text).ends_with(&own)
        };
        let old = effects.iter().find_map(|e| match *e {
            Effect::TextDisappeared(x) if held(x) => Some(x),
            _ => None,
        })?;
        let new = effects.iter().find(|e| {
            matches!(**e, Effect::TextAppeared(x) if x.frame == old.frame && x.region == old.region)
        })?;
        let found = matched(
            format!(
                "the message holding the target was replaced: {}",
                new.line()
            ),
            Some(t),
        );
        Some(self.with_intent(found, effects, t))
    }

    /// A button of a dialog that closed, where what the dialog's fields held now shows
    /// outside it ("Gemini" typed in the dialog's "Project name", then the heading "Project
    /// Gemini"): the dialog's form was submitted, which is what its button is for.
    pub(super) fn submitted_dialog(
        &self,
        t: &'a Element,
        effects: &[Effect<'a>],
    ) -> Option<Finding> {
        let closed = closed_dialogs(effects);
        if !closed.iter().any(|d| diff::region_matches(&t.region, d)) {
            return None;
        }
        let in_dialog = |region: &str| closed.iter().any(|d| diff::region_matches(region, d));
        let values: Vec<String> = self
            .before
            .elements
            .iter()
            .filter(|e| in_dialog(&e.region) && !e.sensitive && e.value_hash.is_none())
            .filter(|e| {
                matches!(
                    e.role,
                    Role::Textbox | Role::Searchbox | Role::Combobox | Role::Spinbutton
                )
            })
            .filter_map(|e| e.value.as_deref())
            .map(|v| text::fold(v).trim().to_owned())
            .filter(|v| v.chars().count() >= 2 && v != &text::fold(REDACTED))
            .collect();
        let shown = effects.iter().find(|e| {
            e.is_appearance()
                && !in_dialog(e.region())
                && values
                    .iter()
                    .any(|v| text::fold(e.label()).contains(v.as_str()))
        })?;
        Some(matched(
            format!(
                "what the dialog's fields held shows outside it: {}",
                shown.line()
            ),
            Some(t),
        ))
    }
}

/// Does `s` show a time of day: a digit, a colon and two digits ("9:05", "19:07:13")?
fn is_time(s: &str) -> bool {
    let b = s.as_bytes();
    b.windows(4).any(|w| {
        w[0].is_ascii_digit() && w[1] == b':' && w[2].is_ascii_digit() && w[3].is_ascii_digit()
    })
}
