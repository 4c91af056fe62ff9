//! The harness's one error type. Every variant maps to a core [`ErrorCode`], so a script
//! driver reads the same SCREAMING_SNAKE_CASE codes from the CLI's JSON as from the engine.
//!
//! Verification failures carry the [`Outcome`] that proved them, so `explain()` works on the
//! error as well as on a successful result. `IrreversibleAction` chains the verification
//! failure it could not undo as its `source()`.
//!
//! The DevTools connection's own error, [`CdpError`], is here too (and re-exported by
//! `cdp`), so that this module depends on no other module of the harness.

use prufe::core::error::{Candidate, ErrorCode};
use prufe::core::run::record::error_lines;
use prufe::core::run::Record as Outcome;

/// A DevTools command that did not get a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CdpError {
    /// The browser answered with an error.
    #[error("Error {code}: {message}")]
    Protocol { code: i64, message: String },
    /// No reply within [`REQUEST_TIMEOUT`](crate::cdp::conn::REQUEST_TIMEOUT).
    #[error("Request timed out.")]
    Timeout,
    /// The connection closed before the reply came (or before the command could be sent).
    #[error("the DevTools connection is closed")]
    Closed,
    /// An evaluation threw.
    #[error("the evaluation threw: {0}")]
    Exception(String),
    /// A reply without a field the protocol promises (`method`'s `field`).
    #[error("the browser's reply to {method} has no {field}")]
    Reply {
        method: &'static str,
        field: &'static str,
    },
}

/// The words of a failed step's record: the machine's message, as every surface says it.
fn said(outcome: &Outcome) -> String {
    outcome
        .error
        .as_ref()
        .map_or_else(|| outcome.summary(), |e| e.message.clone())
}

/// Everything the harness reports to its user.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An error reported by the core or the in-page engine, with its own code.
    #[error("{0}")]
    Core(#[from] prufe::core::Error),

    /// The action's effect is not the one intended (MISMATCH, or AMBIGUOUS rejected), and it
    /// was undone: the page is back to the state before the action.
    #[error("VERIFICATION_FAILED: {}", said(.0))]
    VerificationFailed(Box<Outcome>),

    /// The undo ran, but part of the wrong effect is still on the page.
    #[error("UNDO_FAILED: {}", said(.outcome))]
    UndoFailed {
        outcome: Box<Outcome>,
        residue: Vec<String>,
    },

    /// The wrong effect has no inverse; prufe stopped. `source()` is the verification failure.
    #[error("IRREVERSIBLE_ACTION: {}", said(.outcome))]
    IrreversibleAction {
        outcome: Box<Outcome>,
        #[source]
        cause: Box<Error>,
    },

    /// The script file is not valid; reported before any action runs.
    #[error("INVALID_SCRIPT: {0}")]
    Script(String),

    /// The command or option needs a part this build of prufe was compiled without (a cargo
    /// feature of prufe-harness).
    #[error("INVALID_OPTIONS: {0}")]
    Unsupported(String),

    /// Chromium could not be launched or reached.
    #[error("BROWSER_ERROR: {0}")]
    Launch(String),

    /// The DevTools Protocol failed.
    #[error("BROWSER_ERROR: {0}")]
    Cdp(#[from] CdpError),

    /// A navigation failed.
    #[error("NAVIGATION_FAILED: {0}")]
    Navigation(String),

    /// The engine bundle could not be found or did not install.
    #[error("NOT_READY: {0}")]
    Bundle(String),

    /// An operation ran past its time budget.
    #[error("TIMEOUT: {0}")]
    Timeout(String),

    /// The page's renderer crashed, or its tab was closed, while the step ran. Whatever the
    /// step had done went with it.
    #[error("PAGE_CRASHED: {0}; {hint}", hint = Self::hint_for(ErrorCode::PageCrashed))]
    PageCrashed(String),

    /// Chromium exited, or the DevTools connection to it closed, while the step ran.
    #[error("BROWSER_CLOSED: {0}; {hint}", hint = Self::hint_for(ErrorCode::BrowserClosed))]
    BrowserClosed(String),

    /// The page's main thread stayed busy past the step's time budget: no command it has
    /// to answer can complete.
    #[error("PAGE_UNRESPONSIVE: {0}; {hint}", hint = Self::hint_for(ErrorCode::PageUnresponsive))]
    PageUnresponsive(String),

    /// A signal stopped the run before the step finished; the step was not verified.
    #[error("INTERRUPTED: {0}; {hint}", hint = Self::hint_for(ErrorCode::Interrupted))]
    Interrupted(String),

    /// A file could not be read or written.
    #[error("INTERNAL: {context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The wire code of this error.
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::Core(e) => e.code,
            Error::VerificationFailed(_) => ErrorCode::VerificationFailed,
            Error::UndoFailed { .. } => ErrorCode::UndoFailed,
            Error::IrreversibleAction { .. } => ErrorCode::IrreversibleAction,
            Error::Script(_) => ErrorCode::InvalidScript,
            Error::Unsupported(_) => ErrorCode::InvalidOptions,
            Error::Launch(_) | Error::Cdp(_) => ErrorCode::BrowserError,
            Error::Navigation(_) => ErrorCode::NavigationFailed,
            Error::Bundle(_) => ErrorCode::NotReady,
            Error::Timeout(_) => ErrorCode::Timeout,
            Error::Io { .. } => ErrorCode::Internal,
            Error::PageCrashed(_) => ErrorCode::PageCrashed,
            Error::BrowserClosed(_) => ErrorCode::BrowserClosed,
            Error::PageUnresponsive(_) => ErrorCode::PageUnresponsive,
            Error::Interrupted(_) => ErrorCode::Interrupted,
        }
    }

    /// What to do next, for the errors that end a run whatever the step was.
    pub fn hint(&self) -> Option<&'static str> {
        match self.code() {
            ErrorCode::PageCrashed
            | ErrorCode::BrowserClosed
            | ErrorCode::PageUnresponsive
            | ErrorCode::Interrupted => Some(Self::hint_for(self.code())),
            _ => None,
        }
    }

    fn hint_for(code: ErrorCode) -> &'static str {
        match code {
            ErrorCode::PageCrashed => {
                "the tab's page is gone and so is whatever the step had done; start the run again \
                 (a page that crashes every time is out of memory or hits a renderer bug)"
            }
            ErrorCode::BrowserClosed => {
                "nothing more can run in this browser; check that Chromium still starts \
                 (PRUFE_CHROMIUM) and has memory to spare, or that the --connect browser is up"
            }
            ErrorCode::PageUnresponsive => {
                "a script of the page keeps its main thread busy (an endless loop?); if the page \
                 is only slow, raise --timeout-ms"
            }
            ErrorCode::Interrupted => {
                "the step may have acted without being verified: look at the page before \
                 running it again"
            }
            _ => "",
        }
    }

    /// Does this error end everything that would run in the tab after it (the page or the
    /// browser is gone, the page does not answer, or the run was stopped)?
    pub fn is_fatal(&self) -> bool {
        matches!(
            self,
            Error::PageCrashed(_)
                | Error::BrowserClosed(_)
                | Error::PageUnresponsive(_)
                | Error::Interrupted(_)
        )
    }

    /// The verification record behind a failure, when there is one.
    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            Error::VerificationFailed(o) => Some(o),
            Error::UndoFailed { outcome, .. } | Error::IrreversibleAction { outcome, .. } => {
                Some(outcome)
            }
            _ => None,
        }
    }

    /// Candidates listed by an ambiguity error.
    pub fn candidates(&self) -> &[Candidate] {
        match self {
            Error::Core(e) => &e.candidates,
            _ => &[],
        }
    }

    /// A multi-line report: the outcome's `explain()` plus what the error adds.
    pub fn explain(&self) -> String {
        let mut out = match self.outcome() {
            Some(o) => o.explain(),
            None => String::new(),
        };
        let (code, residue): (ErrorCode, &[String]) = match self {
            Error::UndoFailed { residue, .. } => (ErrorCode::UndoFailed, residue),
            Error::IrreversibleAction { .. } => (ErrorCode::IrreversibleAction, &[]),
            Error::VerificationFailed(_) => (ErrorCode::VerificationFailed, &[]),
            other => (other.code(), &[]),
        };
        let text = self.to_string();
        // The report's line says the message; the code is the error's, shown beside it.
        let message = text
            .strip_prefix(&format!("{}: ", self.code()))
            .unwrap_or(&text);
        out.push_str(&error_lines(code, message, self.candidates(), residue));
        out
    }

    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            context: context.into(),
            source,
        }
    }

    pub(crate) fn core(code: ErrorCode, message: impl Into<String>) -> Self {
        Error::Core(prufe::core::Error::new(code, message))
    }

    /// The core error a failed operation is answered to the machine with.
    pub(crate) fn to_core(&self) -> prufe::core::Error {
        if let Error::Core(c) = self {
            return c.clone();
        }
        let code = self.code();
        let text = self.to_string();
        let prefix = format!("{code}: ");
        let message = text.strip_prefix(&prefix).unwrap_or(&text).to_owned();
        prufe::core::Error::new(code, message)
    }

    /// Scrubs caller-declared secrets from every message this error can print.
    pub(crate) fn scrub(self, redactor: &prufe::core::redact::Redactor) -> Self {
        if redactor.is_empty() {
            return self;
        }
        let s = |t: String| redactor.scrub(&t).into_owned();
        match self {
            Error::Core(mut e) => {
                e.message = s(e.message);
                for c in &mut e.candidates {
                    c.name = s(std::mem::take(&mut c.name));
                    c.region = s(std::mem::take(&mut c.region));
                }
                Error::Core(e)
            }
            Error::Navigation(m) => Error::Navigation(s(m)),
            Error::Timeout(m) => Error::Timeout(s(m)),
            Error::Launch(m) => Error::Launch(s(m)),
            Error::Bundle(m) => Error::Bundle(s(m)),
            Error::Script(m) => Error::Script(s(m)),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_map_to_wire_names() {
        let cases: Vec<(Error, &str)> = vec![
            (Error::Script("x".into()), "INVALID_SCRIPT"),
            (Error::Launch("x".into()), "BROWSER_ERROR"),
            (
                Error::Core(prufe::core::run::ready::covered("a", "b", 1.0, 2.0)),
                "TARGET_OBSCURED",
            ),
            (
                Error::core(ErrorCode::TargetAmbiguous, "two"),
                "TARGET_AMBIGUOUS",
            ),
            (Error::Timeout("t".into()), "TIMEOUT"),
            (Error::PageCrashed("c".into()), "PAGE_CRASHED"),
            (Error::BrowserClosed("c".into()), "BROWSER_CLOSED"),
            (Error::PageUnresponsive("c".into()), "PAGE_UNRESPONSIVE"),
            (Error::Interrupted("c".into()), "INTERRUPTED"),
        ];
        for (e, want) in cases {
            assert_eq!(e.code().as_str(), want, "{e}");
            assert!(e.to_string().starts_with(want), "{e}");
        }
    }

    #[test]
    fn run_ending_errors_carry_their_hint() {
        for e in [
            Error::PageCrashed("the renderer crashed (during Runtime.evaluate)".into()),
            Error::BrowserClosed("the connection closed".into()),
            Error::PageUnresponsive("no answer for 5000 ms".into()),
            Error::Interrupted("SIGINT".into()),
        ] {
            assert!(e.is_fatal(), "{e}");
            let hint = e.hint().expect("a hint");
            assert!(!hint.is_empty());
            assert!(e.to_string().ends_with(hint), "{e}");
        }
        let e = Error::Timeout("t".into());
        assert!(!e.is_fatal());
        assert_eq!(e.hint(), None);
    }

    /// An error no record came with is reported as the machine reports it to Node and
    /// Python (`error_lines` of its code and message): the message, not the code twice.
    #[test]
    fn an_error_without_a_record_is_reported_in_the_machines_words() {
        for e in [
            Error::core(ErrorCode::InvalidAction, "unknown key \"Hyper\""),
            Error::Timeout("no answer in 5000 ms".into()),
        ] {
            let message = match &e {
                Error::Core(c) => c.message.clone(),
                other => other.to_string()[other.code().as_str().len() + 2..].to_owned(),
            };
            assert_eq!(
                e.explain(),
                error_lines(e.code(), &message, &[], &[]),
                "{e}"
            );
            assert!(e.explain().starts_with("Error:     "), "{e}");
            assert!(!e.explain().contains(e.code().as_str()), "{e}");
        }
    }

    #[test]
    fn scrub_removes_declared_secrets_from_messages() {
        let mut r = prufe::core::redact::Redactor::default();
        r.add_secret("hunter22");
        let e = Error::core(ErrorCode::TargetNotFound, "no textbox[hunter22]").scrub(&r);
        assert!(!e.to_string().contains("hunter22"), "{e}");
        assert!(e.to_string().contains("[redacted]"));
    }

    #[test]
    fn a_failed_step_says_the_machines_words() {
        let mut record = Outcome {
            action: "fill".into(),
            target: Some("textbox[Name]".into()),
            ..Outcome::default()
        };
        for (code, message) in [
            (ErrorCode::VerificationFailed, "the field reads 'Jo', not 'Joe'"),
            (
                ErrorCode::IrreversibleAction,
                "fill on textbox[Name] has no inverse and its effect could not be verified; prufe stopped: declare an inverse, or check the page by hand",
            ),
            (ErrorCode::UndoFailed, "MISMATCH: x; still there: y"),
        ] {
            record.error = Some(prufe::core::Error::new(code, message));
            let outcome = Box::new(record.clone());
            let e = match code {
                ErrorCode::VerificationFailed => Error::VerificationFailed(outcome),
                ErrorCode::UndoFailed => Error::UndoFailed {
                    outcome,
                    residue: vec!["y".into()],
                },
                _ => Error::IrreversibleAction {
                    cause: Box::new(Error::VerificationFailed(outcome.clone())),
                    outcome,
                },
            };
            assert_eq!(e.to_string(), format!("{}: {message}", code.as_str()));
        }
    }
}
