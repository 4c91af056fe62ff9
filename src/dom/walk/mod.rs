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
//! - `aria-hidden="true"` and `inert` subtrees are walked like any other. SPEC DIFFERENCE to
//!   an accessibility tree, which drops them: modal libraries (Radix through the
//!   `aria-hidden` package, MUI, React Aria; Headless UI with `inert`) hide every sibling of
//!   their portal while a dialog, menu or listbox is open, yet a person still sees that page
//!   behind it. Pruning made the whole page disappear from the snapshot when a modal opened
//!   and appear when it closed, so the diff of a menu pick held every element of the page as
//!   appeared, and an intent could be "explained" by an unrelated region that appeared.
//!   Walked, opening or closing a modal changes only the modal in the diff. The content is
//!   reported exactly as without the attribute (rendered: `visible: true`; no box or
//!   `visibility: hidden`: `visible: false`, as below). The trade-off is decorative content
//!   a page hides from assistive technology on purpose; it stays out of what is read where
//!   it is noise: names still follow accname (an `aria-hidden` descendant adds nothing to a
//!   name, see `dom::name`), a *leaf* `aria-hidden` element whose text has no
//!   letter or digit (an icon glyph, a "•" or "|" separator) starts no plain run (see
//!   `text`), and an unnamed image hidden in its own right or drawn by an icon component
//!   that hides itself is no record (`is_decoration`). Duplicated visual text next to a screen-reader label inside a control is in
//!   no run anyway (the control covers it); outside one it is a run, as a person reads it.
//!   Secrets in such subtrees are found and redacted like everywhere else, since the walk
//!   now passes their fields.
//! - Elements hidden by CSS stay in the walk and are reported with
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
//!   every scope it entered when the walk is cut short (`hasMore`).
//!   Every string is scrubbed once the walk has seen them all.
//!
//! Where things are: this file walks and builds records; `text` finds plain text runs and
//! role-less clickables; `capture` is what the cache keeps of a walk; `replay` answers from
//! a capture; `patch` brings a capture up to date with mutation records. The element view
//! (`El`) is `dom::el`, the style-sheet scan `dom::style`.

mod again;
mod capture;
mod patch;
mod place;
mod replay;
mod text;

pub use capture::{Capture, Visual};
pub use place::{PlaceWords, Places};

use super::control;
use super::el::{El, Strings};
use super::js;
use super::name::{self, Namer};
use super::role::{self, present, Attrs, RoleCtx, TableKind, Tag, A};
use super::style::{StyleScan, CURSOR, PSEUDO, VISIBILITY};
use crate::core::fingerprint::Fingerprint;
use crate::core::model::{limits, Element, Role, Text, TextKind, Tristate, REDACTED};
use crate::core::redact::{self, Redactor};
use crate::core::text::{cap, normalize_whitespace};
use capture::{CachedElement, CachedFrame, CachedText};
use js_sys::Object;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Document, Node};

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

/// What kind of record an observed element gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Element,
    /// A closed shadow root or cross-origin frame.
    Opaque,
    /// A role-less element that acts as a control (see `text`).
    Clickable,
}

impl Kind {
    fn of(opaque: bool, clickable: bool) -> Kind {
        if opaque {
            Kind::Opaque
        } else if clickable {
            Kind::Clickable
        } else {
            Kind::Element
        }
    }
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
    /// Inside what another record already observes (a name or text from content, running
    /// text, a label, a clickable, a sensitive subtree): no plain runs here.
    covered: bool,
    /// Inside (or at) an `aria-busy="true"` element.
    busy: bool,
    /// Inside an observed control (or a clickable): no clickable here.
    in_control: bool,
    /// Inside an editing host (a rich-text editor's body): the words' formatting
    /// (`<strong>`, `<em>`...) is observed here, and only here.
    in_editing: bool,
    /// What the current tree scope (document or shadow root) contains at all.
    scope: Scope,
    /// The dialog this is inside (`dialog[Edit profile]`, `dialog` without a name): a
    /// landmark inside it is a region of the dialog (`dialog/banner`), since a dialog is a
    /// layer of its own over the page.
    layer: Option<Rc<str>>,
    /// Drawn inside an icon component hidden from assistive technology (see
    /// [`El::hides_icon`]): an image without a name here is decoration.
    icon: bool,
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
    /// ... mentions `cursor`: a pointer may make a clickable.
    cursor: bool,
}

impl Ctx {
    /// Nothing here may start a plain run or a clickable (see `covered`, `sensitive`).
    fn quiet(&self) -> bool {
        self.covered || self.sensitive
    }

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
    /// The elements are light children of their parent element, whose run may take them in
    /// (false at the top of a document, a shadow root or a slot's assigned elements).
    run: bool,
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
    /// The scope probed on entering each of `roots`, by root (an index into `scopes`): a
    /// slot's assigned elements are in their own tree's scope, not the shadow root's.
    scope_of: js_sys::Map,
    scopes: Vec<Scope>,
    /// Fingerprint walks: what the cache keeps (see [`Capture`]).
    pub capture: Option<Capture>,
    /// The last record's name or text was slow (see `Namer::slow`).
    last_slow: bool,
    /// Fingerprint replays may hash into [`Walk::hashed`] instead of keeping records (set by
    /// callers that filter nothing by region).
    pub hash_only: bool,
    /// How many elements a snapshot replay read the viewport facts of, having none kept.
    pub view_reads: u64,
    /// How many records [`Walk::place_records`] looked a place up for, having none known.
    pub place_reads: u64,
    /// What a hash-only replay hashed (elements and texts it kept no record of).
    pub hashed: Fingerprint,
    focused: Option<web_sys::Element>,
    /// Plain runs reported so far, and whether the cap dropped one.
    plain_runs: usize,
    plain_capped: bool,
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
            scope_of: js_sys::Map::new(),
            scopes: Vec::new(),
            capture: None,
            last_slow: false,
            hash_only: false,
            view_reads: 0,
            place_reads: 0,
            hashed: Fingerprint::default(),
            redactor: Redactor::default(),
            found: Vec::new(),
            texts: Vec::new(),
            has_more: false,
            targets: None,
            docs: Vec::new(),
            focused: None,
            plain_runs: 0,
            plain_capped: false,
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
        self.has_more |= self.plain_capped;
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
            let run = level.run;
            if let Some(children) = self.visit(node, ctx, rc, run) {
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
            run: false,
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
        let scope = if js::query_one_js(root, &self.s.any_probe).is_none() {
            Scope {
                labels: false,
                disabled: false,
                visibility: outer.visibility || styles & VISIBILITY != 0,
                cursor: outer.cursor || styles & CURSOR != 0,
            }
        } else {
            Scope {
                labels: js::query_one_js(root, &self.s.labels_probe).is_some(),
                disabled: js::query_one_js(root, &self.s.disabled_probe).is_some(),
                visibility: outer.visibility
                    || styles & VISIBILITY != 0
                    || js::query_one_js(root, &self.s.visibility_probe).is_some(),
                cursor: outer.cursor
                    || styles & CURSOR != 0
                    || js::query_one_js(root, &self.s.cursor_probe).is_some(),
            }
        };
        if let Some(c) = &mut self.capture {
            c.cursor |= scope.cursor;
        }
        self.scope_of
            .set(root, &wasm_bindgen::JsValue::from(self.scopes.len() as u32));
        self.scopes.push(scope);
        scope
    }

    /// The scope of the tree a slot's assigned elements belong to (the host's, or further
    /// out for a slot assigned through another): its `<label>`s name them and its
    /// `[disabled]` fieldsets disable them, not the shadow root's. A tree not entered (an
    /// element assigned from a scope this walk did not start in) is probed as if it had all.
    fn assigned_scope(&self, first: &web_sys::Element, inner: Scope) -> Scope {
        let root = js::root_node(first.unchecked_ref());
        match self.scope_of.get(&root).as_f64() {
            Some(i) => self.scopes[i as usize],
            None => Scope {
                labels: true,
                disabled: true,
                ..inner
            },
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
    fn visit(
        &mut self,
        node: web_sys::Element,
        mut ctx: Rc<Ctx>,
        rc: RoleCtx,
        run: bool,
    ) -> Option<Level> {
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
        let formats = ctx.in_editing && el.tag.formats();
        if !el.tag.is_semantic() && !el.has_bits(role::RELEVANT_BITS) && !formats {
            return self.plain(&el, ctx, rc, run);
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
        let role = match decided.role {
            // SPEC DIFFERENCE: in an editing host `<b>` and `<i>` are what a bold or italic
            // command writes (`execCommand`), the words' formatting as `<strong>` and `<em>`.
            Role::Generic if ctx.in_editing && !decided.explicit && tag == Tag::B => Role::Strong,
            Role::Generic if ctx.in_editing && !decided.explicit && tag == Tag::I => Role::Emphasis,
            role => role,
        };
        // Formatting inside an editing host is observed: its words, by their role.
        let formatted = ctx.in_editing && role.is_formatting();

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
        if !ctx.in_editing && editing_host(&el) {
            let mut c = edit(&mut changed, &ctx);
            c.in_editing = true;
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
                c.covered = true;
                changed = Some(c);
            }
            if !ctx.busy
                && el
                    .get(A::AriaBusy)
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
            {
                let mut c = edit(&mut changed, &ctx);
                c.busy = true;
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
                let own: Rc<str> = if label.is_empty() {
                    role.as_str().into()
                } else {
                    format!("{}[{}]", role.as_str(), cap(&label, limits::MAX_TEXT_CHARS)).into()
                };
                if matches!(role, Role::Dialog | Role::Alertdialog) {
                    c.layer = Some(own.clone());
                    c.base = own;
                } else {
                    c.base = match &ctx.layer {
                        Some(layer) => format!("{layer}/{own}").into(),
                        None => own,
                    };
                }
                c.list = None;
                c.compose();
                changed = Some(c);
            }
            landmark_name = Some(label);
        } else if role.is_list_like() {
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
        // A role-less element that acts as a control (see `text`).
        let clickable = !role.is_observable()
            && !formatted
            && text_kind.is_none()
            && !matches!(tag, Tag::Iframe | Tag::Frame | Tag::Slot)
            && self.is_clickable(&el, &ctx);
        let role = if clickable { Role::Generic } else { role };
        let covers = text_kind.is_some()
            || clickable
            || tag == Tag::Label
            || ctx.sensitive
            || ((role.is_observable() || formatted) && role.allows_name_from_content());
        if covers && !ctx.covered {
            let mut c = edit(&mut changed, &ctx);
            c.covered = true;
            changed = Some(c);
        }
        if (clickable || control::is_control(role)) && !ctx.in_control {
            let mut c = edit(&mut changed, &ctx);
            c.in_control = true;
            changed = Some(c);
        }
        if let Some(c) = changed {
            ctx = Rc::new(c);
        }

        // Visibility, asked only when something is reported.
        let observable = role.is_observable() || clickable || formatted;
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
                        hash: Default::default(),
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
            let v = visible(&node) && !el.is_hidden_twin();
            if self.wanted(&node) {
                // Labelled by a wrapping label, or by `label[for]` (which needs an id).
                self.namer.labels = ctx.scope.labels && (ctx.in_label || el.has(A::Id));
                self.namer.visibility_rules = ctx.scope.visibility;
                let found = self.record(
                    &el,
                    role,
                    &ctx,
                    v,
                    Kind::of(opaque, clickable),
                    landmark_name.clone(),
                );
                // A nameless container is known by its content: that is observed.
                if role::uses_text(role) && found.record.name.is_empty() && !ctx.covered {
                    ctx = Rc::new(Ctx {
                        covered: true,
                        ..(*ctx).clone()
                    });
                }
                if frame_doc.is_some() {
                    frame_in_view = found.record.in_viewport || self.mode == Mode::Fingerprint;
                }
                let decoration =
                    role == Role::Img && found.record.name.is_empty() && is_decoration(&el, &ctx);
                if decoration {
                    // Not a record; its subtree is walked as usual (it holds none).
                } else if let Some(c) = &mut self.capture {
                    c.next_uid += 1;
                    c.elements.push(Box::new(CachedElement {
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
                        input_type: input_type_of(&el),
                    }));
                }
                if !decoration {
                    self.found.push(found);
                }
            }
            frame_visible = v;
        } else if frame_doc.is_some() {
            frame_visible = visible(&node);
        }
        if !ctx.quiet()
            && !matches!(tag, Tag::Iframe | Tag::Frame | Tag::Slot)
            && el.shadow().is_none()
        {
            self.plain_run(&el, &ctx);
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
    fn plain(&mut self, el: &El, ctx: Rc<Ctx>, rc: RoleCtx, run: bool) -> Option<Level> {
        let ctx = if !ctx.in_editing && editing_host(el) {
            Rc::new(Ctx {
                in_editing: true,
                ..(*ctx).clone()
            })
        } else {
            ctx
        };
        let child_rc = RoleCtx {
            parent_is_list: false,
            parent_list_presentational: false,
            ..rc
        };
        if el.tag != Tag::Custom && self.is_clickable(el, &ctx) {
            return self.clickable(el, ctx, child_rc);
        }
        if !ctx.quiet()
            && el.tag != Tag::Custom
            && el.shadow().is_none()
            && !(run && self.is_joined(el, &ctx))
        {
            self.plain_run(el, &ctx);
        }
        if let Some(shadow) = el.shadow() {
            let scope = self.enter_root(shadow, ctx.scope);
            let first = js::first_element_child(shadow)?;
            return Some(Level {
                cursor: Cursor::Siblings(Some(first)),
                ctx: with_scope(ctx, scope),
                role: child_rc,
                run: false,
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
                let found = self.record(el, Role::Generic, &ctx, v, Kind::Opaque, None);
                if let Some(c) = &mut self.capture {
                    c.next_uid += 1;
                    c.elements.push(Box::new(CachedElement {
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
                        input_type: input_type_of(el),
                    }));
                }
                self.found.push(found);
            }
            return None;
        }
        Some(Level {
            cursor: Cursor::Siblings(first),
            ctx,
            role: child_rc,
            // A custom element has no run of its own: its children start theirs.
            run: el.tag != Tag::Custom,
        })
    }

    /// A role-less element that acts as a control: a `generic` named from its content,
    /// whose content is covered by it.
    fn clickable(&mut self, el: &El, ctx: Rc<Ctx>, child_rc: RoleCtx) -> Option<Level> {
        let ctx = Rc::new(Ctx {
            covered: true,
            in_control: true,
            ..(*ctx).clone()
        });
        if self.admit() && self.wanted(el.node) {
            let v = !self.docs[ctx.doc].hidden && self.s.visible(el.node, ctx.scope.visibility);
            self.namer.labels = ctx.scope.labels && (ctx.in_label || el.has(A::Id));
            self.namer.visibility_rules = ctx.scope.visibility;
            let found = self.record(el, Role::Generic, &ctx, v, Kind::Clickable, None);
            if let Some(c) = &mut self.capture {
                c.next_uid += 1;
                c.elements.push(Box::new(CachedElement {
                    uid: c.next_uid,
                    node: el.node.clone(),
                    tag: el.tag,
                    present: el.present,
                    role: Role::Generic,
                    opaque: false,
                    ctx: ctx.clone(),
                    landmark: None,
                    slow: self.last_slow,
                    record: found.record.clone(),
                    child_rc,
                    input_type: input_type_of(el),
                }));
            }
            self.found.push(found);
        } else if self.has_more {
            return None;
        }
        self.children(el, ctx, child_rc)
    }

    fn children(&mut self, el: &El, ctx: Rc<Ctx>, rc: RoleCtx) -> Option<Level> {
        if let Some(root) = el.shadow() {
            let scope = self.enter_root(root, ctx.scope);
            let first = js::first_element_child(root)?;
            let mut ctx = with_scope(ctx, scope);
            if !ctx.icon && el.hides_icon() {
                Rc::make_mut(&mut ctx).icon = true;
            }
            return Some(Level {
                cursor: Cursor::Siblings(Some(first)),
                ctx,
                role: rc,
                run: false,
            });
        }
        if el.tag == Tag::Slot {
            let assigned = js::assigned_elements(el.node, &self.s.flatten);
            if assigned.length() > 0 {
                let first: web_sys::Element = assigned.get(0).unchecked_into();
                let scope = self.assigned_scope(&first, ctx.scope);
                return Some(Level {
                    cursor: Cursor::List(assigned, 0),
                    ctx: with_scope(ctx, scope),
                    role: rc,
                    run: false,
                });
            }
            // Fallback content starts runs of its own (a slot's run is empty).
            let first = el.first_child()?.clone();
            return Some(Level {
                cursor: Cursor::Siblings(Some(first)),
                ctx,
                role: rc,
                run: false,
            });
        }
        let first = el.first_child()?.clone();
        Some(Level {
            cursor: Cursor::Siblings(Some(first)),
            ctx,
            role: rc,
            run: true,
        })
    }

    fn record(
        &mut self,
        el: &El,
        role: Role,
        ctx: &Ctx,
        visible: bool,
        kind: Kind,
        landmark: Option<String>,
    ) -> Found {
        let node = el.node;
        let opaque = kind == Kind::Opaque;
        let clickable = kind == Kind::Clickable;
        self.namer.forget();
        let mut r = Element {
            role,
            opaque,
            visible,
            clickable,
            busy: ctx.busy,
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
        if clickable && r.name.is_empty() {
            r.name = self.namer.content(el, visible);
            slow |= self.namer.slow;
        }
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
        // From attributes the cache watches: a replay keeps the record's.
        r.sensitive = ctx.sensitive || is_sensitive_field(el);
        self.dynamic(el, role, &mut r);
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

    /// A field's value as observed: a sensitive one by keyed hash only (and `REDACTED`
    /// when not empty), any other capped.
    fn set_value(&self, r: &mut Element, raw: &str) {
        if r.sensitive {
            r.value_hash = Some(redact::keyed_hash(&self.key, raw));
            r.value = Some(if raw.is_empty() {
                String::new()
            } else {
                REDACTED.to_owned()
            });
        } else {
            r.value = Some(cap(raw, limits::MAX_TEXT_CHARS).into_owned());
        }
    }

    /// The parts of a record that change without a DOM mutation (properties: checked,
    /// selected, value) and what depends on them, plus the states read with them. The
    /// record's `sensitive` must be set: its value is hidden by it.
    fn dynamic(&mut self, el: &El, role: Role, r: &mut Element) {
        states(el, role, r);
        let field = matches!(el.tag, Tag::Input | Tag::Textarea | Tag::Select);
        if role == Role::Progressbar {
            // No value: indeterminate.
            r.value = el
                .get(A::AriaValuenow)
                .or_else(|| {
                    (el.tag == Tag::Progress)
                        .then(|| el.get(A::Value))
                        .flatten()
                })
                .map(|v| cap(v.trim(), limits::MAX_TEXT_CHARS).into_owned());
        } else if el.tag == Tag::Input && el.input_type() == "file" {
            // A file input's value is the names of the files chosen, the one thing an upload
            // shows in the input itself: its `files` (`value` holds the first only, behind a
            // fake path). In a sensitive part of the page they are a secret like any value.
            let mut names = js::file_names(el.node);
            if names.is_empty() {
                let first = js::value(el.node).as_string().unwrap_or_default();
                let name = first.rsplit(['\\', '/']).next().unwrap_or("");
                if !name.is_empty() {
                    names.push(name.to_owned());
                }
            }
            self.set_value(r, &names.join(", "));
        } else if role.has_value() || (field && r.checked.is_none() && role != Role::Button) {
            let raw = if role::is_range(role) && !matches!(el.tag, Tag::Input) {
                el.get(A::AriaValuetext).or_else(|| el.get(A::AriaValuenow))
            } else {
                field_value(el)
            };
            if let Some(raw) = raw {
                self.set_value(r, &raw);
            }
        }
    }

    /// Some style sheet met so far generates content (`::before`/`::after`).
    pub fn pseudo(&self) -> bool {
        self.namer.pseudo
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

/// Is `el` an editing host (`contenteditable` under no editable parent)? Asked only of an
/// element with a `contenteditable` attribute, so a page without one pays a bit test per
/// element.
fn editing_host(el: &El) -> bool {
    el.has_bits(present::EDITABLE) && js::is_editing_host(el.node)
}

/// What a capture keeps of an `<input>`'s `type` (see `El::with_input_type`).
fn input_type_of(el: &El) -> Option<Rc<str>> {
    (el.tag == Tag::Input).then(|| el.shared_input_type().clone())
}

/// A field sensitive by its own markup: a password, or a payment / one-time-code / password
/// `autocomplete`.
fn is_sensitive_field(el: &El) -> bool {
    matches!(el.tag, Tag::Input | Tag::Textarea | Tag::Select)
        && (redact::is_sensitive_input_type(el.input_type())
            || redact::is_sensitive_autocomplete(&el.get(A::Autocomplete).unwrap_or_default()))
}

/// The current value of a form field, as text (`select`: its chosen option's label). A
/// rich-text editor's body (an editing host: `contenteditable` under no editable parent) holds
/// its rendered text, a line per paragraph, as Chromium's tree gives it as the value of such a
/// textbox: what is typed there is its value, as in a `<textarea>`.
pub fn field_value(el: &El) -> Option<String> {
    match el.tag {
        Tag::Select => name::selected_option_label(el.node).or(Some(String::new())),
        Tag::Input | Tag::Textarea | Tag::Output => js::value(el.node).as_string(),
        _ if js::is_editing_host(el.node) => js::inner_text(el.node),
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
    // SPEC DIFFERENCE: `aria-current` on a link (the page, step or filter shown now) is
    // observed as its selection: of a set of links, the one current is the one selected,
    // and following another moves it, as in any single-selection group.
    if role == Role::Link && r.selected.is_none() {
        if let Some(c) = el.get(A::AriaCurrent) {
            let c = c.trim();
            r.selected = Some(!c.is_empty() && !c.eq_ignore_ascii_case("false"));
        }
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

/// An image hidden from assistive technology in its own right, or drawn inside an icon
/// component that is (`sl-icon`, `ion-icon`: [`El::hides_icon`]), and without a name, is
/// decoration: no record (Chromium leaves it out of its tree too; as records, MUI's icons
/// were 13 of a page's 87, Shoelace's 33 of 111, all `img` with no name). A modal library's
/// `aria-hidden` on the page behind it (see the module docs) sits on the children of `<body>`
/// (MUI, React Aria; the `aria-hidden` package along the path to its portal, which is one),
/// so an image there keeps its record: it would come and go as a dialog opens and closes.
fn is_decoration(el: &El, ctx: &Ctx) -> bool {
    ctx.icon
        || (el.prunes()
            && !js::parent_node(el.node.unchecked_ref()).is_some_and(|p| {
                js::node_type(&p) == js::ELEMENT_NODE && local_is_body(p.unchecked_ref())
            }))
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
