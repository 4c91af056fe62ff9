//! What the hostile suite needs beyond the shared browser helper (`common`):
//!
//! - [`Transcript`]: every output a test produced (outcomes, `explain()` texts, error
//!   messages, snapshots, trace files, arbiter requests, CLI output), searched mechanically
//!   for every secret value the suite types ([`SECRETS`]);
//! - [`ArbiterStub`]: a local OpenAI-compatible chat endpoint on 127.0.0.1 that records every
//!   request body and always answers `YES`;
//! - [`OwnChromium`]: a Chromium started by the test itself (fresh profile, DevTools on
//!   127.0.0.1), so the test knows its process id and can kill it mid-action.

#![allow(dead_code)]

use prufe::core::model::Snapshot;
use prufe_harness::arbiter::ArbiterConfig;
use prufe_harness::{Error, Outcome, Result};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Every secret value the suite types into a page. None may appear in any output.
pub mod secret {
    /// `login.html`: Password.
    pub const LOGIN_PASSWORD: &str = "correct-horse-battery-41";
    /// `hostile/08-secret-echo.html`: Password.
    pub const ECHO_PASSWORD: &str = "Tr0ub4dor-3-lamp";
    /// `hostile/08-secret-echo.html`: Password whose `&` and space make the page's
    /// `encodeURIComponent` echo (a link's `href`) differ from the value.
    pub const ENCODED_ECHO_PASSWORD: &str = "Tr0ub4dor&3 lamp";
    /// `hostile/08-secret-echo.html`: Card number.
    pub const ECHO_CARD: &str = "4242424242424242";
    /// `hostile/09-sensitive-false.html`: Password, Account number, PIN.
    pub const BANK_PASSWORD: &str = "bank-pass-QX81";
    pub const ACCOUNT_NUMBER: &str = "DE89370400440532013000";
    pub const PIN: &str = "PIN-739154";
    /// `iframe-payment.html` and `hostile/11-cross-origin-iframe.html`: card fields.
    pub const CARD: &str = "4111111111111111";
    pub const CARD_EXPIRY: &str = "11/39-exp";
    pub const CARD_CSC: &str = "csc-8317";
    /// Declared sensitive by the caller on a field the page does not protect (`shop.html`
    /// Coupon).
    pub const COUPON: &str = "COUPON-SECRET-5521";
    /// `hostile/07-same-name-frames.html`: Card number.
    pub const FRAME_CARD: &str = "5500005555555559";

    pub const ALL: &[&str] = &[
        LOGIN_PASSWORD,
        ECHO_PASSWORD,
        ENCODED_ECHO_PASSWORD,
        ECHO_CARD,
        BANK_PASSWORD,
        ACCOUNT_NUMBER,
        PIN,
        CARD,
        CARD_EXPIRY,
        CARD_CSC,
        COUPON,
        FRAME_CARD,
    ];
}

/// The forms a secret can take in an output: as typed, URL-encoded (a page may put it in
/// an `href`), and JSON-escaped.
pub fn secret_forms(secret: &str) -> Vec<String> {
    let mut forms = vec![secret.to_owned()];
    let encoded: String = url::form_urlencoded::byte_serialize(secret.as_bytes()).collect();
    forms.push(encoded.replace('+', "%20"));
    forms.push(encoded);
    let json = serde_json::to_string(secret).unwrap_or_default();
    forms.push(json.trim_matches('"').to_owned());
    forms.sort();
    forms.dedup();
    forms
}

/// Everything a test produced, for the leak search.
#[derive(Default)]
pub struct Transcript {
    parts: Vec<(String, String)>,
}

impl Transcript {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn text(&mut self, label: &str, text: impl Into<String>) {
        self.parts.push((label.to_owned(), text.into()));
    }

    pub fn outcome(&mut self, label: &str, o: &Outcome) {
        self.text(label, format!("{o:?}"));
        self.text(label, o.explain());
        self.text(label, o.summary());
        self.text(label, serde_json::to_string(o).unwrap_or_default());
    }

    pub fn error(&mut self, label: &str, e: &Error) {
        self.text(label, e.to_string());
        self.text(label, e.explain());
        self.text(label, format!("{e:?}"));
        let mut cause = std::error::Error::source(e);
        while let Some(c) = cause {
            self.text(label, c.to_string());
            cause = c.source();
        }
        if let Some(o) = e.outcome() {
            self.outcome(label, o);
        }
    }

    pub fn result(&mut self, label: &str, r: &Result<Outcome>) {
        match r {
            Ok(o) => self.outcome(label, o),
            Err(e) => self.error(label, e),
        }
    }

    pub fn snapshot(&mut self, label: &str, s: &Snapshot) {
        self.text(label, serde_json::to_string(s).unwrap_or_default());
    }

    /// Every file under `dir`, recursively.
    pub fn dir(&mut self, label: &str, dir: &Path) -> usize {
        let mut n = 0;
        let Ok(entries) = std::fs::read_dir(dir) else {
            return 0;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                n += self.dir(label, &path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                self.text(
                    &format!("{label} {}", path.display()),
                    String::from_utf8_lossy(&bytes).into_owned(),
                );
                n += 1;
            }
        }
        n
    }

    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Is `needle` anywhere in the transcript?
    pub fn contains(&self, needle: &str) -> bool {
        self.parts.iter().any(|(_, t)| t.contains(needle))
    }

    /// Fails naming the output and the secret when any form of any secret appears.
    pub fn assert_no_secrets(&self) {
        for secret in secret::ALL {
            for form in secret_forms(secret) {
                for (label, text) in &self.parts {
                    if let Some(at) = text.find(&form) {
                        let from = text[..at]
                            .char_indices()
                            .rev()
                            .nth(80)
                            .map_or(0, |(i, _)| i);
                        let context: String = text[from..].chars().take(200).collect();
                        panic!("secret {form:?} leaked into {label}: …{context}…");
                    }
                }
            }
        }
    }
}

/// A chat completions endpoint on 127.0.0.1 that answers `YES` to everything and records
/// every request body.
pub struct ArbiterStub {
    pub url: String,
    requests: Arc<Mutex<Vec<String>>>,
    task: tokio::task::JoinHandle<()>,
}

impl ArbiterStub {
    pub async fn start() -> ArbiterStub {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("stub arbiter binds");
        let url = format!(
            "http://{}/v1/chat/completions",
            listener.local_addr().unwrap()
        );
        let requests: Arc<Mutex<Vec<String>>> = Arc::default();
        let log = requests.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let log = log.clone();
                tokio::spawn(async move {
                    let Some(body) = read_request_body(&mut stream).await else {
                        return;
                    };
                    log.lock().unwrap().push(body);
                    let reply = serde_json::json!({
                        "choices": [{ "index": 0, "message": { "role": "assistant", "content": "YES" } }]
                    })
                    .to_string();
                    let head = format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                        reply.len()
                    );
                    let _ = stream.write_all(head.as_bytes()).await;
                    let _ = stream.write_all(reply.as_bytes()).await;
                });
            }
        });
        ArbiterStub {
            url,
            requests,
            task,
        }
    }

    pub fn config(&self) -> ArbiterConfig {
        ArbiterConfig {
            url: self.url.clone(),
            key: None,
            model: "stub".into(),
            timeout: Duration::from_secs(5),
        }
    }

    /// The request bodies received so far.
    pub fn bodies(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for ArbiterStub {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Reads one HTTP request and returns its body (by `Content-Length`).
async fn read_request_body(stream: &mut tokio::net::TcpStream) -> Option<String> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk))
            .await
            .ok()?
            .ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
        let len = head
            .lines()
            .find_map(|l| {
                l.strip_prefix("content-length:")
                    .and_then(|v| v.trim().parse::<usize>().ok())
            })
            .unwrap_or(0);
        if buf.len() >= end + 4 + len {
            return Some(String::from_utf8_lossy(&buf[end + 4..end + 4 + len]).into_owned());
        }
    }
}

/// A Chromium this test started itself, reachable with `Options::connect`.
pub struct OwnChromium {
    child: tokio::process::Child,
    _profile: tempfile::TempDir,
    pub endpoint: String,
}

impl OwnChromium {
    pub async fn launch() -> OwnChromium {
        let profile = tempfile::Builder::new()
            .prefix("prufe-hostile-")
            .tempdir()
            .expect("profile dir");
        let mut child = tokio::process::Command::new(prufe_harness::cdp::chromium_path(None))
            .args(prufe_harness::cdp::launch_args(profile.path(), true))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("Chromium starts");
        let endpoint = prufe_harness::cdp::wait_for_port_file(
            profile.path(),
            &mut child,
            Duration::from_secs(30),
        )
        .await
        .expect("Chromium opens its DevTools port");
        OwnChromium {
            child,
            _profile: profile,
            endpoint,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id().expect("Chromium is running")
    }

    /// SIGKILL to this Chromium's browser process (and so its whole process tree).
    pub async fn kill(&mut self) {
        self.child.kill().await.expect("Chromium is killed");
    }
}
