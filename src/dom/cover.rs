//! Covering secrets for a screenshot: `prufe.cover(options)` paints every sensitive element
//! one flat colour, `prufe.uncover()` takes that away again, and nothing the page's scripts
//! can observe changes on the way.
//!
//! **How.** One constructed `CSSStyleSheet` per tree scope (the document, each open shadow
//! root, each same-origin frame's document and its shadow roots), created with that scope's
//! own `CSSStyleSheet` constructor and appended to the scope's `adoptedStyleSheets` from the
//! engine's world. No node or attribute is added, so no `MutationObserver` of the page hears
//! of it; no layout-affecting property is set, so no `ResizeObserver` or
//! `IntersectionObserver` fires. A covered element gets
//! - `filter: brightness(0)`: everything it paints (text, caret, selection, images, the
//!   descendants of a `data-ap-sensitive` container, autofill colours the user agent forces
//!   with `!important`) turns black;
//! - `box-shadow: inset 0 0 0 100vmax #000`: an opaque black padding box, so a field with a
//!   transparent background does not show its black glyphs over the page behind it;
//! - `color`, `-webkit-text-fill-color` and `caret-color: transparent`, `text-shadow: none`:
//!   the same for an inline element, where a filter may not apply;
//! - `transition: none`, so none of these changes starts a CSS transition (a page with
//!   `transition: all 1s` would otherwise fade the cover in, fire `transitionrun`, and be
//!   captured half covered).
//!
//! Taking it away is two steps: the sheet first keeps `transition: none` alone and the
//! style of every covered element is read (a style change event with the page's own colours
//! back and still no transition), then the sheet leaves `adoptedStyleSheets`, which changes
//! `transition` only, so nothing starts then either. `animation` is not touched: a running
//! animation loses to `!important` declarations anyway, and replacing it would fire
//! `animationcancel`.
//!
//! **What is covered**, in every scope: the engine's own rule for secrets (`type=password`,
//! `autocomplete` with `cc-*`, `one-time-code` or `*-password`, `[data-ap-sensitive]` and
//! everything in it) as attribute selectors; the caller's selectors as they are; the nodes of
//! the caller's refs by a `:nth-child` path from their scope; and every element whose text or
//! value carries a secret: the values of the sensitive fields and the caller's `secrets`
//! (three characters or more, case folded), wherever the page echoes them. A selector that
//! matches more than the element (a path in a shadow root is not anchored to the root)
//! covers more, never less.
//!
//! **What the page could still notice**: `document.adoptedStyleSheets` holds one more sheet
//! for as long as the capture takes (a script polling it would see that); a CSS transition
//! already running on a covered element is cancelled (`transitioncancel`). The engine's own
//! fingerprint cache counts sheets when it is asked, and it is not asked while covered.

use super::{declared_node, document, input, js};
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::redact::{is_sensitive_autocomplete, is_sensitive_input_type};
use js_sys::{Array, Function, Reflect};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Node;

/// The engine's secrets rule as selectors (`core::redact` decides the same in Rust).
const SENSITIVE: &[&str] = &[
    "[type=password i]",
    "[autocomplete*=\"cc-\" i]",
    "[autocomplete~=\"one-time-code\" i]",
    "[autocomplete*=\"-password\" i]",
    "[data-ap-sensitive]",
    "[data-ap-sensitive] *",
];

/// What a covered element is painted with.
const PAINT: &str = "filter:brightness(0)!important;\
box-shadow:inset 0 0 0 100vmax #000!important;\
color:transparent!important;-webkit-text-fill-color:transparent!important;\
caret-color:transparent!important;text-shadow:none!important;\
transition:none!important";

/// What the sheet keeps for one style change while the cover is taken away.
const HOLD: &str = "transition:none!important";

/// Bounds on the work of one cover: scopes visited, boxes returned, echoes searched.
const MAX_SCOPES: usize = 2_000;
const MAX_BOXES: usize = 200;
const MAX_ECHO_NODES: usize = 20_000;
/// Secrets shorter than this are not searched for (as the redactor).
const MIN_SECRET: usize = 3;

/// `prufe.cover(options)`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CoverOptions {
    /// Refs of this document or CSS selectors declared sensitive (as `snapshot`'s).
    #[serde(default)]
    pub sensitive: Vec<String>,
    /// Values to cover wherever the page shows them (the caller's secrets).
    #[serde(default)]
    pub secrets: Vec<String>,
}

/// A box in this document's viewport, CSS pixels (frames offset as `prufe.box`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// What `prufe.cover` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Covered {
    /// The border boxes of the covered elements that have one (at most [`MAX_BOXES`]).
    pub boxes: Vec<Rect>,
    /// How many tree scopes got a sheet.
    pub scopes: u32,
}

/// One scope's sheet, kept until `uncover`.
struct Sheet {
    scope: JsValue,
    sheet: JsValue,
    hold: String,
    covered: Vec<web_sys::Element>,
}

thread_local! {
    static SHEETS: RefCell<Vec<Sheet>> = const { RefCell::new(Vec::new()) };
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

fn call(target: &JsValue, name: &str, args: &[&JsValue]) -> Result<JsValue> {
    let f: Function = get(target, name)
        .dyn_into()
        .map_err(|_| Error::new(ErrorCode::Internal, format!("{name} is not a function")))?;
    let list = Array::new();
    for a in args {
        list.push(a);
    }
    f.apply(target, &list)
        .map_err(|_| Error::new(ErrorCode::Internal, format!("{name} failed")))
}

/// Every tree scope under `doc`: itself, open shadow roots, same-origin frames (depth first).
fn scopes(doc: &Node) -> Vec<Node> {
    let mut out = vec![doc.clone()];
    let mut i = 0;
    while i < out.len() && out.len() < MAX_SCOPES {
        let scope = out[i].clone();
        i += 1;
        let all = js::query_all_js(&scope, &"*".into());
        for k in 0..all.length() {
            let Some(el) = all.item(k) else { continue };
            if let Some(shadow) = js::shadow_root(&el) {
                out.push(shadow);
            }
            let name = js::local_name(&el);
            if name == "iframe" || name == "frame" {
                if let Some(inner) = js::content_document(&el) {
                    out.push(inner.unchecked_into());
                }
            }
        }
    }
    out
}

/// The window whose constructors a sheet of `scope` must come from.
fn window_of(scope: &Node) -> JsValue {
    let doc = if js::node_type(scope) == 9 {
        scope.clone().unchecked_into::<web_sys::Document>()
    } else {
        match js::owner_document(scope) {
            Some(d) => d,
            None => return JsValue::UNDEFINED,
        }
    };
    js::default_view(&doc)
        .map(JsValue::from)
        .unwrap_or(JsValue::UNDEFINED)
}

/// A selector for `el` from its scope: `:root > body:nth-child(2) > input:nth-child(3)` in a
/// document; in a shadow root the same path without its anchor (it may match more).
fn path(el: &web_sys::Element) -> String {
    let mut parts = Vec::new();
    let mut cur = el.clone();
    loop {
        let mut index = 1;
        let mut sib = get(&cur, "previousElementSibling");
        while sib.is_object() {
            index += 1;
            sib = get(&sib, "previousElementSibling");
        }
        let name = js::local_name(&cur);
        let tag = if !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && name.as_bytes()[0].is_ascii_lowercase()
        {
            name
        } else {
            "*".to_owned()
        };
        parts.push(format!("{tag}:nth-child({index})"));
        match js::parent_node(&cur) {
            Some(p) if js::node_type(&p) == 1 => cur = p.unchecked_into(),
            Some(p) if js::node_type(&p) == 9 => {
                // The document element is `:root` itself.
                if let Some(last) = parts.last_mut() {
                    *last = ":root".to_owned();
                }
                break;
            }
            _ => break,
        }
    }
    parts.reverse();
    parts.join(" > ")
}

/// Values of the sensitive fields of `scope` (the secrets the page holds now).
fn field_secrets(scope: &Node, out: &mut Vec<String>) {
    let fields = js::query_all_js(scope, &"input,textarea,[data-ap-sensitive] input".into());
    for k in 0..fields.length() {
        let Some(f) = fields.item(k) else { continue };
        let kind = input::get(&f, "type").as_string().unwrap_or_default();
        let auto = js::attr(&f, &"autocomplete".into()).unwrap_or_default();
        let inside = js::matches_js(&f, &"[data-ap-sensitive] *".into());
        if is_sensitive_input_type(&kind) || is_sensitive_autocomplete(&auto) || inside {
            if let Some(v) = js::value(&f).as_string() {
                push_secret(out, &v);
            }
        }
    }
}

fn push_secret(out: &mut Vec<String>, value: &str) {
    let v = value.trim().to_lowercase();
    if v.chars().count() >= MIN_SECRET && !out.contains(&v) {
        out.push(v);
    }
}

fn carries(text: &str, secrets: &[String]) -> bool {
    if text.len() < MIN_SECRET {
        return false;
    }
    let t = text.to_lowercase();
    secrets.iter().any(|s| t.contains(s.as_str()))
}

/// Elements of `scope` whose own text or field value shows a secret.
fn echoes(scope: &Node, secrets: &[String], out: &mut Vec<web_sys::Element>) {
    if secrets.is_empty() {
        return;
    }
    let all = js::query_all_js(scope, &"*".into());
    for k in 0..all.length().min(MAX_ECHO_NODES as u32) {
        let Some(el) = all.item(k) else { continue };
        let name = js::local_name(&el);
        if name == "input" || name == "textarea" {
            if js::value(&el)
                .as_string()
                .is_some_and(|v| carries(&v, secrets))
            {
                out.push(el);
            }
            continue;
        }
        if name == "script" || name == "style" {
            continue;
        }
        let mut child = js::first_child(&el);
        while let Some(c) = child {
            if js::node_type(&c) == 3 && carries(&js::char_data(&c), secrets) {
                out.push(el.clone());
                break;
            }
            child = js::next_sibling(&c);
        }
    }
}

/// Does `selector` parse as a selector in `scope`, without braces that could end a rule?
fn usable(scope: &Node, selector: &str) -> bool {
    !selector.contains(['{', '}', ';', '@'])
        && input::call(scope, "querySelector", &[&JsValue::from_str(selector)]).is_ok()
}

/// `prufe.cover(options)`: covers every sensitive element in every scope until
/// [`uncover`]. A cover still in place is taken away first.
pub fn cover(opts: &CoverOptions) -> Result<Covered> {
    uncover()?;
    let doc: Node = document()?.unchecked_into();
    let all_scopes = scopes(&doc);

    // Declared refs: their nodes, by path, in whichever scope holds them.
    let mut declared: Vec<web_sys::Element> = Vec::new();
    let mut selectors: Vec<String> = Vec::new();
    for s in &opts.sensitive {
        match declared_node(s) {
            Ok(Some(el)) => declared.push(el),
            // A ref of an older document, or one whose node left: nothing to cover.
            Ok(None) => {}
            Err(()) => selectors.push(s.clone()),
        }
    }
    let mut secrets = Vec::new();
    for s in &opts.secrets {
        push_secret(&mut secrets, s);
    }
    for scope in &all_scopes {
        field_secrets(scope, &mut secrets);
    }

    let mut kept = Vec::new();
    let mut boxes = Vec::new();
    let result: Result<()> = (|| {
        for scope in &all_scopes {
            let mut rules: Vec<String> = SENSITIVE.iter().map(|s| (*s).to_owned()).collect();
            rules.extend(selectors.iter().filter(|s| usable(scope, s)).cloned());
            let mut nodes: Vec<web_sys::Element> = declared
                .iter()
                .filter(|el| js::same(&js::root_node(el).into(), &JsValue::from(scope.clone())))
                .cloned()
                .collect();
            echoes(scope, &secrets, &mut nodes);
            rules.extend(nodes.iter().map(path));
            // Each element once, however many rules match it.
            let seen = js_sys::Set::new(&JsValue::UNDEFINED);
            let mut covered = Vec::new();
            for r in &rules {
                if let Ok(found) = js::query_all(scope, r) {
                    for k in 0..found.length() {
                        if let Some(el) = found.item(k) {
                            if !seen.has(&el) {
                                seen.add(&el);
                                covered.push(el);
                            }
                        }
                    }
                }
            }
            if covered.is_empty() {
                continue;
            }
            let win = window_of(scope);
            let ctor: Function = get(&win, "CSSStyleSheet")
                .dyn_into()
                .map_err(|_| Error::new(ErrorCode::Internal, "no CSSStyleSheet constructor"))?;
            let sheet = Reflect::construct(&ctor, &Array::new()).map_err(|_| {
                Error::new(
                    ErrorCode::Internal,
                    "a style sheet could not be constructed",
                )
            })?;
            let css: String = rules.iter().map(|r| format!("{r}{{{PAINT}}}\n")).collect();
            let hold: String = rules.iter().map(|r| format!("{r}{{{HOLD}}}\n")).collect();
            call(&sheet, "replaceSync", &[&JsValue::from_str(&css)])?;
            let adopted = get(scope, "adoptedStyleSheets");
            let list: Array = adopted
                .dyn_into()
                .map_err(|_| Error::new(ErrorCode::Internal, "adoptedStyleSheets is missing"))?;
            let next = list.concat(&Array::of1(&sheet));
            Reflect::set(scope, &"adoptedStyleSheets".into(), &next).map_err(|_| {
                Error::new(ErrorCode::Internal, "adoptedStyleSheets could not be set")
            })?;
            restyle(&covered);
            for el in &covered {
                if boxes.len() >= MAX_BOXES {
                    break;
                }
                if let Ok(b) = input::bounds_of(el) {
                    if b.width >= 1.0 && b.height >= 1.0 {
                        boxes.push(Rect {
                            x: b.x,
                            y: b.y,
                            width: b.width,
                            height: b.height,
                        });
                    }
                }
            }
            kept.push(Sheet {
                scope: scope.clone().into(),
                sheet,
                hold,
                covered,
            });
        }
        Ok(())
    })();
    let scopes = kept.len() as u32;
    SHEETS.with(|s| *s.borrow_mut() = kept);
    if let Err(e) = result {
        uncover()?;
        return Err(e);
    }
    Ok(Covered { boxes, scopes })
}

/// Reads the computed style of each element: the style change event happens now.
fn restyle(elements: &[web_sys::Element]) {
    for el in elements {
        let Some(doc) = js::owner_document(el) else {
            continue;
        };
        if let Some(win) = js::default_view(&doc) {
            let style = js::computed_style(&win, el, &"".into());
            let _ = style.property(&"filter".into());
            let _ = style.property(&"transition-property".into());
        }
    }
}

/// `prufe.uncover()`: takes every cover away in two style changes (see the module docs);
/// returns how many scopes had one.
pub fn uncover() -> Result<u32> {
    let sheets = SHEETS.with(|s| std::mem::take(&mut *s.borrow_mut()));
    let n = sheets.len() as u32;
    for s in &sheets {
        let _ = call(&s.sheet, "replaceSync", &[&JsValue::from_str(&s.hold)]);
    }
    for s in &sheets {
        restyle(&s.covered);
    }
    for s in &sheets {
        let list: Array = match get(&s.scope, "adoptedStyleSheets").dyn_into() {
            Ok(l) => l,
            Err(_) => continue,
        };
        let rest = Array::new();
        for sheet in list.iter() {
            if !js::same(&sheet, &s.sheet) {
                rest.push(&sheet);
            }
        }
        let _ = Reflect::set(&s.scope, &"adoptedStyleSheets".into(), &rest);
    }
    Ok(n)
}

/// `prufe.boxes(refs)`: the border box of each ref's node in viewport CSS pixels (the node
/// the ref was minted for, whatever it shows now: a recycled row is outlined where it is), or
/// null for a ref that names no live node of this document.
pub fn boxes(refs: &[String]) -> Vec<Option<Rect>> {
    refs.iter()
        .map(|r| {
            let el = declared_node(r).ok().flatten()?;
            let b = input::bounds_of(&el).ok()?;
            Some(Rect {
                x: b.x,
                y: b.y,
                width: b.width,
                height: b.height,
            })
        })
        .collect()
}
