//! Value-level entry points: untrusted JSON in, typed results out.
//!
//! The wasm exports are these functions plus the conversion to and from JS values, so the
//! page, the native harness and the tests all run the very same validation and logic; the
//! golden cases in `tests/` check that native and in-page answers are identical.

use super::diff::{diff, Diff, DiffOptions};
use super::error::{Error, ErrorCode, Result};
use super::judge::{judge, Action, JudgeOptions, Verdict};
use super::resolve::{self, Resolution};
use super::run::{Answer, Need, Policy, Run, Seen, Step};
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
    let step: Step = serde_json::from_value(step.clone())
        .map_err(|e| Error::new(ErrorCode::InvalidAction, format!("step: {e}")))?;
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

/// Reads JSON text (empty text is `null`) straight into `T`.
fn from_text<T: DeserializeOwned>(text: &str, code: ErrorCode, what: &str) -> Result<T> {
    let text = if text.trim().is_empty() { "null" } else { text };
    serde_json::from_str(text).map_err(|e| Error::new(code, format!("{what}: {e}")))
}

/// [`run_start`] over JSON text, as the machine module (`js/dist/prufe-run.mjs`) calls it:
/// the same validation and codes, empty text for a default. The text is read straight into
/// the machine's types, never through a [`Value`]: the run crosses on every call (it holds
/// two snapshots), and building a `Value` of it first, then the run, made each call about
/// 40% slower in the module (measured at 3,000 elements) for 6% less code.
pub fn run_start_text(step: &str, policy: &str, seen: &str) -> Result<Turn> {
    let step: Step = from_text(step, ErrorCode::InvalidAction, "step")?;
    let policy: Option<Policy> = from_text(policy, ErrorCode::InvalidOptions, "run policy")?;
    let seen: Option<Seen> = from_text(seen, ErrorCode::InvalidSnapshot, "seen")?;
    let mut run = Run::new(step, policy.unwrap_or_default()).with_seen(seen);
    let need = run.next(Answer::Start);
    Ok(Turn { run, need })
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        ];
        for (result, code) in bad {
            assert_eq!(result.unwrap_err().code, code);
        }
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
