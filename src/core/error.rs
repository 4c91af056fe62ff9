//! One error shape for every layer: a SCREAMING_SNAKE_CASE code a driver in any language can
//! branch on, a message that says what to do next, and for ambiguity a capped candidate list.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Every failure prufe reports. Codes are part of the public contract: add, never rename.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum ErrorCode {
    /// The engine has not finished loading; await `prufe.ready`.
    NotReady,
    /// WebAssembly could not be instantiated (for instance a CSP without `wasm-unsafe-eval`).
    WasmBlocked,
    /// An argument is not of the documented shape.
    InvalidArgument,
    /// An object has missing or unknown keys.
    InvalidFields,
    /// A text field is empty, not a string or over-long.
    InvalidText,
    /// An epoch is not a non-negative integer.
    InvalidEpoch,
    /// A context is not `{ tab, epoch, snapshot }`.
    InvalidContext,
    /// `hasMore` is not a boolean.
    InvalidCompleteness,
    /// `inViewport` is not a boolean.
    InvalidViewport,
    /// An element state is not of its type (integer 1 is not a boolean).
    InvalidState,
    /// The element list is not a list, or holds more than `MAX_ELEMENTS`.
    InvalidElements,
    /// A target is malformed.
    InvalidTarget,
    /// An action is malformed or unknown.
    InvalidAction,
    /// Options are malformed.
    InvalidOptions,
    /// A snapshot is malformed.
    InvalidSnapshot,
    /// A script file is malformed.
    InvalidScript,
    /// A step's `expect` holds a claim of the wrong shape or values.
    InvalidExpect,
    /// Two elements of one observation share a ref.
    DuplicateReference,
    /// The observation is not the one the caller expected (tab, epoch or snapshot differ).
    StaleObservation,
    /// A ref belongs to an older document, or its node is gone.
    StaleReference,
    /// The node behind a ref, or under a point, now shows something else.
    TargetChanged,
    /// The observation was cut short, so uniqueness cannot be established.
    TargetQueryTruncated,
    /// More than one element matches the target.
    TargetAmbiguous,
    /// No visible element matches the target.
    TargetNotFound,
    /// The single match is disabled.
    TargetDisabled,
    /// The single match is not visible.
    TargetNotVisible,
    /// Another element would receive the input at the target's point.
    TargetObscured,
    /// The target kept moving.
    TargetNotStable,
    /// The action's effect is not the one intended.
    VerificationFailed,
    /// The undo ran but the wrong effect is still there.
    UndoFailed,
    /// The wrong effect has no inverse; prufe stopped.
    IrreversibleAction,
    /// A point lies outside the observed image.
    PointOutOfBounds,
    /// Input state of an attached browser could not be established.
    InputStateUnknown,
    /// Focus moved away from the intended field before typing.
    FocusLost,
    /// A wait's postcondition did not hold by its deadline.
    PostconditionTimeout,
    /// An operation ran past its time budget.
    Timeout,
    /// The browser or the protocol failed.
    BrowserError,
    /// Navigation failed.
    NavigationFailed,
    /// A bug in prufe; please report it.
    Internal,
    /// The page's renderer crashed, or its tab went away, during the action.
    PageCrashed,
    /// The browser exited, or the connection to it closed, during the action.
    BrowserClosed,
    /// The page's main thread stayed busy past the action's time budget.
    PageUnresponsive,
    /// The run was stopped (a signal) before the action finished.
    Interrupted,
}

impl ErrorCode {
    /// The codes of a page that could not answer now, and may a moment later: no document
    /// or no engine there yet (a document being replaced), a call that timed out, a node of
    /// the document that just went away. A driver asks again, or answers the machine that the
    /// page is unavailable; it never ends a step on one. One list for every driver: the
    /// harness reads [`ErrorCode::is_transient`], the packages `prufeRun.transient()`.
    pub const TRANSIENT: &'static [ErrorCode] = &[
        ErrorCode::BrowserError,
        ErrorCode::NotReady,
        ErrorCode::StaleReference,
        ErrorCode::Internal,
        ErrorCode::Timeout,
    ];

    /// How many times a driver sends a call again, to the document's new execution context,
    /// when the one it was addressed to was destroyed before the call ran (a navigation raced
    /// it). A transport's own matter: the machine names a root, never a context, and the call
    /// never reached a page, so nothing was answered to read again; one bound for every
    /// driver: the harness reads this, the packages `prufeRun.resends()`.
    pub const RESENDS: u32 = 1;

    /// Is this a code of a page that could not answer now ([`ErrorCode::TRANSIENT`])?
    pub fn is_transient(self) -> bool {
        Self::TRANSIENT.contains(&self)
    }

    /// The wire name, e.g. `TARGET_AMBIGUOUS`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotReady => "NOT_READY",
            ErrorCode::WasmBlocked => "WASM_BLOCKED",
            ErrorCode::InvalidArgument => "INVALID_ARGUMENT",
            ErrorCode::InvalidFields => "INVALID_FIELDS",
            ErrorCode::InvalidText => "INVALID_TEXT",
            ErrorCode::InvalidEpoch => "INVALID_EPOCH",
            ErrorCode::InvalidContext => "INVALID_CONTEXT",
            ErrorCode::InvalidCompleteness => "INVALID_COMPLETENESS",
            ErrorCode::InvalidViewport => "INVALID_VIEWPORT",
            ErrorCode::InvalidState => "INVALID_STATE",
            ErrorCode::InvalidElements => "INVALID_ELEMENTS",
            ErrorCode::InvalidTarget => "INVALID_TARGET",
            ErrorCode::InvalidAction => "INVALID_ACTION",
            ErrorCode::InvalidOptions => "INVALID_OPTIONS",
            ErrorCode::InvalidSnapshot => "INVALID_SNAPSHOT",
            ErrorCode::InvalidScript => "INVALID_SCRIPT",
            ErrorCode::InvalidExpect => "INVALID_EXPECT",
            ErrorCode::DuplicateReference => "DUPLICATE_REFERENCE",
            ErrorCode::StaleObservation => "STALE_OBSERVATION",
            ErrorCode::StaleReference => "STALE_REFERENCE",
            ErrorCode::TargetChanged => "TARGET_CHANGED",
            ErrorCode::TargetQueryTruncated => "TARGET_QUERY_TRUNCATED",
            ErrorCode::TargetAmbiguous => "TARGET_AMBIGUOUS",
            ErrorCode::TargetNotFound => "TARGET_NOT_FOUND",
            ErrorCode::TargetDisabled => "TARGET_DISABLED",
            ErrorCode::TargetNotVisible => "TARGET_NOT_VISIBLE",
            ErrorCode::TargetObscured => "TARGET_OBSCURED",
            ErrorCode::TargetNotStable => "TARGET_NOT_STABLE",
            ErrorCode::VerificationFailed => "VERIFICATION_FAILED",
            ErrorCode::UndoFailed => "UNDO_FAILED",
            ErrorCode::IrreversibleAction => "IRREVERSIBLE_ACTION",
            ErrorCode::PointOutOfBounds => "POINT_OUT_OF_BOUNDS",
            ErrorCode::InputStateUnknown => "INPUT_STATE_UNKNOWN",
            ErrorCode::FocusLost => "FOCUS_LOST",
            ErrorCode::PostconditionTimeout => "POSTCONDITION_TIMEOUT",
            ErrorCode::Timeout => "TIMEOUT",
            ErrorCode::BrowserError => "BROWSER_ERROR",
            ErrorCode::NavigationFailed => "NAVIGATION_FAILED",
            ErrorCode::Internal => "INTERNAL",
            ErrorCode::PageCrashed => "PAGE_CRASHED",
            ErrorCode::BrowserClosed => "BROWSER_CLOSED",
            ErrorCode::PageUnresponsive => "PAGE_UNRESPONSIVE",
            ErrorCode::Interrupted => "INTERRUPTED",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A candidate listed by an ambiguity error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    #[serde(rename = "ref")]
    pub reference: String,
    pub role: String,
    pub name: String,
    pub region: String,
}

/// At most this many candidates are listed by `TARGET_AMBIGUOUS`.
pub const MAX_CANDIDATES: usize = 10;

/// The one error shape. `message` never carries a secret: it is built from redacted data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<Candidate>,
}

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
            candidates: Vec::new(),
        }
    }

    pub fn with_candidates(mut self, candidates: Vec<Candidate>) -> Self {
        self.candidates = candidates;
        self.candidates.truncate(MAX_CANDIDATES);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_that_cannot_answer_now_is_transient_a_wrong_target_never() {
        for code in [
            ErrorCode::NotReady,
            ErrorCode::BrowserError,
            ErrorCode::Timeout,
        ] {
            assert!(code.is_transient(), "{code:?}");
        }
        for code in [
            ErrorCode::TargetNotFound,
            ErrorCode::TargetAmbiguous,
            ErrorCode::VerificationFailed,
            ErrorCode::WasmBlocked,
            ErrorCode::InvalidArgument,
        ] {
            assert!(!code.is_transient(), "{code:?}");
        }
    }

    #[test]
    fn codes_are_screaming_snake_case_on_the_wire() {
        for code in [
            ErrorCode::NotReady,
            ErrorCode::TargetQueryTruncated,
            ErrorCode::PointOutOfBounds,
            ErrorCode::PageCrashed,
            ErrorCode::BrowserClosed,
            ErrorCode::PageUnresponsive,
            ErrorCode::Interrupted,
        ] {
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::json!(code.as_str())
            );
        }
        assert_eq!(ErrorCode::TargetAmbiguous.to_string(), "TARGET_AMBIGUOUS");
        assert_eq!(ErrorCode::StaleObservation.as_str(), "STALE_OBSERVATION");
        let e = Error::new(ErrorCode::TargetNotFound, "no button");
        let json = serde_json::to_string(&e).unwrap();
        assert_eq!(json, r#"{"code":"TARGET_NOT_FOUND","message":"no button"}"#);
    }

    #[test]
    fn candidates_are_capped() {
        let c = Candidate {
            reference: "e1".into(),
            role: "button".into(),
            name: "x".into(),
            region: String::new(),
        };
        let e = Error::new(ErrorCode::TargetAmbiguous, "two").with_candidates(vec![c; 25]);
        assert_eq!(e.candidates.len(), MAX_CANDIDATES);
    }
}
