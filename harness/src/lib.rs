//! The native prufe harness: drives Chromium over the DevTools Protocol and verifies that
//! every action did what it was meant to do, undoing it when it did not.
//!
//! ```text
//! stabilise → resolve → re-check identity → actionable? → act → stabilise → diff → judge
//!   → MATCH | undo (verified) and retry | abort with a typed error
//! ```
//!
//! - [`cdp`]: launch a local Chromium or attach to a running one;
//! - [`inject`]: the engine bundle in an isolated world of every frame, and calls into it;
//! - [`observe`]: one merged snapshot across frames; [`stabilise`]: waiting on fingerprints;
//! - [`act`]: actionability and real input; [`verify`]: the loop and [`Verifier`];
//! - [`drive`]: the answers to the verification machine's needs; [`trace`]: one JSON record per action;
//! - [`watchdog`]: a crashed renderer, a closed browser or a hung page, said at once;
//! - [`arbiter`]: the optional yes/no tie-breaker; [`script`]: the `prufe run` step format;
//! - [`cli`]: the `prufe` command; [`args`]: its exit codes and the step options `run` and
//!   `mcp` share; [`serve`]: a static server for the demo and tests;
//! - [`mcp`]: `prufe mcp`, the verified browser tools for LLM agents (an MCP server);
//! - [`error`]: the one error type; [`clock`]: the time records are stamped with.
//!
//! The modules are layers, each using only those below it: [`error`], [`clock`] and
//! [`executor`] use none of the others; then [`cdp`] and [`watchdog`]; then the page
//! ([`inject`], [`coords::input`], [`observe`], [`stabilise`], [`hit`], [`act`],
//! [`pictures`]); then the driver (`drive`); then the surfaces ([`verify`], [`script`],
//! [`trace`], [`coords`], [`mcp`], [`cli`]). `node scripts/import-circles.mjs` fails on any
//! circle among them.
//!
//! Diff, resolve and judge are the pure core of the `prufe` crate, used unchanged.
//!
//! # Example
//!
//! ```no_run
//! use prufe::core::resolve::Target;
//! use prufe_harness::{Options, Verifier};
//!
//! # async fn run() -> prufe_harness::Result<()> {
//! let mut v = Verifier::launch(Options::default()).await?;
//! v.open("http://127.0.0.1:8000/shop.html").await?;
//! match v.click(Target::new("button", "Add Shirt M"), Some("the cart gains a shirt")).await {
//!     Ok(outcome) => println!("{}", outcome.summary()),
//!     Err(e) => eprintln!("{}", e.explain()),
//! }
//! v.close().await
//! # }
//! ```
//!
//! See `harness/examples/verify_click.rs` for a runnable program.

pub mod act;
pub mod arbiter;
pub mod args;
pub mod cdp;
pub mod cli;
pub mod clock;
pub mod coords;
mod drive;
pub mod error;
pub mod executor;
pub mod hit;
pub mod inject;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod observe;
pub mod pictures;
pub mod requests;
pub mod script;
pub mod serve;
pub mod stabilise;
pub mod trace;
pub mod verify;
pub mod watchdog;
pub mod whole;
mod wire;

pub use error::{Error, Result};
pub use prufe::core::run::{Action, Ambiguous, Button, Step};
pub use stabilise::Timing;
pub use verify::{Options, Outcome, Verdict, Verifier, Watching};
