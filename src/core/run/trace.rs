//! A step's entry in a trace (`--trace-dir`, the packages' `traceDir`): what every surface
//! writes for a step, one JSON file each, named `NNNN-<action>-<status>.json`. The harness,
//! Node and Python write the same entry, so a run reads the same in the viewer whichever
//! surface ran it.

use super::record::Record;
use crate::core::error::ErrorCode;
use serde_json::{json, Value};

/// What a trace entry is made of.
pub enum Traced<'a> {
    /// A step that has a record. A record whose error is not a verdict's (a target covered,
    /// a page that could not be observed) is written as a step that ended (its reason the
    /// record's).
    Record(&'a Record),
    /// A step that ended before it had a record (a target refused, bad input), with the
    /// error as the surface words it.
    Ended {
        action: &'a str,
        error: Option<(ErrorCode, &'a str)>,
        duration_ms: u64,
        started_at: &'a str,
    },
}

/// The codes of a step that failed after its effect was judged: the record says the rest.
fn judged(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::VerificationFailed | ErrorCode::UndoFailed | ErrorCode::IrreversibleAction
    )
}

/// The entry of step `step`, and its file's name after the number (`click-mismatch` of
/// `0003-click-mismatch.json`): named by the verdict when there is one, else by the error,
/// else `done` (a look, a wait, a key).
pub fn entry(step: usize, traced: &Traced) -> (String, Value) {
    let (action, verdict, code, body) = match *traced {
        Traced::Record(o) => match o.error.as_ref().map(|e| e.code) {
            Some(code) if !judged(code) => ended(
                step,
                &o.action,
                Some((code, o.reason.as_str())),
                o.duration_ms,
                &o.started_at,
            ),
            code => {
                // A watch that saw the wrong effect fails without an error: its code is recorded.
                let code = code.or((!o.ok).then_some(ErrorCode::VerificationFailed));
                let mut body = json!({
                    "step": step,
                    "action": o.action,
                    "target": o.target,
                    "intent": o.intent,
                    "value": o.value,
                    "verdict": o.verdict.map(|v| v.as_str()),
                    "ok": code.is_none() && o.ok,
                    "error": code.map(|c| c.as_str()),
                    "reason": o.reason,
                    "attributedTo": o.attributed_to,
                    "stable": o.stable,
                    "attempts": o.attempts,
                    "undone": o.undone,
                    "arbiter": o.arbiter,
                    "dialogs": o.dialogs,
                    "diff": o.diff,
                    "durationMs": o.duration_ms,
                    "startedAt": o.started_at,
                });
                // The step's typed claims and how each came out, only for a step that had some.
                if !o.expect.is_empty() {
                    body["expect"] = json!(o.expect);
                }
                (o.action.as_str(), o.verdict, code, body)
            }
        },
        Traced::Ended {
            action,
            error,
            duration_ms,
            started_at,
        } => ended(step, action, error, duration_ms, started_at),
    };
    let status = match (verdict, code) {
        (Some(v), _) => v.as_str().to_ascii_lowercase(),
        (None, Some(c)) => c.as_str().to_ascii_lowercase().replace('_', "-"),
        (None, None) => "done".to_owned(),
    };
    let name: String = action
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(24)
        .collect();
    (format!("{name}-{status}"), body)
}

type Entry<'a> = (
    &'a str,
    Option<crate::core::judge::VerdictKind>,
    Option<ErrorCode>,
    Value,
);

fn ended<'a>(
    step: usize,
    action: &'a str,
    error: Option<(ErrorCode, &str)>,
    duration_ms: u64,
    started_at: &str,
) -> Entry<'a> {
    let body = json!({
        "step": step,
        "action": action,
        "target": null,
        "intent": null,
        "verdict": null,
        "ok": error.is_none(),
        "error": error.map(|(c, _)| c.as_str()),
        "reason": error.map(|(_, r)| r).unwrap_or_default(),
        "attempts": 0,
        "undone": 0,
        "diff": null,
        "durationMs": duration_ms,
        "startedAt": started_at,
    });
    (action, None, error.map(|(c, _)| c), body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::Error;
    use crate::core::judge::VerdictKind;

    #[test]
    fn entries_are_named_by_verdict_error_or_done() {
        let matched = Record {
            action: "click".into(),
            verdict: Some(VerdictKind::Match),
            ok: true,
            reason: "the cart gained a shirt".into(),
            attempts: 1,
            ..Record::default()
        };
        let (stem, body) = entry(3, &Traced::Record(&matched));
        assert_eq!(stem, "click-match");
        assert_eq!(
            (body["ok"].as_bool(), body["error"].is_null()),
            (Some(true), true)
        );
        let watched = Record {
            action: "watch".into(),
            verdict: Some(VerdictKind::Mismatch),
            ..matched.clone()
        };
        let watched = Record {
            ok: false,
            ..watched
        };
        let (stem, body) = entry(4, &Traced::Record(&watched));
        assert_eq!(stem, "watch-mismatch");
        assert_eq!(body["error"], "VERIFICATION_FAILED");
        let covered = Record {
            action: "click".into(),
            error: Some(Error::new(ErrorCode::TargetObscured, "covered")),
            reason: "TARGET_OBSCURED: covered".into(),
            ..Record::default()
        };
        let (stem, body) = entry(5, &Traced::Record(&covered));
        assert_eq!(stem, "click-target-obscured");
        assert_eq!(
            (
                body["reason"].as_str(),
                body["attempts"].as_u64(),
                body["diff"].is_null()
            ),
            (Some("TARGET_OBSCURED: covered"), Some(0), true)
        );
        let waited = Record {
            action: "wait".into(),
            ok: true,
            ..Record::default()
        };
        assert_eq!(entry(6, &Traced::Record(&waited)).0, "wait-done");
        let refused = Traced::Ended {
            action: "fill",
            error: Some((ErrorCode::TargetNotFound, "TARGET_NOT_FOUND: no such field")),
            duration_ms: 0,
            started_at: "2026-12-05T00:00:00Z",
        };
        let (stem, body) = entry(7, &refused);
        assert_eq!(stem, "fill-target-not-found");
        assert_eq!(body["ok"], false);
        assert_eq!(body["reason"], "TARGET_NOT_FOUND: no such field");
    }
}
