//! Typed expectations through the `prufe` binary, in real headless Chromium on
//! fixtures/drivers/expect.html: a script step's `expect` (held, broken, unshown; a malformed
//! claim rejected with the script) and the MCP server's `expect` argument (held, broken, a
//! malformed one answered INVALID_EXPECT with nothing sent), over stdio as a client speaks it.

mod common;

use common::cli::{prufe, show};

use common::mcp::{ref_of, Mcp};
use common::{require_bundle, Servers};
use serde_json::{json, Value};
use std::path::Path;

fn statuses(record: &Value) -> Vec<&str> {
    record["expect"]
        .as_array()
        .map(|a| a.iter().filter_map(|o| o["status"].as_str()).collect())
        .unwrap_or_default()
}

fn trace(dir: &Path, name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
}

#[tokio::test]
async fn a_script_steps_claims_hold_break_or_are_rejected_with_the_script() {
    require_bundle();
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"[{"action":"click","target":{"role":"button","name":"x"},"expect":[{"kind":"vanishes"}]}]"#,
    )
    .unwrap();
    let out = prufe(&[
        "run",
        "http://127.0.0.1:9/",
        "--script",
        bad.to_str().unwrap(),
        "--json",
    ])
    .await;
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("step 1") && err.contains("vanishes"), "{err}");

    let servers = Servers::start().await;
    let script = dir.path().join("script.json");
    let shirt = json!({ "role": "listitem", "name": "Shirt M" });
    let wrap = json!({ "role": "checkbox", "name": "Gift wrap" });
    let steps = json!([
        { "action": "click", "target": { "role": "button", "name": "Add Shirt M" }, "expect": [
            { "kind": "appears", "target": shirt }, { "kind": "text", "text": "Added Shirt M" },
            { "kind": "stays", "target": wrap } ] },
        { "action": "check", "target": wrap, "expect": [
            { "kind": "changes", "target": { "role": "checkbox", "name": "Newsletter" }, "field": "checked", "to": true } ] },
    ]);
    // The second step's claim names a box the page does not have: a promise nothing bears out.
    std::fs::write(&script, steps.to_string()).unwrap();
    let traces = dir.path().join("traces");
    let out = prufe(&[
        "run",
        &servers.url("drivers/expect.html"),
        "--script",
        script.to_str().unwrap(),
        "--json",
        "--max-attempts",
        "1",
        "--trace-dir",
        traces.to_str().unwrap(),
    ])
    .await;
    let text = show(&out);
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0]["verdict"], "MATCH", "{text}");
    assert!(
        lines[0]["reason"]
            .as_str()
            .unwrap()
            .contains("expected: appears listitem[Shirt M] — held: appeared listitem[Shirt M]"),
        "{text}"
    );
    assert_eq!(lines[1]["verdict"], "MISMATCH", "{text}");
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        lines[1]["reason"].as_str().unwrap().contains("no evidence"),
        "{text}"
    );
    assert_eq!(
        statuses(&trace(&traces, "0001-click-match.json")),
        ["held", "held", "held"]
    );
    assert_eq!(
        statuses(&trace(&traces, "0002-check-mismatch.json")),
        ["absent"]
    );
}

#[tokio::test]
async fn the_mcp_tools_take_expect() {
    require_bundle();
    let servers = Servers::start().await;
    let mut mcp = Mcp::start().await;
    let tools = mcp.request("tools/list", json!({})).await;
    let click = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "browser_click")
        .unwrap()
        .clone();
    let expect = &click["inputSchema"]["properties"]["expect"];
    assert_eq!(expect["type"], "array", "{click}");
    assert_eq!(expect["items"]["oneOf"].as_array().map(Vec::len), Some(8));

    let url = servers.url("drivers/expect.html");
    let answer = mcp
        .call(
            "browser_navigate",
            json!({ "url": url, "expect": [{ "kind": "appears", "target": { "role": "heading", "name": "Expectations" } }] }),
        )
        .await;
    assert!(
        answer.contains("MATCH") && answer.contains("held"),
        "{answer}"
    );
    let snapshot = mcp.call("browser_snapshot", json!({})).await;
    let add = ref_of(&snapshot, "button", "Add Shirt M");

    let answer = mcp
        .call(
            "browser_click",
            json!({ "target": add, "expect": [{ "kind": "count", "target": { "role": "listitem", "name": "Shirt M" }, "n": 1 }] }),
        )
        .await;
    assert!(answer.contains("held: 1 match"), "{answer}");
    let answer = mcp
        .call(
            "browser_click",
            json!({ "target": add, "expect": [{ "kind": "count", "target": { "role": "listitem", "name": "Shirt M" }, "n": 1 }] }),
        )
        .await;
    assert!(
        answer.contains("MISMATCH") && answer.contains("broken: 2 matches, not 1"),
        "{answer}"
    );
    let answer = mcp
        .call(
            "browser_click",
            json!({ "target": add, "expect": [{ "kind": "vanishes" }] }),
        )
        .await;
    assert!(answer.contains("INVALID_EXPECT"), "{answer}");
    let snapshot = mcp.call("browser_snapshot", json!({})).await;
    assert_eq!(
        snapshot.matches("listitem \"Shirt M\"").count(),
        2,
        "nothing was clicked: {snapshot}"
    );
    mcp.stop().await;
}
