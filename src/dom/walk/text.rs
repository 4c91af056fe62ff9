//! Plain text runs and role-less clickables: what a person reads or clicks that no role
//! announces.
//!
//! **Which text is a run.** Every element whose content no other record observes starts a
//! run, unless its parent's run already takes it in: an inline element without semantics
//! (`span`, `b`, `em`, `small`, an unknown tag...) with none of the attributes the walk reads
//! is *joined* into the run of its nearest non-joined ancestor, and everything else (a block
//! tag, an observed element, a shadow host, a slot, a clickable) starts a run of its own. A
//! run's text is its element's text nodes and the content of its joined descendants, with a
//! space where a non-joined child sits. So `<div>Total: <b>19.99</b></div>` is one run,
//! "Total: 19.99", and a price change is one text changing in its region.
//!
//! Trade-off: the granularity follows tags, not the computed `display` (which would cost a
//! style query per element): a `<span style="display:block">` stays joined to its parent's
//! run and a `<div style="display:inline">` starts one. One style query is made per run
//! whose element has joined children: in a flex or grid container (a card of `<span>`
//! lines, the most common way such text is laid out) each child is an item, so a space
//! separates them ("The Quiet Sea Cover by M. Lund", not "SeaCover"). The text of a run is what is shown
//! in the DOM's order; an inline descendant without a box (`display: none`, or `visibility:
//! hidden` where the scope has such rules) is left out, which makes the run depend on more
//! than its element and is read again whenever visibility is.
//!
//! **Already observed** (no run): content inside an observed element whose name or text comes
//! from its content (buttons, links, headings, cells, rows, list items...), inside a
//! paragraph, a live region or a `data-ap-watch` element, inside a `<label>`, a clickable, or
//! a sensitive subtree (`data-ap-sensitive` or caller-declared: never read). A leaf
//! `aria-hidden="true"` element whose text has no letter or digit (an icon glyph, a "•"
//! separator) is decoration and starts no run; any other content of an `aria-hidden` or
//! `inert` subtree is read as without the attribute (see `walk`). Runs are
//! capped at `limits::MAX_TEXT_CHARS` characters each and `limits::MAX_PLAIN_TEXTS` per
//! observation (`hasMore` when reached).
//!
//! **Clickables.** A role-less element that acts as a control is observed as a `generic`
//! with `clickable: true`, named from its content: it has an `onclick` attribute, a
//! `tabindex`, or a computed `cursor: pointer` its parent does not have (the element where
//! the pointer starts; its children inherit it). Frameworks attach their handlers at the
//! root (React listens on the container), so the attribute is rare and the cursor is the main
//! signal. The cursor is read only in scopes whose style sheets or inline styles mention
//! `cursor` at all, and only of elements that have a box. No doubles: nothing inside an observed control (a button, a link, a
//! field...; the list is `dom::control`) or another clickable, and no element that holds an observed control itself (a
//! pointer `div` around one link is not a second target). A clickable inside a list item or
//! a row is observed besides it: the item is not a control. Elements with a role of their
//! own (`li`, `img` with a name) keep it; a clickable is a role-less element.

use super::capture::CachedText;
use super::{Ctx, Mode, Walk};
use crate::core::model::{limits, Text, TextKind};
use crate::core::text::{cap, normalize_whitespace};
use crate::dom::el::El;
use crate::dom::js;
use crate::dom::role::{self, present, Tag};
use wasm_bindgen::JsCast;
use web_sys::Node;

/// `Node.TEXT_NODE`.
const TEXT_NODE: u16 = 3;

/// A run stops reading its content beyond this many bytes (it is capped to
/// `limits::MAX_TEXT_CHARS` characters anyway).
const MAX_GATHER_BYTES: usize = 4 * limits::MAX_TEXT_CHARS;

/// Attributes that make an element act as a control when it has no role: `onclick`, and
/// `tabindex` (which `FOCUSABLE` shares with `contenteditable`).
pub(super) const CLICK_BITS: u64 = present::ONCLICK | present::FOCUSABLE;

/// Elements whose tag alone says they start a run of their own (or none).
fn stands_alone_by_tag(tag: Tag) -> bool {
    tag.is_block() || tag.is_semantic() || matches!(tag, Tag::Custom | Tag::Html | Tag::Body)
}

/// A leaf `aria-hidden="true"` element whose text has no letter or digit (an icon glyph, a
/// "•" or "|" separator): decoration the page hides from assistive technology, no run of
/// its own (see `walk`'s module docs). A leaf: its text depends on itself alone, so the
/// capture and every replay agree.
fn is_decorative(el: &El, raw: &str) -> bool {
    el.has_bits(present::ARIA_HIDDEN)
        && !el.has_children()
        && !raw.chars().any(char::is_alphanumeric)
        && el.prunes()
}

impl Walk<'_> {
    /// Is `el` taken into its parent's run (see the module docs)? `ctx` is the parent's.
    pub(super) fn is_joined(&self, el: &El, ctx: &Ctx) -> bool {
        let stands_alone = stands_alone_by_tag(el.tag)
            || el.has_bits(role::RELEVANT_BITS | CLICK_BITS)
            || el.shadow().is_some();
        !(stands_alone || (ctx.scope.cursor && self.pointer_starts(el.node)))
    }

    /// Does a computed `cursor: pointer` start at `node` (its composed parent has another)?
    /// Asked of rendered elements only: without a box nothing is clicked, and a computed
    /// style deep inside a `display: none` subtree costs the browser a style resolution of
    /// every ancestor, each time.
    pub(super) fn pointer_starts(&self, node: &web_sys::Element) -> bool {
        if !self.s.visible(node, false) || !self.s.pointer(node) {
            return false;
        }
        let parent = js::parent_element(node.unchecked_ref())
            .or_else(|| js::host(&js::root_node(node.unchecked_ref())));
        !parent.is_some_and(|p| self.s.pointer(&p))
    }

    /// Would `el` (no observable role, no running text of its own) be a clickable generic?
    pub(super) fn is_clickable(&self, el: &El, ctx: &Ctx) -> bool {
        if ctx.in_control || ctx.sensitive || (el.tag.is_leaf() && el.tag != Tag::Img) {
            return false;
        }
        let acts = el.has_bits(present::ONCLICK)
            || (el.has_bits(present::FOCUSABLE) && el.node.has_attribute("tabindex"))
            || (ctx.scope.cursor && self.pointer_starts(el.node));
        acts && js::query_one_js(el.node.unchecked_ref(), &self.s.controls).is_none()
    }

    /// A run starts at `el` (see the module docs): captured, and reported when shown.
    pub(super) fn plain_run(&mut self, el: &El, ctx: &std::rc::Rc<Ctx>) {
        if self.mode == Mode::Find || ctx.quiet() || el.tag.is_leaf() {
            return;
        }
        let mut raw = String::new();
        let slow = self.gather(el.node.unchecked_ref(), ctx, &mut raw);
        let text = if raw.trim().is_empty() || is_decorative(el, &raw) {
            String::new()
        } else {
            cap(&normalize_whitespace(&raw), limits::MAX_TEXT_CHARS).into_owned()
        };
        let shown = !text.is_empty()
            && !self.docs[ctx.doc].hidden
            && self.s.visible(el.node, ctx.scope.visibility);
        if let Some(c) = &mut self.capture {
            c.next_uid += 1;
            c.texts.push(CachedText {
                uid: c.next_uid,
                node: el.node.clone(),
                tag: el.tag,
                present: el.present,
                kind: TextKind::Plain,
                ctx: ctx.clone(),
                // Known only where it depends on the element alone; a hidden one is read when
                // shown (the memo of a patch carries only texts shown with their own text).
                text: (!slow && (shown || text.is_empty())).then(|| text.clone()),
                hash: Default::default(),
            });
        }
        if shown {
            self.emit_plain(text, ctx, None);
        }
    }

    /// The run text of a captured run container, read again (replays).
    pub(super) fn run_text(&mut self, el: &El, ctx: &Ctx) -> String {
        let mut raw = String::new();
        self.gather(el.node.unchecked_ref(), ctx, &mut raw);
        if is_decorative(el, &raw) {
            return String::new();
        }
        cap(&normalize_whitespace(&raw), limits::MAX_TEXT_CHARS).into_owned()
    }

    /// Reports one shown run, or counts it past the cap. With `hash_only`, hashes it.
    pub(super) fn emit_plain(&mut self, text: String, ctx: &Ctx, hash_only: Option<bool>) {
        if !self.count_plain() {
            return;
        }
        let t = Text {
            kind: TextKind::Plain,
            text,
            region: String::from(&*ctx.region),
            frame: String::from(&*ctx.frame),
        };
        if hash_only == Some(true) {
            self.hashed.add_text(&t);
        } else {
            self.texts.push(t);
        }
    }

    /// Counts one shown plain run; false (and `hasMore`) past the cap.
    pub(super) fn count_plain(&mut self) -> bool {
        self.plain_runs += 1;
        if self.plain_runs > limits::MAX_PLAIN_TEXTS {
            self.plain_capped = true;
            return false;
        }
        true
    }

    /// Appends the text of `parent`'s run: its text nodes and the content of its joined
    /// inline descendants (those without a box left out), a space for every other element.
    /// Iterative, so deep inline nesting costs heap. Returns whether a joined element was met
    /// (the run then depends on its visibility).
    fn gather(&self, parent: &Node, ctx: &Ctx, out: &mut String) -> bool {
        let mut slow = false;
        let mut full = false;
        // Whether `parent` is a flex or grid container, read once and only when it has a
        // joined child: its children are then items, each a line of its own.
        let mut items: Option<bool> = None;
        let mut stack: Vec<(Option<Node>, usize, Option<web_sys::Element>, bool)> =
            vec![(js::first_child(parent), 0, None, false)];
        while let Some(top) = stack.last_mut() {
            let next = if full { None } else { top.0.take() };
            let Some(n) = next else {
                if let Some((_, start, Some(e), item)) = stack.pop() {
                    if !out[start..].trim().is_empty() && !self.s.visible(&e, ctx.scope.visibility)
                    {
                        out.truncate(start);
                    }
                    if item {
                        out.push(' ');
                    }
                }
                continue;
            };
            top.0 = js::next_sibling(&n);
            match js::node_type(&n) {
                TEXT_NODE => out.push_str(&js::char_data(&n)),
                js::ELEMENT_NODE => {
                    let e: web_sys::Element = n.unchecked_into();
                    let tag = self.s.tag_of(&e);
                    if tag.is_skipped() {
                        continue;
                    }
                    // The tag alone rules most elements out; attributes are read for the rest.
                    if !stands_alone_by_tag(tag) && self.is_joined(&El::new(self.s, &e), ctx) {
                        slow = true;
                        let item = stack.len() == 1
                            && *items.get_or_insert_with(|| {
                                parent
                                    .dyn_ref::<web_sys::Element>()
                                    .is_some_and(|p| self.s.lays_out_items(p))
                            });
                        if item {
                            out.push(' ');
                        }
                        let first = js::first_child(e.unchecked_ref());
                        stack.push((first, out.len(), Some(e), item));
                    } else {
                        out.push(' ');
                    }
                }
                _ => {}
            }
            full = out.len() > MAX_GATHER_BYTES;
        }
        slow
    }
}
