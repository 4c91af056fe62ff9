//! The `prufe` binary run as a process, and its output shown when an assertion fails.

use serde_json::Value;
use std::process::Output;

/// The binary this test build made.
pub const PRUFE: &str = env!("CARGO_BIN_EXE_prufe");

/// Runs `prufe ARGS…` to the end; the process is killed if the test drops the future.
pub async fn prufe(args: &[&str]) -> Output {
    tokio::process::Command::new(PRUFE)
        .args(args)
        .kill_on_drop(true)
        .output()
        .await
        .expect("prufe runs")
}

/// The exit code and both streams, for an assertion's message.
pub fn show(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Every line of the standard output, each a JSON value (`prufe run --json`).
pub fn lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}")))
        .collect()
}
