//! Style-sheet scan: what the sheets of a tree scope may do to what the walk observes.

use super::js;
use crate::core::classes;
use js_sys::Object;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Node;

/// What the style sheets of a scope may do: generate content (`::before`/`::after`) or hide
/// with `visibility`, which `data-*` and `aria-*` attributes their selectors or `attr()`
/// read, and which
/// of their selectors may name a class. Each
/// sheet is read once per change of its rule count: the answer is cached in a `WeakMap`
/// keyed by the sheet, which lives as long as the engine.
pub struct StyleScan {
    seen: js_sys::WeakMap,
    /// The last number given a sheet's reading: each reading has its own, so that a sheet
    /// replaced by another of as many rules still changes [`Sheets::sig`].
    readings: std::cell::Cell<u64>,
}

/// Bits of a [`StyleScan`] answer.
/// A `::before`/`::after` rule can generate text (`core::css::generates_text`): names read
/// generated content.
pub(super) const PSEUDO: u8 = 1;
pub(super) const VISIBILITY: u8 = 2;
/// A sheet whose rules cannot be read (cross-origin, or an import still loading): it may
/// read any attribute.
const UNKNOWN: u8 = 4;
/// A rule matches by position among siblings or by content (`:empty`, `:nth-child`, `+`,
/// `~`, `:has()`) or by container size: adding or removing elements can restyle others.
const STRUCTURAL: u8 = 8;
/// A rule mentions `cursor`: clickables may be found by their pointer.
pub(super) const CURSOR: u8 = 16;
/// A rule matches by what the user points at or focuses (`:hover`, `:active`, `:focus…`,
/// `:user-invalid`) and may then change more than paint: a pointer or focus event can
/// change what is visible or where it is.
const STATEFUL: u8 = 32;
/// A rule matches by container size (`@container`): a change of one element's box can
/// restyle elements outside it.
const CONTAINER: u8 = 64;
const ALL: u8 = PSEUDO | VISIBILITY | UNKNOWN | STRUCTURAL | CURSOR | STATEFUL | CONTAINER;
/// The bits a scope's scan reports.
const SCOPE_BITS: u8 = PSEUDO | VISIBILITY | CURSOR;

/// The sheets of one or more scopes as the visual memo of `cache` sees them.
#[derive(Default, Clone, PartialEq, Eq)]
pub struct Sheets {
    /// Number of sheets, their rule counts, disabled flags and identities (the number of
    /// their reading), hashed: when it changes, any style may have changed.
    pub sig: u64,
    /// The `data-*` and `aria-*` attribute names mentioned anywhere in a rule, each followed
    /// by a space.
    pub attrs: String,
    /// The preludes of every rule that may mention a class (`core::classes::preludes`).
    pub classes: String,
    /// Some sheet could not be read.
    pub unknown: bool,
    /// Some rule matches by structure (see [`STRUCTURAL`]).
    pub structural: bool,
    /// Some rule matches by container size (see [`CONTAINER`]), or some sheet could not
    /// be read.
    pub container: bool,
    /// Some rule may change layout or visibility on a pointer or focus event (see
    /// [`STATEFUL`]), or some sheet could not be read.
    pub stateful: bool,
}

impl Sheets {
    /// Could a change of attribute `name` change a style? Only `data-*` and `aria-*`
    /// attributes that no rule mentions are proven harmless (the user-agent style sheet
    /// matches neither): every other attribute may be presentational or matched by it.
    pub fn styles_attribute(&self, name: &str) -> bool {
        if self.unknown || !(name.starts_with("data-") || name.starts_with("aria-")) {
            return true;
        }
        self.attrs.split(' ').any(|a| a.eq_ignore_ascii_case(name))
    }
}

/// Does a rule match by structure? Its selector (everything of an at-rule) is searched.
fn is_structural(text: &str) -> bool {
    let selector = if text.starts_with('@') {
        text
    } else {
        text.split('{').next().unwrap_or(text)
    };
    [
        ":empty",
        "-child",
        "-of-type",
        ":has(",
        "+",
        "~",
        "@container",
        ":blank",
    ]
    .iter()
    .any(|t| selector.contains(t))
}

/// Pseudo-classes that start or stop matching on a pointer or focus event.
const USER_STATES: &[&str] = &[":hover", ":active", ":focus", ":user-"];

/// Whether a declared property changes only paint: neither an element's box nor whether
/// `checkVisibility()` sees it (`opacity`, `visibility`, widths and custom properties may).
fn paint_only(property: &str) -> bool {
    let p = property.trim().to_ascii_lowercase();
    let p = p.as_str();
    matches!(
        p,
        "color"
            | "cursor"
            | "box-shadow"
            | "text-shadow"
            | "caret-color"
            | "accent-color"
            | "fill"
            | "fill-opacity"
            | "stroke"
            | "stroke-opacity"
            | "text-emphasis-color"
            | "text-underline-offset"
            | "border-color"
    ) || ["background", "outline", "text-decoration", "transition"]
        .iter()
        .any(|q| p == *q || p.strip_prefix(q).is_some_and(|r| r.starts_with('-')))
        || (p.starts_with("border-") && p.ends_with("-color"))
}

/// Does a rule change more than paint when the user points or focuses? A plain style rule
/// whose selector names a [`USER_STATES`] pseudo-class is read declaration by declaration;
/// any other text that names one (an at-rule, nested rules) is taken to.
fn is_stateful(text: &str) -> bool {
    if !USER_STATES.iter().any(|s| text.contains(s)) {
        return false;
    }
    let Some((selector, body)) = text.split_once('{') else {
        return true;
    };
    if text.starts_with('@') || body.contains('{') {
        return true;
    }
    if !USER_STATES.iter().any(|s| selector.contains(s)) {
        return true;
    }
    let body = body.trim_end().trim_end_matches('}');
    !body
        .split(';')
        .filter(|d| !d.trim().is_empty())
        .all(|d| d.split_once(':').is_some_and(|(p, _)| paint_only(p)))
}

/// The `data-*` and `aria-*` names a rule's text mentions (selectors, `attr()`, anywhere: a
/// class named `data-x` counts too, which only costs a needless re-read).
fn attrs_of(text: &str, out: &mut String) {
    for prefix in ["data-", "aria-"] {
        prefixed_attrs_of(text, prefix, out);
    }
}

fn prefixed_attrs_of(text: &str, prefix: &str, out: &mut String) {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = text[from..].find(prefix) {
        let start = from + at;
        let mut end = start + prefix.len();
        while end < bytes.len()
            && (bytes[end].is_ascii_alphanumeric() || matches!(bytes[end], b'-' | b'_'))
        {
            end += 1;
        }
        let name = text[start..end].to_ascii_lowercase();
        if !out.split(' ').any(|a| a == name) {
            out.push_str(&name);
            out.push(' ');
        }
        from = end;
    }
}

impl StyleScan {
    pub fn new() -> Self {
        StyleScan {
            seen: js_sys::WeakMap::new(),
            readings: std::cell::Cell::new(0),
        }
    }

    /// [`PSEUDO`] and [`VISIBILITY`] bits of the sheets of `root` (a document or shadow root).
    pub(super) fn scan(&self, root: &Node) -> u8 {
        let mut bits = 0;
        self.each(root, false, |b, _, _, _| bits |= b & SCOPE_BITS);
        bits
    }

    /// Adds the sheets of `root` to `into` (see [`Sheets`]); returns what [`StyleScan::scan`]
    /// would, from the same reads. Without `attrs`, `attrs` and `classes` are left
    /// alone: the caller needs them only when the signature changed.
    pub fn sheets(&self, root: &Node, into: &mut Sheets, attrs: bool) -> u8 {
        let mut sig = into.sig;
        let mut all = 0;
        self.each(root, attrs, |bits, count, attrs, classes| {
            all |= bits & SCOPE_BITS;
            sig = sig
                .rotate_left(7)
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .wrapping_add(count);
            into.unknown |= bits & UNKNOWN != 0;
            into.structural |= bits & (STRUCTURAL | UNKNOWN) != 0;
            into.container |= bits & (CONTAINER | UNKNOWN) != 0;
            into.stateful |= bits & (STATEFUL | UNKNOWN) != 0;
            for a in attrs.split(' ').filter(|a| !a.is_empty()) {
                if !into.attrs.split(' ').any(|x| x == a) {
                    into.attrs.push_str(a);
                    into.attrs.push(' ');
                }
            }
            into.classes.push_str(classes);
        });
        into.sig = sig.rotate_left(3) ^ 0x5bd1_e995;
        all
    }

    /// Calls `f(bits, rule count + disabled flag, data attributes, class preludes)` for each
    /// sheet of `root` (the attributes and preludes only with `attrs`, else `""`).
    fn each(&self, root: &Node, attrs: bool, mut f: impl FnMut(u8, u64, &str, &str)) {
        let f = &mut f;
        let sheets = js::style_sheets(root);
        for i in 0..sheets.list_length() {
            self.sheet(&sheets.list_item(i), attrs, f);
        }
        let adopted = js::adopted_style_sheets(root);
        if let Some(array) = adopted.dyn_ref::<js_sys::Array>() {
            for sheet in array.iter() {
                self.sheet(&sheet, attrs, f);
            }
        }
    }

    fn sheet(&self, sheet: &JsValue, want_attrs: bool, f: &mut dyn FnMut(u8, u64, &str, &str)) {
        // Not `dyn_into`: a frame's sheets are objects of another realm, which `instanceof`
        // this window's `Object` denies.
        if !sheet.is_object() {
            return;
        }
        let obj: Object = sheet.clone().unchecked_into();
        let disabled = js::sheet_disabled(sheet) as u64;
        let rules = match js::css_rules(sheet) {
            Ok(r) => r,
            // Cross-origin sheet: its rules cannot be read, so assume the worst.
            Err(_) => {
                f(ALL, disabled, "", "");
                return;
            }
        };
        let n = rules.list_length();
        let count = |reading: u64| {
            (((n as u64) << 1) | disabled).wrapping_add(reading.wrapping_mul(0x0100_0000_01b3))
        };
        let cached = self.seen.get(&obj);
        if let Some(entry) = cached.dyn_ref::<js_sys::Array>() {
            if entry.get(0).as_f64() == Some(n as f64) {
                let count = count(entry.get(4).as_f64().unwrap_or(0.0) as u64);
                let bits = entry.get(1).as_f64().unwrap_or(ALL as f64) as u8;
                let text = |i| {
                    if want_attrs {
                        entry.get(i).as_string().unwrap_or_default()
                    } else {
                        String::new()
                    }
                };
                f(bits, count, &text(2), &text(3));
                return;
            }
        }
        let mut bits = 0;
        let mut attrs = String::new();
        let mut classes = String::new();
        for i in 0..n {
            let rule = rules.list_item(i);
            let text = js::css_text(&rule);
            if text.starts_with("@import") {
                // The imported sheet's rules are not in this text: read them (once loaded).
                match js::imported_sheet(&rule) {
                    Some(inner) => self.sheet(&inner, true, &mut |b, _, a: &str, c: &str| {
                        bits |= b;
                        for name in a.split(' ').filter(|x| !x.is_empty()) {
                            attrs_of(name, &mut attrs);
                        }
                        classes.push_str(c);
                    }),
                    None => bits |= ALL,
                }
                continue;
            }
            if crate::core::css::generates_text(&text) {
                bits |= PSEUDO;
            }
            if text.contains("visibility") {
                bits |= VISIBILITY;
            }
            if text.contains("cursor") {
                bits |= CURSOR;
            }
            if is_structural(&text) {
                bits |= STRUCTURAL;
            }
            if text.contains("@container") {
                bits |= CONTAINER;
            }
            if is_stateful(&text) {
                bits |= STATEFUL;
            }
            attrs_of(&text, &mut attrs);
            classes::preludes(&text, &mut classes);
        }
        let reading = self.readings.get() + 1;
        self.readings.set(reading);
        let entry = js_sys::Array::of5(
            &JsValue::from_f64(n as f64),
            &JsValue::from_f64(bits as f64),
            &JsValue::from_str(&attrs),
            &JsValue::from_str(&classes),
            &JsValue::from_f64(reading as f64),
        );
        self.seen.set(&obj, &entry);
        f(bits, count(reading), &attrs, &classes)
    }
}
