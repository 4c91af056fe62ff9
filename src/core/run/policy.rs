//! How a run decides what the judge left open, and how long it waits.

use crate::core::judge::VerdictKind;
use serde::{Deserialize, Serialize};

/// Polling parameters of a settle, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Timing {
    pub poll_ms: u64,
    pub quiet_ms: u64,
    pub timeout_ms: u64,
    /// After an action's effect showed: the quiet window taken instead of `quiet_ms` when
    /// the page says it has shown no sign of change for this long (no mutation, no
    /// animation) and the driver sees no request the page started since the input still
    /// under way or just ended. 0: always `quiet_ms`. Only for a driver that answers
    /// `Read::Network`.
    pub quick_ms: u64,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            poll_ms: 50,
            quiet_ms: 250,
            timeout_ms: 5_000,
            quick_ms: 50,
        }
    }
}

/// What to do with AMBIGUOUS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Ambiguous {
    /// Treat it as a failure: undo, retry, stop. In doubt, the action is not approved.
    #[default]
    Reject,
    /// Let it pass.
    Accept,
    /// Ask the arbiter (`Need::Ask`) and do what it says.
    Arbiter,
}

/// How a run verifies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Policy {
    /// Attempts per step, the first included (at least one).
    pub max_attempts: u32,
    pub ambiguous: Ambiguous,
    pub timing: Timing,
    /// Judge only these regions (prefixes).
    pub regions: Vec<String>,
    /// Leave these regions out of the judgement.
    pub ignore_regions: Vec<String>,
    /// The forms of every secret the caller registered in the session so far (the
    /// module's `secretForms`, a driver's list as it holds it). The run scrubs them, with the
    /// step's own, from all it says: the record, an error, the arbiter's question. Never
    /// shown; left out of the policy's JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<String>,
    /// The driver keeps the step's pictures: the run asks for them (`run::camera`). Left out
    /// of the policy's JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pictures: bool,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            max_attempts: 2,
            ambiguous: Ambiguous::Reject,
            timing: Timing::default(),
            regions: Vec::new(),
            ignore_regions: Vec::new(),
            secrets: Vec::new(),
            pictures: false,
        }
    }
}

/// What a verdict comes to under a policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Pass,
    Fail,
    Ask,
}

/// MATCH passes, MISMATCH fails, AMBIGUOUS goes to the policy (which may ask the arbiter).
pub fn decide(verdict: VerdictKind, policy: Ambiguous) -> Decision {
    match (verdict, policy) {
        (VerdictKind::Match, _) => Decision::Pass,
        (VerdictKind::Mismatch, _) => Decision::Fail,
        (VerdictKind::Ambiguous, Ambiguous::Reject) => Decision::Fail,
        (VerdictKind::Ambiguous, Ambiguous::Accept) => Decision::Pass,
        (VerdictKind::Ambiguous, Ambiguous::Arbiter) => Decision::Ask,
    }
}
