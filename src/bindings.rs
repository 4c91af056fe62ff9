//! The `#[wasm_bindgen]` exports behind `window.prufe`: deserialise, call `core` or `dom`,
//! serialise, one line each. Errors are converted once, by [`IntoJs`], into a JS `Error`
//! named `PrufeError` carrying `.code`, `.message` and, for ambiguity, `.candidates`.
//!
//! Results are serialised JSON-compatible: `Option::None` becomes `null` and maps become
//! plain objects, so what a driver reads is exactly the documented wire form. They cross as
//! one JSON string parsed by the `JSON.parse` captured when the engine loaded: one call for a
//! whole snapshot, where building it field by field (`serde_wasm_bindgen`) costs a call per
//! field, about ten times slower at 3,000 elements; a page that replaces `JSON.parse` later
//! does not see or change the result. A snapshot object, the largest result, crosses as its
//! wire string (`core::wire`, an eighth of the JSON) that the loader turns into the same
//! objects (`dom::js::snapshot_object`): at 3,000 elements, less than half the time the
//! JSON took. Untrusted
//! input (targets, observations, actions coming from a page or an agent) is read as
//! `serde_json::Value` and validated by core, which answers with typed `INVALID_*` errors.

use crate::core::api;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::judge::Verdict;
use crate::core::resolve;
use crate::dom;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

type JsResult<T = JsValue> = std::result::Result<T, JsValue>;

/// The one conversion of results and errors to JS.
pub trait IntoJs<T> {
    fn into_js(self) -> JsResult<T>;
}

impl<T: Serialize> IntoJs<JsValue> for Result<T> {
    fn into_js(self) -> JsResult {
        self.and_then(|v| to_js(&v)).map_err(|e| js_error(&e))
    }
}

/// `Result` of a value that crosses as itself (a string, a live node).
struct Plain<T>(Result<T>);

impl<T> IntoJs<T> for Plain<T> {
    fn into_js(self) -> JsResult<T> {
        self.0.map_err(|e| js_error(&e))
    }
}

thread_local! {
    /// `JSON.parse` as it was when the engine loaded.
    static JSON_PARSE: Option<js_sys::Function> = js_sys::Reflect::get(&js_sys::global(), &"JSON".into())
        .and_then(|json| js_sys::Reflect::get(&json, &"parse".into()))
        .ok()
        .and_then(|f| f.dyn_into().ok());
}

fn to_js<T: Serialize>(v: &T) -> Result<JsValue> {
    let text = serde_json::to_string(v).map_err(|e| {
        Error::new(
            ErrorCode::Internal,
            format!("could not serialise a result: {e}"),
        )
    })?;
    let text = JsValue::from_str(&text);
    JSON_PARSE
        .with(|parse| match parse {
            Some(f) => f.call1(&JsValue::NULL, &text),
            None => js_sys::JSON::parse(&String::from(js_sys::JsString::from(text))),
        })
        .map_err(|_| Error::new(ErrorCode::Internal, "could not hand a result to JS"))
}

/// A JS `Error` with `.code`, `.message` and `.candidates` (when there are any).
pub fn js_error(e: &Error) -> JsValue {
    let err = js_sys::Error::new(&e.message);
    err.set_name("PrufeError");
    let _ = js_sys::Reflect::set(&err, &"code".into(), &e.code.as_str().into());
    if !e.candidates.is_empty() {
        if let Ok(c) = to_js(&e.candidates) {
            let _ = js_sys::Reflect::set(&err, &"candidates".into(), &c);
        }
    }
    err.into()
}

/// Reads an optional argument (undefined or null → default) into a typed value, through
/// JSON data so that types are strict (a string is never read as a number).
fn arg<T: DeserializeOwned + Default>(v: JsValue, code: ErrorCode, what: &str) -> Result<T> {
    if v.is_undefined() || v.is_null() {
        return Ok(T::default());
    }
    serde_json::from_value(json(v, code, what)?)
        .map_err(|e| Error::new(code, format!("{what}: {e}")))
}

/// Reads a required argument into a typed value, through JSON data (strict types).
fn arg_required<T: DeserializeOwned>(v: JsValue, code: ErrorCode, what: &str) -> Result<T> {
    serde_json::from_value(json(v, code, what)?)
        .map_err(|e| Error::new(code, format!("{what}: {e}")))
}

/// Reads untrusted JSON (undefined → null).
fn json(v: JsValue, code: ErrorCode, what: &str) -> Result<Value> {
    if v.is_undefined() {
        return Ok(Value::Null);
    }
    serde_wasm_bindgen::from_value(v)
        .map_err(|e| Error::new(code, format!("{what} is not plain JSON data: {e}")))
}

fn string(v: &JsValue, what: &str) -> Result<String> {
    v.as_string().ok_or_else(|| {
        Error::new(
            ErrorCode::InvalidArgument,
            format!("{what} must be a string"),
        )
    })
}

/// Installs the panic hook and creates the engine (random key, epoch). Idempotent.
#[wasm_bindgen]
pub fn init() -> JsResult<()> {
    console_error_panic_hook::set_once();
    JSON_PARSE.with(|_| ());
    Plain(dom::init()).into_js()
}

/// Hands the engine the loader's plain-JS helpers (see `dom::js::set_probes`); optional.
#[wasm_bindgen]
pub fn set_probes(probes: JsValue) {
    dom::js::set_probes(probes);
}

#[wasm_bindgen]
pub fn version() -> String {
    crate::VERSION.to_owned()
}

/// An object, or with `{ wire: true }` the compact wire string (`core::wire`; with `base`,
/// maybe a delta: `core::wire_delta`). The object is built from the wire string by the
/// loader where it handed over its builder (`dom::js::snapshot_object`), else crosses as JSON.
#[wasm_bindgen]
pub fn snapshot(options: JsValue) -> JsResult {
    arg::<dom::Options>(options, ErrorCode::InvalidOptions, "snapshot options")
        .and_then(|o| match o.wire {
            true => dom::snapshot_wire(&o).map(|text| JsValue::from_str(&text)),
            false => snapshot_value(&o),
        })
        .map_err(|e| js_error(&e))
}

fn snapshot_value(o: &dom::Options) -> Result<JsValue> {
    if o.base.is_some() {
        return Err(Error::new(
            ErrorCode::InvalidOptions,
            "snapshot options: base names the snapshot a wire reader holds; add wire: true",
        ));
    }
    let s = dom::snapshot(o)?;
    if !dom::js::builds_snapshots() {
        return to_js(&s);
    }
    let text = crate::core::wire::encode(&s);
    dom::js::snapshot_object(&text).map_or_else(|| to_js(&s), Ok)
}

#[wasm_bindgen]
pub fn fingerprint(options: JsValue) -> JsResult<String> {
    Plain(
        arg(options, ErrorCode::InvalidOptions, "fingerprint options")
            .and_then(|o| dom::fingerprint(&o)),
    )
    .into_js()
}

#[wasm_bindgen]
pub fn diff(before: JsValue, after: JsValue, options: JsValue) -> JsResult {
    diff_values(before, after, options).into_js()
}

#[wasm_bindgen]
pub fn resolve(target: JsValue, options: JsValue) -> JsResult {
    resolve_values(target, options).into_js()
}

/// `prufe.targetOf(ref, options?)`: the target that names the element of `ref` (its role,
/// label, region and frame; its row or its place among unnamed twins when it has no label).
#[wasm_bindgen(js_name = targetOf)]
pub fn target_of(reference: JsValue, options: JsValue) -> JsResult {
    string(&reference, "ref")
        .and_then(|r| dom::target_of(&r, &arg(options, ErrorCode::InvalidOptions, "options")?))
        .into_js()
}

/// `prufe.identify(path, options?)`: the observed element a library's node is, found by its
/// path (`core::located::PathStep`), with whether it is the node itself and the target that
/// names it; `TARGET_NOT_FOUND` or `TARGET_NOT_VISIBLE` when it names none.
#[wasm_bindgen]
pub fn identify(path: JsValue, options: JsValue) -> JsResult {
    arg_required::<Vec<crate::core::located::PathStep>>(path, ErrorCode::InvalidArgument, "path")
        .and_then(|p| dom::identify(&p, &arg(options, ErrorCode::InvalidOptions, "options")?))
        .into_js()
}

/// `prufe.nodeAt(path)`: the node at the end of a path (as `identify` reads it), or null.
#[wasm_bindgen(js_name = nodeAt)]
pub fn node_at(path: JsValue) -> JsResult<JsValue> {
    Plain(
        arg_required::<Vec<crate::core::located::PathStep>>(
            path,
            ErrorCode::InvalidArgument,
            "path",
        )
        .and_then(|p| dom::node_at(&p))
        .map(|n| n.map_or(JsValue::NULL, JsValue::from)),
    )
    .into_js()
}

#[wasm_bindgen]
pub fn element(reference: JsValue) -> JsResult<web_sys::Element> {
    Plain(string(&reference, "ref").and_then(|r| dom::element(&r))).into_js()
}

#[wasm_bindgen]
pub fn judge(action: JsValue, before: JsValue, after: JsValue, options: JsValue) -> JsResult {
    judge_values(action, before, after, options).into_js()
}

#[wasm_bindgen]
pub fn hash(value: JsValue) -> JsResult<String> {
    Plain(string(&value, "value").and_then(|v| dom::hash(&v))).into_js()
}

#[wasm_bindgen]
pub fn describe(reference: JsValue) -> JsResult {
    string(&reference, "ref")
        .and_then(|r| dom::describe(&r))
        .into_js()
}

#[wasm_bindgen]
pub fn at(x: JsValue, y: JsValue) -> JsResult {
    number_pair(&x, &y)
        .and_then(|(x, y)| dom::at(x, y))
        .into_js()
}

/// `prufe.quietFor()`: ms the page has shown no sign of change (see `dom::quiet_for`).
#[wasm_bindgen(js_name = quietFor)]
pub fn quiet_for() -> JsResult<f64> {
    Plain(dom::quiet_for()).into_js()
}

/// `prufe.stillFor()`: ms nothing that can change an observation happened (`dom::still_for`).
#[wasm_bindgen(js_name = stillFor)]
pub fn still_for() -> JsResult<f64> {
    Plain(dom::still_for()).into_js()
}

#[wasm_bindgen]
pub fn focused() -> JsResult {
    dom::focused().into_js()
}

// What a driver asks of one element around input (`dom::input`).

/// `{ x, y, width, height, point, inView }` in viewport CSS pixels.
#[wasm_bindgen(js_name = box)]
pub fn bounds(reference: JsValue) -> JsResult {
    string(&reference, "ref")
        .and_then(|r| dom::input::bounds(&r))
        .into_js()
}

/// A promise of the answer to the machine's settle need (see `dom::wait`).
#[wasm_bindgen(js_name = settle)]
pub async fn settle(need: JsValue, options: JsValue) -> JsResult {
    let until = arg_required(need, ErrorCode::InvalidArgument, "settle's need")
        .and_then(|u| {
            Ok((
                u,
                arg(options, ErrorCode::InvalidOptions, "fingerprint options")?,
            ))
        })
        .map_err(|e| js_error(&e))?;
    dom::wait::settle(until.0, until.1).await.into_js()
}

/// A promise of the answer to the machine's prepare need (see `dom::prepare`).
#[wasm_bindgen(js_name = prepare)]
pub async fn prepare(reference: JsValue, hit_test: JsValue, timeout_ms: JsValue) -> JsResult {
    let r = string(&reference, "ref").map_err(|e| js_error(&e))?;
    Ok::<_, Error>(
        dom::prepare::prepare(
            &r,
            hit_test.is_truthy(),
            timeout_ms.as_f64().unwrap_or(5_000.0),
        )
        .await,
    )
    .into_js()
}

#[wasm_bindgen(js_name = scrollIntoView)]
pub fn scroll_into_view(reference: JsValue) -> JsResult<()> {
    Plain(string(&reference, "ref").and_then(|r| dom::input::scroll_into_view(&r))).into_js()
}

/// `null` when input at (x, y) reaches the element (a ref, or an element node), else what
/// it lands on.
#[wasm_bindgen(js_name = hitTest)]
pub fn hit_test(target: JsValue, x: JsValue, y: JsValue) -> JsResult {
    number_pair(&x, &y)
        .and_then(|(x, y)| match target.as_string() {
            Some(r) => dom::input::hit(&r, x, y),
            None => dom::input::hit_node(&element_arg(&target, "ref")?, x, y),
        })
        .into_js()
}

/// The `<label>` of the element where a click reaches it when its own point does not.
#[wasm_bindgen(js_name = labelInReach)]
pub fn label_in_reach(reference: JsValue) -> JsResult<web_sys::Element> {
    Plain(string(&reference, "ref").and_then(|r| dom::input::reaching_label(&r))).into_js()
}

#[wasm_bindgen(js_name = fileInput)]
pub fn file_input(reference: JsValue) -> JsResult<web_sys::Element> {
    Plain(string(&reference, "ref").and_then(|r| dom::input::file_input(&r))).into_js()
}

#[wasm_bindgen]
pub fn focus(reference: JsValue) -> JsResult<bool> {
    Plain(string(&reference, "ref").and_then(|r| dom::input::focus(&r))).into_js()
}

/// The position of an `<iframe>` node among its document's frames.
#[wasm_bindgen(js_name = frameIndex)]
pub fn frame_index(frame: JsValue) -> JsResult<i32> {
    Plain(element_arg(&frame, "frame").and_then(|f| dom::input::frame_index(&f))).into_js()
}

// What the coordinate executor asks around a pointer step (`dom::pointer`).

/// `{ readyState, devicePixelRatio }`.
#[wasm_bindgen]
pub fn page() -> JsResult {
    dom::pointer::page().into_js()
}

#[wasm_bindgen(js_name = hitBoxes)]
pub fn hit_boxes() -> JsResult {
    dom::pointer::hit_boxes().into_js()
}

#[wasm_bindgen(js_name = scrollFrom)]
pub fn scroll_from(x: JsValue, y: JsValue) -> JsResult {
    number_pair(&x, &y)
        .and_then(|(x, y)| dom::pointer::scroll_from(x, y))
        .into_js()
}

#[wasm_bindgen(js_name = scrollPosition)]
pub fn scroll_position() -> JsResult {
    dom::pointer::scroll_position().into_js()
}

/// `{ value, start, end }` of the field of `ref` when it has the focus, else `null`.
#[wasm_bindgen]
pub fn selection(reference: JsValue) -> JsResult {
    string(&reference, "ref")
        .and_then(|r| dom::pointer::selection(&r))
        .into_js()
}

#[wasm_bindgen(js_name = focusSelect)]
pub fn focus_select(reference: JsValue) -> JsResult<bool> {
    Plain(string(&reference, "ref").and_then(|r| dom::input::focus_select(&r))).into_js()
}

#[wasm_bindgen]
pub fn value(reference: JsValue) -> JsResult {
    string(&reference, "ref")
        .and_then(|r| dom::input::value(&r))
        .into_js()
}

/// The select's value before.
#[wasm_bindgen]
pub fn select(reference: JsValue, option: JsValue) -> JsResult<String> {
    Plain(
        string(&reference, "ref").and_then(|r| dom::input::select(&r, &string(&option, "option")?)),
    )
    .into_js()
}

#[wasm_bindgen]
pub fn restore(reference: JsValue, value: JsValue) -> JsResult<()> {
    Plain(
        string(&reference, "ref").and_then(|r| dom::input::restore(&r, &string(&value, "value")?)),
    )
    .into_js()
}

#[wasm_bindgen]
pub fn destination(reference: JsValue) -> JsResult {
    string(&reference, "ref")
        .and_then(|r| dom::input::destination(&r))
        .into_js()
}

/// An element node of any realm (a same-origin frame's nodes are not instances of this
/// world's `Element`), told by its `nodeType`.
fn element_arg(v: &JsValue, what: &str) -> Result<web_sys::Element> {
    let node_type = v
        .is_object()
        .then(|| js_sys::Reflect::get(v, &"nodeType".into()).ok())
        .flatten()
        .and_then(|t| t.as_f64());
    match node_type {
        Some(1.0) => Ok(v.clone().unchecked_into()),
        _ => Err(Error::new(
            ErrorCode::InvalidArgument,
            format!("{what} must be a ref or an element node"),
        )),
    }
}

fn number_pair(x: &JsValue, y: &JsValue) -> Result<(f64, f64)> {
    match (x.as_f64(), y.as_f64()) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(Error::new(
            ErrorCode::InvalidArgument,
            "x and y must be two numbers",
        )),
    }
}

fn diff_values(
    before: JsValue,
    after: JsValue,
    options: JsValue,
) -> Result<crate::core::diff::Diff> {
    api::diff_value(
        &json(before, ErrorCode::InvalidSnapshot, "before")?,
        &json(after, ErrorCode::InvalidSnapshot, "after")?,
        &json(options, ErrorCode::InvalidOptions, "diff options")?,
    )
}

/// `resolve(target, { observation?, expected? })`; without an observation, a fresh snapshot.
fn resolve_values(target: JsValue, options: JsValue) -> Result<resolve::Resolution> {
    let target = json(target, ErrorCode::InvalidTarget, "target")?;
    let options = json(options, ErrorCode::InvalidOptions, "resolve options")?;
    match api::resolve_options(&options)? {
        (Some(_), _) => api::resolve_value(&target, &options),
        (None, expected) => {
            let fresh = dom::snapshot(&dom::Options::default())?;
            let expected = expected
                .map(|v| resolve::context_from_value(v, "expected"))
                .transpose()?;
            resolve::resolve(
                &resolve::Target::from_value(&target)?,
                &fresh,
                expected.as_ref(),
            )
        }
    }
}

/// A sensitive fill's plaintext `value` is replaced by its keyed hash before core sees it,
/// and never returned.
fn hash_sensitive_value(action: &mut Value) -> Result<()> {
    let Some(obj) = action.as_object_mut() else {
        return Ok(());
    };
    let sensitive = obj
        .get("target")
        .and_then(|t| t.get("sensitive"))
        .and_then(Value::as_bool)
        == Some(true);
    if sensitive {
        if let Some(Value::String(plain)) = obj.remove("value") {
            obj.insert("valueHash".into(), Value::String(dom::hash(&plain)?));
        }
    }
    Ok(())
}

fn judge_values(
    action: JsValue,
    before: JsValue,
    after: JsValue,
    options: JsValue,
) -> Result<Verdict> {
    let mut action = json(action, ErrorCode::InvalidAction, "action")?;
    hash_sensitive_value(&mut action)?;
    api::judge_value(
        &action,
        &json(before, ErrorCode::InvalidSnapshot, "before")?,
        &json(after, ErrorCode::InvalidSnapshot, "after")?,
        &json(options, ErrorCode::InvalidOptions, "judge options")?,
    )
}

// Covering secrets for a screenshot (`dom::cover`).

/// `{ boxes, scopes }`: every sensitive element painted one flat colour until `uncover`.
#[wasm_bindgen]
pub fn cover(options: JsValue) -> JsResult {
    arg::<dom::cover::CoverOptions>(options, ErrorCode::InvalidOptions, "cover options")
        .and_then(|o| dom::cover::cover(&o))
        .into_js()
}

/// How many scopes had a cover, taken away without starting a transition.
#[wasm_bindgen]
pub fn uncover() -> JsResult<u32> {
    Plain(dom::cover::uncover()).into_js()
}

/// The border box of each ref's element (null when it is gone), viewport CSS pixels.
#[wasm_bindgen]
pub fn boxes(refs: JsValue) -> JsResult {
    arg_required::<Vec<String>>(refs, ErrorCode::InvalidArgument, "refs")
        .map(|r| dom::cover::boxes(&r))
        .into_js()
}
