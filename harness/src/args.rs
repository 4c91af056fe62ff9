//! What the `prufe` commands share: their exit codes, the step options of `prufe run` and
//! `prufe mcp`, and the error of a command or option this build was compiled without. Both
//! commands read these; neither reaches into the other for them.

use crate::arbiter::ArbiterConfig;
use crate::error::Error;
use crate::stabilise::Timing;
use crate::verify::Options;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use prufe::core::run::Ambiguous;

/// Exit code: every step ok.
pub const EXIT_OK: i32 = 0;
/// Exit code: a step failed, or the browser did.
pub const EXIT_FAILED: i32 = 1;
/// Exit code: bad usage or an invalid script.
pub const EXIT_USAGE: i32 = 2;
/// Exit code: stopped by SIGHUP (128 + 1).
pub const EXIT_SIGHUP: i32 = 129;
/// Exit code: stopped by SIGINT (128 + 2).
pub const EXIT_SIGINT: i32 = 130;
/// Exit code: stopped because the output pipe closed (128 + SIGPIPE).
pub const EXIT_BROKEN_PIPE: i32 = 141;
/// Exit code: stopped by SIGTERM (128 + 15).
pub const EXIT_SIGTERM: i32 = 143;

/// The error of a command or option this build was compiled without.
pub fn missing_feature(what: &str, feature: &str) -> Error {
    Error::Unsupported(format!(
        "{what} is not in this build of prufe: it was built without the `{feature}` feature \
         (rebuild with `cargo build -p prufe-harness --bin prufe`, default features on)"
    ))
}

/// How each verified step runs: the options `prufe run` and `prufe mcp` share, their
/// defaults the verifier's own.
#[derive(clap::Args, Debug, Clone)]
pub struct StepArgs {
    #[arg(long, value_name = "N", default_value_t = Options::default().max_attempts, value_parser = clap::value_parser!(u32).range(1..=10))]
    pub max_attempts: u32,
    #[arg(long, value_name = "N", default_value_t = Timing::default().quiet_ms)]
    pub quiet_ms: u64,
    #[arg(long, value_name = "N", default_value_t = Timing::default().timeout_ms, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub timeout_ms: u64,
    /// After an action's effect showed, end the wait after N ms instead of the quiet window
    /// when the page says it has shown no sign of change (no mutation, no animation) and no
    /// request it started since the input is under way; 0: always the quiet window.
    #[arg(long, value_name = "N", default_value_t = Timing::default().quick_ms)]
    pub quick_ms: u64,
    /// What an AMBIGUOUS verdict means when no arbiter decides it.
    #[arg(long, default_value = "reject", value_parser = ambiguous())]
    pub ambiguous: Ambiguous,
    /// An OpenAI-compatible chat completions URL that breaks AMBIGUOUS ties (key from
    /// PRUFE_JUDGE_KEY).
    #[arg(long, value_name = "URL")]
    pub judge_url: Option<String>,
}

impl StepArgs {
    /// A usage error when the options ask for what this build lacks.
    pub fn unsupported(&self) -> Option<Error> {
        (self.judge_url.is_some() && !cfg!(feature = "judge-http"))
            .then(|| missing_feature("--judge-url", "judge-http"))
    }

    /// `options` with these step settings.
    pub fn apply(&self, options: Options) -> Options {
        Options {
            timing: Timing {
                quiet_ms: self.quiet_ms,
                timeout_ms: self.timeout_ms,
                quick_ms: self.quick_ms,
                ..Timing::default()
            },
            max_attempts: self.max_attempts,
            ambiguous: self.ambiguous,
            arbiter: self.judge_url.clone().map(ArbiterConfig::from_env),
            ..options
        }
    }
}

/// `--ambiguous reject|accept`: the machine's own policy. `arbiter` is not a value of the
/// flag: `--judge-url` asks for it.
fn ambiguous() -> impl TypedValueParser<Value = Ambiguous> {
    PossibleValuesParser::new(["reject", "accept"]).map(|s| match s.as_str() {
        "accept" => Ambiguous::Accept,
        _ => Ambiguous::Reject,
    })
}
