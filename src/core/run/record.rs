//! [`Record`]: what one step did, in the one shape traces, `--json` lines, the viewer and
//! drivers all read. The machine fills what it decided; the driver adds what only it can
//! measure (`dialogs`, `durationMs`, `startedAt`, and the step number in a trace).

use crate::core::background::Background;
use crate::core::diff::Diff;
use crate::core::error::{Candidate, Error, ErrorCode};
use crate::core::expect::Outcome;
use crate::core::judge::VerdictKind;
use crate::core::redact::Redactor;
use serde::{Deserialize, Serialize};

/// The record of one step. Every string in it is redacted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct Record {
    /// `click`, `fill`, …, `click_at`, `drag_at`.
    pub action: String,
    /// The element acted on, as `role[label] in region`.
    pub target: Option<String>,
    pub intent: Option<String>,
    /// What the action carried: a fill value (`[redacted]` when sensitive), an option, a key,
    /// a URL, a destination, file names, a point.
    pub value: Option<String>,
    /// `None` when the step stopped before a verdict (nothing was judged).
    pub verdict: Option<VerdictKind>,
    /// MATCH, or AMBIGUOUS approved by the arbiter or the policy.
    pub ok: bool,
    /// Why the step failed, in the one error shape; `None` when it passed.
    pub error: Option<Error>,
    pub reason: String,
    /// How each of the step's typed claims (`expect`) came out, in the order given.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub expect: Vec<Outcome>,
    /// The element whose name explains the effect, when the judge found one.
    pub attributed_to: Option<String>,
    /// What to show as the effect: the diff's lines, or for a navigation the new address.
    pub lines: Vec<String>,
    /// The core diff of the last attempt.
    pub diff: Diff,
    /// What of a wrong effect was still there after its undo (`UNDO_FAILED`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub residue: Vec<String>,
    pub attempts: u32,
    pub undone: u32,
    /// The page settled before and after the action.
    pub stable: bool,
    /// The arbiter's answer, when it was asked.
    pub arbiter: Option<String>,
    /// Where the page was changing by itself before the action (`text in banner`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub background: Vec<String>,
    /// JavaScript dialogs that opened during the step (the driver's).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dialogs: Vec<String>,
    /// The driver's.
    pub duration_ms: u64,
    /// The driver's, RFC 3339.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub started_at: String,
}

impl Record {
    /// `click on button[Add Shirt M] in list with 'x'`.
    pub fn action_line(&self) -> String {
        let mut s = self.action.clone();
        if let Some(t) = &self.target {
            s.push_str(" on ");
            s.push_str(t);
        }
        if let Some(v) = &self.value {
            s.push_str(&format!(" with '{v}'"));
        }
        s
    }

    /// One line for logs: action, verdict and reason.
    pub fn summary(&self) -> String {
        match self.verdict {
            Some(v) => format!("{}: {} — {}", self.action_line(), v.as_str(), self.reason),
            None => format!("{}: {}", self.action_line(), self.reason),
        }
    }

    /// The full report: action, intent, verdict, attempts and what was observed.
    pub fn explain(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!("Action:    {}\n", self.action_line()));
        out.push_str(&format!(
            "Intent:    {}\n",
            self.intent.as_deref().unwrap_or("(not declared)")
        ));
        match self.verdict {
            Some(v) => out.push_str(&format!("Verdict:   {} — {}\n", v.as_str(), self.reason)),
            None => out.push_str(&format!("Verdict:   (none) — {}\n", self.reason)),
        }
        for (i, o) in self.expect.iter().enumerate() {
            let head = if i == 0 { "Expected:" } else { "" };
            out.push_str(&format!(
                "{head:<11}{} — {}: {}\n",
                o.claim,
                o.status.as_str(),
                o.evidence
            ));
        }
        if let Some(a) = &self.arbiter {
            out.push_str(&format!("Arbiter:   {a}\n"));
        }
        if !self.stable {
            out.push_str("Page:      still changing at the deadline (unstable)\n");
        }
        if self.undone > 0 {
            out.push_str(&format!(
                "Attempts:  {}, {} undone\n",
                self.attempts, self.undone
            ));
        } else {
            out.push_str(&format!("Attempts:  {}\n", self.attempts));
        }
        for d in &self.dialogs {
            out.push_str(&format!("Dialog:    {d}\n"));
        }
        if self.lines.is_empty() {
            out.push_str("Observed:  no change\n");
        } else {
            out.push_str("Observed:\n");
            for l in &self.lines {
                out.push_str("  ");
                out.push_str(l);
                out.push('\n');
            }
        }
        out
    }

    /// The report every surface prints for a step: [`Record::explain`], then what the
    /// record's error adds ([`error_lines`], with the error's message).
    pub fn report(&self) -> String {
        let mut out = self.explain();
        if let Some(e) = &self.error {
            out.push_str(&error_lines(
                e.code,
                &e.message,
                &e.candidates,
                &self.residue,
            ));
        }
        out
    }

    /// Scrubs every string of the record (the diff and the error included) of `secrets`.
    pub fn scrub(&mut self, secrets: &Redactor) {
        if secrets.is_empty() {
            return;
        }
        let Ok(mut v) = serde_json::to_value(&*self) else {
            return;
        };
        secrets.scrub_value(&mut v);
        if let Ok(clean) = serde_json::from_value(v) {
            *self = clean;
        }
    }
}

/// The slots of a background as records show them: `text in banner`,
/// `listitem in carousel (frame 0)`.
pub fn background_lines(b: &Background) -> Vec<String> {
    let place = |frame: &str, region: &str| {
        let region = if region.is_empty() {
            "document"
        } else {
            region
        };
        if frame.is_empty() {
            region.to_owned()
        } else {
            format!("{region} (frame {frame})")
        }
    };
    let texts = b
        .texts
        .iter()
        .map(|t| format!("text in {}", place(&t.frame, &t.region)));
    let elements = b
        .elements
        .iter()
        .map(|e| format!("{} in {}", e.role.as_str(), place(&e.frame, &e.region)));
    let mut out: Vec<String> = texts.chain(elements).collect();
    out.dedup();
    out
}

/// What an error adds to a step's report: the residue of an undo that failed, an action
/// with no inverse, or the error's `text` and the candidates of an ambiguity. A verdict that
/// failed adds nothing: the verdict line says it.
pub fn error_lines(
    code: ErrorCode,
    text: &str,
    candidates: &[Candidate],
    residue: &[String],
) -> String {
    let mut out = String::new();
    match code {
        ErrorCode::UndoFailed => {
            out.push_str("Undo:      failed, still there:\n");
            for line in residue {
                out.push_str("  ");
                out.push_str(line);
                out.push('\n');
            }
        }
        ErrorCode::IrreversibleAction => out.push_str("Undo:      no inverse applies; stopped\n"),
        ErrorCode::VerificationFailed => {}
        _ => {
            out.push_str(&format!("Error:     {text}\n"));
            for c in candidates {
                let region = if c.region.is_empty() {
                    String::new()
                } else {
                    format!(" in {}", c.region)
                };
                out.push_str(&format!(
                    "  candidate {} {}[{}]{region}\n",
                    c.reference, c.role, c.name
                ));
            }
        }
    }
    out
}
