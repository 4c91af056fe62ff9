//! Value-level entry points: untrusted JSON in, typed results out.
//!
//! The wasm exports are these functions plus the conversion to and from JS values, so the
//! page, the native harness and the tests all run the very same validation and logic; the
//! golden cases in `tests/` check that native and in-page answers are identical.

use super::diff::{diff, Diff, DiffOptions};
use super::error::{Error, ErrorCode, Result};
use super::frames;
use super::judge::{judge, Action, JudgeOptions, Verdict};
use super::located::{self, Located};
use super::redact::Redactor;
use super::resolve::{self, Resolution};
use super::run::capture::Capture;
use super::run::dialogs::{self, Dialog};
use super::run::quiet;
use super::run::record::error_lines;
use super::run::screen::{self, Pick, Screen};
use super::run::trace::{self, Traced};
use super::run::{Answer, Need, Policy, Record, Run, Seen, Step};
use super::until::Postcondition;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// Reads optional options: `null` is the default; otherwise strictly typed.
pub fn options<T: DeserializeOwned + Default>(v: &Value, code: ErrorCode, what: &str) -> Result<T> {
    if v.is_null() {
        return Ok(T::default());
    }
    serde_json::from_value(v.clone()).map_err(|e| Error::new(code, format!("{what}: {e}")))
}

/// `prufe.diff(before, after, options?)`.
pub fn diff_value(before: &Value, after: &Value, opts: &Value) -> Result<Diff> {
    let before = resolve::snapshot_from_value(before)?;
    let after = resolve::snapshot_from_value(after)?;
    let opts: DiffOptions = options(opts, ErrorCode::InvalidOptions, "diff options")?;
    Ok(diff(&before, &after, &opts))
}

/// `prufe.judge(action, before, after, options?)`. A sensitive fill must come with its
/// `valueHash` (the page hashes a plaintext value before calling this).
pub fn judge_value(action: &Value, before: &Value, after: &Value, opts: &Value) -> Result<Verdict> {
    let action: Action = serde_json::from_value(action.clone())
        .map_err(|e| Error::new(ErrorCode::InvalidAction, format!("action: {e}")))?;
    let before = resolve::snapshot_from_value(before)?;
    let after = resolve::snapshot_from_value(after)?;
    let opts: JudgeOptions = options(opts, ErrorCode::InvalidOptions, "judge options")?;
    judge(&action, &before, &after, &opts)
}

/// Splits `prufe.resolve`'s `{ observation?, expected? }` (null members count as absent).
pub fn resolve_options(opts: &Value) -> Result<(Option<&Value>, Option<&Value>)> {
    match opts {
        Value::Null => Ok((None, None)),
        Value::Object(map) => {
            if let Some(unknown) = map.keys().find(|k| *k != "observation" && *k != "expected") {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    format!(
                        "resolve options: unknown key {unknown:?} (allowed: observation, expected)"
                    ),
                ));
            }
            Ok((
                map.get("observation").filter(|v| !v.is_null()),
                map.get("expected").filter(|v| !v.is_null()),
            ))
        }
        _ => Err(Error::new(
            ErrorCode::InvalidOptions,
            "resolve options must be an object",
        )),
    }
}

/// `prufe.resolve(target, { observation, expected? })` with an observation given.
pub fn resolve_value(target: &Value, opts: &Value) -> Result<Resolution> {
    match resolve_options(opts)? {
        (Some(observation), expected) => resolve::resolve_value(target, observation, expected),
        (None, _) => Err(Error::new(
            ErrorCode::InvalidOptions,
            "resolve needs an observation here; the page takes a fresh snapshot when none is given",
        )),
    }
}

/// A run and what it needs next: what the machine module's `start` and `next` return
/// (`js/dist/prufe-run.mjs`). The driver keeps `run` as it is and hands it back with the
/// answer to `need`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Turn {
    pub run: Run,
    pub need: Need,
}

/// `start(step, policy?, seen?)` over JSON values (`null` policy and seen: the defaults).
pub fn run_start(step: &Value, policy: &Value, seen: &Value) -> Result<Turn> {
    let step: Step =
        serde_json::from_value(step.clone()).map_err(|e| step_error(e, Some(step.clone())))?;
    let policy: Policy = options(policy, ErrorCode::InvalidOptions, "run policy")?;
    let seen: Option<Seen> = options(seen, ErrorCode::InvalidSnapshot, "seen")?;
    let mut run = Run::new(step, policy).with_seen(seen);
    let need = run.next(Answer::Start);
    Ok(Turn { run, need })
}

/// `next(run, answer)` over JSON values.
pub fn run_next(run: &Value, answer: &Value) -> Result<Turn> {
    let mut run: Run = serde_json::from_value(run.clone()).map_err(|e| {
        Error::new(
            ErrorCode::InvalidArgument,
            format!("run: {e}; pass back the run the last call returned"),
        )
    })?;
    let answer: Answer = serde_json::from_value(answer.clone())
        .map_err(|e| Error::new(ErrorCode::InvalidArgument, format!("answer: {e}")))?;
    let need = run.next(answer);
    Ok(Turn { run, need })
}

/// A step that does not read: `INVALID_EXPECT` when its `expect` is what is wrong (the
/// claims are read again on their own, only on this failing path), `INVALID_ACTION`
/// otherwise.
fn step_error(e: impl std::fmt::Display, step: Option<Value>) -> Error {
    if let Some(Err(bad)) = step
        .as_ref()
        .and_then(|s| s.get("expect"))
        .map(super::expect::from_value)
    {
        return bad;
    }
    Error::new(ErrorCode::InvalidAction, format!("step: {e}"))
}

/// Reads JSON text (empty text is `null`) straight into `T`. A refusal names where in the
/// caller's value it is (`screen.dpr: invalid type: …`; a tagged value such as a pick is
/// named as a whole), the same whatever order and spacing each driver writes its JSON in,
/// rather than a line and column of that text.
fn from_text<T: DeserializeOwned>(text: &str, code: ErrorCode, what: &str) -> Result<T> {
    let text = if text.trim().is_empty() { "null" } else { text };
    serde_json::from_str(text)
        .map_err(|e| Error::new(code, format!("{what}: {}", located::<T>(text, e))))
}

/// What refused `text` as a `T`, and where: read again with the path tracked, on the error's
/// path only (tracking it costs every read of a run's snapshots).
fn located<T: DeserializeOwned>(text: &str, e: serde_json::Error) -> String {
    let mut de = serde_json::Deserializer::from_str(text);
    let (path, inner) = match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Err(again) => (again.path().to_string(), again.into_inner()),
        Ok(_) => (".".to_owned(), e),
    };
    // serde_json's own words, without the position it adds to them.
    let mut words = inner.to_string();
    if inner.line() > 0 {
        if let Some(i) = words.rfind(" at line ") {
            words.truncate(i);
        }
    }
    if path == "." {
        words
    } else {
        format!("{path}: {words}")
    }
}

/// [`run_start`] over JSON text, as the machine module (`js/dist/prufe-run.mjs`) calls it:
/// the same validation and codes, empty text for a default. The text is read straight into
/// the machine's types, never through a [`Value`]: the run crosses on every call (it holds
/// two snapshots), and building a `Value` of it first, then the run, made each call about
/// 40% slower in the module (measured at 3,000 elements) for 6% less code.
pub fn run_start_text(step: &str, policy: &str, seen: &str) -> Result<Turn> {
    let text = if step.trim().is_empty() { "null" } else { step };
    let step: Step = serde_json::from_str(text)
        .map_err(|e| step_error(located::<Step>(text, e), serde_json::from_str(text).ok()))?;
    let policy: Option<Policy> = from_text(policy, ErrorCode::InvalidOptions, "run policy")?;
    let seen: Option<Seen> = from_text(seen, ErrorCode::InvalidSnapshot, "seen")?;
    let mut run = Run::new(step, policy.unwrap_or_default()).with_seen(seen);
    let need = run.next(Answer::Start);
    Ok(Turn { run, need })
}

/// `look(policy, seen)` of the machine module: a run that only settles and observes
/// ([`Run::look`]), handed the driver's last observation (`seen`) and handing on the next
/// one; what a driver runs when it opens a page or is asked for a snapshot.
pub fn run_look_text(policy: &str, seen: &str) -> Result<Turn> {
    let policy: Option<Policy> = from_text(policy, ErrorCode::InvalidOptions, "run policy")?;
    let seen: Option<Seen> = from_text(seen, ErrorCode::InvalidSnapshot, "seen")?;
    let mut run = Run::look(policy.unwrap_or_default()).with_seen(seen);
    let need = run.next(Answer::Start);
    Ok(Turn { run, need })
}

/// `shot(policy, settle)` of the machine module: a coordinate step's observation
/// ([`Run::shot`]), settled first when `settle` is `true`; its boxes and stability are the
/// run's `shot` once it is done.
pub fn run_shot_text(policy: &str, settle: &str) -> Result<Turn> {
    let policy: Option<Policy> = from_text(policy, ErrorCode::InvalidOptions, "run policy")?;
    let settle: Option<bool> = from_text(settle, ErrorCode::InvalidArgument, "settle")?;
    let mut run = Run::shot(policy.unwrap_or_default(), settle.unwrap_or(false));
    let need = run.next(Answer::Start);
    Ok(Turn { run, need })
}

/// `wait(until, timeoutMs, policy)` of the machine module: a run that looks until the
/// postcondition `until` ([`Postcondition`]) holds, at most `timeoutMs` of the driver's
/// time ([`Run::wait`]); a `null` timeout is the policy's.
pub fn run_wait_text(until: &str, timeout_ms: &str, policy: &str) -> Result<Turn> {
    let until: Postcondition = from_text(until, ErrorCode::InvalidArgument, "until")?;
    let timeout: Option<u64> = from_text(timeout_ms, ErrorCode::InvalidArgument, "timeoutMs")?;
    let policy: Policy =
        from_text::<Option<Policy>>(policy, ErrorCode::InvalidOptions, "run policy")?
            .unwrap_or_default();
    let timeout = timeout.unwrap_or(policy.timing.timeout_ms);
    let mut run = Run::wait(until, timeout, policy);
    let need = run.next(Answer::Start);
    Ok(Turn { run, need })
}

/// What `explain` of the machine module words: a step's record, or an error no step
/// recorded (a target refused before anything was sent).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
enum Explained {
    Record(Box<Record>),
    Error(Error),
}

/// `explain(what)` of the machine module: the report every surface prints, of
/// `{"record": …}` ([`Record::report`]) or of `{"error": …}` (what the error adds alone).
pub fn explain_text(what: &str) -> Result<String> {
    Ok(
        match from_text(
            what,
            ErrorCode::InvalidArgument,
            "explain: { record } or { error }",
        )? {
            Explained::Record(r) => r.report(),
            Explained::Error(e) => error_lines(e.code, &e.message, &e.candidates, &[]),
        },
    )
}

/// `summary(record)` of the machine module: one line for a log ([`Record::summary`]).
pub fn summary_text(record: &str) -> Result<String> {
    let record: Record = from_text(record, ErrorCode::InvalidArgument, "record")?;
    Ok(record.summary())
}

/// What `trace` of the machine module is given: a step's number and its record, or what a
/// step that ended before it had one says.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TraceArgs {
    step: usize,
    #[serde(default)]
    record: Option<Box<Record>>,
    #[serde(default)]
    ended: Option<Ended>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Ended {
    action: String,
    #[serde(default)]
    code: Option<ErrorCode>,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    duration_ms: u64,
    #[serde(default)]
    started_at: String,
}

/// `trace(args)` of the machine module: a step's trace entry and its file's name after the
/// number, `{"name": "click-match", "entry": {…}}` ([`trace::entry`]).
pub fn trace_text(args: &str) -> Result<String> {
    let args: TraceArgs = from_text(
        args,
        ErrorCode::InvalidArgument,
        "trace: { step, record } or { step, ended }",
    )?;
    let (name, entry) = match (&args.record, &args.ended) {
        (Some(record), None) => trace::entry(args.step, &Traced::Record(record)),
        (None, Some(e)) => trace::entry(
            args.step,
            &Traced::Ended {
                action: &e.action,
                error: e.code.map(|c| (c, e.reason.as_str())),
                duration_ms: e.duration_ms,
                started_at: &e.started_at,
            },
        ),
        _ => {
            return Err(Error::new(
                ErrorCode::InvalidArgument,
                "trace: give one of record and ended",
            ))
        }
    };
    Ok(serde_json::json!({ "name": name, "entry": entry }).to_string())
}

/// [`run_next`] over JSON text.
pub fn run_next_text(run: &str, answer: &str) -> Result<Turn> {
    let mut run: Run = from_text(run, ErrorCode::InvalidArgument, "run").map_err(|mut e| {
        e.message
            .push_str("; pass back the run the last call returned");
        e
    })?;
    let answer: Answer = from_text(answer, ErrorCode::InvalidArgument, "answer")?;
    let need = run.next(answer);
    Ok(Turn { run, need })
}

/// `frames(op, args)` of the machine module: the rules that merge the roots of a page
/// ([`frames`]), for a driver that observes frames of other origins itself. `args` is JSON
/// text; the answer is JSON text. Ops: `route` (a merged ref → `{path, ref}`), `mergedRef`
/// (`{path, ref}` → the merged ref), `merge` (`[{path, snapshot}]`, the top first → one
/// snapshot), `adopt` (`{path, element}` → the element in merged terms, `null` stays),
/// `join` (`[{path, fingerprint}]` → the page's fingerprint), `sameOrigin` (`{child, parent}`,
/// each `{origin, url}` → whether the parent's engine walks the child), `parent`
/// (`{paths, path}` → the enclosing root's path or `null`), `filters` (`{path, filters}` →
/// that root's own region filters, or `null` when they leave nothing of it).
pub fn frames_text(op: &str, args: &str) -> Result<String> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Adopt {
        path: String,
        element: Option<super::model::Element>,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct AdoptTarget {
        path: String,
        target: super::resolve::Target,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Origins {
        child: frames::Origin,
        parent: frames::Origin,
    }
    let bad = ErrorCode::InvalidArgument;
    let what = format!("frames {op}");
    let value = match op {
        "route" => {
            let merged: String = from_text(args, bad, &what)?;
            let (path, local) = frames::route(&merged);
            serde_json::json!({ "path": path, "ref": local })
        }
        "adopt" => {
            let a: Adopt = from_text(args, bad, &what)?;
            serde_json::to_value(a.element.map(|e| frames::adopt(&a.path, e))).map_err(internal)?
        }
        "adoptTarget" => {
            let a: AdoptTarget = from_text(args, ErrorCode::InvalidTarget, &what)?;
            serde_json::to_value(frames::adopt_target(&a.path, a.target)).map_err(internal)?
        }
        "sameOrigin" => {
            let o: Origins = from_text(args, bad, &what)?;
            Value::Bool(frames::same_origin(&o.child, &o.parent))
        }
        other => {
            return Err(Error::new(
                bad,
                format!("frames: unknown op {other:?} (route, adopt, adoptTarget, sameOrigin)"),
            ))
        }
    };
    serde_json::to_string(&value).map_err(internal)
}

/// `defaults()` of the machine module: the policy a run follows when the driver leaves a
/// field out ([`Policy::default`]), as JSON text, so that a driver's documented defaults are
/// read from the machine rather than written again.
pub fn defaults_text() -> Result<String> {
    serde_json::to_string(&Policy::default()).map_err(internal)
}

/// `lost()` of the machine module: the error a settle ends on when its deadline comes with
/// no document to read ([`quiet::lost`]), for a driver that cannot run the settle loop
/// without a document (its machine lives in the page).
pub fn lost_text() -> Result<String> {
    serde_json::to_string(&quiet::lost()).map_err(internal)
}

/// `transient()` of the machine module: the codes of a page that could not answer now
/// ([`ErrorCode::TRANSIENT`]), which a driver asks again rather than end a step on.
pub fn transient_text() -> Result<String> {
    serde_json::to_string(ErrorCode::TRANSIENT).map_err(internal)
}

/// `resends()` of the machine module: how many times a call that met a destroyed execution
/// context is sent again to the new one ([`ErrorCode::RESENDS`]).
pub fn resends_text() -> Result<String> {
    serde_json::to_string(&ErrorCode::RESENDS).map_err(internal)
}

/// `dialogs(dialogs)` of the machine module: the record's `dialogs` lines of the JavaScript
/// dialogs a step heard (`[{type, message, accepted}]`, in the order they opened), worded
/// and capped by [`dialogs::lines`].
pub fn dialogs_text(args: &str) -> Result<String> {
    let heard: Option<Vec<Dialog>> = from_text(args, ErrorCode::InvalidArgument, "dialogs")?;
    serde_json::to_string(&dialogs::lines(&heard.unwrap_or_default())).map_err(internal)
}

/// `located(found)` of the machine module: the target of a browser library's element, from
/// what a package found for it ([`located::Located`]), or the error that says why there is
/// none: `{ "target": … }` or `{ "error": … }` ([`located::decide`]).
pub fn located_text(args: &str) -> Result<String> {
    let found: Located = from_text(
        args,
        ErrorCode::InvalidArgument,
        "located: { shown, count, place?, element?, target?, error?, candidates? }",
    )?;
    serde_json::to_string(&located::decide(found)).map_err(internal)
}

/// `secretForms(values)` of the machine module: every form of every caller's secret in
/// `values` ([`secret_forms`](super::redact::secret_forms)), each once, in the order [`scrub_text`] replaces them:
/// the list a driver keeps, hands to `scrub` and to the engine's `cover({ secrets })`.
pub fn secret_forms_text(values: &str) -> Result<String> {
    let values: Vec<String> =
        from_text(values, ErrorCode::InvalidArgument, "secretForms: [value]")?;
    let mut r = Redactor::default();
    values.iter().for_each(|v| r.add_secret_and_encodings(v));
    serde_json::to_string(r.secrets()).map_err(internal)
}

/// What `scrub` of the machine module is given: the forms of [`secret_forms_text`] and any
/// JSON value.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ScrubArgs {
    secrets: Vec<String>,
    value: crate::core::ordered_json::OrderedJson,
}

/// `scrub({ secrets, value })` of the machine module: `value` with every secret form
/// replaced by `[redacted]` in every string, object keys included ([`Redactor::scrub_json`]),
/// each object's keys in the order they came in (a record scrubbed reads as it did).
pub fn scrub_text(args: &str) -> Result<String> {
    let ScrubArgs { secrets, mut value } = from_text(
        args,
        ErrorCode::InvalidArgument,
        "scrub: { secrets, value }",
    )?;
    let mut r = Redactor::default();
    r.add_forms(secrets);
    r.scrub_json(&mut value);
    serde_json::to_string(&value).map_err(internal)
}

/// `points(op, args)` of the machine module: the rules of a coordinate step's points
/// ([`screen`]), JSON text in and out.
/// - `aim`: `{screen, observation?, pick}` → the machine's action for the [`Pick`] (image
///   pixels checked against the latest `screen`, the one `observation` names), or the error
///   (`STALE_OBSERVATION`, `POINT_OUT_OF_BOUNDS`, `INVALID_ACTION`) thrown.
/// - `scale`: a screen → CSS pixels per image pixel, `{x, y}`.
/// - `captured`: a screenshot's capture, `{tries, before, after, settled}` → `{again,
///   stable}`: capture again while the page changed meanwhile ([`super::run::capture`]).
/// - `maxWidth`: the widest image asked for (a number or `null`), given back when it is one
///   (`INVALID_ACTION` otherwise: [`screen::check_max_width`]).
/// - `framing`: `{view, maxWidth}` → how the screenshot is taken ([`screen::framing`]).
/// - `picture`: `{view, deviceWidth}` → how a step's picture is taken, the parameters of
///   `Page.captureScreenshot` ([`super::run::picture::picture`]).
/// - `marks`: what a picture marks as measured in the page → in the image's pixels
///   ([`super::run::picture::marks`]).
pub fn points_text(op: &str, args: &str) -> Result<String> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Aim {
        screen: Option<Screen>,
        #[serde(default)]
        observation: Option<String>,
        pick: Pick,
    }
    let value = match op {
        "aim" => {
            let a: Aim = from_text(args, ErrorCode::InvalidAction, "a pointer step")?;
            serde_json::to_value(screen::aim(
                a.screen.as_ref(),
                a.observation.as_deref(),
                &a.pick,
            )?)
        }
        "scale" => {
            let s: Screen = from_text(args, ErrorCode::InvalidArgument, "scale")?;
            serde_json::to_value(s.scale())
        }
        "captured" => {
            let c: Capture = from_text(args, ErrorCode::InvalidArgument, "captured")?;
            serde_json::to_value(super::run::capture::captured(&c))
        }
        "maxWidth" => {
            // Anything but a number or null (a string, a number JSON cannot carry) is refused
            // as a number out of range is.
            let w = match serde_json::from_str::<serde_json::Value>(args) {
                Ok(serde_json::Value::Null) => None,
                Ok(serde_json::Value::Number(n)) => n.as_f64(),
                _ => Some(f64::NAN),
            };
            serde_json::to_value(screen::check_max_width(w)?)
        }
        "framing" => {
            #[derive(serde::Deserialize)]
            #[serde(rename_all = "camelCase", deny_unknown_fields)]
            struct Framed {
                view: screen::Viewport,
                max_width: Option<f64>,
            }
            let f: Framed = from_text(args, ErrorCode::InvalidArgument, "framing")?;
            serde_json::to_value(screen::framing(&f.view, f.max_width))
        }
        "picture" => {
            #[derive(serde::Deserialize)]
            #[serde(rename_all = "camelCase", deny_unknown_fields)]
            struct Pictured {
                view: Css,
                device_width: Option<f64>,
            }
            #[derive(serde::Deserialize)]
            #[serde(rename_all = "camelCase")]
            struct Css {
                page_x: f64,
                page_y: f64,
                client_width: f64,
                client_height: f64,
            }
            let p: Pictured = from_text(args, ErrorCode::InvalidArgument, "picture")?;
            let view = screen::Viewport {
                page_x: p.view.page_x,
                page_y: p.view.page_y,
                client_width: p.view.client_width,
                client_height: p.view.client_height,
                dpr: 1.0,
            };
            serde_json::to_value(super::run::picture::picture(&view, p.device_width))
        }
        "marks" => {
            let m: super::run::picture::Measured =
                from_text(args, ErrorCode::InvalidArgument, "marks")?;
            serde_json::to_value(super::run::picture::marks(&m))
        }
        other => {
            return Err(Error::new(
                ErrorCode::InvalidArgument,
                format!(
                    "points: unknown rule {other:?} (aim, locate, scale, captured, maxWidth, \
                     framing, picture, marks)"
                ),
            ))
        }
    };
    serde_json::to_string(&value.map_err(internal)?).map_err(internal)
}

fn internal(e: serde_json::Error) -> Error {
    Error::new(ErrorCode::Internal, format!("could not serialise: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secret_forms_and_scrub_are_the_redactors() {
        let forms: Vec<String> =
            serde_json::from_str(&secret_forms_text(r#"["pw", "a b&c", "a b&c"]"#).unwrap())
                .unwrap();
        assert_eq!(forms, ["a%20b%26c", "a+b%26c", "a b&c"]);
        let scrubbed = scrub_text(
            &json!({ "secrets": forms, "value": { "a+b%26c": ["x a b&c", 1] } }).to_string(),
        )
        .unwrap();
        assert_eq!(scrubbed, r#"{"[redacted]":["x [redacted]",1]}"#);
        assert_eq!(
            scrub_text(r#"{ "secrets": [], "value": "a b&c" }"#).unwrap(),
            r#""a b&c""#
        );
        for bad in ["", "{}", r#"{ "secrets": "x", "value": 1 }"#] {
            assert_eq!(
                scrub_text(bad).unwrap_err().code,
                ErrorCode::InvalidArgument,
                "{bad}"
            );
        }
        assert!(secret_forms_text(r#"[1]"#).is_err());
    }

    #[test]
    fn a_record_scrubbed_keeps_its_keys_in_their_order() {
        let record = crate::core::run::Record {
            action: "fill".into(),
            target: Some("textbox[Password] in form[Security]".into()),
            reason: "typed hunter22 into the field".into(),
            lines: vec!["changed text 'hunter22'".into()],
            ..Default::default()
        };
        let plain = serde_json::to_string(&record).unwrap();
        let forms = secret_forms_text(r#"["hunter22"]"#).unwrap();
        let scrubbed = scrub_text(&format!(r#"{{"secrets":{forms},"value":{plain}}}"#)).unwrap();
        assert!(!scrubbed.contains("hunter22"), "{scrubbed}");
        assert_eq!(scrubbed, plain.replace("hunter22", "[redacted]"));
    }

    #[test]
    fn points_cross_as_text() {
        let save = super::super::model::Element {
            reference: "e1".into(),
            role: super::super::model::Role::Button,
            name: "Save".into(),
            ..Default::default()
        };
        let screen = json!({"id": "obs-2", "image": {"width": 640, "height": 400},
            "capture": {"width": 1280, "height": 800}, "dpr": 1,
            "boxes": [{"element": save,
                       "x": 0, "y": 0, "width": 100, "height": 40, "topmost": true}]});
        let aimed = points_text(
            "aim",
            &json!({"screen": screen, "pick": {"kind": "clickAt", "at": {"x": 10, "y": 5}}})
                .to_string(),
        )
        .unwrap();
        let action: Value = serde_json::from_str(&aimed).unwrap();
        assert_eq!(action["kind"], "clickAt");
        assert_eq!(action["at"], json!({"x": 20.0, "y": 10.0}));
        assert_eq!(action["expected"]["name"], "Save");
        assert_eq!(action["shown"], "(10, 5) on obs-2");
        let stale = points_text(
            "aim",
            &json!({"screen": screen, "observation": "obs-1", "pick": {"kind": "scrollAt", "at": {"x": 1, "y": 1}, "dx": 0, "dy": 9}}).to_string(),
        )
        .unwrap_err();
        assert_eq!(stale.code, ErrorCode::StaleObservation);
        let nan = points_text(
            "aim",
            &json!({"screen": screen, "pick": {"kind": "clickAt", "at": {"x": null, "y": 1}}})
                .to_string(),
        )
        .unwrap_err();
        assert_eq!(nan.code, ErrorCode::InvalidAction);
        // Where in the caller's value, not where in the text each driver lays out its way.
        assert_eq!(
            nan.message,
            "a pointer step: pick: invalid type: null, expected f64"
        );
        // The widest image asked for: given back, or refused in one wording, whatever came.
        assert_eq!(points_text("maxWidth", "640").unwrap(), "640.0");
        assert_eq!(points_text("maxWidth", "null").unwrap(), "null");
        for bad in ["0.5", "\"NaN\"", "\"wide\"", "NaN", "[1]"] {
            let e = points_text("maxWidth", bad).unwrap_err();
            assert_eq!(
                (e.code, e.message.as_str()),
                (
                    ErrorCode::InvalidAction,
                    "\"maxWidth\" must be a number of at least 1"
                ),
                "{bad}"
            );
        }
        let framed: Value = serde_json::from_str(
            &points_text(
                "framing",
                &json!({"view": {"pageX": 0, "pageY": 10, "clientWidth": 800, "clientHeight": 600, "dpr": 2}, "maxWidth": 800})
                    .to_string(),
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(
            framed,
            json!({"full": {"width": 1600.0, "height": 1200.0}, "dpr": 2.0,
                   "clip": {"x": 0.0, "y": 10.0, "width": 800.0, "height": 600.0, "scale": 0.5}})
        );
        // Layout metrics' viewports as they come (with fields the rule does not read).
        let pictured: Value = serde_json::from_str(
            &points_text(
                "picture",
                &json!({"view": {"pageX": 0, "pageY": 10, "clientWidth": 1600, "clientHeight": 900, "offsetX": 0, "zoom": 1}, "deviceWidth": 3200})
                    .to_string(),
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(
            pictured,
            json!({"format": "jpeg", "quality": 60, "captureBeyondViewport": false,
                   "clip": {"x": 0.0, "y": 10.0, "width": 1600.0, "height": 900.0, "scale": 0.25}})
        );
        assert_eq!(
            points_text("scale", &screen.to_string()).unwrap(),
            r#"{"x":2.0,"y":2.0}"#
        );
        assert_eq!(
            points_text("nope", "null").unwrap_err().code,
            ErrorCode::InvalidArgument
        );
    }

    #[test]
    fn defaults_are_the_policy_default() {
        let d: Policy = serde_json::from_str(&defaults_text().unwrap()).unwrap();
        assert_eq!(d, Policy::default());
        let v: Value = serde_json::from_str(&defaults_text().unwrap()).unwrap();
        assert_eq!(
            v["timing"]["timeoutMs"],
            json!(Policy::default().timing.timeout_ms)
        );
        assert_eq!(v["maxAttempts"], json!(Policy::default().max_attempts));
    }

    #[test]
    fn dialogs_word_what_a_driver_heard() {
        let heard = json!([
            { "type": "alert", "message": "Saved!", "accepted": false },
            { "type": "confirm", "message": "Delete item?", "accepted": true },
        ]);
        let got: Value = serde_json::from_str(&dialogs_text(&heard.to_string()).unwrap()).unwrap();
        assert_eq!(
            got,
            json!([
                r#"alert "Saved!" dismissed"#,
                r#"confirm "Delete item?" accepted"#
            ])
        );
        assert_eq!(dialogs_text("").unwrap(), "[]");
        let bad = dialogs_text(r#"[{"type":"alert"}]"#).unwrap_err();
        assert_eq!(bad.code, ErrorCode::InvalidArgument);
    }

    #[test]
    fn frames_ops_answer_json_and_refuse_bad_input() {
        assert_eq!(
            frames_text("route", r#""f0.1:e3""#).unwrap(),
            r#"{"path":"0.1","ref":"e3"}"#
        );
        assert_eq!(
            frames_text(
                "sameOrigin",
                r#"{"child":{"origin":"http://b","url":"http://b/"},"parent":{"origin":"http://a","url":"http://a/"}}"#
            )
            .unwrap(),
            "false"
        );
        assert_eq!(
            frames_text("adopt", r#"{"path":"0","element":null}"#).unwrap(),
            "null"
        );
        for (op, args, code) in [
            ("nope", "null", ErrorCode::InvalidArgument),
            ("route", "7", ErrorCode::InvalidArgument),
            ("merge", "[]", ErrorCode::InvalidArgument),
            (
                "adoptTarget",
                r#"{"path":"0","target":{"x":1}}"#,
                ErrorCode::InvalidTarget,
            ),
        ] {
            assert_eq!(frames_text(op, args).unwrap_err().code, code, "{op} {args}");
        }
    }

    #[test]
    fn options_are_strict_and_null_is_default() {
        let d: DiffOptions = options(&Value::Null, ErrorCode::InvalidOptions, "o").unwrap();
        assert!(d.regions.is_empty());
        let e = options::<DiffOptions>(&json!({"regions": "cart"}), ErrorCode::InvalidOptions, "o")
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidOptions);
        let e = options::<JudgeOptions>(&json!({"stable": 1}), ErrorCode::InvalidOptions, "o")
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidOptions);
    }

    #[test]
    fn resolve_options_reject_unknown_keys() {
        assert_eq!(
            resolve_options(&json!({"obs": 1})).unwrap_err().code,
            ErrorCode::InvalidOptions
        );
        assert_eq!(
            resolve_options(&json!(3)).unwrap_err().code,
            ErrorCode::InvalidOptions
        );
        assert_eq!(
            resolve_options(&json!({"observation": null})).unwrap(),
            (None, None)
        );
    }

    #[test]
    fn runs_cross_as_json() {
        let step = json!({ "action": { "kind": "goto", "url": "http://shop.test/" } });
        let turn = run_start(&step, &Value::Null, &Value::Null).unwrap();
        assert_eq!(
            serde_json::to_value(&turn.need).unwrap()["need"],
            "fingerprint"
        );
        let state = serde_json::to_value(&turn.run).unwrap();
        let turn = run_next(
            &state,
            &json!({ "answer": "fingerprint", "fingerprint": "f" }),
        )
        .unwrap();
        assert_eq!(serde_json::to_value(&turn.need).unwrap()["need"], "settle");
        let state = serde_json::to_value(&turn.run).unwrap();
        let answer = json!({ "answer": "settled", "fingerprint": "f", "stable": true, "changed": false, "waitedMs": 300 });
        let turn = run_next(&state, &answer).unwrap();
        assert_eq!(serde_json::to_value(&turn.need).unwrap()["need"], "observe");
        assert_eq!(
            run_next(&json!({}), &answer).unwrap_err().code,
            ErrorCode::InvalidArgument
        );
        assert_eq!(
            run_start(
                &json!({ "action": { "kind": "teleport" } }),
                &Value::Null,
                &Value::Null
            )
            .unwrap_err()
            .code,
            ErrorCode::InvalidAction
        );
    }

    #[test]
    fn reports_are_worded_once() {
        let record = r#"{ "action": "click", "target": "button[Pay]", "verdict": "MISMATCH", "reason": "wrong",
            "error": { "code": "UNDO_FAILED", "message": "m" }, "residue": ["listitem[Shirt M]"], "attempts": 2, "undone": 2 }"#;
        let text = explain_text(&format!(r#"{{ "record": {record} }}"#)).unwrap();
        assert!(
            text.starts_with("Action:    click on button[Pay]\n"),
            "{text}"
        );
        assert!(text.contains("Attempts:  2, 2 undone\n"), "{text}");
        assert!(
            text.ends_with("Undo:      failed, still there:\n  listitem[Shirt M]\n"),
            "{text}"
        );
        assert_eq!(
            summary_text(record).unwrap(),
            "click on button[Pay]: MISMATCH — wrong"
        );
        let error = r#"{ "error": { "code": "TARGET_AMBIGUOUS", "message": "two", "candidates": [
            { "ref": "e1", "role": "button", "name": "Pay", "region": "form" } ] } }"#;
        assert_eq!(
            explain_text(error).unwrap(),
            "Error:     two\n  candidate e1 button[Pay] in form\n"
        );
        for bad in [
            "",
            "{}",
            r#"{ "record": {}, "error": {} }"#,
            r#"{ "nothing": 1 }"#,
        ] {
            assert_eq!(
                explain_text(bad).unwrap_err().code,
                ErrorCode::InvalidArgument,
                "{bad}"
            );
        }
        assert_eq!(
            summary_text("[1]").unwrap_err().code,
            ErrorCode::InvalidArgument
        );
    }

    #[test]
    fn trace_entries_come_from_a_record_or_an_end() {
        let made: Value = serde_json::from_str(
            &trace_text(
                r#"{ "step": 2, "record": { "action": "click", "verdict": "MATCH", "ok": true } }"#,
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(
            (made["name"].as_str(), made["entry"]["step"].as_u64()),
            (Some("click-match"), Some(2))
        );
        let ended: Value = serde_json::from_str(
            &trace_text(r#"{ "step": 3, "ended": { "action": "fill", "code": "TARGET_NOT_FOUND", "reason": "none" } }"#).unwrap(),
        )
        .unwrap();
        assert_eq!(ended["name"], "fill-target-not-found");
        assert_eq!(ended["entry"]["reason"], "none");
        for bad in [
            "",
            "{}",
            r#"{ "step": 1 }"#,
            r#"{ "step": 1, "record": {}, "ended": { "action": "x" } }"#,
        ] {
            assert_eq!(
                trace_text(bad).unwrap_err().code,
                ErrorCode::InvalidArgument,
                "{bad}"
            );
        }
    }

    #[test]
    fn looks_and_waits_start_from_text() {
        let look = run_look_text("", "").unwrap();
        assert!(
            !matches!(look.need, Need::Done { .. }),
            "a look asks the page first"
        );
        let until = r#"{ "kind": "textAppears", "text": "Saved", "region": null }"#;
        let wait = run_wait_text(until, "1200", "").unwrap();
        assert!(
            !matches!(wait.need, Need::Done { .. }),
            "a wait asks the page first"
        );
        let by_policy = run_wait_text(until, "", r#"{ "timing": { "timeoutMs": 900 } }"#);
        assert!(by_policy.is_ok());
        #[rustfmt::skip]
        let bad = [
            (run_look_text(r#"{ "maxAttempts": "2" }"#, ""), ErrorCode::InvalidOptions),
            (run_look_text("", "{}"), ErrorCode::InvalidSnapshot),
            (run_wait_text("", "", ""), ErrorCode::InvalidArgument),
            (run_wait_text(r#"{ "kind": "teleported" }"#, "", ""), ErrorCode::InvalidArgument),
            (run_wait_text(until, "-1", ""), ErrorCode::InvalidArgument),
            (run_wait_text(until, "", r#"{ "maxAttempts": "x" }"#), ErrorCode::InvalidOptions),
        ];
        for (result, code) in bad {
            assert_eq!(result.unwrap_err().code, code);
        }
    }

    #[test]
    fn runs_cross_as_text_with_the_same_answers() {
        let step = r#"{ "action": { "kind": "goto", "url": "http://shop.test/" } }"#;
        let by_text = run_start_text(step, "", "null").unwrap();
        let by_value = run_start(
            &serde_json::from_str(step).unwrap(),
            &Value::Null,
            &Value::Null,
        )
        .unwrap();
        assert_eq!(by_text, by_value);
        let state = serde_json::to_string(&by_text.run).unwrap();
        let turn =
            run_next_text(&state, r#"{ "answer": "fingerprint", "fingerprint": "f" }"#).unwrap();
        assert_eq!(serde_json::to_value(&turn.need).unwrap()["need"], "settle");
        #[rustfmt::skip]
        let bad = [
            (run_start_text("", "", ""), ErrorCode::InvalidAction),
            (run_start_text("{", "", ""), ErrorCode::InvalidAction),
            (run_start_text(step, r#"{ "maxAttempts": "2" }"#, ""), ErrorCode::InvalidOptions),
            (run_start_text(step, "", "{}"), ErrorCode::InvalidSnapshot),
            (run_next_text("{}", r#"{ "answer": "sent" }"#), ErrorCode::InvalidArgument),
            (run_next_text(&state, r#"{ "answer": "teleported" }"#), ErrorCode::InvalidArgument),
            (run_next_text(&state, "not json"), ErrorCode::InvalidArgument),
            (run_start_text(r#"{ "action": { "kind": "goto", "url": "http://shop.test/" }, "expect": [{ "kind": "vanishes" }] }"#, "", ""), ErrorCode::InvalidExpect),
            (run_start_text(r#"{ "action": { "kind": "goto" }, "expect": [] }"#, "", ""), ErrorCode::InvalidAction),
        ];
        for (result, code) in bad {
            assert_eq!(result.unwrap_err().code, code);
        }
        let blank = r#"{ "action": { "kind": "goto", "url": "http://shop.test/" }, "expect": [{ "kind": "text", "text": " " }] }"#;
        let turn = run_start_text(blank, "", "").unwrap();
        let Need::Done { record } = turn.need else {
            panic!("a claim with a blank text ends the run before anything is sent");
        };
        assert_eq!(record.error.unwrap().code, ErrorCode::InvalidExpect);
        let e = run_next_text("[]", r#"{ "answer": "sent" }"#).unwrap_err();
        assert!(e
            .message
            .ends_with("pass back the run the last call returned"));
    }

    #[test]
    fn bad_inputs_are_typed_errors() {
        assert_eq!(
            diff_value(&json!(null), &json!({}), &Value::Null)
                .unwrap_err()
                .code,
            ErrorCode::InvalidFields
        );
        assert_eq!(
            judge_value(
                &json!({"kind": "teleport"}),
                &json!(null),
                &json!(null),
                &Value::Null
            )
            .unwrap_err()
            .code,
            ErrorCode::InvalidAction
        );
    }
}
