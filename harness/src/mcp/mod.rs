//! `prufe mcp`: verified browser tools for LLM agents, a drop-in for Playwright MCP.
//!
//! ```text
//! prufe mcp [--port N [--host ADDR]] [--connect URL] [--caps vision] [--secrets FILE]
//!           [--session-idle SECONDS] [--trace-dir DIR] [--snapshot-in-answers] [--headed]
//!           [--max-attempts N]
//!           [--quiet-ms N] [--timeout-ms N] [--ambiguous reject|accept] [--judge-url URL]
//! ```
//!
//! An MCP server (the official Rust SDK, `rmcp`) over stdio, or over streamable HTTP at
//! `http://127.0.0.1:N/mcp` with `--port N`. Its tools carry Playwright MCP's names and
//! parameters (see [`tools`]); the difference is in the answers. Playwright MCP clicks and
//! returns a snapshot for the model to check; here every acting tool runs the verified loop
//! of the [`Verifier`](crate::Verifier) and answers with the verdict, the reason, the few
//! semantic changes it saw, attempts and undone ([`answer`]). A wrong effect is undone
//! before the answer says MISMATCH.
//!
//! The server is a driver and keeps no verification logic: [`server`] maps each tool to
//! verifier steps, [`refs`] maps snapshot refs to semantic targets, and both the resolution
//! of a target and every verdict are the core's.
//!
//! Over HTTP each MCP session is a client of its own: its own worker, refs, secrets learnt
//! and trace directory, and its own browser context in the server's one browser
//! ([`shared`]), disposed of when the session ends. Over stdio the process is the session.
//!
//! The trade-off against Playwright MCP: one tab per session (`browser_tabs` lists it),
//! single left clicks, one option per select, and JavaScript dialogs declined unless
//! `browser_handle_dialog` said otherwise before the action: each is a case the loop can
//! verify and undo, or refuses with a typed error rather than act unverified.

pub mod answer;
pub mod http;
pub mod refs;
pub mod secrets;
pub mod server;
pub mod shared;
pub mod tools;

use crate::args::{StepArgs, EXIT_FAILED, EXIT_OK, EXIT_USAGE};
use crate::verify::Options;
use clap::ValueEnum;
use secrets::Secrets;
use server::{Config, Handler, Sessions};
use std::io::Write;
use std::path::PathBuf;

/// The arguments of `prufe mcp`.
#[derive(clap::Args, Debug)]
pub struct McpArgs {
    /// Serve streamable HTTP on this port, at /mcp (0: any free port, printed on stderr),
    /// instead of stdio.
    #[arg(long, value_name = "N")]
    pub port: Option<u16>,
    /// With --port: end a session (and close its browser context) after this many seconds
    /// without a message from its client. A client that goes away without ending its session
    /// frees it then.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = http::SESSION_IDLE_SECONDS,
        value_parser = clap::value_parser!(u64).range(1..),
        requires = "port"
    )]
    pub session_idle: u64,
    /// The address --port binds to.
    #[arg(
        long,
        value_name = "ADDR",
        default_value = "127.0.0.1",
        requires = "port"
    )]
    pub host: String,
    /// Attach to a running browser (ws://…/devtools/browser/… or http://host:port).
    #[arg(long, value_name = "URL")]
    pub connect: Option<String>,
    /// Extra tools: `vision` adds the coordinate tools (browser_mouse_click_xy, …).
    #[arg(long, value_name = "CAPS", value_delimiter = ',')]
    pub caps: Vec<Cap>,
    /// A dotenv file of secrets: `${NAME}` in browser_type types NAME's value; every value
    /// is redacted from answers, logs and traces.
    #[arg(long, value_name = "FILE")]
    pub secrets: Option<PathBuf>,
    /// Write one redacted JSON record per action into DIR (and DIR/traces.js for the viewer).
    #[arg(long, value_name = "DIR")]
    pub trace_dir: Option<PathBuf>,
    /// With --trace-dir: which steps keep a before and an after picture (JPEG, secrets
    /// covered) beside their record.
    #[arg(long, value_name = "WHEN", default_value = "failures", value_parser = crate::pictures::parse_option)]
    pub screenshots: crate::pictures::Screenshots,
    /// Return the page snapshot with every acting tool's answer.
    #[arg(long)]
    pub snapshot_in_answers: bool,
    /// Show the browser window.
    #[arg(long)]
    pub headed: bool,
    #[command(flatten)]
    pub step: StepArgs,
}

/// Capabilities beyond the default tools.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cap {
    /// The coordinate tools, on screenshots.
    Vision,
}

impl McpArgs {
    /// The server's configuration; `Err` is a usage error.
    pub fn config(&self) -> Result<Config, String> {
        let secrets = match &self.secrets {
            Some(path) => Secrets::load(path)?,
            None => Secrets::default(),
        };
        let options = self.step.apply(Options {
            connect: self.connect.clone(),
            headless: !self.headed,
            trace_dir: self.trace_dir.clone(),
            screenshots: self.screenshots,
            ..Options::default()
        });
        Ok(Config {
            options,
            vision: self.caps.contains(&Cap::Vision),
            secrets,
            snapshot_in_answers: self.snapshot_in_answers,
        })
    }
}

/// Runs the server until its client goes away (stdio) or forever (HTTP); returns the exit
/// code. The browser is closed before it returns (or when a signal drops it).
pub async fn run(args: McpArgs) -> i32 {
    if let Some(e) = args.step.unsupported() {
        let _ = writeln!(std::io::stderr(), "prufe: {e}");
        return EXIT_USAGE;
    }
    let config = match args.config() {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "prufe: INVALID_ARGUMENT: {e}");
            return EXIT_USAGE;
        }
    };
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let served = match args.port {
        None => {
            let (handler, jobs) = Handler::new(config.vision);
            let worker = server::work(config, jobs, stopped);
            let serving = async {
                let served = serve_stdio(handler).await;
                let _ = stop.send(true);
                served
            };
            tokio::join!(serving, worker).0
        }
        Some(port) => {
            let sessions = Sessions::new(config, stopped);
            // Dropped when a signal stops the server: the browser goes with it.
            let _browser = CloseOnDrop(sessions.browser().clone());
            let idle = std::time::Duration::from_secs(args.session_idle);
            let served = http::serve(sessions.clone(), &args.host, port, idle).await;
            let _ = stop.send(true);
            sessions.browser().close().await;
            served
        }
    };
    match served {
        Ok(()) => EXIT_OK,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "prufe: BROWSER_ERROR: mcp: {e}");
            EXIT_FAILED
        }
    }
}

/// Closes the HTTP server's browser when dropped.
struct CloseOnDrop(std::sync::Arc<shared::SharedBrowser>);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.0.close_now();
    }
}

async fn serve_stdio(handler: Handler) -> std::io::Result<()> {
    use rmcp::ServiceExt;
    let _ = writeln!(std::io::stderr(), "prufe mcp: serving on stdio");
    let running = handler
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    running
        .waiting()
        .await
        .map(|_| ())
        .map_err(|e| std::io::Error::other(e.to_string()))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    /// `prufe mcp …` as the command line reads it, without the other commands.
    #[derive(Parser, Debug)]
    #[command(name = "prufe")]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    #[derive(clap::Subcommand, Debug)]
    enum Command {
        Mcp(super::McpArgs),
    }

    fn args(line: &[&str]) -> super::McpArgs {
        let Command::Mcp(a) = Cli::try_parse_from(line).expect("parses").command;
        a
    }

    #[test]
    fn the_contract_parses() {
        let a = args(&["prufe", "mcp"]);
        assert_eq!((a.port, a.host.as_str()), (None, "127.0.0.1"));
        assert_eq!(a.session_idle, 300);
        let c = a.config().unwrap();
        assert!(!c.vision && c.secrets.is_empty() && c.options.headless);

        let a = args(&[
            "prufe",
            "mcp",
            "--port",
            "8931",
            "--host",
            "0.0.0.0",
            "--caps",
            "vision",
            "--connect",
            "http://127.0.0.1:9222",
            "--trace-dir",
            "t",
            "--timeout-ms",
            "2000",
            "--ambiguous",
            "accept",
            "--snapshot-in-answers",
            "--headed",
            "--screenshots",
            "all",
            "--session-idle",
            "60",
        ]);
        assert_eq!(a.session_idle, 60);
        assert_eq!((a.port, a.host.as_str()), (Some(8931), "0.0.0.0"));
        let c = a.config().unwrap();
        assert!(c.vision && c.snapshot_in_answers && !c.options.headless);
        assert_eq!(c.options.connect.as_deref(), Some("http://127.0.0.1:9222"));
        assert_eq!(c.options.timing.timeout_ms, 2000);
        assert_eq!(c.options.screenshots, crate::pictures::Screenshots::All);
        assert_eq!(
            c.options.trace_dir.as_deref(),
            Some(std::path::Path::new("t"))
        );
    }

    #[test]
    fn usage_errors_are_refused_before_anything_runs() {
        for line in [
            vec!["prufe", "mcp", "--caps", "pdf"],
            vec!["prufe", "mcp", "--host", "0.0.0.0"],
            vec!["prufe", "mcp", "--session-idle", "60"],
            vec!["prufe", "mcp", "--port", "0", "--session-idle", "0"],
            vec!["prufe", "mcp", "--port", "http"],
            vec!["prufe", "mcp", "--max-attempts", "0"],
            vec!["prufe", "mcp", "--screenshots", "sometimes"],
        ] {
            assert!(Cli::try_parse_from(&line).is_err(), "{line:?}");
        }
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("none.env");
        let a = args(&["prufe", "mcp", "--secrets", missing.to_str().unwrap()]);
        assert!(a
            .config()
            .unwrap_err()
            .contains("cannot read the secrets file"));
        let bad = dir.path().join("bad.env");
        std::fs::write(&bad, "PASS hunter22\n").unwrap();
        let a = args(&["prufe", "mcp", "--secrets", bad.to_str().unwrap()]);
        let e = a.config().unwrap_err();
        assert!(e.contains("line 1") && !e.contains("hunter22"), "{e}");
    }
}
