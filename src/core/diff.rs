//! Multiset diff of two snapshots, keyed on identity `(role, label, region)`.
//!
//! Two elements with the same identity are interchangeable to a person, so a reorder is no
//! change and only counts and observable fields matter. Elements pair in four passes, each
//! one linear with `FxHashMap`s:
//! 1. same ref and equal observable fields: unchanged;
//! 2. equal observable fields, any ref (in document order): unchanged;
//! 3. same ref and same identity: changed;
//! 4. same identity, in document order: changed.
//!
//! Cancelling every equal pair before pairing changes makes the diff empty exactly when the
//! multisets of observable records are equal, which is what `fingerprint` hashes: two
//! same-named checkboxes that swap states are no change, as a person sees it. What is left
//! over has no partner of its identity; a leftover disappearance and appearance with the same
//! role and label (necessarily in different regions) pair as a move.
//!
//! The compared fields are the ones `fingerprint::observable_hash` hashes: checked, pressed,
//! selected, expanded, disabled, visible, href and value (by keyed hash when there is one).
//! A sensitive value prints as `[redacted]`, never as its hash.

use super::fingerprint::compared_value;
use super::identity::{describe_element, describe_text, Identity};
use super::model::{Element, Role, Snapshot, Text, Tristate, REDACTED};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::collections::hash_map::Entry;
use std::hash::Hash;

/// Which regions a diff looks at. A prefix matches a region equal to it or continuing it with
/// `/` or `[` (`cart` matches `cart/list:items`, `form` matches `form[Login]`, never
/// `cartoon`); the empty prefix matches every region.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct DiffOptions {
    /// Keep only regions matching one of these prefixes (all regions when empty).
    pub regions: Vec<String>,
    /// Then drop regions matching one of these prefixes.
    pub ignore_regions: Vec<String>,
}

impl DiffOptions {
    /// Does the diff look at `region`?
    pub fn keeps(&self, region: &str) -> bool {
        (self.regions.is_empty() || self.regions.iter().any(|p| region_matches(region, p)))
            && !self
                .ignore_regions
                .iter()
                .any(|p| region_matches(region, p))
    }
}

/// Is `region` the region `prefix` names or one nested in it?
pub fn region_matches(region: &str, prefix: &str) -> bool {
    match region.strip_prefix(prefix) {
        None => false,
        Some(rest) => {
            prefix.is_empty()
                || prefix.ends_with('/')
                || rest.is_empty()
                || rest.starts_with(['/', '['])
        }
    }
}

/// An observable field the diff compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Field {
    Checked,
    Pressed,
    Selected,
    Expanded,
    Disabled,
    Visible,
    Href,
    Value,
}

impl Field {
    /// Every compared field, in the order changes are listed.
    pub const ALL: [Field; 8] = [
        Field::Value,
        Field::Checked,
        Field::Pressed,
        Field::Selected,
        Field::Expanded,
        Field::Disabled,
        Field::Visible,
        Field::Href,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Field::Checked => "checked",
            Field::Pressed => "pressed",
            Field::Selected => "selected",
            Field::Expanded => "expanded",
            Field::Disabled => "disabled",
            Field::Visible => "visible",
            Field::Href => "href",
            Field::Value => "value",
        }
    }

    /// Do `a` and `b` differ in this field, as the fingerprint sees it?
    pub fn differs(self, a: &Element, b: &Element) -> bool {
        match self {
            Field::Checked => a.checked != b.checked,
            Field::Pressed => a.pressed != b.pressed,
            Field::Selected => a.selected != b.selected,
            Field::Expanded => a.expanded != b.expanded,
            Field::Disabled => a.disabled != b.disabled,
            Field::Visible => a.visible != b.visible,
            Field::Href => a.href != b.href,
            Field::Value => compared_value(a) != compared_value(b),
        }
    }

    /// The field as printed: states as `true`/`false`/`mixed`, `None` where the role has no
    /// such state; a sensitive value as `[redacted]` unless it is empty.
    pub fn render(self, e: &Element) -> Option<String> {
        fn tri(t: Option<Tristate>) -> Option<String> {
            t.map(|t| t.as_str().to_owned())
        }
        match self {
            Field::Checked => tri(e.checked),
            Field::Pressed => tri(e.pressed),
            Field::Selected => e.selected.map(|b| b.to_string()),
            Field::Expanded => e.expanded.map(|b| b.to_string()),
            Field::Disabled => Some(e.disabled.to_string()),
            Field::Visible => Some(e.visible.to_string()),
            Field::Href => e.href.clone(),
            Field::Value => shown_value(e).map(str::to_owned),
        }
    }

    /// Is the field a string (quoted in lines) rather than a state?
    fn is_text(self) -> bool {
        matches!(self, Field::Href | Field::Value)
    }
}

/// The value as it may be shown: `[redacted]` for a sensitive element (or one carrying a
/// keyed hash) unless the value is empty; the hash itself is never shown.
pub fn shown_value(e: &Element) -> Option<&str> {
    let secret = e.sensitive || e.value_hash.is_some() || e.value.as_deref() == Some(REDACTED);
    match e.value.as_deref() {
        Some("") => Some(""),
        Some(_) if secret => Some(REDACTED),
        Some(v) => Some(v),
        None if e.value_hash.is_some() => Some(REDACTED),
        None => None,
    }
}

/// One field of a changed element, as printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FieldChange {
    pub field: Field,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// An element whose identity stayed while observable fields changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    pub before: Element,
    pub after: Element,
    /// At least one; in the order of [`Field::ALL`].
    pub fields: Vec<FieldChange>,
}

impl Changed {
    /// Did this field change?
    pub fn has(&self, field: Field) -> bool {
        self.fields.iter().any(|f| f.field == field)
    }
}

/// An element that left one region and showed up in another with the same role and label.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Moved {
    pub before: Element,
    pub after: Element,
}

/// What changed between two snapshots. Lists are in document order (of `after` for
/// appearances, changes and moves; of `before` for disappearances).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Diff {
    pub appeared: Vec<Element>,
    pub disappeared: Vec<Element>,
    pub changed: Vec<Changed>,
    pub moved: Vec<Moved>,
    pub texts_appeared: Vec<Text>,
    pub texts_disappeared: Vec<Text>,
    /// [`Diff::describe`], computed once.
    pub lines: Vec<String>,
    /// Nothing appeared, disappeared, changed or moved.
    pub empty: bool,
}

impl Diff {
    /// True when every list is empty (what `empty` says for a diff built by [`diff`]).
    pub fn is_empty(&self) -> bool {
        self.appeared.is_empty()
            && self.disappeared.is_empty()
            && self.changed.is_empty()
            && self.moved.is_empty()
            && self.texts_appeared.is_empty()
            && self.texts_disappeared.is_empty()
    }

    /// One line per difference, the way a person reads it:
    /// `appeared listitem[Shirt M] in cart`,
    /// `changed textbox[Password] in form[Login]: value '' -> '[redacted]'`,
    /// `moved listitem[Write tests] from list:todo to list:done`, `appeared text 'Saved' in main`.
    pub fn describe(&self) -> Vec<String> {
        let mut lines = Vec::with_capacity(
            self.appeared.len()
                + self.disappeared.len()
                + self.changed.len()
                + self.moved.len()
                + self.texts_appeared.len()
                + self.texts_disappeared.len(),
        );
        lines.extend(self.appeared.iter().map(line_appeared));
        lines.extend(self.disappeared.iter().map(line_disappeared));
        lines.extend(self.changed.iter().map(line_changed));
        lines.extend(self.moved.iter().map(line_moved));
        lines.extend(self.texts_appeared.iter().map(line_text_appeared));
        lines.extend(self.texts_disappeared.iter().map(line_text_disappeared));
        lines
    }
}

pub fn line_appeared(e: &Element) -> String {
    format!("appeared {}", describe_element(e))
}

pub fn line_disappeared(e: &Element) -> String {
    format!("disappeared {}", describe_element(e))
}

pub fn line_changed(c: &Changed) -> String {
    let mut line = format!("changed {}:", describe_element(&c.after));
    for (i, f) in c.fields.iter().enumerate() {
        let show = |v: &Option<String>| match v {
            None => "null".to_owned(),
            Some(s) if f.field.is_text() => format!("'{s}'"),
            Some(s) => s.clone(),
        };
        let sep = if i == 0 { " " } else { ", " };
        line.push_str(&format!(
            "{sep}{} {} -> {}",
            f.field.as_str(),
            show(&f.before),
            show(&f.after)
        ));
    }
    line
}

pub fn line_moved(m: &Moved) -> String {
    let region = |r: &str| {
        if r.is_empty() {
            "document".to_owned()
        } else {
            r.to_owned()
        }
    };
    format!(
        "moved {}[{}] from {} to {}",
        m.after.role.as_str(),
        m.after.label(),
        region(&m.before.region),
        region(&m.after.region)
    )
}

pub fn line_text_appeared(t: &Text) -> String {
    format!("appeared {}", describe_text(t))
}

pub fn line_text_disappeared(t: &Text) -> String {
    format!("disappeared {}", describe_text(t))
}

/// Everything the diff compares about an element, borrowed: equal keys are no change.
/// Keep in step with `fingerprint::observable_hash` (a property test checks it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Observable<'a> {
    identity: Identity<'a>,
    checked: Option<Tristate>,
    pressed: Option<Tristate>,
    selected: Option<bool>,
    expanded: Option<bool>,
    disabled: bool,
    visible: bool,
    href: Option<&'a str>,
    value: Option<&'a str>,
}

impl<'a> Observable<'a> {
    fn of(e: &'a Element) -> Self {
        Observable {
            identity: Identity::of(e),
            checked: e.checked,
            pressed: e.pressed,
            selected: e.selected,
            expanded: e.expanded,
            disabled: e.disabled,
            visible: e.visible,
            href: e.href.as_deref(),
            value: compared_value(e),
        }
    }
}

const NIL: usize = usize::MAX;

/// Per key, a FIFO of indices in document order, as linked lists in one vector: no
/// allocation per key, O(1) push and pop.
struct Queues<K> {
    ends: FxHashMap<K, (usize, usize)>,
    next: Vec<usize>,
}

impl<K: Hash + Eq> Queues<K> {
    fn new(capacity: usize) -> Self {
        Queues {
            ends: FxHashMap::with_capacity_and_hasher(capacity, Default::default()),
            next: vec![NIL; capacity],
        }
    }

    /// Appends `i` (< capacity, each at most once) to the queue of `key`.
    fn push(&mut self, key: K, i: usize) {
        match self.ends.entry(key) {
            Entry::Occupied(mut o) => {
                let (head, tail) = *o.get();
                if head == NIL {
                    o.insert((i, i));
                } else {
                    self.next[tail] = i;
                    o.insert((head, i));
                }
            }
            Entry::Vacant(v) => {
                v.insert((i, i));
            }
        }
    }

    /// Takes the first index queued under `key`.
    fn pop(&mut self, key: &K) -> Option<usize> {
        let ends = self.ends.get_mut(key)?;
        let (head, tail) = *ends;
        if head == NIL {
            return None;
        }
        *ends = if head == tail {
            (NIL, NIL)
        } else {
            (self.next[head], tail)
        };
        Some(head)
    }
}

/// The multiset diff of `before` and `after`, restricted to the regions `opts` keeps.
/// `hasMore` is not compared. Linear in the number of elements and texts.
pub fn diff(before: &Snapshot, after: &Snapshot, opts: &DiffOptions) -> Diff {
    let kept = |e: &&Element| opts.keeps(&e.region);
    let b: Vec<&Element> = before.elements.iter().filter(kept).collect();
    let a: Vec<&Element> = after.elements.iter().filter(kept).collect();
    let mut out = Diff::default();
    diff_elements(&b, &a, &mut out);

    let kept = |t: &&Text| opts.keeps(&t.region);
    let bt: Vec<&Text> = before.texts.iter().filter(kept).collect();
    let at: Vec<&Text> = after.texts.iter().filter(kept).collect();
    diff_texts(&bt, &at, &mut out);

    out.lines = out.describe();
    out.empty = out.is_empty();
    out
}

fn diff_elements(b: &[&Element], a: &[&Element], out: &mut Diff) {
    let bk: Vec<Observable> = b.iter().map(|e| Observable::of(e)).collect();
    let ak: Vec<Observable> = a.iter().map(|e| Observable::of(e)).collect();
    let mut b_done = vec![false; b.len()];
    let mut a_done = vec![false; a.len()];

    // A duplicated ref (malformed input) pairs only its first holder.
    let mut by_ref: FxHashMap<&str, usize> =
        FxHashMap::with_capacity_and_hasher(b.len(), Default::default());
    for (i, e) in b.iter().enumerate() {
        by_ref.entry(e.reference.as_str()).or_insert(i);
    }

    // 1. Same ref, nothing changed.
    for j in 0..a.len() {
        if let Some(&i) = by_ref.get(a[j].reference.as_str()) {
            if !b_done[i] && bk[i] == ak[j] {
                b_done[i] = true;
                a_done[j] = true;
            }
        }
    }

    // 2. Nothing changed, any ref.
    let mut same = Queues::new(b.len());
    for i in (0..b.len()).filter(|&i| !b_done[i]) {
        same.push(bk[i], i);
    }
    for j in 0..a.len() {
        if !a_done[j] {
            if let Some(i) = same.pop(&ak[j]) {
                b_done[i] = true;
                a_done[j] = true;
            }
        }
    }

    // 3. Same ref and identity: changed.
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for j in 0..a.len() {
        if a_done[j] {
            continue;
        }
        if let Some(&i) = by_ref.get(a[j].reference.as_str()) {
            if !b_done[i] && bk[i].identity == ak[j].identity {
                b_done[i] = true;
                a_done[j] = true;
                pairs.push((i, j));
            }
        }
    }

    // 4. Same identity, in document order: changed.
    let mut by_identity = Queues::new(b.len());
    for i in (0..b.len()).filter(|&i| !b_done[i]) {
        by_identity.push(bk[i].identity, i);
    }
    for j in 0..a.len() {
        if !a_done[j] {
            if let Some(i) = by_identity.pop(&ak[j].identity) {
                b_done[i] = true;
                a_done[j] = true;
                pairs.push((i, j));
            }
        }
    }
    pairs.sort_unstable_by_key(|&(_, j)| j);
    out.changed = pairs
        .into_iter()
        .map(|(i, j)| Changed {
            before: b[i].clone(),
            after: a[j].clone(),
            fields: Field::ALL
                .iter()
                .filter(|f| f.differs(b[i], a[j]))
                .map(|&field| FieldChange {
                    field,
                    before: field.render(b[i]),
                    after: field.render(a[j]),
                })
                .collect(),
        })
        .collect();

    // Leftovers have no partner of their identity: same role and label elsewhere is a move
    // (and, without a label, the same place: one row's unnamed checkbox is not another's).
    let mut by_name: Queues<(Role, &str, Option<&str>)> = Queues::new(b.len());
    for i in (0..b.len()).filter(|&i| !b_done[i]) {
        by_name.push((b[i].role, b[i].label(), bk[i].identity.within), i);
    }
    for j in (0..a.len()).filter(|&j| !a_done[j]) {
        match by_name.pop(&(a[j].role, a[j].label(), ak[j].identity.within)) {
            Some(i) => {
                b_done[i] = true;
                out.moved.push(Moved {
                    before: b[i].clone(),
                    after: a[j].clone(),
                });
            }
            None => out.appeared.push(a[j].clone()),
        }
    }
    out.disappeared = (0..b.len())
        .filter(|&i| !b_done[i])
        .map(|i| b[i].clone())
        .collect();
}

fn diff_texts(b: &[&Text], a: &[&Text], out: &mut Diff) {
    let mut queues: Queues<(&str, &str)> = Queues::new(b.len());
    for (i, t) in b.iter().enumerate() {
        queues.push((t.text.as_str(), t.region.as_str()), i);
    }
    let mut b_done = vec![false; b.len()];
    for t in a {
        match queues.pop(&(t.text.as_str(), t.region.as_str())) {
            Some(i) => b_done[i] = true,
            None => out.texts_appeared.push((*t).clone()),
        }
    }
    out.texts_disappeared = (0..b.len())
        .filter(|&i| !b_done[i])
        .map(|i| b[i].clone())
        .collect();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fingerprint;
    use crate::core::model::TextKind;

    use crate::core::testing::{el, item, text};

    fn snap(elements: Vec<Element>, texts: Vec<Text>) -> Snapshot {
        Snapshot {
            elements,
            texts,
            ..Default::default()
        }
    }

    fn lines(before: Vec<Element>, after: Vec<Element>) -> Vec<String> {
        diff(
            &snap(before, vec![]),
            &snap(after, vec![]),
            &DiffOptions::default(),
        )
        .lines
    }

    /// (name, before, after, expected lines)
    type Case = (&'static str, Vec<Element>, Vec<Element>, Vec<&'static str>);

    #[test]
    fn element_cases() {
        let add = el("e1", Role::Button, "Add Shirt M", "catalogue");
        let password = Element {
            value: Some(String::new()),
            sensitive: true,
            ..el("p1", Role::Textbox, "Password", "form[Login]")
        };
        let typed = Element {
            value: Some(REDACTED.into()),
            value_hash: Some("9f8e7d".into()),
            ..password.clone()
        };
        let agree = Element {
            checked: Some(Tristate::False),
            ..el("c1", Role::Checkbox, "Agree", "form[Signup]")
        };
        let agreed = Element {
            checked: Some(Tristate::True),
            ..agree.clone()
        };
        let menu = Element {
            expanded: Some(false),
            ..el("m1", Role::Button, "Menu", "banner")
        };
        let email = Element {
            value: Some("a@b.c".into()),
            ..el("t1", Role::Textbox, "Email", "form")
        };
        let link = Element {
            href: Some("/a".into()),
            ..el("l1", Role::Link, "Docs", "")
        };
        #[rustfmt::skip]
        let cases: Vec<Case> = vec![
            ("nothing", vec![], vec![], vec![]),
            ("same", vec![add.clone()], vec![add.clone()], vec![]),
            ("ref changes alone are nothing", vec![add.clone()], vec![Element { reference: "e9".into(), ..add.clone() }], vec![]),
            ("focus and viewport are nothing", vec![add.clone()], vec![Element { focused: true, in_viewport: true, ..add.clone() }], vec![]),
            ("reorder", vec![add.clone(), agree.clone()], vec![agree.clone(), add.clone()], vec![]),
            ("appeared", vec![], vec![item("i1", "Shirt M", "cart")], vec!["appeared listitem[Shirt M] in cart"]),
            ("disappeared", vec![el("r1", Role::Button, "Remove Shirt M", "cart")], vec![], vec!["disappeared button[Remove Shirt M] in cart"]),
            ("duplicate appears", vec![add.clone()], vec![add.clone(), Element { reference: "e2".into(), ..add.clone() }], vec!["appeared button[Add Shirt M] in catalogue"]),
            ("password typed", vec![password.clone()], vec![typed.clone()], vec!["changed textbox[Password] in form[Login]: value '' -> '[redacted]'"]),
            ("password retyped", vec![typed.clone()], vec![Element { value_hash: Some("0a1b2c".into()), ..typed.clone() }], vec!["changed textbox[Password] in form[Login]: value '[redacted]' -> '[redacted]'"]),
            ("checked", vec![agree.clone()], vec![agreed.clone()], vec!["changed checkbox[Agree] in form[Signup]: checked false -> true"]),
            ("two fields", vec![menu.clone()], vec![Element { expanded: Some(true), disabled: true, ..menu.clone() }], vec!["changed button[Menu] in banner: expanded false -> true, disabled false -> true"]),
            ("value", vec![email.clone()], vec![Element { value: Some("x@y.z".into()), ..email.clone() }], vec!["changed textbox[Email] in form: value 'a@b.c' -> 'x@y.z'"]),
            ("value appears", vec![Element { value: None, ..email.clone() }], vec![email.clone()], vec!["changed textbox[Email] in form: value null -> 'a@b.c'"]),
            ("href", vec![link.clone()], vec![Element { href: Some("/b".into()), ..link.clone() }], vec!["changed link[Docs]: href '/a' -> '/b'"]),
            ("hidden", vec![add.clone()], vec![Element { visible: false, ..add.clone() }], vec!["changed button[Add Shirt M] in catalogue: visible true -> false"]),
            ("mixed", vec![agree.clone()], vec![Element { checked: Some(Tristate::Mixed), ..agree.clone() }], vec!["changed checkbox[Agree] in form[Signup]: checked false -> mixed"]),
            ("moved", vec![item("w1", "Write tests", "list:todo")], vec![item("w1", "Write tests", "list:done")], vec!["moved listitem[Write tests] from list:todo to list:done"]),
            ("moved from the document level", vec![item("w1", "Write tests", "")], vec![item("w2", "Write tests", "main")], vec!["moved listitem[Write tests] from document to main"]),
            ("renamed is not a move", vec![item("w1", "Write tests", "list:todo")], vec![item("w1", "Write docs", "list:todo")], vec!["appeared listitem[Write docs] in list:todo", "disappeared listitem[Write tests] in list:todo"]),
            ("recycled row", vec![add.clone()], vec![Element { name: "Add Trousers L".into(), ..add.clone() }], vec!["appeared button[Add Trousers L] in catalogue", "disappeared button[Add Shirt M] in catalogue"]),
            ("swapped states of twins are nothing",
                vec![agreed.clone(), Element { reference: "c2".into(), ..agree.clone() }],
                vec![agree.clone(), Element { reference: "c2".into(), ..agreed.clone() }], vec![]),
        ];
        for (name, before, after, want) in cases {
            assert_eq!(lines(before, after), want, "{name}");
        }
    }

    #[test]
    fn twins_pair_by_ref_first_then_in_document_order() {
        let a = Element {
            checked: Some(Tristate::False),
            ..el("c1", Role::Checkbox, "Item", "list")
        };
        let b = Element {
            reference: "c2".into(),
            ..a.clone()
        };
        let b_checked = Element {
            checked: Some(Tristate::True),
            ..b.clone()
        };
        // c2 changed; c1 is untouched and must not be reported even though it comes first.
        let d = diff(
            &snap(vec![a.clone(), b], vec![]),
            &snap(vec![a.clone(), b_checked], vec![]),
            &DiffOptions::default(),
        );
        assert_eq!(d.changed.len(), 1);
        assert_eq!(d.changed[0].before.reference, "c2");
        assert_eq!(d.changed[0].after.reference, "c2");
        // New refs on both: paired in document order.
        let x = Element {
            reference: "n1".into(),
            checked: Some(Tristate::True),
            ..a.clone()
        };
        let y = Element {
            reference: "n2".into(),
            checked: Some(Tristate::Mixed),
            ..a.clone()
        };
        let first = Element {
            reference: "o1".into(),
            ..a.clone()
        };
        let second = Element {
            reference: "o2".into(),
            disabled: true,
            ..a.clone()
        };
        let d = diff(
            &snap(vec![first, second], vec![]),
            &snap(vec![x, y], vec![]),
            &DiffOptions::default(),
        );
        let refs: Vec<_> = d
            .changed
            .iter()
            .map(|c| (c.before.reference.as_str(), c.after.reference.as_str()))
            .collect();
        assert_eq!(refs, vec![("o1", "n1"), ("o2", "n2")]);
    }

    #[test]
    fn texts_are_a_multiset_too() {
        let before = snap(
            vec![],
            vec![
                text("Saved", "main"),
                text("Total 10", "cart"),
                text("Hi", ""),
            ],
        );
        let after = snap(
            vec![],
            vec![
                text("Total 20", "cart"),
                text("Saved", "main"),
                text("Saved", "main"),
                text("Hi", ""),
            ],
        );
        let d = diff(&before, &after, &DiffOptions::default());
        assert_eq!(
            d.lines,
            vec![
                "appeared text 'Total 20' in cart",
                "appeared text 'Saved' in main",
                "disappeared text 'Total 10' in cart"
            ]
        );
        let kind_only = snap(
            vec![],
            vec![
                Text {
                    kind: TextKind::Alert,
                    ..text("Saved", "main")
                },
                text("Total 10", "cart"),
                text("Hi", ""),
            ],
        );
        assert!(diff(&before, &kind_only, &DiffOptions::default()).empty);
    }

    #[test]
    fn region_filters() {
        for (region, prefix, want) in [
            ("cart", "cart", true),
            ("cart/list:items", "cart", true),
            ("cartoon", "cart", false),
            ("form[Login]", "form", true),
            ("form[Login]", "form[Login]", true),
            ("form[Signup]", "form[Login]", false),
            ("frame[0]/main", "frame[0]", true),
            ("frame[0]/main", "frame[0]/", true),
            ("frame[0.1]/main", "frame[0]", false),
            ("", "", true),
            ("main", "", true),
            ("", "main", false),
        ] {
            assert_eq!(
                region_matches(region, prefix),
                want,
                "{region:?} under {prefix:?}"
            );
        }
        let before = snap(
            vec![el("t", Role::Timer, "Clock", "ticker")],
            vec![text("10:00", "ticker")],
        );
        let after = snap(
            vec![
                Element {
                    disabled: true,
                    ..el("t", Role::Timer, "Clock", "ticker")
                },
                item("i", "Shirt M", "cart"),
            ],
            vec![text("10:01", "ticker")],
        );
        let ignore = DiffOptions {
            ignore_regions: vec!["ticker".into()],
            ..Default::default()
        };
        assert_eq!(
            diff(&before, &after, &ignore).lines,
            vec!["appeared listitem[Shirt M] in cart"]
        );
        let only = DiffOptions {
            regions: vec!["ticker".into()],
            ..Default::default()
        };
        assert_eq!(diff(&before, &after, &only).lines.len(), 3);
        let both = DiffOptions {
            regions: vec!["cart".into()],
            ignore_regions: vec!["cart".into()],
        };
        assert!(diff(&before, &after, &both).empty);
    }

    #[test]
    fn secrets_never_print_their_hash() {
        let p = Element {
            value: Some(REDACTED.into()),
            value_hash: Some("deadbeefcafe".into()),
            sensitive: true,
            ..el("p", Role::Textbox, "PIN", "form")
        };
        let q = Element {
            value_hash: Some("feedfacefeed".into()),
            ..p.clone()
        };
        let d = diff(
            &snap(vec![p], vec![]),
            &snap(vec![q], vec![]),
            &DiffOptions::default(),
        );
        let json = serde_json::to_string(&(&d.lines, &d.changed[0].fields)).unwrap();
        assert!(
            !json.contains("deadbeef") && !json.contains("feedface"),
            "{json}"
        );
        assert_eq!(d.changed[0].fields[0].after.as_deref(), Some(REDACTED));
        // A sensitive value the page failed to redact is still shown redacted.
        let leaky = Element {
            value: Some("hunter2".into()),
            sensitive: true,
            ..el("p", Role::Textbox, "PIN", "")
        };
        assert_eq!(shown_value(&leaky), Some(REDACTED));
    }

    #[test]
    fn empty_matches_fingerprint_on_examples() {
        let a = snap(
            vec![el("a", Role::Button, "A", ""), item("b", "B", "list")],
            vec![text("t", "")],
        );
        let mut b = a.clone();
        b.elements.reverse();
        b.has_more = true;
        assert!(diff(&a, &b, &DiffOptions::default()).empty);
        b.has_more = false;
        assert_eq!(fingerprint::of_snapshot(&a), fingerprint::of_snapshot(&b));
        b.elements[0].selected = Some(true);
        assert!(!diff(&a, &b, &DiffOptions::default()).empty);
        assert_ne!(fingerprint::of_snapshot(&a), fingerprint::of_snapshot(&b));
    }

    #[test]
    fn wire_shape() {
        let before = snap(
            vec![Element {
                checked: Some(Tristate::False),
                ..el("c", Role::Checkbox, "Agree", "")
            }],
            vec![],
        );
        let after = snap(
            vec![Element {
                checked: Some(Tristate::True),
                ..el("c", Role::Checkbox, "Agree", "")
            }],
            vec![text("Saved", "")],
        );
        let d = diff(&before, &after, &DiffOptions::default());
        let v = serde_json::to_value(&d).unwrap();
        assert_eq!(
            v["changed"][0]["fields"][0],
            serde_json::json!({ "field": "checked", "before": "false", "after": "true" })
        );
        assert_eq!(v["textsAppeared"][0]["text"], "Saved");
        assert_eq!(v["empty"], false);
        assert!(v["textsDisappeared"].as_array().unwrap().is_empty());
        assert_eq!(serde_json::from_value::<Diff>(v).unwrap(), d);
        assert!(
            serde_json::from_str::<DiffOptions>(r#"{"regions":["cart"],"ignoreRegions":[]}"#)
                .is_ok()
        );
        assert!(serde_json::from_str::<DiffOptions>(r#"{"region":["cart"]}"#).is_err());
        assert_eq!(
            serde_json::from_str::<DiffOptions>("{}").unwrap(),
            DiffOptions::default()
        );
    }
}
