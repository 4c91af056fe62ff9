//! Accessible names per accname 1.2, and the content text of nameless containers.
//!
//! One function, [`Namer::text_alternative`], follows the spec's steps 2A–2I for the element
//! being named and, recursively, for its descendants, its labels and the nodes its
//! `aria-labelledby` references. Choices and their trade-offs:
//! - Recursion is bounded in depth ([`MAX_DEPTH`]) and in visited nodes ([`MAX_NODES`]) and
//!   stops once the text is longer than any name we keep: a 10,000-deep or 1 MB subtree costs
//!   no more than a small one. SPEC DIFFERENCE: content below that depth is not in the name.
//! - An element without child elements takes its text in one `textContent` call.
//! - `::before`/`::after` content is read only when some style sheet of the page has such a
//!   rule (see `style::StyleScan`), because a computed style per descendant is the most
//!   expensive call the walk could make.
//! - Where Chromium departs from the specs (a figure is not named by its figcaption, a table
//!   row not by its cells) the engine follows Chromium, so that what it reports agrees with
//!   the browser's own accessibility tree (`tests/js/oracle.mjs`).
//! - Hidden descendants (not rendered, `visibility: hidden`, `aria-hidden`) are skipped,
//!   unless the element being named is hidden itself, or a hidden node is referenced by
//!   `aria-labelledby`: then its whole subtree counts, as the spec says. A `<slot>` (or any
//!   `display: contents` element) has no box yet is rendered: the nodes assigned to it name
//!   the control it sits in (`El::is_hidden`), as in Chromium's tree.

use super::control;
use super::el::{El, Strings, MAX_DEPTH};
use super::js;
use super::role::{self, Attrs, Tag, A};
use crate::core::model::Role;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, Node};

/// Most descendant nodes read for one name.
pub const MAX_NODES: usize = 2_000;
/// A name longer than this (in bytes) has already been cut; stop collecting.
const ENOUGH_BYTES: usize = 4 * crate::core::model::limits::MAX_TEXT_CHARS;

/// How the current node is being traversed.
#[derive(Debug, Clone, Copy, Default)]
struct Mode {
    /// The element whose name is computed (not a descendant, label or referenced node).
    root: bool,
    /// Inside an `aria-labelledby` traversal: no second hop (accname 2B, no loops).
    in_labelledby: bool,
    /// Hidden nodes count (the root or a referenced node is hidden).
    include_hidden: bool,
    /// The root is hidden from view and read as it reads when shown: what is hidden from
    /// the accessibility tree in its own right (`aria-hidden="true"`, `inert`) stays out,
    /// as it does once the root shows. A dialog kept in the page while closed (Ionic's
    /// modal) then has the same words open and closed, so closing it is a change of the
    /// one dialog, not another dialog appearing.
    as_shown: bool,
    depth: usize,
}

/// Computes names and content texts for one walk.
pub struct Namer<'a> {
    pub s: &'a Strings,
    /// Some style sheet has `::before`/`::after` rules: read generated content.
    pub pseudo: bool,
    /// The element's tree scope has `<label>` elements (else `labels` is never asked).
    pub labels: bool,
    /// The scope has `visibility` rules: hidden checks include `visibility: hidden`.
    pub visibility_rules: bool,
    /// The last name or content read more than the element's own attributes and text: it
    /// depends on other nodes, their visibility or their values, so a cached copy of it
    /// cannot be trusted (see `cache`).
    pub slow: bool,
    /// The nodes whose subtrees the names and contents read since [`Namer::forget`], other
    /// than the element itself: its `<label>`s, the nodes its `aria-labelledby` names, the
    /// host whose children a `<slot>` shows. A change outside the element and these cannot
    /// change what was read (see `Visual::patched`).
    pub read: Vec<Node>,
    /// An `aria-labelledby` id named no node: a node given that id later would change the
    /// name, and no subtree shows that.
    pub unresolved: bool,
    /// The element being named, skipped when met inside its own label.
    skip: Option<Element>,
    /// Content leaves out the controls inside it (see [`Namer::own_words`]).
    skip_controls: bool,
    /// The nodes an `aria-labelledby` list has referenced so far: each is read once (see
    /// [`Namer::labelled_by`]).
    consulted: Vec<Element>,
    nodes_left: usize,
    /// The `<label>`s of every labelled element, per tree scope indexed so far (see
    /// [`Namer::labels_of`]).
    pub label_index: Option<LabelIndex>,
}

/// Labels by the element they label, for the tree scopes indexed so far. Valid while the
/// DOM keeps its structure and its `id`/`for`/`type` attributes, which is what the
/// fingerprint cache watches: a replay reuses the index of the walk it replays.
#[derive(Clone)]
pub struct LabelIndex {
    scopes: js_sys::Set,
    controls: js_sys::Map,
}

impl<'a> Namer<'a> {
    pub fn new(s: &'a Strings, pseudo: bool) -> Self {
        Namer {
            s,
            pseudo,
            labels: true,
            visibility_rules: true,
            slow: false,
            read: Vec::new(),
            unresolved: false,
            skip: None,
            skip_controls: false,
            consulted: Vec::new(),
            nodes_left: MAX_NODES,
            label_index: None,
        }
    }

    /// The words a container shows of its own: its content without the controls inside it
    /// (their names are theirs), so a `Delete` button that shows on hover does not change
    /// how a person names the row. Hidden content is left out.
    pub fn own_words(&mut self, el: &El) -> String {
        self.skip_controls = true;
        let words = self.content(el, true);
        self.skip_controls = false;
        words
    }

    /// The element's `labels`, in tree order. Read from an index built with one pass over
    /// the `<label>`s of each tree scope (by their `control`, which is what `labels` filters
    /// on): the browser's own `labels` list scans the whole scope again for each element
    /// once the DOM has changed, which made naming a form quadratic in the page size.
    fn labels_of(&mut self, node: &Element) -> Option<js_sys::Array> {
        let index = self.label_index.get_or_insert_with(|| LabelIndex {
            scopes: js_sys::Set::new(&JsValue::UNDEFINED),
            controls: js_sys::Map::new(),
        });
        let root = js::root_node(node.unchecked_ref());
        if !index.scopes.has(&root) {
            index.scopes.add(&root);
            let found = js::query_all_js(&root, &self.s.labels_probe);
            for i in 0..found.length() {
                let Some(label) = found.item(i) else { continue };
                let Some(control) = js::control(&label) else {
                    continue;
                };
                let list = index.controls.get(&control);
                match list.dyn_ref::<js_sys::Array>() {
                    Some(list) => {
                        list.push(&label);
                    }
                    None => {
                        index.controls.set(&control, &js_sys::Array::of1(&label));
                    }
                }
            }
        }
        index.controls.get(node).dyn_into::<js_sys::Array>().ok()
    }

    /// Starts a new list of the nodes read (see [`Namer::read`]).
    pub fn forget(&mut self) {
        self.read.clear();
        self.unresolved = false;
    }

    /// The accessible name of an observable element, whitespace-normalised (not yet capped).
    pub fn name(&mut self, el: &El, role: Role, visible: bool) -> String {
        self.nodes_left = MAX_NODES;
        self.skip = None;
        self.slow = false;
        let mut out = String::new();
        let mode = Mode {
            root: true,
            include_hidden: !visible,
            as_shown: !visible,
            ..Default::default()
        };
        self.text_alternative(el, role, mode, &mut out);
        normalize(out)
    }

    /// The text a person reads in the element: name-from-content applied to any role.
    pub fn content(&mut self, el: &El, visible: bool) -> String {
        self.nodes_left = MAX_NODES;
        self.skip = None;
        self.slow = false;
        let mut out = String::new();
        let mode = Mode {
            root: false,
            include_hidden: !visible,
            as_shown: !visible,
            ..Default::default()
        };
        self.content_of(el, mode, &mut out);
        normalize(out)
    }

    /// Name of a landmark or other author-named container: `aria-labelledby`, `aria-label`,
    /// then `title` (never its content).
    pub fn author_name(&mut self, el: &El) -> String {
        self.nodes_left = MAX_NODES;
        self.skip = None;
        let mut out = String::new();
        if !self.labelled_by(
            el,
            Mode {
                root: true,
                ..Default::default()
            },
            &mut out,
        ) {
            if let Some(label) = el.get(A::AriaLabel).filter(|l| !l.trim().is_empty()) {
                out = label;
            } else if let Some(title) = el.get(A::Title) {
                out = title;
            }
        }
        normalize(out)
    }

    fn text_alternative(&mut self, el: &El, role: Role, mode: Mode, out: &mut String) {
        // 2A: hidden, not the root and not reached through aria-labelledby.
        if !mode.root && !mode.include_hidden && el.is_hidden(self.visibility_rules) {
            return;
        }
        if !mode.root && mode.as_shown && el.prunes() {
            return;
        }
        // 2B: aria-labelledby, one hop only.
        if !mode.in_labelledby && self.labelled_by(el, mode, out) {
            return;
        }
        let embedded = !mode.root && role::is_embedded_control(role);
        // 2C: aria-label, except for a control embedded in another element's name.
        if !embedded {
            if let Some(label) = el.get(A::AriaLabel) {
                if !label.trim().is_empty() {
                    out.push_str(&label);
                    return;
                }
            }
        }
        // 2E: the value of a control embedded in a label or in content.
        if embedded {
            self.embedded_value(el, role, out);
            return;
        }
        // 2D: native sources.
        if role != Role::None && self.native(el, role, mode, out) {
            return;
        }
        // 2F: name from content. Chromium: a table row is not named by its cells (SPEC
        // DIFFERENCE to ARIA 1.2, followed here; the row keeps its content as `text`).
        if !mode.root
            || (role.allows_name_from_content() && role != Role::Row)
            || matches!(el.tag, Tag::Summary)
        {
            let before = out.len();
            self.content_of(el, mode, out);
            if !out[before..].trim().is_empty() {
                return;
            }
            out.truncate(before);
        }
        // 2I: tooltip, then placeholder for fields (html-aam input and textarea).
        if let Some(title) = el.get(A::Title).filter(|t| !t.trim().is_empty()) {
            out.push_str(&title);
            return;
        }
        if mode.root && matches!(el.tag, Tag::Input | Tag::Textarea) {
            if let Some(p) = el.get(A::Placeholder) {
                out.push_str(&p);
            }
        }
    }

    /// 2B. Returns whether a non-empty name came out.
    ///
    /// Chromium reads a node once per name: a `<label>` already read as one of the references
    /// is not read again as the native label of a later one. Headless UI names its listbox
    /// button `aria-labelledby="label button"` where the `<label for>` is also the button's:
    /// the button then gives its content, `Priority Normal`, not `Priority Priority`.
    fn labelled_by(&mut self, el: &El, mode: Mode, out: &mut String) -> bool {
        let Some(ids) = el.get(A::AriaLabelledby) else {
            return false;
        };
        if ids.trim().is_empty() {
            return false;
        }
        self.slow = true;
        let root = js::root_node(el.node.unchecked_ref::<Node>());
        let mut text = String::new();
        self.consulted.clear();
        for id in ids.split_ascii_whitespace() {
            let Some(target) = js::element_by_id(&root, id) else {
                self.unresolved = true;
                continue;
            };
            self.read.push(target.clone().unchecked_into());
            self.consulted.push(target.clone());
            let t = El::new(self.s, &target);
            let hidden = t.is_hidden(self.visibility_rules);
            let sub = Mode {
                root: false,
                in_labelledby: true,
                include_hidden: mode.include_hidden || hidden,
                as_shown: mode.as_shown,
                depth: mode.depth + 1,
            };
            let mut part = String::new();
            // A referenced node is named as a whole: its own aria-label, native source or content.
            let r = quick_role(&t);
            if let Some(label) = t.get(A::AriaLabel).filter(|l| !l.trim().is_empty()) {
                part.push_str(&label);
            } else if role::is_embedded_control(r) && !js::same(el.node, &target) {
                self.embedded_value(&t, r, &mut part);
            } else if !(r != Role::None && self.native(&t, r, sub, &mut part)) {
                self.content_of(&t, sub, &mut part);
                if part.trim().is_empty() {
                    part.clear();
                    if let Some(title) = t.get(A::Title) {
                        part.push_str(&title);
                    }
                }
            }
            let part = part.trim();
            if !part.is_empty() {
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(part);
            }
        }
        self.consulted.clear();
        if text.trim().is_empty() {
            return false;
        }
        out.push_str(&text);
        true
    }

    /// 2D: labels, alt, legend, caption, figcaption, input button values, svg title.
    fn native(&mut self, el: &El, role: Role, mode: Mode, out: &mut String) -> bool {
        let before = out.len();
        match el.tag {
            Tag::Input => {
                let kind = el.input_type();
                match kind {
                    "button" | "submit" | "reset" => {
                        if let Some(v) = el.get(A::Value) {
                            out.push_str(&v);
                        } else if kind == "submit" {
                            out.push_str("Submit");
                        } else if kind == "reset" {
                            out.push_str("Reset");
                        }
                        return out.len() > before && !out[before..].trim().is_empty()
                            || kind != "button";
                    }
                    "image" => {
                        if let Some(alt) = el.get(A::Alt).filter(|a| !a.trim().is_empty()) {
                            out.push_str(&alt);
                        } else if let Some(v) = el.get(A::Value).filter(|v| !v.trim().is_empty()) {
                            out.push_str(&v);
                        } else if let Some(t) = el.get(A::Title).filter(|t| !t.trim().is_empty()) {
                            out.push_str(&t);
                        } else {
                            out.push_str("Submit");
                        }
                        return true;
                    }
                    _ => {
                        if self.labels(el, mode, out) {
                            return true;
                        }
                    }
                }
            }
            Tag::Select
            | Tag::Textarea
            | Tag::Meter
            | Tag::Progress
            | Tag::Output
            | Tag::Button
                if self.labels(el, mode, out) =>
            {
                return true;
            }
            Tag::Img | Tag::Area => {
                if let Some(alt) = el.get(A::Alt) {
                    if !alt.trim().is_empty() {
                        out.push_str(&alt);
                        return true;
                    }
                }
            }
            Tag::Fieldset => return self.first_child_named(el, "legend", mode, out),
            Tag::Table => return self.first_child_named(el, "caption", mode, out),
            // Chromium: a figure is not named by its figcaption (html-aam says it is); followed
            // here, the figure keeps its content as `text`.
            Tag::Svg => return self.first_child_named(el, "title", mode, out),
            _ => {}
        }
        let _ = role;
        false
    }

    /// Text of the element's `<label>`s (for, or wrapping), the element itself left out.
    fn labels(&mut self, el: &El, mode: Mode, out: &mut String) -> bool {
        if !self.labels {
            return false;
        }
        let Some(labels) = self.labels_of(el.node) else {
            return false;
        };
        let n = labels.length();
        if n == 0 {
            return false;
        }
        self.slow = true;
        let previous = self.skip.replace(el.node.clone());
        let before = out.len();
        for i in 0..n {
            let label: Element = labels.get(i).unchecked_into();
            if self.consulted.iter().any(|c| js::same(c, &label)) {
                continue;
            }
            self.read.push(label.clone().unchecked_into());
            let l = El::new(self.s, &label);
            let sub = Mode {
                root: false,
                depth: mode.depth + 1,
                ..mode
            };
            let start = out.len();
            if !out.is_empty() {
                out.push(' ');
            }
            if let Some(aria) = l.get(A::AriaLabel).filter(|a| !a.trim().is_empty()) {
                out.push_str(&aria);
            } else {
                self.content_of(&l, sub, out);
            }
            if out[start..].trim().is_empty() {
                out.truncate(start);
            }
        }
        self.skip = previous;
        !out[before..].trim().is_empty()
    }

    fn first_child_named(&mut self, el: &El, local: &str, mode: Mode, out: &mut String) -> bool {
        self.slow = true;
        let mut child = js::first_element_child(el.node);
        while let Some(c) = child {
            if js::local_name(&c) == local {
                let ce = El::new(self.s, &c);
                let before = out.len();
                self.content_of(
                    &ce,
                    Mode {
                        root: false,
                        depth: mode.depth + 1,
                        ..mode
                    },
                    out,
                );
                return !out[before..].trim().is_empty();
            }
            child = js::next_element_sibling(&c);
        }
        false
    }

    /// 2E: a textbox's value, a combobox's or listbox's chosen option, a range's value.
    fn embedded_value(&mut self, el: &El, role: Role, out: &mut String) {
        self.slow = true;
        match role {
            Role::Textbox | Role::Searchbox => {
                if matches!(el.tag, Tag::Input | Tag::Textarea) {
                    if let Some(v) = js::value(el.node).as_string() {
                        out.push_str(&v);
                    }
                } else if let Some(t) = js::text_content(el.node.unchecked_ref()) {
                    out.push_str(&t);
                }
            }
            Role::Combobox | Role::Listbox => {
                if el.tag == Tag::Select {
                    if let Some(label) = selected_option_label(el.node) {
                        out.push_str(&label);
                    }
                } else if el.tag == Tag::Input {
                    if let Some(v) = js::value(el.node).as_string() {
                        out.push_str(&v);
                    }
                } else if let Some(sel) = self.first_selected_option(el) {
                    out.push_str(&sel);
                }
            }
            _ => {
                if let Some(v) = el.get(A::AriaValuetext).or_else(|| el.get(A::AriaValuenow)) {
                    out.push_str(&v);
                } else if matches!(el.tag, Tag::Input | Tag::Meter | Tag::Progress) {
                    if let Some(v) = js::value(el.node).as_string() {
                        out.push_str(&v);
                    } else if let Some(v) = js::value(el.node).as_f64() {
                        out.push_str(&v.to_string());
                    }
                }
            }
        }
    }

    fn first_selected_option(&mut self, el: &El) -> Option<String> {
        let list = js::query_all_js(el.node.unchecked_ref(), &self.s.selected_option);
        let first = list.item(0)?;
        let fe = El::new(self.s, &first);
        let mut out = String::new();
        self.content_of(&fe, Mode::default(), &mut out);
        Some(out)
    }

    /// 2F: `::before`, the composed children, `::after`.
    fn content_of(&mut self, el: &El, mode: Mode, out: &mut String) {
        if mode.depth > MAX_DEPTH || out.len() > ENOUGH_BYTES {
            return;
        }
        let block = el.tag.is_block();
        if block {
            out.push(' ');
        }
        if self.pseudo {
            let before = &self.s.before;
            self.pseudo_content(el, before, out);
        }
        if el.tag == Tag::Slot {
            let assigned = js::assigned_nodes(el.node, &self.s.flatten);
            // Which nodes are assigned, and what they hold, is the host's children.
            match js::host(&js::root_node(el.node.unchecked_ref())) {
                Some(host) => self.read.push(host.into()),
                None => self.unresolved = true,
            }
            if assigned.length() > 0 {
                for node in assigned.iter() {
                    self.child(node.unchecked_ref(), mode, out);
                }
            } else {
                self.children(el.node.unchecked_ref(), mode, out);
            }
        } else if let Some(root) = el.shadow() {
            self.children(root, mode, out);
        } else if !self.pseudo && !el.has_children() {
            // Fast path: text only, one call.
            self.nodes_left = self.nodes_left.saturating_sub(1);
            if let Some(t) = js::text_content(el.node.unchecked_ref()) {
                out.push_str(&t);
            }
        } else {
            self.children(el.node.unchecked_ref(), mode, out);
        }
        if self.pseudo {
            let after = &self.s.after;
            self.pseudo_content(el, after, out);
        }
        if block {
            out.push(' ');
        }
    }

    fn children(&mut self, parent: &Node, mode: Mode, out: &mut String) {
        self.slow = true;
        let mut child = js::first_child(parent);
        while let Some(c) = child {
            if self.nodes_left == 0 || out.len() > ENOUGH_BYTES {
                return;
            }
            self.child(&c, mode, out);
            child = js::next_sibling(&c);
        }
    }

    fn child(&mut self, node: &Node, mode: Mode, out: &mut String) {
        self.nodes_left = self.nodes_left.saturating_sub(1);
        match js::node_type(node) {
            js::TEXT_NODE => out.push_str(&js::char_data(node)),
            js::ELEMENT_NODE => {
                let e: &Element = node.unchecked_ref();
                if let Some(skip) = &self.skip {
                    if js::same(skip, e) {
                        return;
                    }
                }
                let ce = El::new(self.s, e);
                if ce.tag.is_skipped() {
                    return;
                }
                let r = quick_role(&ce);
                let sub = Mode {
                    root: false,
                    depth: mode.depth + 1,
                    ..mode
                };
                // A control inside the content is a unit of its own: its words never run
                // into the text beside it ("Shirt L" + button "Remove Shirt L" is
                // "Shirt L Remove Shirt L", not "Shirt LRemove Shirt L").
                let unit = matches!(
                    ce.tag,
                    Tag::A | Tag::Button | Tag::Input | Tag::Select | Tag::Textarea
                ) || control::is_control(r);
                if unit && self.skip_controls {
                    return;
                }
                if unit {
                    out.push(' ');
                }
                self.text_alternative(&ce, r, sub, out);
                if unit {
                    out.push(' ');
                }
            }
            _ => {}
        }
    }

    fn pseudo_content(&mut self, el: &El, which: &js_sys::JsString, out: &mut String) {
        self.slow = true;
        let Some(doc) = js::owner_document(el.node.unchecked_ref()) else {
            return;
        };
        let Some(view) = js::default_view(&doc) else {
            return;
        };
        let style = js::computed_style(&view, el.node, which);
        let content = style.property(&self.s.content);
        push_css_content(&content, out);
    }
}

/// The role a descendant would have, cheaply: an explicit role when there are attributes,
/// else the implicit role of the form controls accname treats specially.
pub fn quick_role(el: &El) -> Role {
    if el.has(A::Role) {
        if let Some(r) = el.get(A::Role).and_then(|v| role::explicit_role(&v)) {
            return r;
        }
    }
    match el.tag {
        Tag::Input
        | Tag::Select
        | Tag::Textarea
        | Tag::Img
        | Tag::Area
        | Tag::Fieldset
        | Tag::Table
        | Tag::Figure => role::implicit_role(el.tag, el, &role::RoleCtx::default(), &mut || false),
        _ => Role::Generic,
    }
}

/// The label of a `<select>`'s first selected option.
pub fn selected_option_label(select: &Element) -> Option<String> {
    let index = js::selected_index(select);
    if index < 0 {
        return None;
    }
    let options = js::options(select);
    options.item(index as u32).map(|o| js::option_label(&o))
}

/// Appends the strings of a computed `content` value (`"a" "b"`, `none`, `normal`, `url(…)`
/// …). Icon-font glyphs (private use area) carry no words and are dropped (Chromium keeps
/// them; listed by the oracle when a fixture uses them).
pub fn push_css_content(content: &str, out: &mut String) {
    let c = content.trim();
    if c.is_empty() || c == "none" || c == "normal" {
        return;
    }
    let mut chars = c.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch == '"' || ch == '\'' {
            let quote = ch;
            while let Some(d) = chars.next() {
                if d == quote {
                    break;
                }
                if d == '\\' {
                    // CSS escapes: a hex code point or a literal character.
                    let mut hex = String::new();
                    while let Some(&h) = chars.peek() {
                        if h.is_ascii_hexdigit() && hex.len() < 6 {
                            hex.push(h);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                    if hex.is_empty() {
                        if let Some(e) = chars.next() {
                            out.push(e);
                        }
                    } else {
                        if chars.peek() == Some(&' ') {
                            chars.next();
                        }
                        if let Some(u) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32)
                        {
                            if !is_private_use(u) {
                                out.push(u);
                            }
                        }
                    }
                } else if !is_private_use(d) {
                    out.push(d);
                }
            }
        }
    }
}

fn is_private_use(c: char) -> bool {
    ('\u{e000}'..='\u{f8ff}').contains(&c)
}

/// Whitespace-normalised `s`; a single pass answers the common already-normal ASCII case.
fn normalize(s: String) -> String {
    let b = s.as_bytes();
    let plain = b.is_ascii()
        && b.first() != Some(&b' ')
        && b.last() != Some(&b' ')
        && !b
            .iter()
            .any(|&c| matches!(c, b'\t' | b'\n' | b'\r' | b'\x0c' | b'\x0b'))
        && !b.windows(2).any(|w| w == b"  ");
    if plain {
        return s;
    }
    match crate::core::text::normalize_whitespace(&s) {
        std::borrow::Cow::Borrowed(_) => s,
        std::borrow::Cow::Owned(o) => o,
    }
}
