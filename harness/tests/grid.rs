//! prufe on a Selenium Grid 4: the grid (standalone, scripts/grid/standalone.toml: Debian's
//! Chromium under Debian's ChromeDriver) starts on a free port, a WebDriver session is made
//! as any grid client makes one, and prufe attaches to that session's browser through the
//! DevTools endpoint the grid proxies (`se:cdp`): `prufe run --connect` (a MATCH with its
//! traces, the recycling list's MISMATCH undone with its pictures, steps inside a frame that
//! runs out of process), the library on the same endpoint beside a second connection, and
//! `prufe mcp --connect` (one verified click over stdio), and a session the grid ends under a
//! running prufe (`BROWSER_CLOSED`). The WebDriver sessions are deleted and the grid stopped
//! at the end, and on a failure too (their guards' drops).
//!
//! Needs the grid installed: `scripts/grid.sh install` (`make test` runs it first).

mod common;

use common::cli::{lines, prufe, show, PRUFE};

use common::mcp::{ref_of, Mcp};
use common::{require_bundle, Servers};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};
use tokio::io::AsyncBufReadExt;

/// How long the grid may take to say it is ready (it is a JVM on two busy cores).
const GRID_READY_WITHIN: Duration = Duration::from_secs(120);

fn grid_script() -> PathBuf {
    common::repo().join("scripts/grid.sh")
}

/// Fails (does not skip) when the Selenium server has not been installed.
fn require_grid() {
    let out = std::process::Command::new(grid_script())
        .arg("jar")
        .output()
        .expect("scripts/grid.sh runs");
    assert!(
        out.status.success(),
        "the Selenium Grid is not installed: run `scripts/grid.sh install` first\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// One HTTP/1.1 exchange with the grid, blocking: its status and JSON body.
fn http(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> std::io::Result<(u16, Value)> {
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json; charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes())?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    let text = String::from_utf8_lossy(&raw);
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::other(format!("no HTTP response: {text}")))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no status: {head}")))?;
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        unchunk(rest)
    } else {
        rest.to_owned()
    };
    let value = serde_json::from_str(&body).unwrap_or(Value::Null);
    Ok((status, value))
}

/// A chunked body, joined.
fn unchunk(mut rest: &str) -> String {
    let mut body = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || tail.len() < n {
            break;
        }
        body.push_str(&tail[..n]);
        rest = tail[n..].trim_start_matches("\r\n");
    }
    body
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// The grid: `scripts/grid.sh start PORT` (which `exec`s the JVM). Dropped, it is asked to
/// stop (SIGTERM: the grid quits its sessions' browsers and drivers), then killed.
struct Grid {
    child: std::process::Child,
    port: u16,
    log: PathBuf,
}

impl Grid {
    fn start(dir: &Path) -> Grid {
        let port = free_port();
        let log = dir.join("grid.log");
        let file = std::fs::File::create(&log).unwrap();
        let child = std::process::Command::new(grid_script())
            .args(["start", &port.to_string()])
            .stdin(std::process::Stdio::null())
            .stdout(file.try_clone().unwrap())
            .stderr(file)
            .spawn()
            .expect("scripts/grid.sh start runs");
        let mut grid = Grid { child, port, log };
        grid.wait_ready();
        grid
    }

    /// Waits for `/status` to say the grid is ready (its node registered, a slot free).
    fn wait_ready(&mut self) {
        let started = Instant::now();
        loop {
            if let Ok((200, v)) = http(self.port, "GET", "/status", None) {
                if v["value"]["ready"] == true {
                    eprintln!(
                        "grid: ready on port {} in {:.1} s",
                        self.port,
                        started.elapsed().as_secs_f64()
                    );
                    return;
                }
            }
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!(
                    "the grid exited ({status}) before it was ready\n{}",
                    self.log_text()
                );
            }
            assert!(
                started.elapsed() < GRID_READY_WITHIN,
                "the grid was not ready within {} s\n{}",
                GRID_READY_WITHIN.as_secs(),
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits for the grid's slots to hold `n` sessions (its model follows a session's start
    /// or end through its event bus, a moment later).
    fn wait_sessions(&self, n: usize) {
        let started = Instant::now();
        loop {
            let now = self.sessions();
            if now == n {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the grid's slots hold {now} sessions, not {n}, after 30 s"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Sessions the grid's slots hold now.
    fn sessions(&self) -> usize {
        let (_, v) = http(self.port, "GET", "/status", None).expect("/status answers");
        v["value"]["nodes"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|n| n["slots"].as_array().cloned().unwrap_or_default())
            .filter(|s| !s["session"].is_null())
            .count()
    }

    /// Asks the grid to stop and waits for it; its exit status, once it has exited.
    fn stop(&mut self) -> Option<std::process::ExitStatus> {
        if let Some(status) = self.child.try_wait().unwrap() {
            return Some(status);
        }
        // SAFETY: a plain kill(2) of our own child, which has not been reaped.
        unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
        let asked = Instant::now();
        while asked.elapsed() < Duration::from_secs(20) {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        self.child.wait().ok()
    }
}

impl Drop for Grid {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let log = self.log_text();
            let tail: Vec<&str> = log.lines().rev().take(40).collect();
            eprintln!(
                "grid log (last lines):\n{}",
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
        }
        self.stop();
    }
}

/// A WebDriver session on the grid; deleted when dropped.
struct WebDriver {
    port: u16,
    id: String,
    capabilities: Value,
    deleted: bool,
}

impl WebDriver {
    /// `POST /session`, as any grid client asks for a Chromium.
    fn new(grid: &Grid) -> WebDriver {
        let (status, v) = http(
            grid.port,
            "POST",
            "/session",
            Some(&json!({ "capabilities": { "alwaysMatch": { "browserName": "chrome" } } })),
        )
        .expect("POST /session answers");
        assert_eq!(status, 200, "a session is made: {v}\n{}", grid.log_text());
        WebDriver {
            port: grid.port,
            id: v["value"]["sessionId"].as_str().unwrap().to_owned(),
            capabilities: v["value"]["capabilities"].clone(),
            deleted: false,
        }
    }

    /// The DevTools endpoint the grid proxies for this session's browser.
    fn cdp(&self) -> String {
        self.capabilities["se:cdp"]
            .as_str()
            .unwrap_or_else(|| panic!("the capabilities carry no se:cdp: {}", self.capabilities))
            .to_owned()
    }

    fn get(&self, what: &str) -> (u16, Value) {
        http(
            self.port,
            "GET",
            &format!("/session/{}/{what}", self.id),
            None,
        )
        .expect("the grid answers")
    }

    fn delete(&mut self) -> u16 {
        self.deleted = true;
        http(self.port, "DELETE", &format!("/session/{}", self.id), None)
            .map(|(status, _)| status)
            .unwrap_or(0)
    }
}

impl Drop for WebDriver {
    fn drop(&mut self) {
        if !self.deleted {
            self.delete();
        }
    }
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// `prufe run URL --script (steps) --json --connect CDP --trace-dir DIR`.
async fn run(dir: &Path, name: &str, cdp: &str, url: &str, steps: &str) -> (Output, PathBuf) {
    let script = dir.join(format!("{name}.json"));
    std::fs::write(&script, steps).unwrap();
    let traces = dir.join(format!("{name}-traces"));
    let out = prufe(&[
        "run",
        url,
        "--script",
        script.to_str().unwrap(),
        "--json",
        "--connect",
        cdp,
        "--trace-dir",
        traces.to_str().unwrap(),
    ])
    .await;
    (out, traces)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prufe_drives_a_grid_session_through_its_cdp_endpoint() {
    require_bundle();
    require_grid();
    let dir = tempfile::tempdir().unwrap();
    let servers = Servers::start().await;
    let started = Instant::now();
    let mut grid = Grid::start(dir.path());
    let ready = started.elapsed();
    let mut session = WebDriver::new(&grid);
    let cdp = session.cdp();
    // The endpoint is the grid's own, proxied to the session's browser, not the browser's.
    assert_eq!(
        cdp,
        format!("ws://127.0.0.1:{}/session/{}/se/cdp", grid.port, session.id),
        "{}",
        session.capabilities
    );
    grid.wait_sessions(1);

    // A MATCH, with its traces.
    let t = Instant::now();
    let (out, traces) = run(
        dir.path(),
        "shop",
        &cdp,
        &servers.url("shop.html"),
        r#"[
        {"action":"click","target":{"role":"button","name":"Add Shirt M"},"intent":"the cart gains a shirt in size M"},
        {"action":"fill","target":{"role":"textbox","name":"Name"},"value":"Ada"},
        {"action":"check","target":{"role":"checkbox","name":"Gift wrap"}}
    ]"#,
    )
    .await;
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let l = lines(&out);
    assert_eq!(l.len(), 3, "{}", show(&out));
    for line in &l {
        assert_eq!(
            (line["ok"].as_bool(), line["verdict"].as_str()),
            (Some(true), Some("MATCH")),
            "{line}"
        );
    }
    assert!(l[0]["diff"]
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d.as_str().unwrap().starts_with("appeared listitem[Shirt M")));
    assert_eq!(
        files(&traces),
        [
            "0001-click-match.json",
            "0002-fill-match.json",
            "0003-check-match.json",
            "traces.js"
        ]
    );
    let record: Value = serde_json::from_str(
        &std::fs::read_to_string(traces.join("0001-click-match.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(record["verdict"], "MATCH");
    assert_eq!(record["intent"], "the cart gains a shirt in size M");
    eprintln!(
        "grid: the shop's three steps in {:.1} s",
        t.elapsed().as_secs_f64()
    );

    // The recycling list: the click lands on the neighbour, is seen as a MISMATCH and undone
    // (twice: the second attempt recycles too), the step's pictures kept beside its record.
    let t = Instant::now();
    let (out, traces) = run(
        dir.path(),
        "recycled",
        &cdp,
        &servers.url("recycled-list.html"),
        r#"[
        {"action":"click","target":{"role":"button","name":"Add Shirt M"}},
        {"action":"click","target":{"role":"button","name":"Add Socks S"}}
    ]"#,
    )
    .await;
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let l = lines(&out);
    assert_eq!(
        l.len(),
        1,
        "the run stopped at the first step: {}",
        show(&out)
    );
    assert_eq!(
        (
            l[0]["ok"].as_bool(),
            l[0]["verdict"].as_str(),
            l[0]["error"].as_str(),
            l[0]["attempts"].as_u64(),
            l[0]["undone"].as_u64()
        ),
        (
            Some(false),
            Some("MISMATCH"),
            Some("VERIFICATION_FAILED"),
            Some(2),
            Some(2)
        ),
        "{}",
        show(&out)
    );
    assert!(
        l[0]["reason"].as_str().unwrap().contains("Trousers L"),
        "{}",
        l[0]
    );
    assert_eq!(
        files(&traces),
        [
            "0001-click-mismatch.after.jpg",
            "0001-click-mismatch.before.jpg",
            "0001-click-mismatch.json",
            "traces.js"
        ]
    );
    for picture in [
        "0001-click-mismatch.before.jpg",
        "0001-click-mismatch.after.jpg",
    ] {
        let bytes = std::fs::read(traces.join(picture)).unwrap();
        assert_eq!(&bytes[..2], b"\xff\xd8", "{picture} is a JPEG");
    }
    eprintln!(
        "grid: the recycling list's MISMATCH in {:.1} s",
        t.elapsed().as_secs_f64()
    );

    // Inside a frame another process runs: the page at localhost, its card frame at
    // 127.0.0.1, another site, and the grid's Chromium keeps site isolation on.
    let t = Instant::now();
    let card_page = servers
        .url("hostile/11-cross-origin-iframe.html")
        .replace("127.0.0.1", "localhost");
    let (out, traces) = run(
        dir.path(),
        "frame",
        &cdp,
        &card_page,
        r#"[
        {"action":"fill","target":{"role":"textbox","name":"Card number","region":"frame[0]/form[Card]"},"value":"5500005555555559","sensitive":true},
        {"action":"click","target":{"role":"button","name":"Pay","region":"frame[0]/form[Card]"},"intent":"the payment is accepted"}
    ]"#,
    )
    .await;
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let l = lines(&out);
    assert_eq!(l.len(), 2, "{}", show(&out));
    for line in &l {
        assert_eq!(line["verdict"], "MATCH", "{line}");
    }
    assert!(
        l[1]["diff"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d.as_str().unwrap().contains("Payment accepted")),
        "{}",
        l[1]
    );
    assert_eq!(
        files(&traces),
        ["0001-fill-match.json", "0002-click-match.json", "traces.js"]
    );
    eprintln!(
        "grid: the frame's two steps in {:.1} s",
        t.elapsed().as_secs_f64()
    );

    // The library on the same endpoint, beside a second connection through the grid that
    // sees the frame as a target of its own: it does run out of process.
    let mut v = prufe_harness::Verifier::launch(prufe_harness::Options {
        connect: Some(cdp.clone()),
        ..Default::default()
    })
    .await
    .expect("the library attaches through the grid");
    v.open(&card_page).await.unwrap();
    let (second, driver) = prufe_harness::cdp::Connection::connect(&cdp)
        .await
        .expect("a second connection through the grid");
    let targets = second
        .execute("Target.getTargets", json!({}))
        .await
        .unwrap();
    let frames: Vec<&str> = targets["targetInfos"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["type"] == "iframe")
        .filter_map(|t| t["url"].as_str())
        .collect();
    assert!(
        frames.iter().any(|u| u.ends_with("/card-frame.html")),
        "the card frame is a target of its own: {targets}"
    );
    driver.abort();
    let o = v
        .click(
            common::target_in("button", "Pay", "frame[0]/form[Card]"),
            Some("the payment is accepted"),
        )
        .await
        .unwrap();
    assert!(o.ok, "{}", o.explain());
    v.close().await.unwrap();

    // The MCP server on the same endpoint: one verified click over stdio.
    let t = Instant::now();
    let mut mcp = Mcp::start_with(&["--connect", &cdp]).await;
    let nav = mcp
        .call(
            "browser_navigate",
            json!({ "url": servers.url("shop.html") }),
        )
        .await;
    assert!(!nav.contains("ERROR"), "{nav}");
    let snapshot = mcp.call("browser_snapshot", json!({})).await;
    let add = ref_of(&snapshot, "button", "Add Shirt M");
    let click = mcp
        .call_result("browser_click", json!({ "target": add }))
        .await;
    let text = common::mcp::text_of(&click);
    assert_eq!(click["structuredContent"]["verdict"], "MATCH", "{click}");
    assert!(
        text.starts_with("MATCH: click on button[Add Shirt M]"),
        "{text}"
    );
    mcp.stop().await;
    eprintln!(
        "grid: MCP, navigate and a verified click in {:.1} s",
        t.elapsed().as_secs_f64()
    );

    // prufe left the session's browser as it found it: WebDriver still drives it.
    let (status, url) = session.get("url");
    assert_eq!(status, 200, "the WebDriver session outlives prufe: {url}");
    assert_eq!(session.delete(), 200);
    // The slot is free again.
    grid.wait_sessions(0);

    // A session the grid ends under a running prufe is BROWSER_CLOSED, never a page said to
    // be busy, whether the grid closes prufe's socket or keeps it open in silence.
    let mut doomed = WebDriver::new(&grid);
    let script = dir.path().join("doomed.json");
    std::fs::write(
        &script,
        r#"[
        {"action":"click","target":{"role":"button","name":"Add Shirt M"}},
        {"action":"wait","until":{"text":"never shown"},"timeoutMs":60000}
    ]"#,
    )
    .unwrap();
    let mut child = tokio::process::Command::new(PRUFE)
        .args([
            "run",
            &servers.url("shop.html"),
            "--script",
            script.to_str().unwrap(),
            "--json",
            "--timeout-ms",
            "3000",
            "--connect",
            &doomed.cdp(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut out = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let first = out.next_line().await.unwrap().expect("step 1's line");
    assert_eq!(
        serde_json::from_str::<Value>(&first).unwrap()["verdict"],
        "MATCH",
        "{first}"
    );
    // Step 2 waits for a text that never shows; the session ends under it.
    let ended = Instant::now();
    assert_eq!(doomed.delete(), 200);
    let second = out.next_line().await.unwrap().expect("step 2's line");
    let reported = ended.elapsed();
    let status = child.wait().await.unwrap();
    let l: Value = serde_json::from_str(&second).unwrap();
    assert_eq!(
        (status.code(), l["error"].as_str()),
        (Some(1), Some("BROWSER_CLOSED")),
        "{second}"
    );
    // The grid either closes prufe's socket too, or keeps it open and answers nothing more
    // on it (5 runs in 8 here): the browser's silence is seen then.
    let reason = l["reason"].as_str().unwrap();
    let how = if reason.contains("not even Browser.getVersion") {
        "the socket kept open, the browser silent"
    } else {
        assert!(reason.contains("connection closed"), "{second}");
        "the socket closed"
    };
    // Within the command budget and the probe, far from the wait's own 60 s.
    assert!(
        reported < Duration::from_secs(20),
        "BROWSER_CLOSED {reported:?} after the session ended"
    );
    eprintln!(
        "grid: a session ended under prufe is BROWSER_CLOSED ({how}) {:.1} s later, prufe exited {:.1} s later",
        reported.as_secs_f64(),
        ended.elapsed().as_secs_f64()
    );
    grid.wait_sessions(0);
    let status = grid.stop().expect("the grid stops");
    eprintln!(
        "grid: ready in {:.1} s, the whole test {:.1} s, the grid exited with {status}",
        ready.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
}
