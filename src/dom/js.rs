//! The DOM calls the walk makes, declared here rather than through web-sys' typed wrappers.
//!
//! Why our own declarations: web-sys casts (`dyn_into`) test `instanceof` against the top
//! window's constructors, which fails for nodes of a same-origin iframe (another realm), and
//! some methods we need are missing (`checkVisibility`). Every declaration here is a plain
//! method or property access on an `Element`/`Node`, so it works for nodes of any realm, and
//! each returns a primitive where it can: a bool or a number crosses the JS↔wasm boundary
//! without allocating. Strings cross only where the walk needs their content.

use js_sys::{Array, JsString, Object};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, Node};

#[wasm_bindgen]
extern "C" {
    /// Any DOM object (node, document, shadow root, window): the methods below are called on it
    /// by name, whatever its realm.
    pub type N;

    /// `Element.prototype.matches` with a selector kept as a JS string (no re-encoding).
    #[wasm_bindgen(method, js_name = matches)]
    fn matches_js(this: &N, selector: &JsString) -> bool;

    /// `Element.prototype.checkVisibility(options)` (missing from web-sys 0.3.107).
    #[wasm_bindgen(method, js_name = checkVisibility)]
    fn check_visibility(this: &N, options: &JsValue) -> bool;

    #[wasm_bindgen(method, js_name = getAttribute)]
    fn attr(this: &N, name: &JsString) -> Option<String>;

    #[wasm_bindgen(method, js_name = hasAttribute)]
    fn has_attr(this: &N, name: &JsString) -> bool;

    #[wasm_bindgen(method, getter, js_name = firstElementChild)]
    fn first_element_child(this: &N) -> Option<Element>;

    #[wasm_bindgen(method, getter, js_name = nextElementSibling)]
    fn next_element_sibling(this: &N) -> Option<Element>;

    #[wasm_bindgen(method, getter, js_name = firstChild)]
    fn first_child(this: &N) -> Option<Node>;

    #[wasm_bindgen(method, getter, js_name = nextSibling)]
    fn next_sibling(this: &N) -> Option<Node>;

    #[wasm_bindgen(method, getter, js_name = nodeType)]
    fn node_type(this: &N) -> u16;

    /// `Text.data` (and any CharacterData).
    #[wasm_bindgen(method, getter, js_name = data)]
    fn char_data(this: &N) -> String;

    #[wasm_bindgen(method, getter, js_name = textContent)]
    fn text_content(this: &N) -> Option<String>;

    /// Open shadow root, or null (closed roots are never returned).
    #[wasm_bindgen(method, getter, js_name = shadowRoot)]
    fn shadow_root(this: &N) -> Option<Node>;

    #[wasm_bindgen(method, getter, js_name = localName)]
    fn local_name(this: &N) -> String;

    /// `localName` left as a JS string (no copy into wasm memory).
    #[wasm_bindgen(method, getter, js_name = localName)]
    fn local_name_js(this: &N) -> JsValue;

    #[wasm_bindgen(method, js_name = getAttributeNames)]
    fn attribute_names(this: &N) -> Array;

    /// `Array.prototype.join` with a separator kept as a JS string.
    #[wasm_bindgen(method, js_name = join)]
    fn join_js(this: &N, separator: &JsString) -> JsString;

    #[wasm_bindgen(method, getter, js_name = childElementCount)]
    fn child_element_count(this: &N) -> u32;

    #[wasm_bindgen(method, js_name = querySelector)]
    fn query_one_js(this: &N, selector: &JsString) -> Option<Element>;

    #[wasm_bindgen(method, js_name = hasAttributes)]
    fn has_attributes(this: &N) -> bool;

    /// `HTMLSlotElement.assignedNodes({ flatten: true })`.
    #[wasm_bindgen(method, js_name = assignedNodes)]
    fn assigned_nodes(this: &N, options: &JsValue) -> Array;

    /// `HTMLSlotElement.assignedElements({ flatten: true })`.
    #[wasm_bindgen(method, js_name = assignedElements)]
    fn assigned_elements(this: &N, options: &JsValue) -> Array;

    #[wasm_bindgen(method, getter, js_name = contentDocument)]
    fn content_document(this: &N) -> Option<Document>;

    #[wasm_bindgen(method, getter, js_name = documentElement)]
    fn document_element(this: &N) -> Option<Element>;

    #[wasm_bindgen(method, getter, js_name = defaultView)]
    fn default_view(this: &N) -> Option<Object>;

    #[wasm_bindgen(method, getter, js_name = innerWidth)]
    fn inner_width(this: &N) -> f64;

    #[wasm_bindgen(method, getter, js_name = innerHeight)]
    fn inner_height(this: &N) -> f64;

    /// `getComputedStyle(element, pseudo)` on the element's own window.
    #[wasm_bindgen(method, js_name = getComputedStyle)]
    fn computed_style(this: &N, element: &Element, pseudo: &JsString) -> Style;

    pub type Style;
    #[wasm_bindgen(method, js_name = getPropertyValue)]
    pub fn property(this: &Style, name: &JsString) -> String;

    #[wasm_bindgen(method, getter, js_name = value)]
    fn value(this: &N) -> JsValue;

    /// A file input's `FileList` (null elsewhere).
    #[wasm_bindgen(method, getter, js_name = files)]
    fn files(this: &N) -> JsValue;

    #[wasm_bindgen(method, getter, js_name = checked)]
    fn checked(this: &N) -> bool;

    #[wasm_bindgen(method, getter, js_name = indeterminate)]
    fn indeterminate(this: &N) -> bool;

    #[wasm_bindgen(method, getter, js_name = selected)]
    fn selected(this: &N) -> bool;

    #[wasm_bindgen(method, getter, js_name = open)]
    fn open(this: &N) -> bool;

    #[wasm_bindgen(method, getter, js_name = selectedIndex)]
    fn selected_index(this: &N) -> i32;

    /// `HTMLSelectElement.options` (an `HTMLOptionsCollection`).
    #[wasm_bindgen(method, getter, js_name = options)]
    fn options(this: &N) -> Collection;

    /// `HTMLOptionElement.label` (the `label` attribute, else the text).
    #[wasm_bindgen(method, getter, js_name = label)]
    fn option_label(this: &N) -> String;

    #[wasm_bindgen(method, getter, js_name = isConnected)]
    fn is_connected(this: &N) -> bool;

    #[wasm_bindgen(method, getter, js_name = childNodes)]
    fn child_nodes(this: &N) -> List;

    #[wasm_bindgen(method, js_name = contains)]
    fn contains(this: &N, other: &Node) -> bool;

    #[wasm_bindgen(method, getter, js_name = id)]
    fn id(this: &N) -> String;

    #[wasm_bindgen(method, getter, js_name = parentElement)]
    fn parent_element(this: &N) -> Option<Element>;

    #[wasm_bindgen(method, getter, js_name = parentNode)]
    fn parent_node(this: &N) -> Option<Node>;

    #[wasm_bindgen(method, getter, js_name = assignedSlot)]
    fn assigned_slot(this: &N) -> Option<Element>;

    #[wasm_bindgen(method, getter, js_name = host)]
    fn host(this: &N) -> Option<Element>;

    #[wasm_bindgen(method, getter, js_name = ownerDocument)]
    fn owner_document(this: &N) -> Option<Document>;

    #[wasm_bindgen(method, getter, js_name = frameElement)]
    fn frame_element(this: &N) -> Option<Element>;

    #[wasm_bindgen(method, js_name = getRootNode)]
    fn root_node(this: &N) -> Node;

    /// `HTMLLabelElement.control`: the labelled element (by `for`, else the first labelable
    /// descendant), or null.
    #[wasm_bindgen(method, getter, js_name = control)]
    fn control(this: &N) -> Option<Element>;

    /// `getElementById` on a document or a shadow root.
    #[wasm_bindgen(method, js_name = getElementById)]
    fn element_by_id(this: &N, id: &str) -> Option<Element>;

    /// `querySelectorAll` on a document, shadow root or element; throws on a bad selector.
    #[wasm_bindgen(method, catch, js_name = querySelectorAll)]
    fn query_all(this: &N, selector: &str) -> Result<Collection, JsValue>;

    #[wasm_bindgen(method, js_name = querySelectorAll)]
    fn query_all_js(this: &N, selector: &JsString) -> Collection;

    /// `elementFromPoint` on a document or shadow root.
    #[wasm_bindgen(method, js_name = elementFromPoint)]
    fn element_from_point(this: &N, x: f64, y: f64) -> Option<Element>;

    /// `activeElement` of a document or shadow root.
    #[wasm_bindgen(method, getter, js_name = activeElement)]
    fn active_element(this: &N) -> Option<Element>;

    #[wasm_bindgen(method, js_name = getBoundingClientRect)]
    fn rect(this: &N) -> Rect;

    /// `getClientRects()`: one border box per fragment (a wrapped link has one per line).
    #[wasm_bindgen(method, js_name = getClientRects)]
    fn client_rects(this: &N) -> List;

    /// `Document.prototype.createRange`.
    #[wasm_bindgen(method, js_name = createRange)]
    fn create_range(this: &N) -> N;

    /// `Range.prototype.selectNodeContents`.
    #[wasm_bindgen(method, js_name = selectNodeContents)]
    fn select_node_contents(this: &N, node: &Node);

    /// Helpers in plain JS, handed over by the bundle's loader (`set_probes`): one call
    /// where the same work from wasm would take several.
    pub type Probes;

    /// Whether the border box intersects `[0, w) × [0, h)`, with the rule of
    /// [`in_viewport`]; one crossing instead of five (the rect, then four getters).
    #[wasm_bindgen(method, js_name = inView)]
    fn in_view(this: &Probes, e: &N, w: f64, h: f64) -> bool;

    /// The snapshot object a wire string (`core::wire`) holds, built by the loader.
    #[wasm_bindgen(method, catch, js_name = snapshotOf)]
    fn snapshot_of(this: &Probes, wire: &str) -> Result<JsValue, JsValue>;

    /// A node's `textContent`, read text node by text node and given up (`null`) once past
    /// `max` UTF-16 code units.
    #[wasm_bindgen(method, catch, js_name = textWithin)]
    fn text_within(this: &Probes, node: &Node, max: u32) -> Result<Option<String>, JsValue>;

    pub type Rect;
    #[wasm_bindgen(method, getter)]
    pub fn left(this: &Rect) -> f64;
    #[wasm_bindgen(method, getter)]
    pub fn top(this: &Rect) -> f64;
    #[wasm_bindgen(method, getter)]
    pub fn right(this: &Rect) -> f64;
    #[wasm_bindgen(method, getter)]
    pub fn bottom(this: &Rect) -> f64;

    #[wasm_bindgen(method, getter, js_name = clientLeft)]
    fn client_left(this: &N) -> f64;
    #[wasm_bindgen(method, getter, js_name = clientTop)]
    fn client_top(this: &N) -> f64;

    /// `HTMLElement.innerText` (rendered text; forces layout).
    #[wasm_bindgen(method, getter, js_name = innerText)]
    fn inner_text(this: &N) -> Option<String>;

    /// `HTMLElement.isContentEditable` (undefined on an element that is not HTML).
    #[wasm_bindgen(method, getter, js_name = isContentEditable)]
    fn is_content_editable(this: &N) -> Option<bool>;

    /// A NodeList, HTMLCollection or HTMLOptionsCollection.
    pub type Collection;
    #[wasm_bindgen(method, getter)]
    pub fn length(this: &Collection) -> u32;
    #[wasm_bindgen(method)]
    pub fn item(this: &Collection, index: u32) -> Option<Element>;

    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    pub fn now() -> f64;
}

/// `Object.is`: node identity across realms, one call.
pub fn same(a: &JsValue, b: &JsValue) -> bool {
    Object::is(a, b)
}

/// `Node.ELEMENT_NODE` and `Node.TEXT_NODE`.
pub const ELEMENT_NODE: u16 = 1;
pub const TEXT_NODE: u16 = 3;

#[wasm_bindgen]
extern "C" {
    /// A `StyleSheetList`, `CSSRuleList` or similar list whose items are not elements.
    pub type List;
    #[wasm_bindgen(method, getter, js_name = length)]
    pub fn list_length(this: &List) -> u32;
    #[wasm_bindgen(method, js_name = item)]
    pub fn list_item(this: &List, index: u32) -> JsValue;

    /// `styleSheets` of a document or shadow root.
    #[wasm_bindgen(method, getter, js_name = styleSheets)]
    fn style_sheets(this: &N) -> List;

    /// `adoptedStyleSheets` of a document or shadow root (an array).
    #[wasm_bindgen(method, getter, js_name = adoptedStyleSheets)]
    fn adopted_style_sheets(this: &N) -> JsValue;

    /// `CSSStyleSheet.cssRules`; throws for a cross-origin sheet.
    #[wasm_bindgen(method, catch, getter, js_name = cssRules)]
    fn css_rules(this: &N) -> Result<List, JsValue>;

    #[wasm_bindgen(method, getter, js_name = cssText)]
    fn css_text(this: &N) -> String;

    /// `CSSImportRule.styleSheet` (null while it loads or when refused).
    #[wasm_bindgen(method, getter, js_name = styleSheet)]
    fn imported_sheet(this: &N) -> Option<Object>;

    /// `StyleSheet.disabled`.
    #[wasm_bindgen(method, getter, js_name = disabled)]
    fn sheet_disabled(this: &N) -> bool;

    /// `getAnimations()` of a document or shadow root: running and filling animations and
    /// transitions of the elements in that tree only.
    #[wasm_bindgen(method, catch, js_name = getAnimations)]
    fn get_animations(this: &N) -> Result<Array, JsValue>;

    /// `Animation.effect`.
    #[wasm_bindgen(method, getter, js_name = effect)]
    fn animation_effect(this: &N) -> Option<Object>;

    /// `KeyframeEffect.target`.
    #[wasm_bindgen(method, getter, js_name = target)]
    fn effect_target(this: &N) -> Option<Node>;

    #[wasm_bindgen(method, getter, js_name = devicePixelRatio)]
    fn device_pixel_ratio(this: &N) -> f64;

    #[wasm_bindgen(method, getter, js_name = scrollX)]
    fn scroll_x(this: &N) -> f64;

    #[wasm_bindgen(method, getter, js_name = scrollY)]
    fn scroll_y(this: &N) -> f64;
}

// Typed entry points over the untyped declarations above.

pub fn matches_js(this: &Element, selector: &JsString) -> bool {
    this.unchecked_ref::<N>().matches_js(selector)
}

pub fn check_visibility(this: &Element, options: &JsValue) -> bool {
    this.unchecked_ref::<N>().check_visibility(options)
}

pub fn attr(this: &Element, name: &JsString) -> Option<String> {
    this.unchecked_ref::<N>().attr(name)
}

pub fn has_attr(this: &Element, name: &JsString) -> bool {
    this.unchecked_ref::<N>().has_attr(name)
}

pub fn first_element_child(this: &JsValue) -> Option<Element> {
    this.unchecked_ref::<N>().first_element_child()
}

pub fn next_element_sibling(this: &Element) -> Option<Element> {
    this.unchecked_ref::<N>().next_element_sibling()
}

pub fn first_child(this: &Node) -> Option<Node> {
    this.unchecked_ref::<N>().first_child()
}

pub fn next_sibling(this: &Node) -> Option<Node> {
    this.unchecked_ref::<N>().next_sibling()
}

pub fn node_type(this: &Node) -> u16 {
    this.unchecked_ref::<N>().node_type()
}

pub fn char_data(this: &Node) -> String {
    this.unchecked_ref::<N>().char_data()
}

pub fn text_content(this: &Node) -> Option<String> {
    this.unchecked_ref::<N>().text_content()
}

pub fn shadow_root(this: &Element) -> Option<Node> {
    this.unchecked_ref::<N>().shadow_root()
}

pub fn local_name(this: &Element) -> String {
    this.unchecked_ref::<N>().local_name()
}

pub fn has_attributes(this: &Element) -> bool {
    this.unchecked_ref::<N>().has_attributes()
}

pub fn assigned_nodes(this: &Element, options: &JsValue) -> Array {
    this.unchecked_ref::<N>().assigned_nodes(options)
}

pub fn assigned_elements(this: &Element, options: &JsValue) -> Array {
    this.unchecked_ref::<N>().assigned_elements(options)
}

pub fn content_document(this: &Element) -> Option<Document> {
    this.unchecked_ref::<N>().content_document()
}

pub fn document_element(this: &Document) -> Option<Element> {
    this.unchecked_ref::<N>().document_element()
}

pub fn default_view(this: &Document) -> Option<Object> {
    this.unchecked_ref::<N>().default_view()
}

pub fn inner_width(this: &Object) -> f64 {
    this.unchecked_ref::<N>().inner_width()
}

pub fn inner_height(this: &Object) -> f64 {
    this.unchecked_ref::<N>().inner_height()
}

pub fn computed_style(this: &Object, element: &Element, pseudo: &JsString) -> Style {
    this.unchecked_ref::<N>().computed_style(element, pseudo)
}

pub fn value(this: &Element) -> JsValue {
    this.unchecked_ref::<N>().value()
}

/// The names of the files a file input holds, in order (no path: a page sees none); empty
/// when it holds none or is no file input.
pub fn file_names(this: &Element) -> Vec<String> {
    let files = this.unchecked_ref::<N>().files();
    let Some(list) = files.dyn_ref::<js_sys::Object>() else {
        return Vec::new();
    };
    let length = js_sys::Reflect::get(list, &"length".into())
        .ok()
        .and_then(|l| l.as_f64())
        .unwrap_or(0.0) as u32;
    (0..length)
        .filter_map(|i| js_sys::Reflect::get(list, &i.into()).ok())
        .filter_map(|file| js_sys::Reflect::get(&file, &"name".into()).ok())
        .filter_map(|name| name.as_string())
        .collect()
}

pub fn checked(this: &Element) -> bool {
    this.unchecked_ref::<N>().checked()
}

pub fn indeterminate(this: &Element) -> bool {
    this.unchecked_ref::<N>().indeterminate()
}

pub fn selected(this: &Element) -> bool {
    this.unchecked_ref::<N>().selected()
}

pub fn open(this: &Element) -> bool {
    this.unchecked_ref::<N>().open()
}

pub fn selected_index(this: &Element) -> i32 {
    this.unchecked_ref::<N>().selected_index()
}

pub fn options(this: &Element) -> Collection {
    this.unchecked_ref::<N>().options()
}

pub fn option_label(this: &Element) -> String {
    this.unchecked_ref::<N>().option_label()
}

pub fn control(label: &Element) -> Option<Element> {
    label.unchecked_ref::<N>().control()
}

pub fn is_connected(this: &Node) -> bool {
    this.unchecked_ref::<N>().is_connected()
}

/// The child node at `index` (`childNodes`, text and comments counted), or none.
pub fn child_node(this: &Node, index: u32) -> Option<Node> {
    let list = this.unchecked_ref::<N>().child_nodes();
    (index < list.list_length()).then(|| list.list_item(index).unchecked_into())
}

pub fn contains(this: &Node, other: &Node) -> bool {
    this.unchecked_ref::<N>().contains(other)
}

pub fn id(this: &Element) -> String {
    this.unchecked_ref::<N>().id()
}

pub fn parent_element(this: &Node) -> Option<Element> {
    this.unchecked_ref::<N>().parent_element()
}

pub fn parent_node(this: &Node) -> Option<Node> {
    this.unchecked_ref::<N>().parent_node()
}

pub fn assigned_slot(this: &Node) -> Option<Element> {
    this.unchecked_ref::<N>().assigned_slot()
}

pub fn host(this: &Node) -> Option<Element> {
    this.unchecked_ref::<N>().host()
}

pub fn owner_document(this: &Node) -> Option<Document> {
    this.unchecked_ref::<N>().owner_document()
}

pub fn frame_element(this: &Object) -> Option<Element> {
    this.unchecked_ref::<N>().frame_element()
}

pub fn root_node(this: &Node) -> Node {
    this.unchecked_ref::<N>().root_node()
}

pub fn element_by_id(this: &Node, id: &str) -> Option<Element> {
    this.unchecked_ref::<N>().element_by_id(id)
}

pub fn query_all(this: &Node, selector: &str) -> Result<Collection, JsValue> {
    this.unchecked_ref::<N>().query_all(selector)
}

pub fn query_all_js(this: &Node, selector: &JsString) -> Collection {
    this.unchecked_ref::<N>().query_all_js(selector)
}

pub fn element_from_point(this: &Node, x: f64, y: f64) -> Option<Element> {
    this.unchecked_ref::<N>().element_from_point(x, y)
}

pub fn active_element(this: &Node) -> Option<Element> {
    this.unchecked_ref::<N>().active_element()
}

thread_local! {
    static PROBES: std::cell::RefCell<Option<Probes>> = const { std::cell::RefCell::new(None) };
    static SNAPSHOT_OF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static TEXT_WITHIN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Installs the loader's helpers (an object with `inView(element, width, height)` and,
/// optionally, `snapshotOf(wire)` and `textWithin(node, max)`); anything else leaves the
/// engine on its own calls.
pub fn set_probes(probes: JsValue) {
    let has =
        |name: &str| js_sys::Reflect::get(&probes, &name.into()).is_ok_and(|f| f.is_function());
    let ok = probes.is_object() && has("inView");
    SNAPSHOT_OF.with(|c| c.set(ok && has("snapshotOf")));
    TEXT_WITHIN.with(|c| c.set(ok && has("textWithin")));
    PROBES.with(|p| *p.borrow_mut() = ok.then(|| probes.unchecked_into()));
}

/// `node.textContent` when it is at most `max` UTF-16 code units long, else `None`. With the
/// loader's `textWithin`, the read stops there: a container of a whole page costs no more
/// than its first `max` units of text. Without it, the whole text is read and measured.
pub fn text_within(node: &Node, max: u32) -> Option<String> {
    let probed = TEXT_WITHIN
        .with(|c| c.get())
        .then(|| PROBES.with(|p| p.borrow().as_ref().map(|p| p.text_within(node, max))));
    match probed.flatten() {
        Some(Ok(text)) => text,
        _ => text_content(node).filter(|t| t.encode_utf16().count() <= max as usize),
    }
}

/// Can [`snapshot_object`] build snapshot objects (the loader handed over `snapshotOf`)?
pub fn builds_snapshots() -> bool {
    SNAPSHOT_OF.with(|c| c.get())
}

/// The snapshot object of `wire` (`core::wire::encode` of a snapshot), built by the loader's
/// `snapshotOf`: the wire string is an eighth of the snapshot's JSON, and the loader makes
/// each element object with one literal, where `JSON.parse` reads every key and value of
/// every object from text. `None` without the probe, or if it threw.
pub fn snapshot_object(wire: &str) -> Option<JsValue> {
    PROBES.with(|p| p.borrow().as_ref().and_then(|p| p.snapshot_of(wire).ok()))
}

/// The element's border box intersects a viewport of `width × height`: its bottom is below
/// 0 and its top above `height`, its right past 0 and its left before `width`, and it has
/// an extent in at least one direction.
pub fn in_viewport(this: &Element, width: f64, height: f64) -> bool {
    let probed = PROBES.with(|p| {
        p.borrow()
            .as_ref()
            .map(|p| p.in_view(this.unchecked_ref(), width, height))
    });
    if let Some(answer) = probed {
        return answer;
    }
    let rect = rect(this);
    // Vertical first: most elements of a long page fail there, two reads fewer.
    let (t, b) = (rect.top(), rect.bottom());
    if b > 0.0 && t < height {
        let (l, rt) = (rect.left(), rect.right());
        return rt > 0.0 && l < width && (rt > l || b > t);
    }
    false
}

pub fn rect(this: &Element) -> Rect {
    this.unchecked_ref::<N>().rect()
}

pub fn client_rects(this: &Element) -> List {
    this.unchecked_ref::<N>().client_rects()
}

/// The boxes of a text node's lines, through a range over its contents (text has no
/// `getClientRects` of its own); `None` outside a document.
pub fn text_rects(text: &Node) -> Option<List> {
    let doc = owner_document(text)?;
    let range = doc.unchecked_ref::<N>().create_range();
    range.select_node_contents(text);
    Some(range.client_rects())
}

pub fn client_left(this: &Element) -> f64 {
    this.unchecked_ref::<N>().client_left()
}

pub fn client_top(this: &Element) -> f64 {
    this.unchecked_ref::<N>().client_top()
}

pub fn inner_text(this: &Element) -> Option<String> {
    this.unchecked_ref::<N>().inner_text()
}

/// Is the element where an editable region begins (`contenteditable`, its parent not
/// editable): a rich-text editor's body.
pub fn is_editing_host(this: &Element) -> bool {
    this.unchecked_ref::<N>().is_content_editable() == Some(true)
        && parent_element(this.unchecked_ref())
            .is_none_or(|p| p.unchecked_ref::<N>().is_content_editable() != Some(true))
}

pub fn style_sheets(this: &Node) -> List {
    this.unchecked_ref::<N>().style_sheets()
}

pub fn adopted_style_sheets(this: &Node) -> JsValue {
    this.unchecked_ref::<N>().adopted_style_sheets()
}

pub fn css_rules(this: &JsValue) -> Result<List, JsValue> {
    this.unchecked_ref::<N>().css_rules()
}

pub fn css_text(this: &JsValue) -> String {
    this.unchecked_ref::<N>().css_text()
}

pub fn imported_sheet(rule: &JsValue) -> Option<JsValue> {
    rule.unchecked_ref::<N>().imported_sheet().map(Into::into)
}

pub fn sheet_disabled(sheet: &JsValue) -> bool {
    sheet.unchecked_ref::<N>().sheet_disabled()
}

/// Does any animation or transition run (or fill) in this document or shadow root? When
/// `getAnimations` is missing, assume so.
pub fn animating(root: &Node) -> bool {
    root.unchecked_ref::<N>()
        .get_animations()
        .map_or(true, |a| a.length() > 0)
}

/// The animations and transitions running (or filling) in this document or shadow root;
/// `None` when `getAnimations` is missing.
pub fn animations(root: &Node) -> Option<Array> {
    root.unchecked_ref::<N>().get_animations().ok()
}

/// The element an animation animates, when its effect has one.
pub fn animation_target(animation: &JsValue) -> Option<Node> {
    let effect = animation.unchecked_ref::<N>().animation_effect()?;
    effect.unchecked_ref::<N>().effect_target()
}

pub fn device_pixel_ratio(window: &Object) -> f64 {
    window.unchecked_ref::<N>().device_pixel_ratio()
}

pub fn scroll_x(window: &Object) -> f64 {
    window.unchecked_ref::<N>().scroll_x()
}

pub fn scroll_y(window: &Object) -> f64 {
    window.unchecked_ref::<N>().scroll_y()
}

pub fn local_name_js(this: &Element) -> JsValue {
    this.unchecked_ref::<N>().local_name_js()
}

pub fn child_element_count(this: &Element) -> u32 {
    this.unchecked_ref::<N>().child_element_count()
}

/// `querySelector` on a document, shadow root or element.
pub fn query_one_js(this: &Node, selector: &JsString) -> Option<Element> {
    this.unchecked_ref::<N>().query_one_js(selector)
}

/// The element's attribute names joined by `separator` (a space: names cannot contain
/// one): one call and one short string instead of one probe per attribute.
pub fn attribute_names(this: &Element, separator: &JsString) -> String {
    join(&this.unchecked_ref::<N>().attribute_names(), separator).into()
}

fn join(array: &Array, separator: &JsString) -> JsString {
    array.unchecked_ref::<N>().join_js(separator)
}
