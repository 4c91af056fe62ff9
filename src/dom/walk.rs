//! The one walk over the composed tree that snapshot, fingerprint and the single-element
//! look-ups (`describe`, `element`, `at`, `focused`) all share, so they can never disagree.
//!
//! Shape of the walk, and why:
//! - Iterative, with an explicit stack of sibling cursors: 10,000-deep nesting costs heap, not
//!   the wasm stack.
//! - Composed order: an open shadow root's children replace the host's light children, a slot
//!   yields its flattened assigned elements (or its fallback content), a same-origin iframe
//!   yields its document. A cross-origin frame (`contentDocument` is null: another origin, or
//!   a sandbox without `allow-same-origin`) is reported as an `iframe` element with
//!   `opaque: true`. A closed shadow root cannot be seen from a script at all; a custom
//!   element without an open root or child elements that nevertheless renders content (it
//!   has a box and no light text, or light text that is not rendered) is reported as a
//!   `generic` element with `opaque: true` (see `Walk::is_closed_host`). A host that has a
//!   closed root *and* light children is walked through its light children and not flagged:
//!   nothing a script can read tells it apart from a plain custom element.
//! - Few calls per element, because each JS↔wasm call costs more than the work it does: the
//!   tag is a JS-map look-up of `localName` (no string copied), the attribute names come in
//!   one `getAttributeNames().join()` so that every attribute the engine cares about is known
//!   present or absent without a probe, and an element of a non-semantic tag with none of
//!   those attributes (a `div` with a class) costs nothing beyond its shadow root and first
//!   child. Per tree scope, one probe tells whether it has any `<label>`, `[disabled]` or
//!   inline `visibility` at all, so the matching per-element calls are skipped when not.
//! - `aria-hidden="true"` and `inert` subtrees are pruned once (their sensitive fields are
//!   still read for secrets). Elements hidden by CSS stay in the walk and are reported with
//!   `visible: false` (SPEC DIFFERENCE to an accessibility tree, which drops them: resolve must
//!   see a hidden duplicate to exclude it, and a menu that opens shows as states changing).
//!   That includes `display: none` subtrees: pruning them would need a style query for every
//!   element, which on ordinary pages costs more than the hidden content it would skip.
//! - Visibility is `checkVisibility()`: a box, no `content-visibility: hidden` ancestor, and,
//!   in scopes whose style sheets or inline styles mention `visibility`, not
//!   `visibility: hidden` (the option doubles the cost of the call, so it is passed only
//!   where it can change the answer). `opacity: 0` and zero-size elements count as visible.
//! - Context that the role, region and sensitivity depend on travels down in [`Ctx`] (shared
//!   by `Rc` between siblings) instead of being recomputed from ancestors per element.
//! - Regions inside a frame: `frame[<position path>]`, then the region found inside the
//!   frame's own document (`frame[0]/form[Payment]`); landmarks around the `<iframe>` element
//!   in the parent document are not repeated, the position already says where the frame is.
//! - Secrets: every sensitive field the walk passes registers its value; so do the fields of
//!   pruned subtrees and, when the walk is cut short (`hasMore`), of every scope it entered.
//!   Every string is scrubbed once the walk has seen them all.

use super::js;
use super::name::{self, Namer};
use super::role::{self, present, Attrs, RoleCtx, TableKind, Tag, A};
use crate::core::fingerprint::{observable_hash, Fingerprint};
use crate::core::model::{limits, Element, Role, Text, TextKind, Tristate, REDACTED};
use crate::core::redact::{self, Redactor};
use crate::core::text::{cap, normalize_whitespace};
use js_sys::{JsString, Object};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::OnceCell;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Node};

/// First pass for secrets: every field whose value may be sensitive (filtered in Rust).
/// Simple selectors only: a descendant combinator would make the browser test every field's
/// ancestors. Containers found here are searched for their fields in a second step.
const SENSITIVE_FIELDS: &str = "[type=password i],[autocomplete],[data-ap-sensitive]";

/// Interned JS strings and option objects, created once per engine.
pub struct Strings {
    attrs: Vec<JsString>,
    tag_map: js_sys::Map,
    tags: Vec<Tag>,
    pub labels_probe: JsString,
    pub any_element: JsString,
    pub disabled_probe: JsString,
    pub fields: JsString,
    pub disabled: JsString,
    pub sensitive_fields: JsString,
    pub aria_hidden: JsString,
    pub space: JsString,
    pub visibility_probe: JsString,
    pub any_probe: JsString,
    pub selected_option: JsString,
    pub vis: JsValue,
    pub flatten: JsValue,
    pub before: JsString,
    pub after: JsString,
    pub content: JsString,
}

impl Strings {
    pub fn new() -> Strings {
        let vis = Object::new();
        let _ = js_sys::Reflect::set(&vis, &"visibilityProperty".into(), &JsValue::TRUE);
        let flatten = Object::new();
        let _ = js_sys::Reflect::set(&flatten, &"flatten".into(), &JsValue::TRUE);
        let tag_map = js_sys::Map::new();
        for (i, name) in role::TAG_NAMES.iter().enumerate() {
            tag_map.set(&JsValue::from_str(name), &JsValue::from_f64(i as f64));
        }
        Strings {
            attrs: A::ALL.iter().map(|a| JsString::from(a.as_str())).collect(),
            tag_map,
            tags: role::TAG_NAMES.iter().map(|n| Tag::parse(n)).collect(),
            labels_probe: "label".into(),
            any_element: "*".into(),
            disabled_probe: "[disabled]".into(),
            fields: "input,textarea,select".into(),
            disabled: ":disabled".into(),
            sensitive_fields: SENSITIVE_FIELDS.into(),
            aria_hidden: "aria-hidden".into(),
            space: " ".into(),
            visibility_probe: "[style*=\"visibility\" i]".into(),
            any_probe: "label,[disabled],[style*=\"visibility\" i]".into(),
            selected_option: "[aria-selected=\"true\" i]".into(),
            vis: vis.into(),
            flatten: flatten.into(),
            before: "::before".into(),
            after: "::after".into(),
            content: "content".into(),
        }
    }

    fn attr(&self, a: A) -> &JsString {
        &self.attrs[a as usize]
    }

    /// `checkVisibility()`: has a box and no `content-visibility: hidden` ancestor; with
    /// `visibility_rules`, also not `visibility: hidden`. The option costs as much again as
    /// the call (the browser reads the options object each time), so it is passed only in
    /// scopes whose style sheets or inline styles mention `visibility` at all.
    pub fn visible(&self, node: &web_sys::Element, visibility_rules: bool) -> bool {
        if visibility_rules {
            js::check_visibility(node, &self.vis)
        } else {
            js::check_visibility(node, &JsValue::UNDEFINED)
        }
    }

    /// The element's tag: its `localName` stays a JS string and is looked up in a JS map,
    /// so no string is copied into wasm for the tags the engine knows.
    pub fn tag_of(&self, node: &web_sys::Element) -> Tag {
        let name = js::local_name_js(node);
        match self.tag_map.get(&name).as_f64() {
            Some(i) => self.tags[i as usize],
            None => match name.as_string() {
                Some(n) if n.contains('-') => Tag::Custom,
                _ => Tag::Other,
            },
        }
    }
}

/// One element with its tag and attribute names read once (one call each); attribute
/// values, shadow root and child count read on demand and at most once.
pub struct El<'a> {
    pub s: &'a Strings,
    pub node: &'a web_sys::Element,
    pub tag: Tag,
    /// Presence bits of the attributes the engine reads (`role::attribute_bit`).
    pub present: u32,
    first: OnceCell<Option<web_sys::Element>>,
    shadow: OnceCell<Option<Node>>,
    kind: OnceCell<String>,
}

impl<'a> El<'a> {
    pub fn new(s: &'a Strings, node: &'a web_sys::Element) -> Self {
        let mut present = 0;
        if js::has_attributes(node) {
            for name in js::attribute_names(node, &s.space).split(' ') {
                present |= role::attribute_bit(name);
            }
        }
        El {
            s,
            node,
            tag: s.tag_of(node),
            present,
            first: OnceCell::new(),
            shadow: OnceCell::new(),
            kind: OnceCell::new(),
        }
    }

    /// An element whose tag and attribute names were read before (a cache replay).
    pub fn cached(s: &'a Strings, node: &'a web_sys::Element, tag: Tag, present: u32) -> Self {
        El {
            s,
            node,
            tag,
            present,
            first: OnceCell::new(),
            shadow: OnceCell::new(),
            kind: OnceCell::new(),
        }
    }

    pub fn has_bits(&self, bits: u32) -> bool {
        self.present & bits != 0
    }

    /// `aria-hidden="true"` or `inert`: the subtree is not observable.
    pub fn prunes(&self) -> bool {
        self.has_bits(present::INERT)
            || (self.has_bits(present::ARIA_HIDDEN)
                && js::attr(self.node, &self.s.aria_hidden)
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("true")))
    }

    /// The first child element (light DOM), read once: whether there is one, and where the
    /// walk continues.
    pub fn first_child(&self) -> Option<&web_sys::Element> {
        self.first
            .get_or_init(|| {
                if self.tag.is_leaf() {
                    None
                } else {
                    js::first_element_child(self.node)
                }
            })
            .as_ref()
    }

    /// Whether the element has child elements (light DOM).
    pub fn has_children(&self) -> bool {
        self.first_child().is_some()
    }

    /// The open shadow root, asked only of elements that may have one.
    pub fn shadow(&self) -> Option<&Node> {
        self.shadow
            .get_or_init(|| {
                if self.tag.can_host_shadow() {
                    js::shadow_root(self.node)
                } else {
                    None
                }
            })
            .as_ref()
    }

    /// `<input type>`, trimmed and lowercased ("" when absent).
    pub fn input_type(&self) -> &str {
        self.kind.get_or_init(|| {
            self.get(A::Type)
                .map(|t| t.trim().to_ascii_lowercase())
                .unwrap_or_default()
        })
    }

    /// Hidden to accname and to a person: `aria-hidden`, no box, or (when the scope has
    /// `visibility` rules) `visibility: hidden`.
    pub fn is_hidden(&self, visibility_rules: bool) -> bool {
        self.prunes() || !self.s.visible(self.node, visibility_rules)
    }
}

impl Attrs for El<'_> {
    fn get(&self, a: A) -> Option<String> {
        if self.present & a.bit() == 0 {
            return None;
        }
        js::attr(self.node, self.s.attr(a))
    }

    fn has(&self, a: A) -> bool {
        self.present & a.bit() != 0
    }
}

/// What the walk produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Full records, with viewport, focus and live nodes for refs.
    Snapshot,
    /// Only what the fingerprint hashes: no rects, no focus, no nodes kept.
    Fingerprint,
    /// Records only for the nodes in `Walk::targets` (single-element look-ups).
    Find,
}

/// Limits and caller choices for one walk.
pub struct WalkOptions {
    pub max_elements: usize,
    pub budget_ms: f64,
    /// Caller-declared sensitive nodes (from refs and selectors), if any.
    pub declared: Option<js_sys::Set>,
    /// Selectors declared sensitive, re-applied in each shadow root and frame.
    pub selectors: Vec<String>,
}

/// An observable element found by the walk, with its live node where the mode keeps it.
pub struct Found {
    pub record: Element,
    pub node: Option<web_sys::Element>,
}

/// Inherited walk context; shared between siblings.
#[derive(Clone, Default)]
pub(super) struct Ctx {
    base: Rc<str>,
    list: Option<Rc<str>>,
    frame: Rc<str>,
    region: Rc<str>,
    doc: usize,
    sensitive: bool,
    aria_disabled: bool,
    in_text: bool,
    /// Inside a `<label>`.
    in_label: bool,
    /// What the current tree scope (document or shadow root) contains at all.
    scope: Scope,
}

/// Features of one tree scope, probed once on entering it, that let the walk skip whole
/// classes of per-element calls (no `<label>` → no `labels` look-up, no `[disabled]` →
/// no `:disabled` match).
#[derive(Clone, Copy, Default)]
struct Scope {
    labels: bool,
    disabled: bool,
    /// A style sheet or inline style of this scope (or an enclosing one) mentions
    /// `visibility`.
    visibility: bool,
}

impl Ctx {
    fn compose(&mut self) {
        let mut r = String::new();
        if !self.frame.is_empty() {
            r.push_str("frame[");
            r.push_str(&self.frame);
            r.push(']');
        }
        if !self.base.is_empty() {
            if !r.is_empty() {
                r.push('/');
            }
            r.push_str(&self.base);
        }
        if let Some(list) = &self.list {
            if !r.is_empty() {
                r.push('/');
            }
            r.push_str("list:");
            r.push_str(list);
        }
        self.region = r.into();
    }
}

/// A document being walked (the top one or a same-origin frame's).
struct DocInfo {
    width: f64,
    height: f64,
    /// The frame element is hidden: nothing inside is visible.
    hidden: bool,
    /// The frame element intersects its parent's viewport.
    in_view: bool,
    /// Iframes met so far in this document (frame position paths).
    iframes: u32,
}

enum Cursor {
    Siblings(Option<web_sys::Element>),
    List(js_sys::Array, u32),
}

impl Cursor {
    fn next(&mut self) -> Option<web_sys::Element> {
        match self {
            Cursor::Siblings(slot) => {
                let current = slot.take()?;
                *slot = js::next_element_sibling(&current);
                Some(current)
            }
            Cursor::List(array, i) => {
                while *i < array.length() {
                    let v = array.get(*i);
                    *i += 1;
                    if let Ok(e) = v.dyn_into::<Object>() {
                        return Some(e.unchecked_into());
                    }
                }
                None
            }
        }
    }
}

struct Level {
    cursor: Cursor,
    ctx: Rc<Ctx>,
    role: RoleCtx,
}

/// What the style sheets of a scope may do: generate content (`::before`/`::after`) or hide
/// with `visibility`, and which `data-*` attributes their selectors or `attr()` read. Each
/// sheet is read once per change of its rule count: the answer is cached in a `WeakMap`
/// keyed by the sheet, which lives as long as the engine.
pub struct StyleScan {
    seen: js_sys::WeakMap,
}

/// Bits of a [`StyleScan`] answer.
const PSEUDO: u8 = 1;
const VISIBILITY: u8 = 2;
/// A sheet whose rules cannot be read (cross-origin, or an import still loading): it may
/// read any attribute.
const UNKNOWN: u8 = 4;
/// A rule matches by position among siblings or by content (`:empty`, `:nth-child`, `+`,
/// `~`, `:has()`) or by container size: adding or removing elements can restyle others.
const STRUCTURAL: u8 = 8;
const ALL: u8 = PSEUDO | VISIBILITY | UNKNOWN | STRUCTURAL;

/// The sheets of one or more scopes as the visual memo of `cache` sees them.
#[derive(Default, Clone, PartialEq, Eq)]
pub struct Sheets {
    /// Number of sheets, their rule counts and disabled flags, hashed: when it changes, any
    /// style may have changed.
    pub sig: u64,
    /// The `data-*` attribute names mentioned anywhere in a rule, each followed by a space.
    pub data_attrs: String,
    /// Some sheet could not be read.
    pub unknown: bool,
    /// Some rule matches by structure (see [`STRUCTURAL`]).
    pub structural: bool,
}

impl Sheets {
    /// Could a change of attribute `name` (not one the walk reads) change a style? Only
    /// `data-*` attributes that no rule mentions are proven harmless: every other
    /// attribute may be presentational or matched by the user-agent style sheet.
    pub fn styles_attribute(&self, name: &str) -> bool {
        if self.unknown || !name.starts_with("data-") {
            return true;
        }
        self.data_attrs
            .split(' ')
            .any(|a| a.eq_ignore_ascii_case(name))
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

/// The `data-*` names a rule's text mentions (selectors, `attr()`, anywhere: a class named
/// `data-x` counts too, which only costs a needless re-read).
fn data_attrs_of(text: &str, out: &mut String) {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = text[from..].find("data-") {
        let start = from + at;
        let mut end = start + 5;
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
        }
    }

    /// [`PSEUDO`] and [`VISIBILITY`] bits of the sheets of `root` (a document or shadow root).
    pub(super) fn scan(&self, root: &Node) -> u8 {
        let mut bits = 0;
        self.each(root, false, |b, _, _| bits |= b & (PSEUDO | VISIBILITY));
        bits
    }

    /// Adds the sheets of `root` to `into` (see [`Sheets`]); returns what [`StyleScan::scan`]
    /// would, from the same reads. Without `attrs`, `data_attrs` is left alone: the caller
    /// needs it only when the signature changed.
    pub fn sheets(&self, root: &Node, into: &mut Sheets, attrs: bool) -> u8 {
        let mut sig = into.sig;
        let mut all = 0;
        self.each(root, attrs, |bits, count, attrs| {
            all |= bits & (PSEUDO | VISIBILITY);
            sig = sig
                .rotate_left(7)
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .wrapping_add(count);
            into.unknown |= bits & UNKNOWN != 0;
            into.structural |= bits & (STRUCTURAL | UNKNOWN) != 0;
            for a in attrs.split(' ').filter(|a| !a.is_empty()) {
                if !into.data_attrs.split(' ').any(|x| x == a) {
                    into.data_attrs.push_str(a);
                    into.data_attrs.push(' ');
                }
            }
        });
        into.sig = sig.rotate_left(3) ^ 0x5bd1_e995;
        all
    }

    /// Calls `f(bits, rule count + disabled flag, data attributes)` for each sheet of `root`
    /// (the attributes only with `attrs`, else `""`).
    fn each(&self, root: &Node, attrs: bool, mut f: impl FnMut(u8, u64, &str)) {
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

    fn sheet(&self, sheet: &JsValue, want_attrs: bool, f: &mut dyn FnMut(u8, u64, &str)) {
        let Ok(obj) = sheet.clone().dyn_into::<Object>() else {
            return;
        };
        let disabled = js::sheet_disabled(sheet) as u64;
        let rules = match js::css_rules(sheet) {
            Ok(r) => r,
            // Cross-origin sheet: its rules cannot be read, so assume the worst.
            Err(_) => {
                f(ALL, disabled, "");
                return;
            }
        };
        let n = rules.list_length();
        let count = ((n as u64) << 1) | disabled;
        let cached = self.seen.get(&obj);
        if let Some(entry) = cached.dyn_ref::<js_sys::Array>() {
            if entry.get(0).as_f64() == Some(n as f64) {
                let bits = entry.get(1).as_f64().unwrap_or(ALL as f64) as u8;
                let attrs = if want_attrs {
                    entry.get(2).as_string().unwrap_or_default()
                } else {
                    String::new()
                };
                f(bits, count, &attrs);
                return;
            }
        }
        let mut bits = 0;
        let mut attrs = String::new();
        for i in 0..n {
            let rule = rules.list_item(i);
            let text = js::css_text(&rule);
            if text.starts_with("@import") {
                // The imported sheet's rules are not in this text: read them (once loaded).
                match js::imported_sheet(&rule) {
                    Some(inner) => self.sheet(&inner, true, &mut |b, _, a: &str| {
                        bits |= b;
                        for name in a.split(' ').filter(|x| !x.is_empty()) {
                            data_attrs_of(name, &mut attrs);
                        }
                    }),
                    None => bits |= ALL,
                }
                continue;
            }
            if text.contains(":before") || text.contains(":after") {
                bits |= PSEUDO;
            }
            if text.contains("visibility") {
                bits |= VISIBILITY;
            }
            if is_structural(&text) {
                bits |= STRUCTURAL;
            }
            data_attrs_of(&text, &mut attrs);
        }
        let entry = js_sys::Array::of3(
            &JsValue::from_f64(n as f64),
            &JsValue::from_f64(bits as f64),
            &JsValue::from_str(&attrs),
        );
        self.seen.set(&obj, &entry);
        f(bits, count, &attrs)
    }
}

/// What a replay read that changes without any DOM mutation: visibility, the viewport, and
/// the names and texts that depend on them. The cache keeps the last one so that the next replay
/// can reuse it while nothing that could change these facts has happened (see `cache`).
pub struct Visual {
    /// When these facts were last read from the page (`performance.now()`).
    pub at: f64,
    /// Per captured element.
    visible: Vec<bool>,
    /// Records of the slow elements, by capture index.
    slow: Vec<(u32, Element)>,
    /// Per captured text.
    texts: Vec<TextMemo>,
    /// Per captured element, when read (snapshots).
    in_view: Option<Vec<bool>>,
    /// `in_view` was read from the page by this replay (not carried over).
    pub view_read: bool,
    /// This replay took its visibility from a memo (else it read it from the page).
    pub reused: bool,
    /// Per captured frame: hidden, and in view when read.
    frames: Vec<(bool, Option<bool>)>,
    /// Hash of the form state read (values, checked and selected states, secrets): the memo
    /// holds only while it is unchanged, since `:checked` or `:placeholder-shown` rules can
    /// hide elements.
    pub form: u64,
}

impl Visual {
    /// The memo of a patched capture (see [`Walk::patch`]), when its facts carry over:
    /// dropped entries go, appended ones come with what the patch read, and every slow
    /// record and text is read again.
    pub fn patched(mut self, p: &Patched) -> Option<Visual> {
        if let Some((elements, texts)) = &p.kept {
            if elements.len() != self.visible.len() || texts.len() != self.texts.len() {
                return None;
            }
            let mut keep = elements.iter();
            self.visible.retain(|_| *keep.next().unwrap_or(&false));
            let mut renumber = Vec::with_capacity(elements.len());
            let mut n = 0u32;
            for k in elements {
                renumber.push(n);
                n += *k as u32;
            }
            self.slow = std::mem::take(&mut self.slow)
                .into_iter()
                .filter(|(i, _)| elements.get(*i as usize) == Some(&true))
                .map(|(i, r)| (renumber[i as usize], r))
                .collect();
            let mut keep = texts.iter();
            self.texts.retain(|_| *keep.next().unwrap_or(&false));
        }
        // Slow names and texts depend on content elsewhere (labels, references, hidden
        // descendants), which the change may have touched: all are read again.
        self.slow.clear();
        for t in &mut self.texts {
            if let TextMemo::Slow(_) = t {
                *t = TextMemo::Shown;
            }
        }
        if !p.added_texts_known {
            return None;
        }
        self.visible.extend(&p.added_visible);
        self.texts
            .extend((0..p.added_texts).map(|_| TextMemo::Shown));
        self.in_view = None;
        Some(self)
    }

    /// Were the viewport facts read (a snapshot replay)?
    pub fn has_view(&self) -> bool {
        self.in_view.is_some()
    }
}

enum TextMemo {
    Hidden,
    /// Shown; its text is the capture's.
    Shown,
    /// Shown; its text depends on more than its element and was read.
    Slow(String),
}

/// An order-sensitive hash of the form state a replay reads.
#[derive(Default)]
struct FormHash(u64);

impl FormHash {
    fn add(&mut self, h: u64) {
        self.0 = (self.0.rotate_left(5) ^ h).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn add_str(&mut self, s: Option<&str>) {
        use std::hash::{Hash, Hasher};
        let mut h = siphasher::sip::SipHasher13::new();
        s.hash(&mut h);
        self.add(h.finish());
    }
}

/// What a fingerprint walk keeps so that the next fingerprints of an unchanged page can be
/// answered by re-reading only what changes without a DOM mutation (see `cache`): each
/// record's static part (role, name, region...) with its live node and context.
#[derive(Default)]
pub struct Capture {
    pub(super) elements: Vec<CachedElement>,
    pub(super) texts: Vec<CachedText>,
    /// Frame elements in walk order, with the document they showed.
    pub frames: Vec<CachedFrame>,
    /// Custom elements without an open shadow root, and (for those without child elements)
    /// whether they looked like a closed host.
    pub customs: Vec<(web_sys::Element, Option<bool>)>,
    /// Sensitive fields: their values are secrets, read again on every replay.
    pub(super) fields: Vec<(web_sys::Element, Tag, u32)>,
    /// Documents and shadow roots entered, with their style-sheet bits.
    pub roots: Vec<(Node, u8)>,
    /// The documents walked, by index (the top one first).
    pub documents: Vec<Document>,
    /// The labels index the walk built, if it named a labelled element.
    label_index: Option<name::LabelIndex>,
    /// Per element, the hashes of its captured record hidden and visible, once asked.
    hashes: std::cell::RefCell<Vec<Option<[u64; 2]>>>,
    /// The walk context of each document's top element.
    doc_ctx: Vec<Rc<Ctx>>,
    /// Elements and texts are no longer in walk order (a patch appended to them).
    pub unordered: bool,
    /// A region or a role depends on text elsewhere (a landmark named by
    /// `aria-labelledby`): no patch can tell what a text change does to it.
    fragile: bool,
    /// Node → uid of `elements` and of `texts`, built by the first patch and kept up to
    /// date by the next ones.
    maps: std::cell::RefCell<Option<(js_sys::Map, js_sys::Map)>>,
    /// The last uid handed out.
    next_uid: u32,
}

impl Capture {
    /// Node → uid maps of elements and texts (see `maps`).
    fn maps(&self) -> (js_sys::Map, js_sys::Map) {
        let mut maps = self.maps.borrow_mut();
        let (elements, texts) = maps.get_or_insert_with(|| {
            let elements = js_sys::Map::new();
            for e in &self.elements {
                elements.set(&e.node, &JsValue::from_f64(e.uid as f64));
            }
            let texts = js_sys::Map::new();
            for t in &self.texts {
                texts.set(&t.node, &JsValue::from_f64(t.uid as f64));
            }
            (elements, texts)
        });
        (elements.clone(), texts.clone())
    }

    /// The fingerprint hash of element `i`'s captured record with visibility `visible`.
    fn hash_of(&self, i: usize, visible: bool) -> u64 {
        let mut hashes = self.hashes.borrow_mut();
        if hashes.len() < self.elements.len() {
            hashes.resize(self.elements.len(), None);
        }
        let pair = hashes[i].get_or_insert_with(|| {
            let mut r = self.elements[i].record.clone();
            r.visible = false;
            let hidden = observable_hash(&r);
            r.visible = true;
            [hidden, observable_hash(&r)]
        });
        pair[visible as usize]
    }

    /// Observable elements captured (what a replay would count against `maxElements`).
    pub(super) fn len(&self) -> usize {
        self.elements.len()
    }
}

pub(super) struct CachedElement {
    node: web_sys::Element,
    tag: Tag,
    present: u32,
    role: Role,
    opaque: bool,
    ctx: Rc<Ctx>,
    landmark: Option<String>,
    /// The name or text depends on more than the element's attributes and text.
    slow: bool,
    record: Element,
    /// The role context its children are walked with (`ctx` is their walk context).
    child_rc: RoleCtx,
    /// Unique in its capture (see [`Capture::maps`]).
    uid: u32,
}

pub(super) struct CachedText {
    node: web_sys::Element,
    tag: Tag,
    present: u32,
    kind: TextKind,
    ctx: Rc<Ctx>,
    /// The text, when it depends on the element's own text only and was read.
    text: Option<String>,
    /// Unique in its capture (see [`Capture::maps`]).
    uid: u32,
}

pub struct CachedFrame {
    pub node: web_sys::Element,
    parent: usize,
    doc: Option<usize>,
    pub content: Option<Document>,
    scope_visibility: bool,
}

/// One walk. Construct, [`Walk::run`], then read `found`, `texts`, `has_more`.
pub struct Walk<'a> {
    s: &'a Strings,
    mode: Mode,
    opts: &'a WalkOptions,
    namer: Namer<'a>,
    styles: &'a StyleScan,
    pub redactor: Redactor,
    pub found: Vec<Found>,
    pub texts: Vec<Text>,
    pub has_more: bool,
    /// Find mode: the nodes to report.
    pub targets: Option<js_sys::Set>,
    docs: Vec<DocInfo>,
    /// Documents and shadow roots entered, for the secrets pass of a walk cut short.
    roots: Vec<Node>,
    /// Fingerprint walks: what the cache keeps (see [`Capture`]).
    pub capture: Option<Capture>,
    /// The last record's name or text was slow (see `Namer::slow`).
    last_slow: bool,
    /// Fingerprint replays may hash into [`Walk::hashed`] instead of keeping records (set by
    /// callers that filter nothing by region).
    pub hash_only: bool,
    /// What a hash-only replay hashed (elements and texts it kept no record of).
    pub hashed: Fingerprint,
    focused: Option<web_sys::Element>,
    observed: usize,
    visited: usize,
    deadline: f64,
    key: [u8; 16],
}

impl<'a> Walk<'a> {
    pub fn new(
        s: &'a Strings,
        mode: Mode,
        opts: &'a WalkOptions,
        styles: &'a StyleScan,
        key: [u8; 16],
    ) -> Self {
        Walk {
            s,
            mode,
            opts,
            namer: Namer::new(s, false),
            styles,
            roots: Vec::new(),
            capture: None,
            last_slow: false,
            hash_only: false,
            hashed: Fingerprint::default(),
            redactor: Redactor::default(),
            found: Vec::new(),
            texts: Vec::new(),
            has_more: false,
            targets: None,
            docs: Vec::new(),
            focused: None,
            observed: 0,
            visited: 0,
            deadline: 0.0,
            key,
        }
    }

    /// Walks `doc` (and its same-origin frames), then scrubs every string of secrets.
    pub fn run(&mut self, doc: &Document) {
        self.deadline = js::now() + self.opts.budget_ms;
        if self.mode != Mode::Fingerprint {
            self.focused = deepest_focus(doc);
        }
        let mut stack: Vec<Level> = Vec::new();
        if let Some(level) = self.enter_document(doc, Rc::from(""), false, true) {
            stack.push(level);
        }
        self.drain(stack);
        if self.has_more {
            // Fields the walk did not reach may still be echoed in what it did reach.
            for root in std::mem::take(&mut self.roots) {
                self.collect_secrets(&root);
            }
        }
        if let Some(c) = &mut self.capture {
            c.label_index = self.namer.label_index.clone();
        }
        self.scrub();
    }

    /// Visits every element the levels of `stack` lead to, depth first.
    fn drain(&mut self, mut stack: Vec<Level>) {
        while let Some(level) = stack.last_mut() {
            let Some(node) = level.cursor.next() else {
                stack.pop();
                continue;
            };
            self.visited += 1;
            if self.visited % 64 == 0 && js::now() > self.deadline {
                self.has_more = true;
                break;
            }
            let ctx = level.ctx.clone();
            let rc = level.role;
            if let Some(children) = self.visit(node, ctx, rc) {
                stack.push(children);
            }
            if self.has_more {
                break;
            }
        }
    }

    fn enter_document(
        &mut self,
        doc: &Document,
        frame: Rc<str>,
        hidden: bool,
        in_view: bool,
    ) -> Option<Level> {
        if let Some(c) = &mut self.capture {
            c.documents.push(doc.clone());
        }
        let view = js::default_view(doc);
        let (width, height) = view
            .as_ref()
            .map(|v| (js::inner_width(v), js::inner_height(v)))
            .unwrap_or((0.0, 0.0));
        self.docs.push(DocInfo {
            width,
            height,
            hidden,
            in_view,
            iframes: 0,
        });
        let root: &Node = doc.unchecked_ref();
        let scope = self.enter_root(root, Scope::default());
        let mut ctx = Ctx {
            frame,
            doc: self.docs.len() - 1,
            scope,
            ..Default::default()
        };
        ctx.compose();
        let ctx = Rc::new(ctx);
        if let Some(c) = &mut self.capture {
            c.doc_ctx.push(ctx.clone());
        }
        let top = js::document_element(doc)?;
        Some(Level {
            cursor: Cursor::Siblings(Some(top)),
            ctx,
            role: RoleCtx::default(),
        })
    }

    /// On entering a document or shadow root: declared selectors, style features and the
    /// scope's probes. `outer` is the enclosing scope (style rules of a document reach into
    /// the shadow roots below it through inheritance).
    fn enter_root(&mut self, root: &Node, outer: Scope) -> Scope {
        self.roots.push(root.clone());
        if let Some(declared) = &self.opts.declared {
            for sel in &self.opts.selectors {
                if let Ok(list) = js::query_all(root, sel) {
                    for i in 0..list.length() {
                        if let Some(e) = list.item(i) {
                            declared.add(&e);
                            let el = El::new(self.s, &e);
                            self.add_secret_of(&el);
                        }
                    }
                }
            }
        }
        let styles = self.styles.scan(root);
        if let Some(c) = &mut self.capture {
            c.roots.push((root.clone(), styles));
        }
        if styles & PSEUDO != 0 {
            self.namer.pseudo = true;
        }
        // One scan answers all three when none is present (the common case).
        if js::query_one_js(root, &self.s.any_probe).is_none() {
            return Scope {
                labels: false,
                disabled: false,
                visibility: outer.visibility || styles & VISIBILITY != 0,
            };
        }
        Scope {
            labels: js::query_one_js(root, &self.s.labels_probe).is_some(),
            disabled: js::query_one_js(root, &self.s.disabled_probe).is_some(),
            visibility: outer.visibility
                || styles & VISIBILITY != 0
                || js::query_one_js(root, &self.s.visibility_probe).is_some(),
        }
    }

    /// Registers the secrets of every sensitive field in `root` (a subtree the walk skips, or
    /// a scope of a walk cut short): their echoes are scrubbed all the same.
    fn collect_secrets(&mut self, root: &Node) {
        let found = js::query_all_js(root, &self.s.sensitive_fields);
        for i in 0..found.length() {
            let Some(hit) = found.item(i) else { continue };
            self.secrets_of_hit(&hit);
        }
        if js::node_type(root) == js::ELEMENT_NODE {
            self.secrets_of_hit(root.unchecked_ref());
        }
    }

    fn secrets_of_hit(&mut self, hit: &web_sys::Element) {
        let f = El::new(self.s, hit);
        let field = matches!(f.tag, Tag::Input | Tag::Textarea | Tag::Select);
        if f.has_bits(present::DATA_AP_SENSITIVE) {
            if field {
                self.add_secret_of(&f);
            }
            let inner = js::query_all_js(hit.unchecked_ref(), &self.s.fields);
            for k in 0..inner.length() {
                if let Some(field) = inner.item(k) {
                    let e = El::new(self.s, &field);
                    self.add_secret_of(&e);
                }
            }
        } else if field
            && (redact::is_sensitive_input_type(f.input_type())
                || redact::is_sensitive_autocomplete(&f.get(A::Autocomplete).unwrap_or_default()))
        {
            self.add_secret_of(&f);
        }
    }

    fn add_secret_of(&mut self, f: &El) {
        if let Some(c) = &mut self.capture {
            c.fields.push((f.node.clone(), f.tag, f.present));
        }
        if let Some(v) = field_value(f) {
            self.redactor.add_secret(&v);
        }
    }

    /// Counts an observable element against the cap; false once the cap is passed.
    fn admit(&mut self) -> bool {
        self.observed += 1;
        if self.observed > self.opts.max_elements {
            self.has_more = true;
            return false;
        }
        true
    }

    fn wanted(&self, node: &web_sys::Element) -> bool {
        match (&self.targets, self.mode) {
            (Some(t), Mode::Find) => t.has(node),
            _ => true,
        }
    }

    /// Visits one element; returns the level of its children, if any.
    fn visit(&mut self, node: web_sys::Element, mut ctx: Rc<Ctx>, rc: RoleCtx) -> Option<Level> {
        if let Some(declared) = &self.opts.declared {
            if !ctx.sensitive && declared.has(&node) {
                ctx = Rc::new(Ctx {
                    sensitive: true,
                    ..(*ctx).clone()
                });
            }
        }
        let el = El::new(self.s, &node);
        if el.tag.is_skipped() {
            return None;
        }
        if el.prunes() {
            // Not observable, but a secret typed in there may be echoed elsewhere.
            self.collect_secrets(node.unchecked_ref());
            return None;
        }
        if !el.tag.is_semantic() && !el.has_bits(role::RELEVANT_BITS) {
            return self.plain(&el, ctx, rc);
        }
        let tag = el.tag;
        let needs_name =
            matches!(tag, Tag::Section | Tag::Form) || (tag == Tag::Aside && rc.in_section);
        let author = if needs_name {
            Some(self.namer.author_name(&el))
        } else {
            None
        };
        let named = author.as_ref().is_some_and(|n| !n.is_empty());
        if needs_name && el.has(A::AriaLabelledby) {
            if let Some(c) = &mut self.capture {
                c.fragile = true;
            }
        }
        let s = self.s;
        let global = el.has_bits(role::GLOBAL_BITS);
        let decided = role::compute_role(tag, &el, &rc, &mut || named, &mut || global);
        let role = decided.role;

        // Context for this element and its descendants.
        let parent_in_text = ctx.in_text;
        let mut changed: Option<Ctx> = None;
        fn edit(changed: &mut Option<Ctx>, ctx: &Rc<Ctx>) -> Ctx {
            changed.take().unwrap_or_else(|| (**ctx).clone())
        }
        let mut region_attr = None;
        if tag == Tag::Label && !ctx.in_label {
            let mut c = edit(&mut changed, &ctx);
            c.in_label = true;
            changed = Some(c);
        }
        if el.has_bits(role::RELEVANT_BITS) {
            if !ctx.aria_disabled
                && el
                    .get(A::AriaDisabled)
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
            {
                let mut c = edit(&mut changed, &ctx);
                c.aria_disabled = true;
                changed = Some(c);
            }
            if !ctx.sensitive && el.has_bits(present::DATA_AP_SENSITIVE) {
                let mut c = edit(&mut changed, &ctx);
                c.sensitive = true;
                changed = Some(c);
            }
            region_attr = el.get(A::DataApRegion);
        }
        let mut landmark_name: Option<String> = None;
        if let Some(value) = region_attr {
            let mut c = edit(&mut changed, &ctx);
            c.base = cap(&normalize_whitespace(&value), limits::MAX_TEXT_CHARS)
                .into_owned()
                .into();
            c.list = None;
            c.compose();
            changed = Some(c);
        } else if role.is_landmark() {
            if el.has(A::AriaLabelledby) {
                if let Some(c) = &mut self.capture {
                    c.fragile = true;
                }
            }
            let label = match author {
                Some(a) => a,
                None => self.namer.author_name(&el),
            };
            // `form` and `region` are landmarks only with a name.
            if !matches!(role, Role::Form | Role::Region) || !label.is_empty() {
                let mut c = edit(&mut changed, &ctx);
                c.base = if label.is_empty() {
                    role.as_str().into()
                } else {
                    format!("{}[{}]", role.as_str(), cap(&label, limits::MAX_TEXT_CHARS)).into()
                };
                c.list = None;
                c.compose();
                changed = Some(c);
            }
            landmark_name = Some(label);
        } else if is_list_like(role) {
            let id = el.get(A::Id).filter(|v| !v.trim().is_empty());
            let label = id.or_else(|| el.get(A::AriaLabel).filter(|v| !v.trim().is_empty()));
            if let Some(label) = label {
                let mut c = edit(&mut changed, &ctx);
                c.list = Some(
                    cap(&normalize_whitespace(&label), limits::MAX_TEXT_CHARS)
                        .into_owned()
                        .into(),
                );
                c.compose();
                changed = Some(c);
            }
        }
        let text_kind = text_kind(&el, role);
        if text_kind.is_some_and(|k| k != TextKind::Paragraph) && !parent_in_text {
            let mut c = edit(&mut changed, &ctx);
            c.in_text = true;
            changed = Some(c);
        }
        if let Some(c) = changed {
            ctx = Rc::new(c);
        }

        // Visibility, asked only when something is reported.
        let observable = role::is_observable(role);
        let doc_hidden = self.docs[ctx.doc].hidden;
        let scope_visibility = ctx.scope.visibility;
        let mut visible_cache: Option<bool> = None;
        let mut visible = |node: &web_sys::Element| -> bool {
            *visible_cache.get_or_insert_with(|| !doc_hidden && s.visible(node, scope_visibility))
        };

        // Running text, unless inside another live region (which already reports it).
        if let Some(kind) = text_kind {
            let shown = !parent_in_text && self.mode != Mode::Find && visible(&node);
            let text = if shown {
                // Running text is what is rendered: a control's label is not read twice.
                self.namer.labels = false;
                self.namer.content(&el, true)
            } else {
                String::new()
            };
            if !parent_in_text {
                if let Some(c) = &mut self.capture {
                    c.next_uid += 1;
                    c.texts.push(CachedText {
                        uid: c.next_uid,
                        node: node.clone(),
                        tag,
                        present: el.present,
                        kind,
                        ctx: ctx.clone(),
                        text: (shown && !self.namer.slow).then(|| text.clone()),
                    });
                }
            }
            if shown && !text.is_empty() {
                self.texts.push(Text {
                    kind,
                    text: cap(&text, limits::MAX_TEXT_CHARS).into_owned(),
                    region: String::from(&*ctx.region),
                    frame: String::from(&*ctx.frame),
                });
            }
        }

        // Every sensitive field's value is a secret, whether or not this walk reports it.
        if matches!(tag, Tag::Input | Tag::Textarea | Tag::Select)
            && (ctx.sensitive || is_sensitive_field(&el))
        {
            self.add_secret_of(&el);
        }

        let mut opaque = false;
        let mut frame_doc: Option<(Document, Rc<str>)> = None;
        if matches!(tag, Tag::Iframe | Tag::Frame) {
            let info = &mut self.docs[ctx.doc];
            let position = info.iframes;
            info.iframes += 1;
            let path: Rc<str> = if ctx.frame.is_empty() {
                position.to_string().into()
            } else {
                format!("{}.{}", ctx.frame, position).into()
            };
            let content = js::content_document(&node);
            if let Some(c) = &mut self.capture {
                c.frames.push(CachedFrame {
                    node: node.clone(),
                    parent: ctx.doc,
                    // The document index it gets if walked; set when it is (see below).
                    doc: None,
                    content: content.clone(),
                    scope_visibility: ctx.scope.visibility,
                });
            }
            match content {
                Some(d) => frame_doc = Some((d, path)),
                None => opaque = true,
            }
        }
        if tag == Tag::Custom && el.shadow().is_none() {
            let closed = (!el.has_children()).then(|| is_closed_host(&node));
            opaque |= closed == Some(true);
            if let Some(c) = &mut self.capture {
                c.customs.push((node.clone(), closed));
            }
        }

        let child_rc = child_role_ctx(tag, role, rc, decided.explicit);
        let mut frame_visible = true;
        let mut frame_in_view = true;
        if observable || opaque {
            if !self.admit() {
                return None;
            }
            let v = visible(&node);
            if self.wanted(&node) {
                // Labelled by a wrapping label, or by `label[for]` (which needs an id).
                self.namer.labels = ctx.scope.labels && (ctx.in_label || el.has(A::Id));
                self.namer.visibility_rules = ctx.scope.visibility;
                let found = self.record(&el, role, &ctx, v, opaque, landmark_name.clone());
                if frame_doc.is_some() {
                    frame_in_view = found.record.in_viewport || self.mode == Mode::Fingerprint;
                }
                if let Some(c) = &mut self.capture {
                    c.next_uid += 1;
                    c.elements.push(CachedElement {
                        uid: c.next_uid,
                        node: node.clone(),
                        tag,
                        present: el.present,
                        role,
                        opaque,
                        ctx: ctx.clone(),
                        landmark: landmark_name,
                        slow: self.last_slow,
                        record: found.record.clone(),
                        child_rc,
                    });
                }
                self.found.push(found);
            }
            frame_visible = v;
        } else if frame_doc.is_some() {
            frame_visible = visible(&node);
        }

        if let Some((doc, path)) = frame_doc {
            let hidden = doc_hidden || !frame_visible;
            let mut level = self.enter_document(&doc, path, hidden, frame_in_view)?;
            let index = self.docs.len() - 1;
            if let Some(f) = self.capture.as_mut().and_then(|c| c.frames.last_mut()) {
                f.doc = Some(index);
            }
            if let Some(c) = Rc::get_mut(&mut level.ctx) {
                c.sensitive = ctx.sensitive;
            }
            return Some(level);
        }
        self.children(&el, ctx, child_rc)
    }

    /// An element without semantics of its own: only its children matter, unless it is an
    /// opaque custom element.
    fn plain(&mut self, el: &El, ctx: Rc<Ctx>, rc: RoleCtx) -> Option<Level> {
        let child_rc = RoleCtx {
            parent_is_list: false,
            parent_list_presentational: false,
            ..rc
        };
        if let Some(shadow) = el.shadow() {
            let scope = self.enter_root(shadow, ctx.scope);
            let first = js::first_element_child(shadow)?;
            return Some(Level {
                cursor: Cursor::Siblings(Some(first)),
                ctx: with_scope(ctx, scope),
                role: child_rc,
            });
        }
        let first = el.first_child().cloned();
        if first.is_some() && el.tag == Tag::Custom {
            // It may still upgrade: gain a shadow root or match `:defined` (see `cache`).
            if let Some(c) = &mut self.capture {
                c.customs.push((el.node.clone(), None));
            }
        }
        if first.is_none() {
            if el.tag != Tag::Custom {
                return None;
            }
            let closed = is_closed_host(el.node);
            if let Some(c) = &mut self.capture {
                c.customs.push((el.node.clone(), Some(closed)));
            }
            if closed && self.admit() && self.wanted(el.node) {
                let v = !self.docs[ctx.doc].hidden && self.s.visible(el.node, ctx.scope.visibility);
                let found = self.record(el, Role::Generic, &ctx, v, true, None);
                if let Some(c) = &mut self.capture {
                    c.next_uid += 1;
                    c.elements.push(CachedElement {
                        uid: c.next_uid,
                        node: el.node.clone(),
                        tag: el.tag,
                        present: el.present,
                        role: Role::Generic,
                        opaque: true,
                        ctx: ctx.clone(),
                        landmark: None,
                        slow: self.last_slow,
                        record: found.record.clone(),
                        child_rc: rc,
                    });
                }
                self.found.push(found);
            }
            return None;
        }
        Some(Level {
            cursor: Cursor::Siblings(first),
            ctx,
            role: child_rc,
        })
    }

    fn children(&mut self, el: &El, ctx: Rc<Ctx>, rc: RoleCtx) -> Option<Level> {
        if let Some(root) = el.shadow() {
            let scope = self.enter_root(root, ctx.scope);
            let first = js::first_element_child(root)?;
            return Some(Level {
                cursor: Cursor::Siblings(Some(first)),
                ctx: with_scope(ctx, scope),
                role: rc,
            });
        }
        if el.tag == Tag::Slot {
            let assigned = js::assigned_elements(el.node, &self.s.flatten);
            if assigned.length() > 0 {
                return Some(Level {
                    cursor: Cursor::List(assigned, 0),
                    ctx,
                    role: rc,
                });
            }
        }
        let first = el.first_child()?.clone();
        Some(Level {
            cursor: Cursor::Siblings(Some(first)),
            ctx,
            role: rc,
        })
    }

    fn record(
        &mut self,
        el: &El,
        role: Role,
        ctx: &Ctx,
        visible: bool,
        opaque: bool,
        landmark: Option<String>,
    ) -> Found {
        let node = el.node;
        let mut r = Element {
            role,
            opaque,
            visible,
            ..Default::default()
        };
        let mut slow = false;
        r.name = match landmark {
            // A landmark's name is its author name, already computed for its region.
            Some(name) => name,
            None if opaque && role == Role::Generic => self.namer.author_name(el),
            None => {
                let name = self.namer.name(el, role, visible);
                slow = self.namer.slow;
                name
            }
        };
        r.name = cap(&r.name, limits::MAX_TEXT_CHARS).into_owned();
        if r.name.is_empty() && role::uses_text(role) {
            let text = self.namer.content(el, visible);
            slow |= self.namer.slow;
            if !text.is_empty() {
                r.text = Some(cap(&text, limits::MAX_TEXT_CHARS).into_owned());
            }
        }
        self.last_slow = slow;
        r.region = String::from(&*ctx.region);
        r.frame = String::from(&*ctx.frame);
        r.disabled = ctx.aria_disabled
            || el
                .get(A::AriaDisabled)
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
            || (el.tag.is_form_control()
                && ctx.scope.disabled
                && js::matches_js(node, &self.s.disabled));
        if role == Role::Link {
            r.href = el.get(A::Href);
        }
        if let Tag::H(level) = el.tag {
            r.level = Some(level);
        }
        if role == Role::Heading {
            if let Some(l) = el
                .get(A::AriaLevel)
                .and_then(|v| v.trim().parse::<u8>().ok())
                .filter(|l| *l >= 1)
            {
                r.level = Some(l);
            } else if r.level.is_none() {
                r.level = Some(2);
            }
        }
        self.dynamic(el, role, ctx, &mut r);
        self.place(node, ctx, &mut r);
        Found {
            record: r,
            node: (self.mode != Mode::Fingerprint).then(|| node.clone()),
        }
    }

    /// [`Walk::place`], with the viewport fact already known when `known` is given.
    fn place_known(
        &self,
        node: &web_sys::Element,
        ctx: &Ctx,
        r: &mut Element,
        known: Option<bool>,
    ) {
        match known {
            Some(v) if self.mode != Mode::Fingerprint => {
                r.in_viewport = v;
                r.focused = self.focused.as_ref().is_some_and(|f| js::same(f, node));
            }
            _ => self.place(node, ctx, r),
        }
    }

    /// Viewport and focus (not for fingerprints, which do not compare them).
    fn place(&self, node: &web_sys::Element, ctx: &Ctx, r: &mut Element) {
        if self.mode == Mode::Fingerprint {
            return;
        }
        let doc = &self.docs[ctx.doc];
        r.in_viewport = false;
        if r.visible && doc.in_view {
            r.in_viewport = js::in_viewport(node, doc.width, doc.height);
        }
        r.focused = self.focused.as_ref().is_some_and(|f| js::same(f, node));
    }

    /// The parts of a record that change without a DOM mutation (properties: checked,
    /// selected, value) and what depends on them, plus the states read with them.
    fn dynamic(&mut self, el: &El, role: Role, ctx: &Ctx, r: &mut Element) {
        states(el, role, r);
        r.sensitive = ctx.sensitive || is_sensitive_field(el);
        let field = matches!(el.tag, Tag::Input | Tag::Textarea | Tag::Select);
        if role.has_value() || (field && r.checked.is_none() && role != Role::Button) {
            let raw = if role::is_range(role) && !matches!(el.tag, Tag::Input) {
                el.get(A::AriaValuetext).or_else(|| el.get(A::AriaValuenow))
            } else {
                field_value(el)
            };
            if let Some(raw) = raw {
                if r.sensitive {
                    r.value_hash = Some(redact::keyed_hash(&self.key, &raw));
                    r.value = Some(if raw.is_empty() {
                        String::new()
                    } else {
                        REDACTED.to_owned()
                    });
                } else {
                    r.value = Some(cap(&raw, limits::MAX_TEXT_CHARS).into_owned());
                }
            }
        }
    }

    /// Some style sheet met so far generates content (`::before`/`::after`).
    pub fn pseudo(&self) -> bool {
        self.namer.pseudo
    }

    /// Answers from `capture` (see [`Capture`]). With `memo`, the visual facts (visibility,
    /// slow names and texts, and with `view` the viewport) are taken from the last replay
    /// instead of being read: the caller vouches that nothing that could change them has
    /// happened since (see `cache`). Form state is read either way; the returned [`Visual`]
    /// says what was read, and its `form` tells the caller whether the memo still held.
    pub fn replay(&mut self, capture: &Capture, memo: Option<&Visual>, view: bool) -> Visual {
        // A memo of another shape than the capture is not this capture's: read afresh.
        let memo = memo.filter(|m| {
            m.visible.len() == capture.elements.len()
                && m.texts.len() == capture.texts.len()
                && m.frames.len() == capture.frames.len()
                && m.in_view
                    .as_ref()
                    .is_none_or(|v| v.len() == capture.elements.len())
        });
        self.namer.label_index = capture.label_index.clone();
        let snapshot = self.mode != Mode::Fingerprint;
        if snapshot {
            if let Some(top) = capture.documents.first() {
                self.focused = deepest_focus(top);
            }
        }
        let view_memo = memo
            .filter(|_| view && snapshot)
            .and_then(|m| m.in_view.as_ref());
        let mut out = Visual {
            at: memo.map_or_else(js::now, |m| m.at),
            in_view: snapshot.then(|| Vec::with_capacity(capture.elements.len())),
            view_read: snapshot && view_memo.is_none(),
            reused: memo.is_some(),
            visible: Vec::with_capacity(capture.elements.len()),
            slow: Vec::new(),
            texts: Vec::with_capacity(capture.texts.len()),
            frames: Vec::with_capacity(capture.frames.len()),
            form: 0,
        };
        // The documents again: sizes, hidden and in-view frames change without mutations.
        self.docs = capture
            .documents
            .iter()
            .map(|d| {
                let (width, height) = js::default_view(d)
                    .map(|v| (js::inner_width(&v), js::inner_height(&v)))
                    .unwrap_or((0.0, 0.0));
                DocInfo {
                    width,
                    height,
                    hidden: false,
                    in_view: true,
                    iframes: 0,
                }
            })
            .collect();
        for (i, f) in capture.frames.iter().enumerate() {
            let known = memo.and_then(|m| m.frames.get(i).copied());
            let Some(d) = f.doc else {
                out.frames.push((false, None));
                continue;
            };
            let parent = &self.docs[f.parent];
            let visible = match known {
                Some((hidden, _)) => !hidden,
                None => !parent.hidden && self.s.visible(&f.node, f.scope_visibility),
            };
            let mut in_view = false;
            if visible && parent.in_view && snapshot {
                in_view = match (view_memo, known) {
                    (Some(_), Some((_, Some(v)))) => v,
                    _ => {
                        let rect = js::rect(&f.node);
                        rect.bottom() > 0.0
                            && rect.top() < parent.height
                            && rect.right() > 0.0
                            && rect.left() < parent.width
                    }
                };
            }
            self.docs[d].hidden = !visible;
            self.docs[d].in_view = in_view;
            let kept = if snapshot {
                Some(in_view)
            } else {
                known.and_then(|k| k.1)
            };
            out.frames.push((!visible, kept));
        }
        let mut form = FormHash::default();
        for (node, tag, present) in &capture.fields {
            let el = El::cached(self.s, node, *tag, *present);
            let value = field_value(&el);
            form.add_str(value.as_deref());
            if let Some(v) = value {
                self.redactor.add_secret(&v);
            }
        }
        // Fingerprints of a page without secrets need no records, only their hashes: those
        // of unchanged records come from the capture (with secrets, names must be scrubbed).
        let hash_only = self.hash_only && !snapshot && self.redactor.is_empty();
        let mut slow_at = 0;
        for (i, e) in capture.elements.iter().enumerate() {
            let el = El::cached(self.s, &e.node, e.tag, e.present);
            let visible = match memo {
                Some(m) => m.visible[i],
                None => {
                    !self.docs[e.ctx.doc].hidden && self.s.visible(&e.node, e.ctx.scope.visibility)
                }
            };
            out.visible.push(visible);
            let known_view = view_memo.map(|v| v[i]);
            let form_tag = matches!(
                e.tag,
                Tag::Input | Tag::Textarea | Tag::Select | Tag::Option
            );
            if hash_only && !e.slow && !form_tag {
                // The record is the capture's with this visibility: so is its hash.
                self.hashed.add_hash(capture.hash_of(i, visible));
                continue;
            }
            let record = if e.slow {
                let kept = memo.and_then(|m| {
                    while slow_at < m.slow.len() && (m.slow[slow_at].0 as usize) < i {
                        slow_at += 1;
                    }
                    m.slow
                        .get(slow_at)
                        .filter(|(at, _)| *at as usize == i)
                        .map(|(_, r)| r)
                });
                let r = match kept {
                    Some(kept) => {
                        let mut r = kept.clone();
                        if form_tag {
                            self.dynamic(&el, e.role, &e.ctx, &mut r);
                        }
                        self.place_known(&e.node, &e.ctx, &mut r, known_view);
                        r
                    }
                    None => {
                        self.namer.labels = e.ctx.scope.labels && (e.ctx.in_label || el.has(A::Id));
                        self.namer.visibility_rules = e.ctx.scope.visibility;
                        self.record(&el, e.role, &e.ctx, visible, e.opaque, e.landmark.clone())
                            .record
                    }
                };
                out.slow.push((i as u32, r.clone()));
                r
            } else {
                let mut r = e.record.clone();
                r.visible = visible;
                if form_tag {
                    self.dynamic(&el, e.role, &e.ctx, &mut r);
                }
                self.place_known(&e.node, &e.ctx, &mut r, known_view);
                r
            };
            let hash = (form_tag || hash_only).then(|| observable_hash(&record));
            if form_tag {
                form.add(hash.unwrap_or_default());
            }
            if let Some(v) = &mut out.in_view {
                v.push(record.in_viewport);
            }
            if let (true, Some(h)) = (hash_only, hash) {
                self.hashed.add_hash(h);
                continue;
            }
            let node = snapshot.then(|| e.node.clone());
            self.found.push(Found { record, node });
        }
        for (j, t) in capture.texts.iter().enumerate() {
            let known = memo.and_then(|m| m.texts.get(j));
            let shown = match known {
                Some(k) => !matches!(k, TextMemo::Hidden),
                None => {
                    !self.docs[t.ctx.doc].hidden && self.s.visible(&t.node, t.ctx.scope.visibility)
                }
            };
            if !shown {
                out.texts.push(TextMemo::Hidden);
                continue;
            }
            let text = match (&t.text, known) {
                (Some(text), _) => {
                    out.texts.push(TextMemo::Shown);
                    text.clone()
                }
                (None, Some(TextMemo::Slow(text))) => {
                    out.texts.push(TextMemo::Slow(text.clone()));
                    text.clone()
                }
                (None, _) => {
                    let el = El::cached(self.s, &t.node, t.tag, t.present);
                    self.namer.visibility_rules = t.ctx.scope.visibility;
                    self.namer.labels = false;
                    let text = self.namer.content(&el, true);
                    out.texts.push(TextMemo::Slow(text.clone()));
                    text
                }
            };
            if !text.is_empty() {
                let text = Text {
                    kind: t.kind,
                    text: cap(&text, limits::MAX_TEXT_CHARS).into_owned(),
                    region: String::from(&*t.ctx.region),
                    frame: String::from(&*t.ctx.frame),
                };
                if hash_only {
                    self.hashed.add_text(&text);
                } else {
                    self.texts.push(text);
                }
            }
        }
        out.form = form.0;
        if !snapshot {
            // Fingerprints do not read the viewport: the memo's facts stay for the next
            // snapshot (the scroll checks of `cache` say whether they still hold).
            out.in_view = memo.and_then(|m| m.in_view.clone());
        }
        self.scrub();
        out
    }

    /// Replaces every echo of a secret in every string the walk produced.
    fn scrub(&mut self) {
        if self.redactor.is_empty() {
            return;
        }
        let r = &self.redactor;
        let fix = |s: &mut String| {
            if let std::borrow::Cow::Owned(o) = r.scrub(s) {
                *s = o;
            }
        };
        for f in &mut self.found {
            let e = &mut f.record;
            fix(&mut e.name);
            fix(&mut e.region);
            if let Some(t) = &mut e.text {
                fix(t);
            }
            if let Some(v) = &mut e.value {
                fix(v);
            }
            if let Some(h) = &mut e.href {
                fix(h);
            }
        }
        for t in &mut self.texts {
            fix(&mut t.text);
            fix(&mut t.region);
        }
    }
}

/// A custom element without an open shadow root or child elements whose content is
/// nevertheless rendered from somewhere we cannot read: a closed shadow root. Heuristic:
/// it has a box, and either no light content at all or light text that is not rendered.
pub(super) fn is_closed_host(node: &web_sys::Element) -> bool {
    let rect = js::rect(node);
    if rect.right() - rect.left() <= 0.0 || rect.bottom() - rect.top() <= 0.0 {
        return false;
    }
    let light = js::text_content(node.unchecked_ref()).unwrap_or_default();
    if light.trim().is_empty() {
        return true;
    }
    js::inner_text(node).unwrap_or_default().trim().is_empty()
}

/// A field sensitive by its own markup: a password, or a payment / one-time-code / password
/// `autocomplete`.
fn is_sensitive_field(el: &El) -> bool {
    matches!(el.tag, Tag::Input | Tag::Textarea | Tag::Select)
        && (redact::is_sensitive_input_type(el.input_type())
            || redact::is_sensitive_autocomplete(&el.get(A::Autocomplete).unwrap_or_default()))
}

/// The current value of a form field, as text (`select`: its chosen option's label).
pub fn field_value(el: &El) -> Option<String> {
    match el.tag {
        Tag::Select => name::selected_option_label(el.node).or(Some(String::new())),
        Tag::Input | Tag::Textarea | Tag::Output => js::value(el.node).as_string(),
        _ => None,
    }
}

fn states(el: &El, role: Role, r: &mut Element) {
    let node = el.node;
    if role::has_checked(role) {
        let native = el.tag == Tag::Input && matches!(el.input_type(), "checkbox" | "radio");
        r.checked = Some(if native && el.get(A::AriaChecked).is_none() {
            if js::indeterminate(node) {
                Tristate::Mixed
            } else {
                js::checked(node).into()
            }
        } else {
            tristate(el.get(A::AriaChecked).as_deref())
        });
    }
    if role == Role::Button {
        if let Some(p) = el.get(A::AriaPressed) {
            r.pressed = Some(tristate(Some(&p)));
        }
    }
    if el.tag == Tag::Option && role == Role::Option && el.get(A::AriaSelected).is_none() {
        r.selected = Some(js::selected(node));
    } else if role::has_selected(role) {
        r.selected = Some(is_true(el.get(A::AriaSelected).as_deref()));
    } else if role::may_have_selected(role) {
        r.selected = el.get(A::AriaSelected).map(|v| is_true(Some(&v)));
    }
    if let Some(e) = el.get(A::AriaExpanded) {
        r.expanded = Some(is_true(Some(&e)));
    } else if el.tag == Tag::Summary {
        if let Some(parent) = js::parent_element(node.unchecked_ref()) {
            if js::local_name(&parent) == "details" {
                r.expanded = Some(js::open(&parent));
            }
        }
    }
}

fn tristate(v: Option<&str>) -> Tristate {
    match v.map(|s| s.trim().to_ascii_lowercase()) {
        Some(s) if s == "true" => Tristate::True,
        Some(s) if s == "mixed" => Tristate::Mixed,
        _ => Tristate::False,
    }
}

fn is_true(v: Option<&str>) -> bool {
    v.is_some_and(|s| s.trim().eq_ignore_ascii_case("true"))
}

/// Lists whose `id`/`aria-label` becomes the `/list:` suffix of a region.
fn is_list_like(role: Role) -> bool {
    matches!(
        role,
        Role::List
            | Role::Listbox
            | Role::Grid
            | Role::Table
            | Role::Tree
            | Role::Treegrid
            | Role::Menu
            | Role::Menubar
    )
}

/// Running text kinds: `data-ap-watch` wins, then live-region roles, then `aria-live`.
fn text_kind(el: &El, role: Role) -> Option<TextKind> {
    if el.has(A::DataApWatch) {
        return Some(TextKind::Watch);
    }
    match role {
        Role::Paragraph => Some(TextKind::Paragraph),
        Role::Status => Some(TextKind::Status),
        Role::Alert => Some(TextKind::Alert),
        Role::Log => Some(TextKind::Log),
        Role::Marquee | Role::Timer => Some(TextKind::Other),
        _ => match el
            .get(A::AriaLive)
            .map(|v| v.trim().to_ascii_lowercase())
            .as_deref()
        {
            Some("polite") => Some(TextKind::Status),
            Some("assertive") => Some(TextKind::Alert),
            _ => None,
        },
    }
}

/// Role context for the children of an element.
fn child_role_ctx(tag: Tag, role: Role, rc: RoleCtx, explicit: bool) -> RoleCtx {
    let mut c = RoleCtx {
        parent_is_list: false,
        parent_list_presentational: false,
        ..rc
    };
    if matches!(tag, Tag::Article | Tag::Aside | Tag::Nav | Tag::Section)
        || matches!(
            role,
            Role::Article | Role::Complementary | Role::Navigation | Role::Region
        )
    {
        c.in_section = true;
    }
    if tag == Tag::Main || role == Role::Main {
        c.in_main = true;
    }
    if tag == Tag::Table || matches!(role, Role::Table | Role::Grid | Role::Treegrid) {
        c.table = match role {
            Role::Grid | Role::Treegrid => TableKind::Grid,
            Role::None if tag == Tag::Table => TableKind::Presentational,
            Role::Table => TableKind::Table,
            _ if tag == Tag::Table => TableKind::Table,
            _ => c.table,
        };
    }
    if matches!(tag, Tag::Ul | Tag::Ol | Tag::Menu) {
        if role == Role::None {
            c.parent_list_presentational = true;
        } else {
            c.parent_is_list = role == Role::List;
        }
    } else if role == Role::List && explicit {
        c.parent_is_list = true;
    }
    c.in_select = match tag {
        Tag::Select | Tag::Datalist => true,
        Tag::Optgroup => rc.in_select,
        _ => false,
    };
    c
}

fn with_scope(ctx: Rc<Ctx>, scope: Scope) -> Rc<Ctx> {
    Rc::new(Ctx {
        scope,
        ..(*ctx).clone()
    })
}

/// The focused element through shadow roots and same-origin frames.
pub fn deepest_focus(doc: &Document) -> Option<web_sys::Element> {
    let mut current = js::active_element(doc.unchecked_ref())?;
    for _ in 0..64 {
        if let Some(root) = js::shadow_root(&current) {
            if let Some(inner) = js::active_element(&root) {
                current = inner;
                continue;
            }
        }
        let local = js::local_name(&current);
        if local == "iframe" || local == "frame" {
            if let Some(d) = js::content_document(&current) {
                if let Some(inner) = js::active_element(d.unchecked_ref()) {
                    if local_is_body(&inner) {
                        return Some(current);
                    }
                    current = inner;
                    continue;
                }
            }
        }
        break;
    }
    if local_is_body(&current) {
        return None;
    }
    Some(current)
}

fn local_is_body(e: &web_sys::Element) -> bool {
    let l = js::local_name(e);
    l == "body" || l == "html"
}

/// What [`Walk::patch`] changed in a capture, for the cache to carry its visual memo over.
pub struct Patched {
    /// Which old elements and texts were kept, when some were dropped.
    pub kept: Option<(Vec<bool>, Vec<bool>)>,
    /// The visibility the patch read for each element it appended.
    pub added_visible: Vec<bool>,
    /// How many texts it appended, and whether each is shown with its own text (else its
    /// state is unknown).
    pub added_texts: usize,
    pub added_texts_known: bool,
    /// Styles may now match old elements differently for a reason no sheet shows.
    pub restyle: bool,
}

/// Is `node` a `<label>` or inside one?
fn in_label(node: &Node) -> bool {
    js::node_type(node) == js::ELEMENT_NODE
        && node
            .unchecked_ref::<web_sys::Element>()
            .closest("label")
            .ok()
            .flatten()
            .is_some()
}

/// Most added subtrees and change points one patch takes on; beyond, a full walk is cheaper.
const PATCH_ADDED: usize = 16;
const PATCH_TARGETS: usize = 64;
/// Largest removed or re-walked subtree looked into for captured entries.
const PATCH_SUBTREE: u32 = 512;

/// `Node.DOCUMENT_NODE`.
const DOCUMENT_NODE: u16 = 9;

impl Walk<'_> {
    /// Brings `capture` up to date with `records` without walking the page again. Child-list
    /// and text changes: entries of removed or moved subtrees go, added subtrees are walked
    /// in the context their parent gives them, and every captured ancestor of a change has
    /// its name and text read again on every replay from then on (they may come from the
    /// changed content). A changed attribute the walk reads: its element's subtree is walked
    /// again in the same way. `None`, leaving `capture` to be thrown away, when the change
    /// reaches what a patch cannot redo exactly: a shadow tree, a frame, a slot, a custom
    /// element, a label, a scope's first `<label>` or disabled control, an `id`, a landmark
    /// named by `aria-labelledby`, or the parent context of an element the walk did not
    /// capture.
    pub fn patch(
        &mut self,
        capture: &mut Capture,
        records: &[web_sys::MutationRecord],
    ) -> Option<Patched> {
        if capture.fragile {
            return None;
        }
        let mut targets: Vec<Node> = Vec::new();
        let mut added: Vec<web_sys::Element> = Vec::new();
        let mut removed: Vec<Node> = Vec::new();
        let mut restyle = false;
        for r in records {
            match r.type_().as_str() {
                "attributes" => {
                    // One the walk reads (the cache passes no other): walk its element again.
                    let name = r.attribute_name().unwrap_or_default();
                    if matches!(name.as_str(), "id" | "for" | "slot" | "name") {
                        return None;
                    }
                    let t = r.target()?;
                    if js::node_type(&t) != js::ELEMENT_NODE {
                        return None;
                    }
                    // Its whole subtree is walked again; other elements' styles can follow an
                    // attribute only through sibling or `:has()` rules (the cache checks).
                    if js::is_connected(&t) {
                        added.push(t.clone().unchecked_into());
                    }
                    targets.push(t);
                }
                "characterData" => {
                    if let Some(parent) = r.target().and_then(|t| js::parent_node(&t)) {
                        targets.push(parent);
                    }
                }
                "childList" => {
                    let t = r.target()?;
                    // A `<details>` shows its first `<summary>` child only.
                    restyle |= js::node_type(&t) == js::ELEMENT_NODE
                        && js::local_name(t.unchecked_ref()) == "details";
                    let list = r.added_nodes();
                    for i in 0..list.length() {
                        let Some(n) = list.item(i) else { continue };
                        if js::node_type(&n) == js::ELEMENT_NODE && js::is_connected(&n) {
                            added.push(n.unchecked_into());
                        }
                    }
                    let gone = r.removed_nodes();
                    if gone.length() > 0 && in_label(&t) {
                        // Which element a label names depends on its whole subtree.
                        return None;
                    }
                    for i in 0..gone.length() {
                        let Some(n) = gone.item(i) else { continue };
                        if self.near_label(&n) {
                            return None;
                        }
                        removed.push(n);
                    }
                    targets.push(t);
                }
                _ => return None,
            }
            if added.len() > PATCH_ADDED || targets.len() > PATCH_TARGETS {
                return None;
            }
        }
        // An added subtree inside another is walked with it.
        let mut roots: Vec<web_sys::Element> = Vec::new();
        for a in added {
            if roots.iter().any(|r| r.contains(Some(a.unchecked_ref()))) {
                continue;
            }
            roots.retain(|r| !a.contains(Some(r.unchecked_ref())));
            roots.push(a);
        }
        if roots.iter().any(|r| self.near_label(r)) {
            return None;
        }
        let in_document = |n: &Node| {
            let root = js::root_node(n);
            capture.documents.iter().any(|d| js::same(d, &root))
        };
        targets.retain(js::is_connected);
        if !targets.iter().all(in_document) || !roots.iter().all(|r| in_document(r)) {
            return None;
        }
        if capture.frames.iter().any(|f| !js::is_connected(&f.node))
            || capture.roots.iter().any(|(r, _)| !js::is_connected(r))
        {
            return None;
        }

        // Entries of removed subtrees, and of subtrees walked again, go. Found through the
        // node → uid maps in those subtrees; for large ones every entry is checked instead.
        let (elements, texts) = capture.maps();
        let mut drop_uids: FxHashSet<u32> = FxHashSet::default();
        let mut sweep = false;
        for n in removed
            .iter()
            .chain(roots.iter().map(|r| r.unchecked_ref::<Node>()))
        {
            if js::node_type(n) != js::ELEMENT_NODE {
                continue;
            }
            let inside = js::query_all_js(n, &self.s.any_element);
            if inside.length() > PATCH_SUBTREE {
                sweep = true;
                break;
            }
            let nodes = std::iter::once(n.clone())
                .chain((0..inside.length()).filter_map(|i| inside.item(i).map(Node::from)));
            for node in nodes {
                for map in [&elements, &texts] {
                    if let Some(uid) = map.get(&node).as_f64() {
                        drop_uids.insert(uid as u32);
                        map.delete(&node);
                    }
                }
            }
        }
        let gone = |n: &Node| !js::is_connected(n) || roots.iter().any(|r| r.contains(Some(n)));
        let (keep_elements, keep_texts): (Vec<bool>, Vec<bool>) = if sweep {
            *capture.maps.borrow_mut() = None;
            (
                capture.elements.iter().map(|e| !gone(&e.node)).collect(),
                capture.texts.iter().map(|t| !gone(&t.node)).collect(),
            )
        } else {
            (
                capture
                    .elements
                    .iter()
                    .map(|e| !drop_uids.contains(&e.uid))
                    .collect(),
                capture
                    .texts
                    .iter()
                    .map(|t| !drop_uids.contains(&t.uid))
                    .collect(),
            )
        };
        let mut kept = None;
        if keep_elements.contains(&false) || keep_texts.contains(&false) {
            let mut k = keep_elements.iter();
            capture.elements.retain(|_| *k.next().unwrap_or(&true));
            let mut k = keep_texts.iter();
            capture.texts.retain(|_| *k.next().unwrap_or(&true));
            let mut hashes = capture.hashes.borrow_mut();
            if hashes.len() == keep_elements.len() {
                let mut k = keep_elements.iter();
                hashes.retain(|_| *k.next().unwrap_or(&true));
            } else {
                hashes.clear();
            }
            drop(hashes);
            kept = Some((keep_elements, keep_texts));
        }
        capture.fields.retain(|(n, _, _)| !gone(n));
        capture.customs.retain(|(n, _)| !gone(n));

        // Every captured ancestor of a change point may name itself from the changed content.
        let (elements, texts) = capture.maps();
        let element_at: FxHashMap<u32, usize> = capture
            .elements
            .iter()
            .enumerate()
            .map(|(i, e)| (e.uid, i))
            .collect();
        let text_at: FxHashMap<u32, usize> = capture
            .texts
            .iter()
            .enumerate()
            .map(|(i, t)| (t.uid, i))
            .collect();
        for t in &targets {
            let mut at = Some(t.clone());
            while let Some(node) = at.filter(|n| js::node_type(n) == js::ELEMENT_NODE) {
                if let Some(i) = elements
                    .get(&node)
                    .as_f64()
                    .and_then(|u| element_at.get(&(u as u32)))
                {
                    capture.elements[*i].slow = true;
                }
                if let Some(i) = texts
                    .get(&node)
                    .as_f64()
                    .and_then(|u| text_at.get(&(u as u32)))
                {
                    capture.texts[*i].text = None;
                }
                at = js::parent_node(&node);
            }
        }

        // Added subtrees, walked in their parent's context.
        self.docs = capture
            .documents
            .iter()
            .map(|_| DocInfo {
                width: 0.0,
                height: 0.0,
                hidden: false,
                in_view: false,
                iframes: 0,
            })
            .collect();
        self.deadline = js::now() + self.opts.budget_ms;
        self.namer.label_index = None;
        self.capture = Some(Capture::default());
        for root in &roots {
            match self.context_of(root, capture, &elements, &element_at) {
                Err(()) => return None,
                Ok(None) => self.collect_secrets(root.unchecked_ref()),
                Ok(Some((ctx, rc))) => {
                    if !self.scope_holds(root, &ctx.scope) {
                        return None;
                    }
                    let level = Level {
                        cursor: Cursor::List(js_sys::Array::of1(root), 0),
                        ctx,
                        role: rc,
                    };
                    self.drain(vec![level]);
                }
            }
        }
        let mut new = self.capture.take()?;
        if self.has_more
            || !new.frames.is_empty()
            || !new.roots.is_empty()
            || !new.documents.is_empty()
        {
            return None;
        }
        let patched = Patched {
            kept,
            added_visible: new.elements.iter().map(|e| e.record.visible).collect(),
            added_texts: new.texts.len(),
            added_texts_known: new.texts.iter().all(|t| t.text.is_some()),
            restyle,
        };
        capture.unordered |= !new.elements.is_empty() || !new.texts.is_empty();
        capture.fragile |= new.fragile;
        let live = capture.maps.borrow().is_some();
        for e in &mut new.elements {
            capture.next_uid += 1;
            e.uid = capture.next_uid;
            if live {
                elements.set(&e.node, &JsValue::from_f64(e.uid as f64));
            }
        }
        for t in &mut new.texts {
            capture.next_uid += 1;
            t.uid = capture.next_uid;
            if live {
                texts.set(&t.node, &JsValue::from_f64(t.uid as f64));
            }
        }
        capture.elements.extend(new.elements);
        capture.texts.extend(new.texts);
        capture.fields.extend(new.fields);
        capture.customs.extend(new.customs);
        // Labels may have come or gone: the index is built again when next needed.
        capture.label_index = self.namer.label_index.take();
        Some(patched)
    }

    /// The walk context and role context the walk gives `root`: its nearest captured
    /// ancestor's, through plain elements only. `Ok(None)`: the walk never reaches it
    /// (hidden from the accessibility tree, or under a leaf); `Err`: not patchable.
    fn context_of(
        &self,
        root: &web_sys::Element,
        capture: &Capture,
        elements: &js_sys::Map,
        element_at: &FxHashMap<u32, usize>,
    ) -> Result<Option<(Rc<Ctx>, RoleCtx)>, ()> {
        let mut plain = false;
        let mut at = js::parent_node(root.unchecked_ref());
        let adjust = |rc: RoleCtx, plain: bool| {
            if plain {
                RoleCtx {
                    parent_is_list: false,
                    parent_list_presentational: false,
                    ..rc
                }
            } else {
                rc
            }
        };
        while let Some(node) = at {
            match js::node_type(&node) {
                DOCUMENT_NODE => {
                    let i = capture
                        .documents
                        .iter()
                        .position(|d| js::same(d, &node))
                        .ok_or(())?;
                    let ctx = capture.doc_ctx.get(i).cloned().ok_or(())?;
                    return Ok(Some((ctx, adjust(RoleCtx::default(), plain))));
                }
                js::ELEMENT_NODE => {}
                _ => return Err(()),
            }
            let el: web_sys::Element = node.unchecked_into();
            if let Some(&i) = elements
                .get(&el)
                .as_f64()
                .and_then(|u| element_at.get(&(u as u32)))
            {
                let e = &capture.elements[i];
                if e.opaque
                    || matches!(e.tag, Tag::Slot | Tag::Iframe | Tag::Frame | Tag::Custom)
                    || js::shadow_root(&el).is_some()
                {
                    return Err(());
                }
                if e.tag.is_leaf() {
                    return Ok(None);
                }
                return Ok(Some((e.ctx.clone(), adjust(e.child_rc, plain))));
            }
            let x = El::new(self.s, &el);
            if x.tag.is_skipped() || x.prunes() || x.tag.is_leaf() {
                return Ok(None);
            }
            if x.tag.is_semantic()
                || x.has_bits(role::RELEVANT_BITS)
                || matches!(x.tag, Tag::Custom | Tag::Slot)
                || x.shadow().is_some()
            {
                return Err(());
            }
            plain = true;
            at = js::parent_node(&el);
        }
        Ok(None)
    }

    /// Is `node` a `<label>`, inside one, or holding one? Then adding or removing it can
    /// change which element a label names, far from the change.
    fn near_label(&self, node: &Node) -> bool {
        js::node_type(node) == js::ELEMENT_NODE
            && (in_label(node) || js::query_one_js(node, &self.s.labels_probe).is_some())
    }

    /// Does the scope's one-time probe still hold with `root` in it (no first `<label>`,
    /// `[disabled]` or inline `visibility` where the scope had none)?
    fn scope_holds(&self, root: &web_sys::Element, scope: &Scope) -> bool {
        let has = |selector: &JsString| {
            js::matches_js(root, selector) || js::query_one_js(root, selector).is_some()
        };
        if !has(&self.s.any_probe) {
            return true;
        }
        (scope.labels || !has(&self.s.labels_probe))
            && (scope.disabled || !has(&self.s.disabled_probe))
            && (scope.visibility || !has(&self.s.visibility_probe))
    }
}
