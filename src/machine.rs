//! The `#[wasm_bindgen]` exports of the DOM-free machine module (`js/dist/prufe-run.mjs`):
//! the verification loop of one step ([`crate::core::run`]) for a driver that runs it in its
//! own process, as Node does, or evaluates it in a page of its own. JSON text in, JSON text
//! out, one line each: the driver keeps the run's JSON between calls and hands it back.
//!
//! Why text rather than JS objects: the run crosses on every call (it holds the snapshots
//! before and after), and one string each way is one copy, where building it field by field
//! costs a call per field; the text is read straight into the machine's types
//! ([`api::run_next_text`]), and the module needs no js-sys. Errors leave as the
//! JSON text of the one error shape (`{"code":…,"message":…}`), thrown as a string; the
//! loader (`js/src/run.js`) turns it into the `PrufeError` the page engine throws.

use crate::core::api::{self, Turn};
use crate::core::error::{Error, ErrorCode, Result};
use wasm_bindgen::prelude::*;

/// `start(step, policy, seen)`: a verified run of `step` and its first need, as
/// `{"run":…,"need":…}`. An empty `policy` or `seen` is the default (`null`).
#[wasm_bindgen(js_name = start)]
pub fn run_start(step: &str, policy: &str, seen: &str) -> Result<String, String> {
    turn(api::run_start_text(step, policy, seen))
}

/// `next(run, answer)`: the run after `answer` to its last need, and the need after that.
#[wasm_bindgen(js_name = next)]
pub fn run_next(run: &str, answer: &str) -> Result<String, String> {
    turn(api::run_next_text(run, answer))
}

/// `look(policy, seen)`: a run that only settles and observes, handed the last `seen` and
/// handing on the next ([`api::run_look_text`]), as `{"run":…,"need":…}`.
#[wasm_bindgen(js_name = look)]
pub fn run_look(policy: &str, seen: &str) -> Result<String, String> {
    turn(api::run_look_text(policy, seen))
}

/// `shot(policy, settle)`: a coordinate step's observation ([`api::run_shot_text`]), as
/// `{"run":…,"need":…}`.
#[wasm_bindgen(js_name = shot)]
pub fn run_shot(policy: &str, settle: &str) -> Result<String, String> {
    turn(api::run_shot_text(policy, settle))
}

/// `wait(until, timeoutMs, policy)`: a run that looks until the postcondition holds
/// ([`api::run_wait_text`]), as `{"run":…,"need":…}`.
#[wasm_bindgen(js_name = wait)]
pub fn run_wait(until: &str, timeout_ms: &str, policy: &str) -> Result<String, String> {
    turn(api::run_wait_text(until, timeout_ms, policy))
}

/// `explain(what)`: the report of `{"record": …}` or `{"error": …}`, as every surface prints
/// it ([`api::explain_text`]).
#[wasm_bindgen(js_name = explain)]
pub fn explain(what: &str) -> Result<String, String> {
    api::explain_text(what).map(|t| quoted(&t)).map_err(thrown)
}

/// `summary(record)`: one line for a log ([`api::summary_text`]).
#[wasm_bindgen(js_name = summary)]
pub fn summary(record: &str) -> Result<String, String> {
    api::summary_text(record)
        .map(|t| quoted(&t))
        .map_err(thrown)
}

/// `trace(args)`: a step's trace entry, `{"name":…,"entry":…}`, of `{"step", "record"}` or
/// `{"step", "ended": {"action", "code", "reason", "durationMs", "startedAt"}}`
/// ([`api::trace_text`]).
#[wasm_bindgen(js_name = trace)]
pub fn trace(args: &str) -> Result<String, String> {
    api::trace_text(args).map_err(thrown)
}

/// `frames(op, args)`: the rules that merge a page's roots (`core::frames`), JSON text in
/// and out ([`api::frames_text`]).
#[wasm_bindgen(js_name = frames)]
pub fn frames(op: &str, args: &str) -> Result<String, String> {
    api::frames_text(op, args).map_err(thrown)
}

/// `points(op, args)`: the rules of a coordinate step's points (`core::run::screen`: the
/// screenshot's checks, image to CSS pixels, the element under a point, the reconciliation
/// with the page's hit test), JSON text in and out ([`api::points_text`]).
#[wasm_bindgen(js_name = points)]
pub fn points(op: &str, args: &str) -> Result<String, String> {
    api::points_text(op, args).map_err(thrown)
}

/// `defaults()`: the policy a run follows where the driver leaves a field out, as JSON text
/// ([`api::defaults_text`]); drivers read their documented defaults from it.
#[wasm_bindgen(js_name = defaults)]
pub fn defaults() -> Result<String, String> {
    api::defaults_text().map_err(thrown)
}

/// `lost()`: the error a settle ends on when its deadline comes and the page is still gone, as
/// JSON text ([`api::lost_text`]), for a driver whose machine lives in the page.
#[wasm_bindgen(js_name = lost)]
pub fn lost() -> Result<String, String> {
    api::lost_text().map_err(thrown)
}

/// `transient()`: the error codes of a page that could not answer now, as JSON text
/// ([`api::transient_text`]); a driver asks again on one rather than end the step.
#[wasm_bindgen(js_name = transient)]
pub fn transient() -> Result<String, String> {
    api::transient_text().map_err(thrown)
}

/// `resends()`: how many times a call that met a destroyed execution context is sent again,
/// to the new one ([`api::resends_text`]).
#[wasm_bindgen(js_name = resends)]
pub fn resends() -> Result<String, String> {
    api::resends_text().map_err(thrown)
}

/// `dialogs(heard)`: the record's `dialogs` lines of the JavaScript dialogs a step heard,
/// `[{type, message, accepted}]` in JSON text ([`api::dialogs_text`]).
#[wasm_bindgen(js_name = dialogs)]
pub fn dialogs(heard: &str) -> Result<String, String> {
    api::dialogs_text(heard).map_err(thrown)
}

/// `located(found)`: the target of a browser library's element from what a package found for
/// it, or the error saying why there is none ([`api::located_text`]).
#[wasm_bindgen(js_name = located)]
pub fn located(found: &str) -> Result<String, String> {
    api::located_text(found).map_err(thrown)
}

/// `secretForms(values)`: every form of the caller's secrets that is scrubbed, in the order
/// `scrub` replaces them, as JSON text ([`api::secret_forms_text`]).
#[wasm_bindgen(js_name = secretForms)]
pub fn secret_forms(values: &str) -> Result<String, String> {
    api::secret_forms_text(values).map_err(thrown)
}

/// `scrub(args)`: `{ secrets, value }`'s value with every secret replaced in every string,
/// keys included ([`api::scrub_text`]).
#[wasm_bindgen(js_name = scrub)]
pub fn scrub(args: &str) -> Result<String, String> {
    api::scrub_text(args).map_err(thrown)
}

/// The one conversion of results and errors to what crosses to JS.
fn turn(result: Result<Turn>) -> Result<String, String> {
    let text = result.and_then(|t| {
        serde_json::to_string(&t).map_err(|e| {
            Error::new(
                ErrorCode::Internal,
                format!("could not serialise the run: {e}"),
            )
        })
    });
    text.map_err(thrown)
}

/// An error as it leaves for JS: the JSON text of the one error shape.
fn thrown(e: Error) -> String {
    serde_json::to_string(&e).unwrap_or_else(|_| {
        r#"{"code":"INTERNAL","message":"could not serialise an error"}"#.to_owned()
    })
}

/// A text as the JSON string every export returns.
fn quoted(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}
