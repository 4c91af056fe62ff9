//! The `prufe` command line. Its contract is how users script prufe; keep it stable.
//!
//! ```text
//! prufe demo [--show]
//! prufe snapshot URL [--json]
//! prufe run URL --script FILE [--json] [--trace-dir DIR [--screenshots off|failures|all]]
//!           [--connect URL] [--max-attempts N]
//!           [--quiet-ms N] [--timeout-ms N] [--ambiguous reject|accept] [--judge-url URL]
//! prufe mcp [--port N] [--connect URL] [--caps vision] [--secrets FILE] [--trace-dir DIR] …
//! ```
//!
//! Exit codes: 0 every step ok; 1 a step failed (the run stops at the first one) or the
//! browser failed (`PAGE_CRASHED`, `BROWSER_CLOSED`, `PAGE_UNRESPONSIVE` among them); 2 bad
//! usage or an invalid script, reported before any action runs; 128 + the signal for a run
//! stopped by SIGHUP (129), SIGINT (130) or SIGTERM (143), and 141 when the output pipe
//! closed. A stopped run stops its step, releases held input, writes the step's record
//! (`INTERRUPTED`), closes the browser and removes its profile before it exits.
//! With `--json`, `run` prints one JSON object per step and line:
//! `{"step":1,"action":"click","ok":true,"verdict":"MATCH","error":null,"attempts":1,
//!   "undone":0,"reason":"…","diff":["appeared …"]}`.

pub use crate::args::{
    missing_feature, StepArgs, EXIT_BROKEN_PIPE, EXIT_FAILED, EXIT_OK, EXIT_SIGHUP, EXIT_SIGINT,
    EXIT_SIGTERM, EXIT_USAGE,
};
use crate::coords::{Executor, Failure, Report};
use crate::error::Error;
use crate::executor::{self, Request, RequestKind};
use crate::script;
use crate::serve::StaticServer;
use crate::verify::{Options, Outcome, Verifier};
use crate::wire::Object;
use clap::{Parser, Subcommand};
use prufe::core::identity::describe_element;
use prufe::core::judge::ActionKind;
use prufe::core::model::{Role, Snapshot};
use prufe::core::resolve::Target;
use prufe::core::run::{Action, Step};
use serde::Deserialize;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "prufe",
    version,
    about = "Checks that every browser action did what it was meant to do, and undoes it if not."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// The same click on a page that recycles its list rows, first bare, then verified.
    Demo {
        /// Open a visible browser window and go slowly.
        #[arg(long)]
        show: bool,
    },
    /// Print what prufe observes on a page.
    Snapshot {
        url: String,
        /// Print the snapshot as JSON.
        #[arg(long)]
        json: bool,
        /// Attach to a running browser (ws://…/devtools/browser/… or http://host:port).
        #[arg(long, value_name = "URL")]
        connect: Option<String>,
    },
    /// Open URL and run the steps of a script, each verified.
    Run(RunArgs),
    /// Serve the verified browser tools to MCP clients (stdio, or HTTP with --port).
    #[cfg(feature = "mcp")]
    Mcp(crate::mcp::McpArgs),
    /// Serve the verified browser tools to MCP clients (not in this build: it lacks the
    /// `mcp` feature).
    #[cfg(not(feature = "mcp"))]
    Mcp(NoMcpArgs),
}

/// `prufe mcp` in a build without the `mcp` feature: any arguments, refused as a whole.
#[cfg(not(feature = "mcp"))]
#[derive(clap::Args, Debug)]
pub struct NoMcpArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    pub args: Vec<String>,
}

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    pub url: String,
    /// A JSON array of steps.
    #[arg(long, value_name = "FILE")]
    pub script: PathBuf,
    /// One JSON object per step and line.
    #[arg(long)]
    pub json: bool,
    /// Write one redacted JSON record per action into DIR.
    #[arg(long, value_name = "DIR")]
    pub trace_dir: Option<PathBuf>,
    /// With --trace-dir: open the run in the trace viewer when it ends (its file:// link is
    /// printed either way).
    #[arg(long, requires = "trace_dir")]
    pub open: bool,
    /// With --trace-dir: which steps keep a before and an after picture (JPEG, secrets
    /// covered) beside their record.
    #[arg(long, value_name = "WHEN", default_value = "failures", value_parser = crate::pictures::parse_option)]
    pub screenshots: crate::pictures::Screenshots,
    /// Attach to a running browser (ws://…/devtools/browser/… or http://host:port).
    #[arg(long, value_name = "URL")]
    pub connect: Option<String>,
    #[command(flatten)]
    pub step: StepArgs,
    /// Judge only regions starting with this prefix (repeatable).
    #[arg(long, value_name = "REGION")]
    pub region: Vec<String>,
    /// Leave regions starting with this prefix out of the judgement (repeatable).
    #[arg(long, value_name = "REGION")]
    pub ignore_region: Vec<String>,
}

/// Parses the arguments and runs; returns the process exit code.
pub async fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let _ = e.print();
            return code;
        }
    };
    run_cli(cli).await
}

/// Runs a parsed command line.
pub async fn run_cli(cli: Cli) -> i32 {
    match cli.command {
        Command::Demo { show } => stoppable(demo(show)).await,
        Command::Snapshot { url, json, connect } => stoppable(snapshot(&url, json, connect)).await,
        Command::Run(args) => run(args).await,
        #[cfg(feature = "mcp")]
        Command::Mcp(args) => stoppable(crate::mcp::run(args)).await,
        #[cfg(not(feature = "mcp"))]
        Command::Mcp(_) => fail(&missing_feature("`prufe mcp`", "mcp")),
    }
}

async fn snapshot(url: &str, as_json: bool, connect: Option<String>) -> i32 {
    let opts = Options {
        connect,
        ..Options::default()
    };
    let mut v = match Verifier::launch(opts).await {
        Ok(v) => v,
        Err(e) => return fail(&e),
    };
    let result = async {
        v.open(url).await?;
        v.snapshot().await
    }
    .await;
    let code = match result {
        Ok(s) => {
            let mut out = std::io::stdout().lock();
            if as_json {
                let _ = writeln!(out, "{}", serde_json::to_string(&s).unwrap_or_default());
            } else {
                let _ = write!(out, "{}", render_snapshot(&s));
            }
            EXIT_OK
        }
        Err(e) => fail(&e),
    };
    let _ = v.close().await;
    code
}

/// One line per element: `button[Add Shirt M] in catalogue (e3) disabled`.
pub fn render_snapshot(s: &Snapshot) -> String {
    let mut out = String::new();
    for e in &s.elements {
        out.push_str(&describe_element(e));
        out.push_str(&format!(" ({})", e.reference));
        if let Some(v) = &e.value {
            out.push_str(&format!(" value='{v}'"));
        }
        if let Some(c) = e.checked {
            out.push_str(&format!(" checked={}", c.as_str()));
        }
        if let Some(x) = e.expanded {
            out.push_str(&format!(" expanded={x}"));
        }
        if e.disabled {
            out.push_str(" disabled");
        }
        if !e.visible {
            out.push_str(" hidden");
        }
        if e.opaque {
            out.push_str(" opaque");
        }
        out.push('\n');
    }
    for t in &s.texts {
        out.push_str(&prufe::core::identity::describe_text(t));
        out.push('\n');
    }
    if s.has_more {
        out.push_str("(cut short: the page has more)\n");
    }
    out
}

async fn run(args: RunArgs) -> i32 {
    if let Some(e) = args.step.unsupported() {
        return fail(&e);
    }
    // Everything about the script is checked before a browser starts.
    let text = match std::fs::read_to_string(&args.script) {
        Ok(t) => t,
        Err(e) => {
            say(format_args!(
                "prufe: INVALID_SCRIPT: cannot read {}: {e}",
                args.script.display()
            ));
            return EXIT_USAGE;
        }
    };
    let base = args
        .script
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let steps = match plan(&text, &base) {
        Ok(s) => s,
        Err(e) => {
            say(format_args!(
                "prufe: INVALID_SCRIPT: {}: {e}",
                args.script.display()
            ));
            return EXIT_USAGE;
        }
    };
    let opts = args.step.apply(Options {
        connect: args.connect.clone(),
        trace_dir: args.trace_dir.clone(),
        screenshots: args.screenshots,
        regions: args.region.clone(),
        ignore_regions: args.ignore_region.clone(),
        ..Options::default()
    });
    let mut signals = Signals::install();
    // A launch stopped half-way drops the browser, which kills it and removes its profile.
    let mut v = tokio::select! {
        launched = Verifier::launch(opts) => match launched {
            Ok(v) => v,
            Err(e) => return fail(&e),
        },
        stop = signals.next() => return stop.exit_code(),
    };
    for planned in &steps {
        match planned {
            Planned::Semantic(step) => {
                if let Action::Fill {
                    value,
                    sensitive: true,
                    ..
                } = &step.action
                {
                    v.add_secret(value);
                }
            }
            Planned::Coordinate(Request::Type {
                text,
                sensitive: true,
            }) => v.add_secret(text),
            _ => {}
        }
    }
    let mut stopped = None;
    let opened = tokio::select! {
        opened = v.open(&args.url) => opened,
        stop = signals.next() => {
            stopped = Some(stop);
            Ok(())
        }
    };
    if let Err(e) = opened {
        let _ = v.close().await;
        return fail(&e);
    }
    let mut code = EXIT_OK;
    let mut executor = Executor::new(&v);
    for (i, planned) in steps.iter().enumerate() {
        if stopped.is_some() {
            break;
        }
        let n = i + 1;
        let ran = tokio::select! {
            ran = run_step(&mut v, &mut executor, n, planned, args.json) => ran,
            stop = signals.next() => {
                // The step's future is dropped here: its input is released below, and its
                // record says why it has no verdict.
                let error = stop.error();
                let kind = planned.kind();
                if matches!(planned, Planned::Semantic(_)) {
                    v.trace_unfinished(kind, &error);
                }
                let _ = print_unfinished(n, kind, error, args.json);
                stopped = Some(stop);
                break;
            }
        };
        match ran {
            Ok(true) => {}
            Ok(false) => {
                code = EXIT_FAILED;
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                stopped = Some(Stop::BrokenPipe);
                break;
            }
            // Any other failure to print loses the line only.
            Err(_) => {}
        }
    }
    v.release_input().await;
    let _ = v.close().await;
    if let Some(dir) = &args.trace_dir {
        show_traces(dir, args.open);
    }
    stopped.map_or(code, Stop::exit_code)
}

/// Runs one step and prints its line; `Ok(false)` when it failed (the run stops), `Err` when
/// the line could not be written.
async fn run_step(
    v: &mut Verifier,
    executor: &mut Executor,
    n: usize,
    planned: &Planned,
    as_json: bool,
) -> std::io::Result<bool> {
    match planned {
        Planned::Semantic(step) => {
            let result = v.perform(step).await;
            let ok = matches!(&result, Ok(o) if o.ok);
            print_step(n, step, &result, as_json, v.redactor())?;
            Ok(ok)
        }
        Planned::Coordinate(request) => {
            let result = executor.run(v, request).await;
            let ok = matches!(&result, Ok(r) if r.outcome.as_ref().is_none_or(|o| o.ok));
            print_coordinate_step(n, request, &result, as_json, v.redactor())?;
            Ok(ok)
        }
    }
}

/// The line of a step that a signal stopped.
fn print_unfinished(n: usize, kind: &str, error: Error, as_json: bool) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    if as_json {
        return writeln!(out, "{}", json_line(n, kind, &Err(error)));
    }
    writeln!(out, "✗ {n} {kind}: {error}")
}

/// Why a run ended before its last step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// SIGHUP: the terminal went away.
    Hangup,
    /// SIGINT: Ctrl-C.
    Interrupt,
    /// SIGTERM.
    Terminate,
    /// The output pipe closed: nobody reads the results any more.
    BrokenPipe,
}

impl Stop {
    /// 128 + the signal's number, as a shell reports a process the signal killed.
    pub fn exit_code(self) -> i32 {
        match self {
            Stop::Hangup => EXIT_SIGHUP,
            Stop::Interrupt => EXIT_SIGINT,
            Stop::Terminate => EXIT_SIGTERM,
            Stop::BrokenPipe => EXIT_BROKEN_PIPE,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Stop::Hangup => "SIGHUP",
            Stop::Interrupt => "SIGINT",
            Stop::Terminate => "SIGTERM",
            Stop::BrokenPipe => "a closed output pipe",
        }
    }

    /// The error of the step it stopped.
    pub fn error(self) -> Error {
        Error::Interrupted(format!(
            "stopped by {} before the step finished; held input is released and the browser \
             closed before prufe exits",
            self.name()
        ))
    }
}

/// The signals that stop a run. Installed before the browser starts: from then on they no
/// longer kill prufe outright, so it can release input, write the trace and close the
/// browser first.
struct Signals {
    #[cfg(unix)]
    streams: Option<[(Stop, tokio::signal::unix::Signal); 3]>,
}

impl Signals {
    fn install() -> Signals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let streams = (|| {
                Ok::<_, std::io::Error>([
                    (Stop::Hangup, signal(SignalKind::hangup())?),
                    (Stop::Interrupt, signal(SignalKind::interrupt())?),
                    (Stop::Terminate, signal(SignalKind::terminate())?),
                ])
            })();
            if let Err(e) = &streams {
                say(format_args!(
                    "prufe: signal handlers not installed ({e}); a signal will kill prufe, and the browser with it"
                ));
            }
            Signals {
                streams: streams.ok(),
            }
        }
        #[cfg(not(unix))]
        Signals {}
    }

    /// The next stopping signal; never, without handlers.
    async fn next(&mut self) -> Stop {
        #[cfg(unix)]
        if let Some([(a, sa), (b, sb), (c, sc)]) = self.streams.as_mut() {
            let (a, b, c) = (*a, *b, *c);
            return tokio::select! {
                _ = sa.recv() => a,
                _ = sb.recv() => b,
                _ = sc.recv() => c,
            };
        }
        std::future::pending().await
    }
}

/// Runs a command that launches a browser until it ends or a signal stops it; a stopped
/// command's browser is dropped, which kills it and removes its profile.
async fn stoppable(command: impl std::future::Future<Output = i32>) -> i32 {
    let mut signals = Signals::install();
    tokio::select! {
        code = command => code,
        stop = signals.next() => stop.exit_code(),
    }
}

/// A line on stderr. A closed stderr loses the line; it does not end the run.
fn say(line: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Writes `DIR/traces.js` (the records, for the viewer, which cannot list a directory from
/// file://) and prints the viewer's link on stderr; with `open`, asks the desktop to open it.
fn show_traces(dir: &Path, open: bool) {
    let link = match crate::trace::write_viewer_script(dir) {
        Ok(script) => viewer_link(&script),
        Err(e) => {
            say(format_args!(
                "prufe: traces.js not written to {} ({e})",
                dir.display()
            ));
            return;
        }
    };
    say(format_args!("prufe: trace viewer: {link}"));
    if open {
        let opened = std::process::Command::new("xdg-open")
            .arg(&link)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if opened.is_err() {
            say(format_args!(
                "prufe: could not start xdg-open; open the link above in a browser"
            ));
        }
    }
}

/// The viewer (`www/viewer/index.html` of this source tree) with `?load=` the script.
pub fn viewer_link(script: &Path) -> String {
    let viewer = Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/viewer/index.html");
    let viewer = viewer.canonicalize().unwrap_or(viewer);
    let script = script
        .canonicalize()
        .unwrap_or_else(|_| script.to_path_buf());
    format!(
        "file://{}?load={}",
        viewer.display(),
        percent_encode_path(&format!("file://{}", script.display()))
    )
}

fn percent_encode_path(s: &str) -> String {
    use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
    const PATH: &AsciiSet = &NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'_')
        .remove(b'.')
        .remove(b'~')
        .remove(b'/')
        .remove(b':');
    utf8_percent_encode(s, PATH).to_string()
}

/// A step of a `prufe run` script: a semantic step for the verified loop, or a step of the
/// coordinate contract (`screenshot`, `click_at`, `drag_at`, `scroll_at`, `type`, `key`,
/// `wait`) for the coordinate executor.
#[derive(Debug)]
pub enum Planned {
    Semantic(Box<Step>),
    Coordinate(Request),
}

impl Planned {
    /// The step's action name.
    pub fn kind(&self) -> &str {
        match self {
            Planned::Semantic(step) => step.action.name(),
            Planned::Coordinate(request) => request.kind(),
        }
    }
}

/// Which reader a script's step goes to, by the action it names: the coordinate contract's
/// (`RequestKind`) or the verified loop's (`ActionKind`), one of every action.
#[derive(Deserialize)]
#[serde(try_from = "String")]
enum Reader {
    Coordinate,
    Semantic,
}

impl TryFrom<String> for Reader {
    type Error = String;
    fn try_from(name: String) -> Result<Reader, String> {
        let value = serde_json::Value::String(name);
        if RequestKind::deserialize(&value).is_ok() {
            Ok(Reader::Coordinate)
        } else {
            ActionKind::deserialize(&value)
                .map(|_| Reader::Semantic)
                .map_err(|e| e.to_string())
        }
    }
}

/// A step's `action`, read before the step itself.
#[derive(Deserialize)]
struct Head {
    action: Option<Reader>,
}

/// Parses and validates a whole script before any browser starts: every step's shape, and
/// every upload file. Each step is read once, into the machine's [`Step`] or the executor's
/// [`Request`], by the action it names; one with no action the script format knows is read
/// as a semantic step, whose reading says what is wrong. Points of coordinate steps are
/// checked against their observation only when the step runs, since the observation does
/// not exist yet.
pub fn plan(text: &str, base: &Path) -> Result<Vec<Planned>, script::ScriptError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| script::ScriptError {
        at: String::new(),
        message: format!("not valid JSON ({e}); a script is a JSON array of steps"),
    })?;
    let items = script::script_items(&value)?;
    let mut planned = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = format!("step {}", i + 1);
        let head = Object::<Head>::deserialize(item)
            .ok()
            .and_then(|h| h.0.action);
        if let Some(Reader::Coordinate) = head {
            let request = executor::parse_shape(item).map_err(|e| script::ScriptError {
                at: at.clone(),
                message: format!("{}: {}", e.code, e.message),
            })?;
            planned.push(Planned::Coordinate(request));
            continue;
        }
        let step = script::parse_step(item, i + 1, base)?;
        script::check_step_files(&step, &at)?;
        planned.push(Planned::Semantic(Box::new(step)));
    }
    script::check_count(planned.iter().filter_map(|p| match p {
        Planned::Semantic(step) => Some(&**step),
        Planned::Coordinate(_) => None,
    }))?;
    Ok(planned)
}

fn print_coordinate_step(
    n: usize,
    request: &Request,
    result: &Result<Report, Failure>,
    as_json: bool,
    redactor: &prufe::core::redact::Redactor,
) -> std::io::Result<()> {
    let kind = request.kind();
    let mut line = match result {
        Ok(r) => {
            let o = r.outcome.as_ref();
            let ok = o.is_none_or(|o| o.ok);
            json!({
                "step": n,
                "action": kind,
                "ok": ok,
                "verdict": o.and_then(|o| o.verdict).map(|v| v.as_str()),
                "error": (!ok).then_some("VERIFICATION_FAILED"),
                "attempts": o.map(|o| o.attempts).unwrap_or(1),
                "undone": o.map(|o| o.undone).unwrap_or(0),
                "reason": o.map(|o| o.reason.clone()).or_else(|| r.condition.clone()).unwrap_or_default(),
                "diff": o.map(|o| o.lines.clone()).unwrap_or_default(),
                "observation": r.observation.as_ref().map(|s| s.id.clone()),
                "released": r.released,
            })
        }
        Err(f) => json!({
            "step": n,
            "action": kind,
            "ok": false,
            "verdict": f.error.outcome().and_then(|o| o.verdict).map(|v| v.as_str()),
            "error": f.code().as_str(),
            "attempts": f.error.outcome().map(|o| o.attempts).unwrap_or(1),
            "undone": f.error.outcome().map(|o| o.undone).unwrap_or(0),
            "reason": f.to_string(),
            "diff": f.error.outcome().map(|o| o.lines.clone()).unwrap_or_default(),
            "observation": f.observation.as_ref().map(|s| s.id.clone()),
            "released": f.released,
        }),
    };
    redactor.scrub_value(&mut line);
    let mut out = std::io::stdout().lock();
    if as_json {
        return writeln!(out, "{line}");
    }
    let mark = if line["ok"] == json!(true) {
        "✓"
    } else {
        "✗"
    };
    let mut text = format!("{mark} {n} {kind}");
    if let Some(obs) = line["observation"].as_str() {
        text.push_str(&format!(" → {obs}"));
    }
    if let Some(reason) = line["reason"].as_str().filter(|r| !r.is_empty()) {
        text.push_str(&format!(": {reason}"));
    }
    if let Err(f) = result {
        text.push('\n');
        text.push_str(&indent(&f.error.explain()));
    }
    writeln!(out, "{}", redactor.scrub(&text))
}

/// The `--json` line of a step.
pub fn json_line(n: usize, kind: &str, result: &Result<Outcome, Error>) -> serde_json::Value {
    let (outcome, error) = match result {
        Ok(o) => (Some(o), None),
        Err(e) => (e.outcome(), Some(e)),
    };
    let ok = error.is_none() && outcome.is_some_and(|o| o.ok);
    let error_code = match (error, outcome) {
        (Some(e), _) => Some(e.code().as_str()),
        // A watch that saw the wrong effect fails without an error being raised.
        (None, Some(o)) if !o.ok => Some("VERIFICATION_FAILED"),
        _ => None,
    };
    json!({
        "step": n,
        "action": kind,
        "ok": ok,
        "verdict": outcome.and_then(|o| o.verdict).map(|v| v.as_str()),
        "error": error_code,
        "attempts": outcome.map(|o| o.attempts).unwrap_or(if error.is_some() { 1 } else { 0 }),
        "undone": outcome.map(|o| o.undone).unwrap_or(0),
        "reason": match (error, outcome) {
            (Some(e), None) => e.to_string(),
            (_, Some(o)) => o.reason.clone(),
            (None, None) => String::new(),
        },
        "diff": outcome.map(|o| o.lines.clone()).unwrap_or_default(),
    })
}

fn print_step(
    n: usize,
    step: &Step,
    result: &Result<Outcome, Error>,
    as_json: bool,
    redactor: &prufe::core::redact::Redactor,
) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    if as_json {
        let mut line = json_line(n, step.action.name(), result);
        redactor.scrub_value(&mut line);
        return writeln!(out, "{line}");
    }
    let text = match result {
        Ok(o) if o.ok => format!("✓ {n} {}\n", o.summary()),
        Ok(o) => format!("✗ {n} {}\n{}", o.summary(), indent(&o.explain())),
        Err(e) => format!(
            "✗ {n} {}: {e}\n{}",
            step.action.name(),
            indent(&e.explain())
        ),
    };
    write!(out, "{}", redactor.scrub(&text))
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

fn fail(e: &Error) -> i32 {
    say(format_args!("prufe: {e}"));
    match e {
        Error::Script(_) | Error::Unsupported(_) => EXIT_USAGE,
        _ => EXIT_FAILED,
    }
}

/// Where the demo page lives: the demo shop when it is there, else the recycling fixture.
fn demo_page() -> Option<(PathBuf, String)> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let candidates = [
        (repo.join("www/shop"), "recycled.html"),
        (repo.join("www/shop"), "index.html"),
        (repo.join("fixtures"), "recycled-list.html"),
    ];
    candidates
        .into_iter()
        .find(|(dir, page)| dir.join(page).is_file())
        .map(|(d, p)| (d, p.to_owned()))
}

async fn demo(show: bool) -> i32 {
    let Some((dir, page)) = demo_page() else {
        say(format_args!(
            "prufe: the demo page (www/shop or fixtures/recycled-list.html) is missing"
        ));
        return EXIT_FAILED;
    };
    let server = match StaticServer::start(&dir, Vec::new()).await {
        Ok(s) => s,
        Err(e) => return fail(&Error::io("starting the demo server", e)),
    };
    let url = server.url(&page);
    let opts = Options {
        headless: !show,
        slow_mo: if show {
            Duration::from_millis(900)
        } else {
            Duration::ZERO
        },
        ..Options::default()
    };
    let mut v = match Verifier::launch(opts).await {
        Ok(v) => v,
        Err(e) => return fail(&e),
    };
    let code = match demo_story(&mut v, &url, show).await {
        Ok(()) => EXIT_OK,
        Err(e) => fail(&e),
    };
    let _ = v.close().await;
    code
}

async fn demo_story(v: &mut Verifier, url: &str, show: bool) -> Result<(), Error> {
    let target = Target::new("button", "Add Shirt M");
    let rule = "-".repeat(70);
    let mut out = String::new();

    v.open(url).await?;
    let target = demo_target(v, target).await?;
    v.unverified(
        &Step::new(Action::Click {
            target: target.clone(),
        }),
        true,
    )
    .await?;
    let cart = cart_lines(&v.snapshot().await?);
    out.push_str(&format!("{rule}\n1. A bare click\n{rule}\n"));
    out.push_str("Asked:     press «Add Shirt M»\n");
    out.push_str("Result:    the click raised no error\n");
    out.push_str(&format!("Cart:      {cart:?}\n"));
    out.push_str("           <- nobody notices that this is wrong\n\n");
    let _ = write!(std::io::stdout().lock(), "{out}");
    out.clear();
    if show {
        tokio::time::sleep(Duration::from_secs(2)).await;
    }

    v.open(url).await?;
    out.push_str(&format!("{rule}\n2. With prufe\n{rule}\n"));
    out.push_str("Asked:     press «Add Shirt M»\n");
    match v.click(target, None).await {
        Ok(o) => {
            out.push_str(&format!("Result:    {}\n", o.summary()));
        }
        Err(e) => {
            out.push_str(&format!("Result:    {}\n", e.code()));
            for line in e.explain().lines() {
                out.push_str(&format!("           {line}\n"));
            }
        }
    }
    let cart = cart_lines(&v.snapshot().await?);
    out.push_str(&format!("Cart:      {cart:?}\n"));
    if cart.is_empty() {
        out.push_str(
            "           <- what went in wrong was taken out, and the run stopped in time\n",
        );
    }
    out.push_str("\nNo API key needed: that verdict comes from the diff, without AI.\n");
    let _ = write!(std::io::stdout().lock(), "{out}");
    if show {
        tokio::time::sleep(Duration::from_secs(3)).await;
    }
    Ok(())
}

/// The demo's target, narrowed to the recycling list when the page has another catalogue.
async fn demo_target(v: &mut Verifier, target: Target) -> Result<Target, Error> {
    let snap = v.snapshot().await?;
    let matches: Vec<_> = snap
        .elements
        .iter()
        .filter(|e| e.role == Role::Button && e.name == target.name && e.visible)
        .collect();
    if matches.len() <= 1 {
        return Ok(target);
    }
    let region = matches
        .iter()
        .map(|e| e.region.clone())
        .find(|r| r.contains("list") || r.contains("recycl") || r.contains("arrival"))
        .unwrap_or_else(|| matches[0].region.clone());
    Ok(Target {
        region: Some(region),
        ..target
    })
}

/// The cart's lines, as a person reads them.
pub fn cart_lines(s: &Snapshot) -> Vec<String> {
    s.elements
        .iter()
        .filter(|e| {
            e.role == Role::Listitem
                && e.region
                    .split(['/', '['])
                    .next()
                    .is_some_and(|r| r.eq_ignore_ascii_case("cart"))
        })
        .map(|e| e.label().to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Verdict;
    use prufe::core::run::Ambiguous;

    #[test]
    fn the_contract_parses() {
        let cli = Cli::try_parse_from([
            "prufe",
            "run",
            "http://127.0.0.1:1/",
            "--script",
            "s.json",
            "--json",
            "--trace-dir",
            "t",
            "--connect",
            "http://127.0.0.1:9222",
            "--max-attempts",
            "3",
            "--quiet-ms",
            "100",
            "--timeout-ms",
            "2000",
            "--ambiguous",
            "accept",
            "--judge-url",
            "http://127.0.0.1:2/v1/chat/completions",
        ])
        .unwrap();
        let Command::Run(a) = cli.command else {
            panic!("not run")
        };
        assert_eq!(a.step.max_attempts, 3);
        assert_eq!(a.step.quiet_ms, 100);
        assert_eq!(a.step.timeout_ms, 2000);
        assert_eq!(a.step.ambiguous, Ambiguous::Accept);
        assert_eq!(a.screenshots, crate::pictures::Screenshots::Failures);
        assert!(a.json);
        assert_eq!(a.connect.as_deref(), Some("http://127.0.0.1:9222"));

        let d = Cli::try_parse_from(["prufe", "demo", "--show"]).unwrap();
        assert!(matches!(d.command, Command::Demo { show: true }));
        let s = Cli::try_parse_from(["prufe", "snapshot", "http://x/", "--json"]).unwrap();
        assert!(matches!(s.command, Command::Snapshot { json: true, .. }));
    }

    #[cfg(feature = "mcp")]
    #[test]
    fn run_and_mcp_share_the_step_options_and_default_to_the_verifiers_own() {
        let given = [
            "--max-attempts",
            "4",
            "--quiet-ms",
            "120",
            "--ambiguous",
            "accept",
        ];
        let run = Cli::try_parse_from(["prufe", "run", "http://x/", "--script", "s.json"]).unwrap();
        let mcp = Cli::try_parse_from(["prufe", "mcp"].into_iter().chain(given)).unwrap();
        let (Command::Run(run), Command::Mcp(mcp)) = (run.command, mcp.command) else {
            panic!("not run and mcp")
        };
        let plain = run.step.apply(Options::default());
        let verifier = Options::default();
        assert_eq!(plain.timing, verifier.timing);
        assert_eq!(plain.max_attempts, verifier.max_attempts);
        assert_eq!(plain.ambiguous, verifier.ambiguous);
        assert!(plain.arbiter.is_none() && run.step.unsupported().is_none());
        let set = mcp.step.apply(Options::default());
        assert_eq!((set.max_attempts, set.timing.quiet_ms), (4, 120));
        assert_eq!(set.timing.timeout_ms, verifier.timing.timeout_ms);
        assert_eq!(set.ambiguous, Ambiguous::Accept);
    }

    #[test]
    fn scripts_mix_semantic_and_coordinate_steps() {
        let base = Path::new(".");
        let steps = plan(
            r#"[{"action":"click","target":{"role":"button","name":"Save"}},
                {"action":"screenshot","maxWidth":1280},
                {"action":"click_at","x":412,"y":230,"observation":"obs-1"},
                {"action":"key","chord":"Control+S"}]"#,
            base,
        )
        .unwrap();
        assert_eq!(steps.len(), 4);
        assert!(matches!(steps[0], Planned::Semantic(_)));
        assert!(matches!(steps[2], Planned::Coordinate(_)));

        for (script, at, words) in [
            (
                r#"[{"action":"screenshot"},{"action":"click_at","x":"1","y":2,"observation":"obs-1"}]"#,
                "step 2",
                "INVALID_ACTION",
            ),
            (
                r#"[{"action":"screenshot","cmd":"ls"}]"#,
                "step 1",
                "INVALID_FIELDS",
            ),
            (
                r#"[{"action":"key","chord":"Control+S"},{"action":"click"}]"#,
                "step 2",
                "target",
            ),
            (r#"{"action":"click"}"#, "", "JSON array"),
            ("not json", "", "not valid JSON"),
        ] {
            let e = plan(script, base).unwrap_err();
            assert_eq!(e.at, at, "{script}");
            assert!(e.message.contains(words), "{script}: {}", e.message);
        }
    }

    #[test]
    fn usage_errors_are_exit_2() {
        for args in [
            vec!["prufe"],
            vec!["prufe", "run", "http://x/"],
            vec![
                "prufe",
                "run",
                "http://x/",
                "--script",
                "s",
                "--ambiguous",
                "maybe",
            ],
            vec![
                "prufe",
                "run",
                "http://x/",
                "--script",
                "s",
                "--max-attempts",
                "0",
            ],
            vec!["prufe", "fly"],
            vec![
                "prufe",
                "run",
                "http://x/",
                "--script",
                "s",
                "--screenshots",
                "sometimes",
            ],
        ] {
            let e = Cli::try_parse_from(&args).unwrap_err();
            assert!(e.use_stderr(), "{args:?}");
            assert_eq!(e.exit_code(), EXIT_USAGE, "{args:?}");
        }
    }

    #[test]
    fn json_lines_follow_the_contract() {
        let o = Outcome {
            action: "click".into(),
            verdict: Some(Verdict::Match),
            ok: true,
            reason: "Shirt M appeared".into(),
            lines: vec!["appeared listitem[Shirt M] in cart".into()],
            attempts: 1,
            ..Outcome::default()
        };
        let line = json_line(1, "click", &Ok(o.clone()));
        assert_eq!(
            line,
            json!({ "step": 1, "action": "click", "ok": true, "verdict": "MATCH", "error": null, "attempts": 1,
                    "undone": 0, "reason": "Shirt M appeared", "diff": ["appeared listitem[Shirt M] in cart"] })
        );
        let failed = Outcome {
            verdict: Some(Verdict::Mismatch),
            ok: false,
            attempts: 2,
            undone: 2,
            ..o
        };
        let line = json_line(
            3,
            "click",
            &Err(Error::VerificationFailed(Box::new(failed))),
        );
        assert_eq!(line["error"], "VERIFICATION_FAILED");
        assert_eq!(line["verdict"], "MISMATCH");
        assert_eq!(line["ok"], false);
        assert_eq!(line["undone"], 2);
        let line = json_line(
            2,
            "click",
            &Err(Error::Core(prufe::core::run::ready::covered(
                "button[x]",
                "div",
                0.0,
                0.0,
            ))),
        );
        assert_eq!(line["error"], "TARGET_OBSCURED");
        assert_eq!(line["verdict"], serde_json::Value::Null);
        assert!(line["reason"].as_str().unwrap().contains("covered by div"));
    }

    #[test]
    fn cart_lines_read_the_cart_region_only() {
        let item = |text: &str, region: &str| prufe::core::model::Element {
            role: Role::Listitem,
            text: Some(text.into()),
            region: region.into(),
            ..Default::default()
        };
        let s = Snapshot {
            elements: vec![
                item("Shirt M", "cart/list:cart-items"),
                item("Socks S", "list"),
                item("Cap", "cartoons"),
            ],
            ..Default::default()
        };
        assert_eq!(cart_lines(&s), ["Shirt M"]);
    }
}
