//! A `prufe mcp` over stdio, spoken to as a client does: newline-delimited JSON-RPC.

use serde_json::{json, Value};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

pub struct Mcp {
    pub child: tokio::process::Child,
    pub stdin: tokio::process::ChildStdin,
    out: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
    id: u64,
}

impl Mcp {
    /// `prufe mcp` with no options.
    pub async fn start() -> Mcp {
        Self::start_with(&[]).await
    }

    /// `prufe mcp ARGS…`, initialised.
    pub async fn start_with(args: &[&str]) -> Mcp {
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_prufe"))
            .arg("mcp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("prufe mcp starts");
        let stdin = child.stdin.take().unwrap();
        let out = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut mcp = Mcp {
            child,
            stdin,
            out,
            id: 0,
        };
        mcp.request(
            "initialize",
            json!({ "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "prufe-tests", "version": "0" } }),
        )
        .await;
        mcp.send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await;
        mcp
    }

    pub async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).await.unwrap();
        self.stdin.flush().await.unwrap();
    }

    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        self.id += 1;
        let id = self.id;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        loop {
            let line = tokio::time::timeout(Duration::from_secs(60), self.out.next_line())
                .await
                .expect("an answer within a minute")
                .unwrap()
                .expect("the server is still there");
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"] == id {
                return v;
            }
        }
    }

    /// A tool's whole result (its content and structured content).
    pub async fn call_result(&mut self, name: &str, arguments: Value) -> Value {
        let v = self
            .request(
                "tools/call",
                json!({ "name": name, "arguments": arguments }),
            )
            .await;
        assert!(v["result"].is_object(), "{name}: {v}");
        v["result"].clone()
    }

    /// A tool's answer, as its text.
    pub async fn call(&mut self, name: &str, arguments: Value) -> String {
        text_of(&self.call_result(name, arguments).await)
    }

    /// Closes the browser, then stdin, and waits a little for the server to exit.
    pub async fn stop(mut self) {
        let _ = self.call("browser_close", json!({})).await;
        drop(self.stdin);
        let _ = tokio::time::timeout(Duration::from_secs(10), self.child.wait()).await;
    }
}

/// The text blocks of a tool's result.
pub fn text_of(result: &Value) -> String {
    result["content"]
        .as_array()
        .unwrap_or_else(|| panic!("no content: {result}"))
        .iter()
        .filter_map(|c| c["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `- button "Add Shirt M" [ref=e4]` → `e4`.
pub fn ref_of(snapshot: &str, role: &str, name: &str) -> String {
    let line = snapshot
        .lines()
        .find(|l| l.contains(&format!("{role} \"{name}\"")))
        .unwrap_or_else(|| panic!("no {role} {name:?} in\n{snapshot}"));
    let at = line.find("[ref=").expect("a ref") + 5;
    line[at..].split(']').next().unwrap().to_owned()
}
