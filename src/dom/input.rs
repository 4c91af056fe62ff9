//! What a driver asks of one element around input: its box and the point input goes to, a
//! scroll into view, the page's hit test at a point, focus with the content selected, a
//! field's raw value, a `<select>`'s option chosen or put back, and where activating the
//! element would load a new document.
//!
//! These answer the machine's `prepare`, `input` and `read` needs (`core::run::need`) the
//! same way for every driver of the bundle, so no driver writes page JavaScript of its own.
//! Each takes a ref and goes through [`element`], so a stale or recycled node is refused
//! (`STALE_REFERENCE`, `TARGET_CHANGED`) before anything is measured or changed.
//!
//! Coordinates are CSS pixels of this document's viewport (the top one's when the engine
//! runs in the top document): an element of a same-origin frame is offset by the content box
//! of each `<iframe>` on the way up, as [`super::at`] reads a point. Properties are read by
//! name (`Reflect`), which works for nodes of any realm and adds no typed import per field:
//! none of these runs in a walk, so the extra crossing costs nothing measurable.

use super::{composed_ancestors, document, element, hit_test, js, window};
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::run::{Destination, Point};
use crate::core::text::{normalize_key, normalize_whitespace};
use js_sys::{Function, JsString, Object, Reflect};
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};

/// The border box of an element and the point input goes to (`prufe.box`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Bounds {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    /// The centre of the first fragment (client rect) with an area of a pixel or more; a
    /// link that wraps is pressed on its first line, as a person would. `None` when no
    /// fragment has an area.
    pub point: Option<Point>,
    /// `point` lies in the viewport, scroll bars excluded.
    pub in_view: bool,
}

pub(super) fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

fn number(target: &JsValue, key: &str) -> f64 {
    get(target, key).as_f64().unwrap_or(0.0)
}

/// Calls the method `name` of `target`; a missing method is an error.
pub(super) fn call(target: &JsValue, name: &str, args: &[&JsValue]) -> Result<JsValue> {
    let failed = |e: JsValue| {
        let why = get(&e, "message").as_string().unwrap_or_default();
        Error::new(
            ErrorCode::BrowserError,
            format!("the page refused {name}(): {why}"),
        )
    };
    let f: Function = get(target, name)
        .dyn_into()
        .map_err(|_| Error::new(ErrorCode::BrowserError, format!("{name}() is missing here")))?;
    match args {
        [] => f.call0(target),
        [a] => f.call1(target, a),
        [a, b, ..] => f.call2(target, a, b),
    }
    .map_err(failed)
}

/// A property's value as a string, as `String(value)` gives it for strings, numbers and
/// booleans; `None` for anything else.
fn text_of(v: &JsValue) -> Option<String> {
    v.as_string()
        .or_else(|| v.as_f64().map(|n| n.to_string()))
        .or_else(|| v.as_bool().map(|b| b.to_string()))
}

/// Where a frame's document starts in its parent's viewport: the `<iframe>`'s border box
/// less its border and padding.
pub(super) fn frame_origin(frame: &web_sys::Element) -> (f64, f64) {
    let r = js::rect(frame);
    let (mut x, mut y) = (
        r.left() + js::client_left(frame),
        r.top() + js::client_top(frame),
    );
    let view = js::owner_document(frame.unchecked_ref()).and_then(|d| js::default_view(&d));
    if let Some(view) = view {
        let style = js::computed_style(&view, frame, &JsString::from(""));
        let padding = |side: &str| px(&style.property(&JsString::from(side)));
        x += padding("padding-left");
        y += padding("padding-top");
    }
    (x, y)
}

/// A computed length, `12.5px`, in pixels; 0 for anything else. By hand: the bundle has
/// no float parser otherwise, and the standard one weighs 10 kB of wasm.
fn px(value: &str) -> f64 {
    let digits = value.strip_suffix("px").unwrap_or("");
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !all(whole) || !all(fraction) {
        return 0.0;
    }
    let mut n = 0.0;
    for b in whole.bytes() {
        n = n * 10.0 + f64::from(b - b'0');
    }
    let mut scale = 0.1;
    for b in fraction.bytes() {
        n += f64::from(b - b'0') * scale;
        scale /= 10.0;
    }
    n
}

/// The offset of `el`'s document in this document's viewport.
pub(super) fn offset(el: &web_sys::Element) -> (f64, f64) {
    let (mut x, mut y) = (0.0, 0.0);
    let mut doc = js::owner_document(el.unchecked_ref());
    for _ in 0..32 {
        let Some(frame) = doc
            .as_ref()
            .and_then(js::default_view)
            .and_then(|w| js::frame_element(&w))
        else {
            break;
        };
        let (fx, fy) = frame_origin(&frame);
        x += fx;
        y += fy;
        doc = js::owner_document(frame.unchecked_ref());
    }
    (x, y)
}

/// The viewport, scroll bars excluded: the root element's client box.
pub(super) fn viewport() -> Result<(f64, f64)> {
    let doc = document()?;
    let root = js::document_element(&doc).map(JsValue::from);
    let (w, h) = root
        .map(|r| (number(&r, "clientWidth"), number(&r, "clientHeight")))
        .unwrap_or((0.0, 0.0));
    if w > 0.0 && h > 0.0 {
        return Ok((w, h));
    }
    let win: JsValue = window()?.into();
    Ok((number(&win, "innerWidth"), number(&win, "innerHeight")))
}

/// `prufe.box(ref)`.
pub fn bounds(reference: &str) -> Result<Bounds> {
    bounds_of(&element(reference)?)
}

/// [`bounds`] of a node already checked.
pub(super) fn bounds_of(el: &web_sys::Element) -> Result<Bounds> {
    let (ox, oy) = offset(el);
    let r = js::rect(el);
    let rects = js::client_rects(el);
    let point = (0..rects.list_length())
        .map(|i| rects.list_item(i).unchecked_into::<js::Rect>())
        .find(|q| (q.right() - q.left()) * (q.bottom() - q.top()) >= 1.0)
        .map(|q| Point {
            x: (q.left() + q.right()) / 2.0 + ox,
            y: (q.top() + q.bottom()) / 2.0 + oy,
        });
    let (vw, vh) = viewport()?;
    Ok(Bounds {
        x: r.left() + ox,
        y: r.top() + oy,
        width: r.right() - r.left(),
        height: r.bottom() - r.top(),
        point,
        in_view: point.is_some_and(|p| {
            p.x >= 0.0 && p.y >= 0.0 && p.x < vw && p.y < vh && !clipped(el, p.x - ox, p.y - oy)
        }),
    })
}

/// (`x`, `y`), in `el`'s own document's viewport, lies outside the visible box of a scroll
/// container around `el` (an ancestor in the flat tree with `overflow: auto` or `scroll`
/// and more to scroll on that axis, short of `<body>`, whose overflow is the viewport's): it
/// is drawn there only once that container is scrolled to it. A virtualised grid keeps rows rendered above and below what
/// its own viewport shows (AG Grid's spare rows); a person scrolls the grid first, and so
/// does `prepare` (`scrollIntoView` scrolls every container on the way).
fn clipped(el: &web_sys::Element, x: f64, y: f64) -> bool {
    let Some(view) = js::owner_document(el.unchecked_ref()).and_then(|d| js::default_view(&d))
    else {
        return false;
    };
    let none = JsString::from("");
    let (ox, oy) = (JsString::from("overflow-x"), JsString::from("overflow-y"));
    let mut at = flat_parent(el);
    for _ in 0..512 {
        let Some(a) = at else {
            break;
        };
        let name = js::local_name(&a);
        if name == "body" || name == "html" {
            break;
        }
        let style = js::computed_style(&view, &a, &none);
        // What a person can scroll: `auto` or `scroll` (a carousel's `hidden` track is turned
        // by its own buttons, not by reaching into it).
        let scrolls = |v: String| v == "auto" || v == "scroll";
        let (sx, sy) = (scrolls(style.property(&ox)), scrolls(style.property(&oy)));
        if sx || sy {
            let r = js::rect(&a);
            let (left, top) = (r.left() + js::client_left(&a), r.top() + js::client_top(&a));
            let n = |key: &str| number(a.as_ref(), key);
            let (w, h) = (n("clientWidth"), n("clientHeight"));
            let out_x = sx && n("scrollWidth") > w && (x < left || x >= left + w);
            let out_y = sy && n("scrollHeight") > h && (y < top || y >= top + h);
            if w > 0.0 && h > 0.0 && (out_x || out_y) {
                return true;
            }
        }
        at = flat_parent(&a);
    }
    false
}

/// The parent in the flat tree: the slot an element is assigned to, else its parent, else
/// its shadow root's host.
fn flat_parent(el: &web_sys::Element) -> Option<web_sys::Element> {
    js::assigned_slot(el.unchecked_ref())
        .or_else(|| js::parent_element(el.unchecked_ref()))
        .or_else(|| js::host(&js::root_node(el.unchecked_ref())))
}

/// `prufe.scrollIntoView(ref)`: scrolls every scroll container on the way (frames included)
/// so that the element is centred, where the browser can.
pub fn scroll_into_view(reference: &str) -> Result<()> {
    scroll_node_into_view(&element(reference)?)
}

/// [`scroll_into_view`] of a node already checked.
pub(super) fn scroll_node_into_view(el: &web_sys::Element) -> Result<()> {
    let options = Object::new();
    for key in ["block", "inline"] {
        let _ = Reflect::set(&options, &key.into(), &"center".into());
    }
    call(el, "scrollIntoView", &[&options]).map(drop)
}

/// `prufe.hitTest(ref, x, y)`: `None` when input at (`x`, `y`) reaches the element (the
/// deepest hit there is the element, inside it, or a `<label>` forwarding to it); otherwise
/// what it lands on, as `tag#id.class "text"`.
pub fn hit(reference: &str, x: f64, y: f64) -> Result<Option<String>> {
    hit_node(&element(reference)?, x, y)
}

/// [`hit`] for a node the caller holds rather than a ref: an `<iframe>` on the way to a
/// frame's element, which has no ref of its own in every snapshot.
pub fn hit_node(target: &web_sys::Element, x: f64, y: f64) -> Result<Option<String>> {
    if !x.is_finite() || !y.is_finite() {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            "hitTest(ref, x, y) needs two finite numbers",
        ));
    }
    let Some(hit) = hit_test(&document()?, x, y) else {
        return Ok(Some("nothing hit-testable".into()));
    };
    let chain = composed_ancestors(&hit);
    if chain.iter().any(|n| js::same(n, target)) {
        return Ok(None);
    }
    let label = chain.iter().find(|n| js::local_name(n) == "label");
    if label
        .and_then(js::control)
        .is_some_and(|c| js::same(&c, target))
    {
        return Ok(None);
    }
    if passes_input_to(target, &hit) {
        return Ok(None);
    }
    Ok(Some(short(&hit)))
}

/// A control that takes no pointer input itself (`pointer-events: none`) lets a click at its
/// point through to what holds it: when that is the deepest hit there, the click lands on the
/// component the control is part of, as a person's does. Ionic's segment button draws its
/// `role="tab"` `<button>` inside its shadow root with `pointer-events: none` and takes the
/// click on its host. Anything that is not one of the control's own ancestors in front of it
/// still covers it.
fn passes_input_to(target: &web_sys::Element, hit: &web_sys::Element) -> bool {
    if !composed_ancestors(target)
        .iter()
        .skip(1)
        .any(|n| js::same(n, hit))
    {
        return false;
    }
    let Some(view) = js::owner_document(target).and_then(|d| js::default_view(&d)) else {
        return false;
    };
    js::computed_style(&view, target, &"".into()).property(&"pointer-events".into()) == "none"
}

/// Where input reaches a control whose own point it does not reach: the point of the first
/// of its `<label>`s (its `labels`, in tree order) that is in view and whose hit test there
/// reaches the control. HTML gives a label the activation behaviour of its labeled control,
/// so a click on the label checks the checkbox or chooses the radio; component libraries
/// (Ark UI, React Aria) draw a control of their own inside the label and keep the native
/// input visually hidden (clipped to a pixel), where a hit lands on what is behind it. A
/// person clicks the label there. A control whose labels are covered as well, or that has
/// none, stays out of reach: `None`.
pub fn label_in_reach(target: &web_sys::Element) -> Result<Option<(web_sys::Element, Point)>> {
    let labels = get(target, "labels");
    if !labels.is_object() {
        return Ok(None);
    }
    let labels: js::Collection = labels.unchecked_into();
    for label in (0..labels.length()).filter_map(|i| labels.item(i)) {
        let b = bounds_of(&label)?;
        let Some(point) = b.point.filter(|_| b.in_view) else {
            continue;
        };
        if hit_node(target, point.x, point.y)?.is_none() {
            return Ok(Some((label, point)));
        }
    }
    Ok(None)
}

/// `prufe.labelInReach(ref)`: the `<label>` of [`label_in_reach`], for a driver that reads
/// the label's point itself (the CDP harness, in top-viewport pixels); `TARGET_OBSCURED` when
/// no label of the element is in reach.
pub fn reaching_label(reference: &str) -> Result<web_sys::Element> {
    match label_in_reach(&element(reference)?)? {
        Some((label, _)) => Ok(label),
        None => Err(Error::new(
            ErrorCode::TargetObscured,
            "no label of the element is in view where a click reaches it",
        )),
    }
}

/// `div#cover.banner.top "Accept all cookies"`: enough to tell a person what covers a target.
fn short(el: &web_sys::Element) -> String {
    let mut s = js::local_name(el);
    if let Some(id) = js::attr(el, &JsString::from("id")).filter(|i| !i.is_empty()) {
        s.push('#');
        s.push_str(&id);
    }
    let class = js::attr(el, &JsString::from("class")).unwrap_or_default();
    for c in class.split_whitespace().take(2) {
        s.push('.');
        s.push_str(c);
    }
    let text = js::text_content(el.unchecked_ref()).unwrap_or_default();
    let text: String = normalize_whitespace(&text).chars().take(40).collect();
    if !text.is_empty() {
        s.push_str(&format!(" \"{text}\""));
    }
    s
}

/// `prufe.focusSelect(ref)`: focuses the element and selects its content (a field's text,
/// an editable element's contents), so that typing replaces it. `true` when the focus is
/// then on the element or inside it; a page that moves it elsewhere answers `false`.
pub fn focus_select(reference: &str) -> Result<bool> {
    let el = element(reference)?;
    call(&el, "focus", &[])?;
    if get(&el, "select").is_function() {
        call(&el, "select", &[])?;
    } else if get(&el, "isContentEditable").as_bool() == Some(true) {
        if let Some(doc) = js::owner_document(el.unchecked_ref()) {
            let range = call(&doc, "createRange", &[])?;
            call(&range, "selectNodeContents", &[&el])?;
            let selection = call(&doc, "getSelection", &[])?;
            if !selection.is_null() {
                call(&selection, "removeAllRanges", &[])?;
                call(&selection, "addRange", &[&range])?;
            }
        }
    }
    holds_focus(&el)
}

/// Is the focus on `el` or inside it (through shadow roots)?
fn holds_focus(el: &web_sys::Element) -> Result<bool> {
    let focus = super::deepest_focus(&document()?);
    Ok(focus.is_some_and(|f| composed_ancestors(&f).iter().any(|n| js::same(n, el))))
}

/// `prufe.value(ref)`: a field's raw value (`value`, or an editable element's text), for an
/// undo to write back; `None` for an element without one. The value is the page's own: a
/// sensitive one is not redacted here, so a driver must not log it.
pub fn value(reference: &str) -> Result<Option<String>> {
    Ok(value_of(&element(reference)?))
}

/// A field's raw value, as [`value`] reads it.
pub(super) fn value_of(el: &web_sys::Element) -> Option<String> {
    if Reflect::has(el, &"value".into()).unwrap_or(false) {
        return text_of(&js::value(el));
    }
    if get(el, "isContentEditable").as_bool() == Some(true) {
        return js::text_content(el.unchecked_ref());
    }
    None
}

/// `prufe.fileInput(ref)`: the file input that is the element, is inside it, or is the
/// control of the `<label>` it is, for a driver to set files on; `TARGET_NOT_FOUND` when
/// there is none.
pub fn file_input(reference: &str) -> Result<web_sys::Element> {
    let el = element(reference)?;
    let is_file = |e: &web_sys::Element| {
        js::local_name(e) == "input"
            && get(e, "type")
                .as_string()
                .is_some_and(|t| t.eq_ignore_ascii_case("file"))
    };
    if is_file(&el) {
        return Ok(el);
    }
    let inside = js::query_one_js(el.unchecked_ref(), &JsString::from("input[type=file]"));
    if let Some(inside) = inside.filter(|i| is_file(i)) {
        return Ok(inside);
    }
    let control = (js::local_name(&el) == "label")
        .then(|| js::control(&el))
        .flatten();
    control.filter(|c| is_file(c)).ok_or_else(|| {
        Error::new(
            ErrorCode::TargetNotFound,
            "no file input is, is inside or is labelled by the target",
        )
    })
}

/// `prufe.focus(ref)`: moves the focus to the element (before keys are pressed on it);
/// `true` when the focus is then on it or inside it.
pub fn focus(reference: &str) -> Result<bool> {
    let el = element(reference)?;
    call(&el, "focus", &[])?;
    holds_focus(&el)
}

/// `prufe.frameIndex(frame)`: the position of an `<iframe>` or `<frame>` among the frames of
/// its document, in document order and through open shadow roots (where a shadow root's
/// frames come right after its host); -1 when it is not one of them. DevTools numbers a
/// document's child frames the same way, which places a cross-origin frame in the tree.
pub fn frame_index(frame: &web_sys::Element) -> Result<i32> {
    let doc = js::owner_document(frame.unchecked_ref())
        .ok_or_else(|| Error::new(ErrorCode::InvalidArgument, "the node is in no document"))?;
    let mut frames = Vec::new();
    collect_frames(doc.unchecked_ref(), &mut frames, 0);
    Ok(frames
        .iter()
        .position(|f| js::same(f, frame))
        .map_or(-1, |i| i32::try_from(i).unwrap_or(i32::MAX)))
}

fn collect_frames(root: &web_sys::Node, out: &mut Vec<web_sys::Element>, depth: usize) {
    if depth > 64 {
        return;
    }
    let all = js::query_all_js(root, &JsString::from("*"));
    for el in (0..all.length()).filter_map(|i| all.item(i)) {
        let name = js::local_name(&el);
        if name == "iframe" || name == "frame" {
            out.push(el.clone());
        }
        if let Some(shadow) = js::shadow_root(&el) {
            collect_frames(&shadow, out, depth + 1);
        }
    }
}

/// Dispatches `input` (composed) and `change`, as a person's choice does.
fn changed(el: &web_sys::Element) -> Result<()> {
    for (kind, composed) in [("input", true), ("change", false)] {
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        init.set_composed(composed);
        let event = web_sys::Event::new_with_event_init_dict(kind, &init)
            .map_err(|_| Error::new(ErrorCode::BrowserError, "could not create an event"))?;
        let _ = el
            .unchecked_ref::<web_sys::EventTarget>()
            .dispatch_event(&event);
    }
    Ok(())
}

/// `prufe.select(ref, option)`: chooses the option of a `<select>` whose label (compared as
/// resolve compares names: whitespace and case aside) or else value is `option`, firing `input` and `change`. Returns the
/// select's value before, for the undo. `TARGET_NOT_FOUND` lists the options there are.
pub fn select(reference: &str, option: &str) -> Result<String> {
    let el = element(reference)?;
    if js::local_name(&el) != "select" {
        return Err(Error::new(
            ErrorCode::InvalidAction,
            format!(
                "select works on a <select> element, not on <{}>; click the control instead",
                js::local_name(&el)
            ),
        ));
    }
    let list = js::options(&el);
    let options: Vec<web_sys::Element> = (0..list.length()).filter_map(|i| list.item(i)).collect();
    let wanted = normalize_key(option);
    let found = options
        .iter()
        .find(|o| normalize_key(&js::option_label(o)) == wanted)
        .or_else(|| {
            options
                .iter()
                .find(|o| js::value(o).as_string().as_deref() == Some(option))
        });
    let Some(found) = found else {
        let labels: Vec<String> = options.iter().take(20).map(js::option_label).collect();
        return Err(Error::new(
            ErrorCode::TargetNotFound,
            format!(
                "no option {option:?}; the options are: {}",
                labels.join(", ")
            ),
        ));
    };
    if get(found, "disabled").as_bool() == Some(true) {
        return Err(Error::new(
            ErrorCode::TargetDisabled,
            format!("option {:?} is disabled", js::option_label(found)),
        ));
    }
    let previous = js::value(&el).as_string().unwrap_or_default();
    call(&el, "focus", &[])?;
    let _ = Reflect::set(found, &"selected".into(), &JsValue::TRUE);
    changed(&el)?;
    Ok(previous)
}

/// `prufe.restore(ref, value)`: writes a value back (the undo of `select`), firing `input`
/// and `change`.
pub fn restore(reference: &str, value: &str) -> Result<()> {
    let el = element(reference)?;
    let _ = Reflect::set(&el, &"value".into(), &value.into());
    changed(&el)
}

/// The nearest ancestor (or the element itself) in the same tree with one of `names`.
fn closest(el: &web_sys::Element, names: &[&str]) -> Option<web_sys::Element> {
    let mut node = Some(el.clone());
    while let Some(n) = node {
        if names.contains(&js::local_name(&n).as_str()) {
            return Some(n);
        }
        node = js::parent_element(n.unchecked_ref());
    }
    None
}

/// `prufe.destination(ref)`: where activating the element would load a new document: the
/// nearest `a[href]` or `area[href]` (its `href` as the page resolved it), else the form a
/// submit control (or a field's implicit submission) sends, with the submitter's
/// `formaction` and `formmethod` first. `None` for anything else.
pub fn destination(reference: &str) -> Result<Option<Destination>> {
    // A hint for the navigation rule, read after the target was re-described.
    let el = super::element_unwalked(reference)?;
    let href = JsString::from("href");
    let link = closest(&el, &["a", "area"]).filter(|a| js::has_attr(a, &href));
    if let Some(link) = link {
        return Ok(get(&link, "href").as_string().map(|url| Destination {
            kind: "link".into(),
            url,
            method: String::new(),
        }));
    }
    let form = Some(get(&el, "form"))
        .filter(|f| f.is_object())
        .or_else(|| closest(&el, &["form"]).map(JsValue::from));
    let Some(form) = form else {
        return Ok(None);
    };
    let tag = js::local_name(&el);
    let kind = get(&el, "type").as_string().unwrap_or_default();
    let submits = (tag == "button" && (kind.is_empty() || kind == "submit"))
        || (tag == "input" && (kind == "submit" || kind == "image"));
    let attribute = |name: &str| {
        submits
            .then(|| js::attr(&el, &JsString::from(name)))
            .flatten()
    };
    let method = attribute("formmethod")
        .filter(|m| !m.is_empty())
        .or_else(|| get(&form, "method").as_string().filter(|m| !m.is_empty()))
        .unwrap_or_else(|| "get".into())
        .to_ascii_lowercase();
    let url = match attribute("formaction") {
        Some(_) => get(&el, "formAction").as_string(),
        None => get(&form, "action").as_string(),
    };
    Ok(url.map(|url| Destination {
        kind: "form".into(),
        url,
        method,
    }))
}
