//! Effects as evidence: one observed difference, what it is about, and how effects relate
//! to the target (its own state, a sibling's deselection, a dialog closing, a rename).

use super::*;

/// One observed difference, as evidence.
#[derive(Debug, Clone, Copy)]
pub(super) enum Effect<'d> {
    Appeared(&'d Element),
    Disappeared(&'d Element),
    Changed(&'d Changed),
    Moved(&'d Moved),
    TextAppeared(&'d Text),
    TextDisappeared(&'d Text),
}

impl<'d> Effect<'d> {
    /// Appearances and changes first, then disappearances; at most [`MAX_EFFECTS`].
    pub(super) fn all(d: &'d Diff) -> Vec<Effect<'d>> {
        d.appeared
            .iter()
            .map(Effect::Appeared)
            .chain(d.changed.iter().map(Effect::Changed))
            .chain(d.moved.iter().map(Effect::Moved))
            .chain(d.texts_appeared.iter().map(Effect::TextAppeared))
            .chain(d.disappeared.iter().map(Effect::Disappeared))
            .chain(d.texts_disappeared.iter().map(Effect::TextDisappeared))
            .take(MAX_EFFECTS)
            .collect()
    }

    /// The element the effect is about, as it was known before (for identity checks).
    pub(super) fn element(&self) -> Option<&'d Element> {
        match *self {
            Effect::Appeared(e) | Effect::Disappeared(e) => Some(e),
            Effect::Changed(c) => Some(&c.before),
            Effect::Moved(m) => Some(&m.before),
            Effect::TextAppeared(_) | Effect::TextDisappeared(_) => None,
        }
    }

    pub(super) fn label(&self) -> &'d str {
        match *self {
            Effect::Appeared(e) | Effect::Disappeared(e) => e.label(),
            Effect::Changed(c) => c.after.label(),
            Effect::Moved(m) => m.after.label(),
            Effect::TextAppeared(t) | Effect::TextDisappeared(t) => &t.text,
        }
    }

    /// Words around the label: the role, regions, the names of changed fields and their new
    /// values (as shown, so redacted where sensitive).
    pub(super) fn context(&self) -> String {
        match *self {
            Effect::Appeared(e) | Effect::Disappeared(e) => {
                format!("{} {}", role_words(e.role), e.region)
            }
            Effect::Changed(c) => {
                let mut s = format!("{} {}", role_words(c.after.role), c.after.region);
                for f in &c.fields {
                    s.push(' ');
                    s.push_str(f.field.as_str());
                    if let Some(v) = &f.after {
                        s.push(' ');
                        s.push_str(v);
                    }
                    // What people call the state ("on", "open", "selected"): its way is
                    // checked apart (`states::said`).
                    if is_own_field(f.field) {
                        s.push(' ');
                        s.push_str(&states::vocabulary(f.field));
                    }
                }
                s
            }
            Effect::Moved(m) => format!(
                "{} {} {}",
                role_words(m.after.role),
                m.before.region,
                m.after.region
            ),
            Effect::TextAppeared(t) | Effect::TextDisappeared(t) => t.region.clone(),
        }
    }

    pub(super) fn line(&self) -> String {
        match *self {
            Effect::Appeared(e) => diff::line_appeared(e),
            Effect::Disappeared(e) => diff::line_disappeared(e),
            Effect::Changed(c) => diff::line_changed(c),
            Effect::Moved(m) => diff::line_moved(m),
            Effect::TextAppeared(t) => diff::line_text_appeared(t),
            Effect::TextDisappeared(t) => diff::line_text_disappeared(t),
        }
    }

    /// Something became visible: an element or text appeared, or a hidden one was shown.
    pub(super) fn is_appearance(&self) -> bool {
        match *self {
            Effect::Appeared(e) => e.visible,
            Effect::TextAppeared(_) => true,
            Effect::Changed(c) => c.has(Field::Visible) && c.after.visible,
            _ => false,
        }
    }

    /// The stems of the label's content words, in order.
    pub(super) fn stems(&self) -> Vec<String> {
        claims::stems(self.label())
    }

    /// The region the effect is seen in (after a move, the new one).
    pub(super) fn region(&self) -> &'d str {
        match *self {
            Effect::Appeared(e) | Effect::Disappeared(e) => &e.region,
            Effect::Changed(c) => &c.after.region,
            Effect::Moved(m) => &m.after.region,
            Effect::TextAppeared(t) | Effect::TextDisappeared(t) => &t.region,
        }
    }

    /// Like effects share this key, for counting: direction, role (or text), region, and
    /// the label except for rows, which are counted however they are labelled.
    pub(super) fn kind_key(&self) -> (u8, Option<Role>, &'d str, &'d str) {
        let (direction, role) = match *self {
            Effect::Appeared(e) => (0, Some(e.role)),
            Effect::Disappeared(e) => (1, Some(e.role)),
            Effect::Changed(c) => (2, Some(c.after.role)),
            Effect::Moved(m) => (3, Some(m.after.role)),
            Effect::TextAppeared(_) => (0, None),
            Effect::TextDisappeared(_) => (1, None),
        };
        let row = matches!(
            role,
            Some(Role::Listitem | Role::Row | Role::Article | Role::Option | Role::Treeitem)
        );
        let label = if row { "" } else { self.label() };
        (direction, role, self.region(), label)
    }

    /// A message of failure that appeared: a text, or an alert or status element.
    pub(super) fn is_failure_message(&self) -> bool {
        let alerting = |r: Role| matches!(r, Role::Alert | Role::Alertdialog | Role::Status);
        let shown = match *self {
            Effect::TextAppeared(_) => true,
            Effect::Appeared(e) => alerting(e.role),
            Effect::Changed(c) => alerting(c.after.role) && self.is_appearance(),
            _ => false,
        };
        shown && claims::is_failure(self.label())
    }

    /// Does the effect change an element's own state (or place)?
    pub(super) fn is_own_state(&self) -> bool {
        match *self {
            Effect::Changed(c) => c.fields.iter().any(|f| is_own_field(f.field)),
            Effect::Moved(_) => true,
            _ => false,
        }
    }
}

/// Fields that are an element's own state, changed by acting on it. Visibility and
/// disabledness are consequences (a dialog hiding its buttons), not evidence.
pub(super) fn is_own_field(f: Field) -> bool {
    matches!(
        f,
        Field::Checked | Field::Pressed | Field::Selected | Field::Expanded | Field::Value
    )
}

/// The terms of the titles in a region path (`dialog[Delete account?]`, `form[Checkout]`):
/// words of a container, which name no control inside it.
pub(super) fn title_terms(region: &str) -> Terms {
    let mut titles = String::new();
    for segment in region.split('/') {
        if let (Some(open), true) = (segment.find('['), segment.ends_with(']')) {
            titles.push_str(&segment[open + 1..segment.len() - 1]);
            titles.push(' ');
        }
    }
    Terms::of(&titles)
}

/// The region path up to and including its form (`form[Checkout]`, `main/form[Login]`).
pub(super) fn form_region(region: &str) -> Option<String> {
    let segments: Vec<&str> = region.split('/').collect();
    let at = segments
        .iter()
        .position(|s| *s == "form" || s.starts_with("form["))?;
    Some(segments[..=at].join("/"))
}

/// Roles that pop up over the page and close again.
pub(super) fn is_popup(role: Role) -> bool {
    matches!(
        role,
        Role::Dialog | Role::Alertdialog | Role::Listbox | Role::Menu | Role::Tooltip
    )
}

/// A value that keeps every typed character in order and adds only formatting (spaces,
/// `()-./,+'` and the like) or changes only letter case: the requested value as the page shows it.
pub fn is_formatted(typed: &str, shown: &str) -> bool {
    // Characters a page inserts to format a phone number, a card number, an amount or a
    // date; apostrophes and narrow spaces are thousand separators in some locales.
    const FORMATTING: &[char] = &[
        ' ', '(', ')', '-', '.', '/', ',', '+', '\'', '\u{2019}', '\u{a0}', '\u{202f}', '\u{2009}',
    ];
    let typed: Vec<char> = typed.trim().chars().collect();
    if typed.is_empty() {
        return false;
    }
    let mut at = 0;
    for c in shown.trim().chars() {
        // Case is formatting too: an IBAN or a postcode shown in capitals.
        if at < typed.len() && (c == typed[at] || c.to_lowercase().eq(typed[at].to_lowercase())) {
            at += 1;
        } else if !FORMATTING.contains(&c) {
            return false;
        }
    }
    at == typed.len()
}

/// A popup closed: a control collapsed, or a popup disappeared or was hidden.
pub(super) fn closes_popup(e: &Effect) -> bool {
    match *e {
        Effect::Changed(c) => {
            (c.has(Field::Expanded) && c.after.expanded == Some(false))
                || (c.has(Field::Visible) && !c.after.visible && is_popup(c.after.role))
        }
        Effect::Disappeared(el) => is_popup(el.role),
        _ => false,
    }
}

/// What a dialog closing says, in the four languages: that it closed.
pub(super) const CLOSED_WORDS: &str =
    "closes closed dismissed cierra cerrado cerrada descarta descartado descartada ferme fermee \
    schliesst geschlossen";

/// What people call a dialog, in the four languages, folded: an intent whose object is one
/// of these is about the dialog itself.
pub(super) const DIALOG_WORDS: &str =
    "dialog dialogue modal popup popover panel sheet drawer window \
    prompt confirmation alert box dialogo ventana panel confirmacion aviso fenster \
    ruckfrage bestatigung hinweis meldung boite fenetre";

/// The regions inside the dialogs that `effects` close (`dialog[Delete account?]`).
pub(super) fn closed_dialogs(effects: &[Effect]) -> Vec<String> {
    closed_dialog_elements(effects)
        .into_iter()
        .map(dialog_region)
        .collect()
}

/// The dialogs that `effects` close (go or hide), as they were.
pub(super) fn closed_dialog_elements<'d>(effects: &[Effect<'d>]) -> Vec<&'d Element> {
    effects
        .iter()
        .filter_map(|e| {
            let el = match *e {
                Effect::Disappeared(el) => el,
                Effect::Changed(c) if c.has(Field::Visible) && !c.after.visible => &c.before,
                _ => return None,
            };
            matches!(el.role, Role::Dialog | Role::Alertdialog).then_some(el)
        })
        .collect()
}

/// The region inside a dialog, as the page's observation writes it: `dialog[Unsubscribe?]`
/// for a dialog with a name, `dialog` for one without (its content is no name of the
/// region), after the region the dialog itself is in.
fn dialog_region(el: &Element) -> String {
    let own = if el.name.trim().is_empty() {
        el.role.as_str().to_owned()
    } else {
        format!("{}[{}]", el.role.as_str(), el.name)
    };
    if el.region.is_empty() {
        own
    } else if el.region.ends_with(&own) {
        el.region.clone()
    } else {
        format!("{}/{own}", el.region)
    }
}

/// The dialogs that `effects` open (appear or show), each with the region inside it
/// (`dialog[Unsubscribe?]`) and the effect that opens it.
pub(super) fn opened_dialogs<'d>(effects: &[Effect<'d>]) -> Vec<(String, Effect<'d>)> {
    effects
        .iter()
        .filter_map(|e| {
            let el = match *e {
                Effect::Appeared(el) => el,
                Effect::Changed(c) if c.has(Field::Visible) && c.after.visible => &c.after,
                _ => return None,
            };
            matches!(el.role, Role::Dialog | Role::Alertdialog).then(|| (dialog_region(el), *e))
        })
        .collect()
}

/// Is `e` inside the dialog whose region is `dialog` (an element or a text of it)?
pub(super) fn is_inside(e: &Effect, dialog: &str) -> bool {
    match *e {
        Effect::TextAppeared(t) | Effect::TextDisappeared(t) => {
            diff::region_matches(&t.region, dialog)
        }
        _ => e
            .element()
            .is_some_and(|el| diff::region_matches(&el.region, dialog)),
    }
}

/// Is `e` part of a dialog closing: the dialog going or hiding, or what was inside it going
/// with it? Its words are the dialog's title and buttons, which say what the dialog was
/// about, never that it happened: a closing is evidence that the dialog closed and of
/// nothing else.
pub(super) fn is_closing(e: &Effect, closed: &[String]) -> bool {
    // A modal's nameless focus guards and backdrop (no label, no place) go with it, or hide
    // with it (Shoelace's overlay).
    let nameless = match *e {
        Effect::Disappeared(el) => Some(el),
        Effect::Changed(c)
            if !c.after.visible && c.fields.iter().all(|f| f.field == Field::Visible) =>
        {
            Some(&c.after)
        }
        _ => None,
    };
    if let Some(el) = nameless {
        if !closed.is_empty()
            && el.label().trim().is_empty()
            && el.within.is_none()
            && matches!(
                el.role,
                Role::Generic | Role::None | Role::Unknown | Role::Button
            )
        {
            return true;
        }
    }
    // The control that opened the dialog (`aria-expanded`) collapses with it.
    if let Effect::Changed(c) = *e {
        if !closed.is_empty()
            && c.fields.iter().all(|f| f.field == Field::Expanded)
            && c.after.expanded == Some(false)
        {
            return true;
        }
    }
    let gone = match *e {
        Effect::Disappeared(_) => true,
        Effect::Changed(c) => c.has(Field::Visible) && !c.after.visible,
        _ => false,
    };
    gone && e.element().is_some_and(|el| {
        matches!(el.role, Role::Dialog | Role::Alertdialog)
            || closed.iter().any(|d| diff::region_matches(&el.region, d))
    }) || matches!(*e, Effect::TextDisappeared(t) if closed.iter().any(|d| diff::region_matches(&t.region, d)))
}

/// Is `e` a sibling of the target giving up the selection the target takes? In a group that
/// holds one selection (tabs, radios, options, segmented buttons, tree items, rows of a grid,
/// the current one of a set of links) selecting one item deselects the one that had it: part of the target's effect, never a
/// neighbour's or a variant's.
pub(super) fn is_deselected_sibling(
    e: &Effect,
    target: Option<&Element>,
    effects: &[Effect],
) -> bool {
    let (Effect::Changed(c), Some(t)) = (*e, target) else {
        return false;
    };
    let on = |c: &Changed| {
        c.fields.iter().any(|f| match f.field {
            Field::Selected => c.after.selected == Some(true),
            Field::Checked => c.after.checked == Some(Tristate::True),
            Field::Pressed => c.after.pressed == Some(Tristate::True),
            _ => false,
        })
    };
    // The same choice shown twice (a custom select's popup and the native select it keeps
    // for forms): the target's twin took the selection in the group this sibling left.
    let twin_took = |region: &str| {
        effects.iter().any(|o| match *o {
            Effect::Changed(oc) => {
                oc.after.role == t.role
                    && oc.after.region == region
                    && oc.after.frame == t.frame
                    && text::normalize_key(oc.after.label()) == text::normalize_key(t.label())
                    && on(oc)
            }
            _ => false,
        })
    };
    // A tab's panel shows with it and the panel of the tab it replaces hides.
    if t.role == Role::Tab
        && c.after.role == Role::Tabpanel
        && c.after.frame == t.frame
        && c.fields.iter().all(|f| f.field == Field::Visible)
    {
        return true;
    }
    let single = matches!(
        t.role,
        Role::Tab
            | Role::Radio
            | Role::Option
            | Role::Menuitemradio
            | Role::Treeitem
            | Role::Row
            | Role::Gridcell
            | Role::Button
            | Role::Link
    );
    let off = |f: &diff::FieldChange| match f.field {
        // A link that stops being current loses its `aria-current`: no selection.
        Field::Selected => c.after.selected != Some(true),
        Field::Checked => c.after.checked == Some(Tristate::False),
        Field::Pressed => c.after.pressed == Some(Tristate::False),
        _ => false,
    };
    single
        && c.after.role == t.role
        && (c.after.region == t.region || twin_took(&c.after.region))
        && c.after.frame == t.frame
        && !same_ref(&c.after, t)
        && !c.fields.is_empty()
        && c.fields
            .iter()
            .all(|f| off(f) || f.field == Field::Disabled)
}

/// Did a field's value become the target's name? Picking an option of a combo box, a
/// select or an autocomplete sets the field it belongs to to that option ("Ger" →
/// "Germany"): the field shows the target was picked.
pub(super) fn takes_name(e: &Effect, t: &Element) -> bool {
    let Effect::Changed(c) = *e else {
        return false;
    };
    let name = text::normalize_key(t.label());
    name.chars().count() >= 2
        && !same_ref(&c.after, t)
        && c.fields.iter().any(|f| {
            f.field == Field::Value
                && f.after
                    .as_deref()
                    .is_some_and(|v| text::normalize_key(v) == name)
        })
}

/// How a person names an element: its label, else the words of its place (the checkbox of
/// the row "Walk dog" is "Walk dog"'s).
pub(super) fn naming(e: &Element) -> &str {
    match e.label() {
        "" => e
            .within
            .as_deref()
            .and_then(|w| w.strip_suffix(']')?.split_once('[').map(|(_, key)| key))
            .unwrap_or(""),
        label => label,
    }
}

pub(super) fn same_ref(e: &Element, target: &Element) -> bool {
    !target.reference.is_empty() && e.reference == target.reference
}

impl<'a> Judge<'a> {
    pub(super) fn target_change(&self, t: &Element) -> Option<&'a Changed> {
        let changed = &self.diff.changed;
        changed
            .iter()
            .find(|c| same_ref(&c.before, t) || same_ref(&c.after, t))
            .or_else(|| {
                changed
                    .iter()
                    .find(|c| Identity::of(&c.before) == Identity::of(t))
            })
    }

    pub(super) fn target_move(&self, t: &Element) -> Option<&'a Moved> {
        let moved = &self.diff.moved;
        moved
            .iter()
            .find(|m| same_ref(&m.before, t) || same_ref(&m.after, t))
            .or_else(|| {
                moved
                    .iter()
                    .find(|m| Identity::of(&m.before) == Identity::of(t))
            })
    }

    /// The target as it is in `after`: same ref, else same identity.
    pub(super) fn current(&self, t: &Element) -> Option<&'a Element> {
        let elements = &self.after.elements;
        elements
            .iter()
            .find(|e| same_ref(e, t))
            .or_else(|| elements.iter().find(|e| Identity::of(e) == Identity::of(t)))
    }

    /// The target's own state changed, or it moved: the line saying so.
    pub(super) fn own_change(&self, t: &Element) -> Option<String> {
        if let Some(c) = self
            .target_change(t)
            .filter(|c| Effect::Changed(c).is_own_state())
        {
            return Some(diff::line_changed(c));
        }
        self.target_move(t).map(diff::line_moved)
    }

    /// A row that went and came back with the names of its own controls added or taken away
    /// ("Buy milk" → "Buy milk Delete todo" as the pointer comes to rest on it and its
    /// Delete button shows): the row did not change, a control in it was shown or hidden.
    pub(super) fn is_reveal_rename(&self, e: &Effect<'a>, effects: &[Effect<'a>]) -> bool {
        let (el, went) = match *e {
            Effect::Appeared(el) => (el, false),
            Effect::Disappeared(el) => (el, true),
            _ => return false,
        };
        if el.within.is_some() {
            return false;
        }
        effects.iter().any(|other| {
            let twin = match (*other, went) {
                (Effect::Disappeared(b), false) | (Effect::Appeared(b), true) => b,
                _ => return false,
            };
            if twin.role != el.role || twin.region != el.region || twin.frame != el.frame {
                return false;
            }
            let (a, b) = (
                text::normalize_key(el.label()),
                text::normalize_key(twin.label()),
            );
            let (long, short) = if a.len() > b.len() { (a, b) } else { (b, a) };
            let Some(extra) = long.strip_prefix(&format!("{short} ")) else {
                return false;
            };
            let place = format!("{}[{short}]", el.role.as_str());
            let controls: Vec<String> = [self.before, self.after]
                .iter()
                .flat_map(|s| s.elements.iter())
                .filter(|c| {
                    c.within
                        .as_deref()
                        .is_some_and(|w| text::normalize_key(w) == place)
                        && !c.label().is_empty()
                })
                .map(|c| text::normalize_key(c.label()))
                .collect();
            let mut rest = extra.to_owned();
            for c in &controls {
                rest = rest.replacen(c.as_str(), "", 1);
            }
            rest.trim().is_empty()
        })
    }
}

/// A line of text an effect shows or removes: a text run, or an element that is only a
/// line (a named generic or status, as a carousel's "1 of 3"): its frame, region and words.
fn line_of<'d>(effect: &Effect<'d>) -> Option<(&'d str, &'d str, &'d str, bool)> {
    match *effect {
        Effect::TextAppeared(t) => Some((&t.frame, &t.region, &t.text, true)),
        Effect::TextDisappeared(t) => Some((&t.frame, &t.region, &t.text, false)),
        Effect::Appeared(e) | Effect::Disappeared(e)
            if matches!(e.role, Role::Generic | Role::Status | Role::None)
                && !e.label().trim().is_empty() =>
        {
            Some((
                &e.frame,
                &e.region,
                e.label(),
                matches!(effect, Effect::Appeared(_)),
            ))
        }
        _ => None,
    }
}

/// The line of the other side of the diff that an effect's line replaced, or that replaced
/// it ("page 1 of 3" → "page 2 of 3"), in the same frame and region: the one text of the
/// same kind there, else the one line there whose words are this line's but one.
pub(super) fn counterpart<'d>(effect: &Effect<'d>, effects: &[Effect<'d>]) -> Option<&'d str> {
    let (frame, region, words, appeared) = line_of(effect)?;
    let others: Vec<(&Effect<'d>, &'d str)> = effects
        .iter()
        .filter_map(|e| {
            let (f, r, w, a) = line_of(e)?;
            (f == frame && r == region && a != appeared).then_some((e, w))
        })
        .collect();
    let kind = |e: &Effect| match *e {
        Effect::TextAppeared(t) | Effect::TextDisappeared(t) => Some(t.kind),
        _ => None,
    };
    let same_kind: Vec<&str> = others
        .iter()
        .filter(|(e, _)| kind(e).is_some() && kind(e) == kind(effect))
        .map(|&(_, w)| w)
        .collect();
    if let [one] = same_kind.as_slice() {
        return Some(one);
    }
    let tokens = text::tokens(words);
    let one_apart = |w: &str| {
        let other = text::tokens(w);
        other.len() == tokens.len()
            && other.iter().zip(&tokens).filter(|(a, b)| a != b).count() == 1
    };
    let mut near = others.iter().map(|&(_, w)| w).filter(|w| one_apart(w));
    let first = near.next()?;
    near.next().is_none().then_some(first)
}

impl<'a> Judge<'a> {
    /// An element as it was and as it is, when its name changed: the element of the other
    /// observation at its place (the same frame, region and role, the same index among
    /// those). A renamed element gets a new ref, as a recycled node does, so its place pairs
    /// the two.
    pub(super) fn renamed(&self, el: &Element) -> Option<(&'a Element, &'a Element)> {
        let at = |s: &'a Snapshot| -> Vec<&'a Element> {
            s.elements
                .iter()
                .filter(|y| y.frame == el.frame && y.region == el.region && y.role == el.role)
                .collect()
        };
        let (before, after) = (at(self.before), at(self.after));
        if before.len() != after.len() || el.reference.is_empty() {
            return None;
        }
        let find = |list: &[&Element]| list.iter().position(|y| y.reference == el.reference);
        let i = find(&before).or_else(|| find(&after))?;
        let (was, now) = (before[i], after[i]);
        (was.label() != now.label()).then_some((was, now))
    }

    /// A sibling renamed the way the target was renamed back (MUI's pagination names the
    /// current page "page 1" and the others "Go to page 1"; a calendar "Selected date.
    /// Monday, 14" and the others "Choose Monday, 14"): the words the target's name lost are
    /// the words the sibling's (or the list item holding it) gained, and the other way
    /// round, so a marker moved from the sibling to the target, and the sibling's new name
    /// is the target's effect, as a single selection's sibling deselected.
    pub(super) fn is_marker_moved(&self, e: &Effect, t: &Element) -> bool {
        let el = match *e {
            Effect::Appeared(x) | Effect::Disappeared(x) => x,
            _ => return false,
        };
        if el.reference == t.reference
            || (el.role != t.role && !matches!(el.role, Role::Listitem | Role::Gridcell))
            || el.region != t.region
            || el.frame != t.frame
        {
            return false;
        }
        let (Some((s_was, s_now)), Some((t_was, t_now))) = (self.renamed(el), self.renamed(t))
        else {
            return false;
        };
        // The marker's words, not its numbers: each item keeps its own place ("Slide 2" →
        // "Go to slide 2 of 3", "Go to slide 3 of 3" → "Slide 3").
        let words = |from: &Element, to: &Element| -> Vec<String> {
            let (a, b) = (Terms::of(from.label()), Terms::of(to.label()));
            let mut gained: Vec<String> = b
                .without(&a)
                .iter()
                .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
                .map(str::to_owned)
                .collect();
            gained.sort();
            gained
        };
        // The sibling's change is the target's, the other way round: what the target lost
        // the sibling gained ("Go to"), and what it gained the sibling lost ("Selected
        // date." of a calendar's day).
        let (s_gained, s_lost) = (words(s_was, s_now), words(s_now, s_was));
        let (t_gained, t_lost) = (words(t_was, t_now), words(t_now, t_was));
        (!s_gained.is_empty() || !s_lost.is_empty()) && s_gained == t_lost && s_lost == t_gained
    }
}
