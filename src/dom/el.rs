//! The element view the walk and the namer share: an element with its tag and attribute
//! names read once, and the interned JS strings every walk uses.

use super::control;
use super::js;
use super::role::{self, present, Attrs, Tag, A};
use js_sys::{JsString, Object};
use std::cell::OnceCell;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Node;

/// Deepest level read around one element: the descendants of a name (`name`), and the
/// flat-tree ancestors climbed to find a rendered one ([`Strings::rendered`]).
pub const MAX_DEPTH: usize = 64;

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
    pub controls: JsString,
    pub cursor: JsString,
    pub display: JsString,
    pub visibility: JsString,
    pub cursor_probe: JsString,
    pub element_style: JsString,
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
            any_probe: "label,[disabled],[style*=\"visibility\" i],[style*=\"cursor\" i]".into(),
            selected_option: "[aria-selected=\"true\" i]".into(),
            vis: vis.into(),
            flatten: flatten.into(),
            before: "::before".into(),
            after: "::after".into(),
            content: "content".into(),
            controls: control::CONTROLS.into(),
            cursor: "cursor".into(),
            display: "display".into(),
            visibility: "visibility".into(),
            cursor_probe: "[style*=\"cursor\" i]".into(),
            element_style: "".into(),
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

    /// Rendered, as accname's "hidden" asks: [`Strings::visible`], or `display: contents`
    /// under a rendered parent. Such an element generates no box of its own, so
    /// `checkVisibility()` is false for it, yet its content is laid out in its place: a
    /// `<slot>` (`display: contents` by the user agent's style sheet) shows the nodes assigned
    /// to it, and Chromium's accessibility tree names a control from the text slotted into it
    /// (Shoelace's `<slot>` inside the `<label>` of `sl-switch`, Material Web's inside the
    /// `<button>` of `md-filled-button`). The parent is the one of the flat tree: the slot a
    /// node is assigned to, else its parent element, else its shadow root's host. Costs a
    /// computed style per element without a box, which only a name read meets.
    pub fn rendered(&self, node: &web_sys::Element, visibility_rules: bool) -> bool {
        let mut node = node.clone();
        for _ in 0..MAX_DEPTH {
            if self.visible(&node, visibility_rules) {
                return true;
            }
            let Some(view) =
                js::owner_document(node.unchecked_ref()).and_then(|d| js::default_view(&d))
            else {
                return false;
            };
            let style = js::computed_style(&view, &node, &self.element_style);
            if style.property(&self.display) != "contents"
                || (visibility_rules && style.property(&self.visibility) == "hidden")
            {
                return false;
            }
            match flat_parent(&node) {
                Some(parent) => node = parent,
                None => return false,
            }
        }
        false
    }

    /// Is the computed `cursor` of `node` `pointer`?
    pub fn pointer(&self, node: &web_sys::Element) -> bool {
        let Some(view) =
            js::owner_document(node.unchecked_ref()).and_then(|d| js::default_view(&d))
        else {
            return false;
        };
        js::computed_style(&view, node, &self.element_style).property(&self.cursor) == "pointer"
    }

    /// Does `node` lay its children out as items (a flex or grid container), so that each
    /// child is a line or cell of its own even when its tag is inline?
    pub fn lays_out_items(&self, node: &web_sys::Element) -> bool {
        let Some(view) =
            js::owner_document(node.unchecked_ref()).and_then(|d| js::default_view(&d))
        else {
            return false;
        };
        let display = js::computed_style(&view, node, &self.element_style).property(&self.display);
        display.contains("flex") || display.contains("grid")
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
    pub present: u64,
    first: OnceCell<Option<web_sys::Element>>,
    shadow: OnceCell<Option<Node>>,
    kind: OnceCell<Rc<str>>,
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
    pub fn cached(s: &'a Strings, node: &'a web_sys::Element, tag: Tag, present: u64) -> Self {
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

    pub fn has_bits(&self, bits: u64) -> bool {
        self.present & bits != 0
    }

    /// `aria-hidden="true"` or `inert`: hidden from assistive technology. The subtree is still
    /// walked (see `walk`); names leave it out (accname) and a decorative leaf starts no run.
    pub fn prunes(&self) -> bool {
        self.has_bits(present::INERT)
            || (self.has_bits(present::ARIA_HIDDEN)
                && js::attr(self.node, &self.s.aria_hidden)
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("true")))
    }

    /// An icon component hidden from assistive technology: a custom element with a shadow
    /// root, no light children and `aria-hidden="true"` (or `inert`), as `sl-icon` and
    /// `ion-icon` hide themselves when they have no label. What it draws is decoration
    /// (see `walk`). A modal library hides containers, which have children.
    pub fn hides_icon(&self) -> bool {
        self.tag == Tag::Custom && !self.has_children() && self.prunes()
    }

    /// A form field hidden from assistive technology by its own `aria-hidden` (or `inert`):
    /// the native twin a custom widget keeps for forms, for neither the eye (visually
    /// hidden, or `opacity: 0` under the widget) nor a screen reader. A `<select>` (Ark UI's
    /// and Radix's hidden `<select>`), or an `<input>` also out of the tab order
    /// (`tabindex="-1"`): Radix's checkbox and radio keep one, MUI's and Shoelace's selects
    /// one for their value. Reported as not visible, so it is never a second, unnamed target
    /// beside the widget people use. A modal library's `aria-hidden` on the page behind it
    /// sits on containers, not on controls. A file input stays as it is: hidden behind a
    /// custom button, it is what an upload is given to.
    pub fn is_hidden_twin(&self) -> bool {
        match self.tag {
            Tag::Select => self.prunes(),
            Tag::Input => {
                self.has_bits(present::FOCUSABLE)
                    && self.prunes()
                    && !matches!(self.input_type(), "file" | "hidden")
                    && self
                        .node
                        .get_attribute("tabindex")
                        .is_some_and(|t| t.trim() == "-1")
            }
            _ => false,
        }
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
        self.shared_input_type()
    }

    /// [`El::input_type`], shared: a capture keeps it with its element, since a change of
    /// `type` is a mutation the cache patches (see [`El::with_input_type`]).
    pub fn shared_input_type(&self) -> &Rc<str> {
        self.kind.get_or_init(|| {
            self.get(A::Type)
                .map(|t| t.trim().to_ascii_lowercase())
                .unwrap_or_default()
                .into()
        })
    }

    /// The element with its [`El::input_type`] known (a capture's), so that a replay does not
    /// read the attribute again.
    pub fn with_input_type(self, kind: Option<&Rc<str>>) -> Self {
        if let Some(kind) = kind {
            let _ = self.kind.set(kind.clone());
        }
        self
    }

    /// Hidden to accname and to a person: `aria-hidden`, not rendered (no box and not
    /// `display: contents`, see [`Strings::rendered`]), or (when the scope has `visibility`
    /// rules) `visibility: hidden`.
    pub fn is_hidden(&self, visibility_rules: bool) -> bool {
        self.prunes() || !self.s.rendered(self.node, visibility_rules)
    }
}

/// The element's parent in the flat tree: the slot it is assigned to, else its parent
/// element, else the host of the shadow root it is the child of.
fn flat_parent(node: &web_sys::Element) -> Option<web_sys::Element> {
    let node: &Node = node.unchecked_ref();
    if let Some(slot) = js::assigned_slot(node) {
        return Some(slot);
    }
    let parent = js::parent_node(node)?;
    match js::node_type(&parent) {
        js::ELEMENT_NODE => Some(parent.unchecked_into()),
        11 => js::host(&parent),
        _ => None,
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
