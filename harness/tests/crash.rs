//! Crashes, hangs and stops, in real headless Chromium: a renderer that crashes, a browser
//! that dies and a page whose main thread never returns each end the step with their own
//! code promptly (not `BROWSER_ERROR` after the 30 s request timeout), with the trace record
//! written; a browser that falls silent behind a connection left open (a proxy's) is
//! `BROWSER_CLOSED`, not a hung page; and no Chromium outlives a `prufe run` stopped by SIGINT, SIGTERM, SIGKILL or a
//! closed output pipe.
//!
//! Times are measured from the moment the event begins, as the page reports it to a local
//! listener (`?report=PORT`: a synchronous request, so it has arrived before the page goes
//! on) or as the test causes it (`Page.crash`, a SIGKILL). The bounds are ordinary
//! assertions with a wide margin for a loaded machine, not benchmarks.
//!
//! Processes are found through an environment variable set on `prufe` only, which the
//! browser and its crash handler (which detaches itself from the process tree) inherit, and
//! through the run's profile path, which every other Chromium process carries on its
//! command line (they rewrite their argv over the environment block that `/proc` shows).

mod common;

use common::{require_bundle, target, Servers, Session};
use prufe::core::error::ErrorCode;
use prufe_harness::{Options, Timing};
use serde_json::{json, Value};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const PRUFE: &str = env!("CARGO_BIN_EXE_prufe");

/// The promise: the step ends within this long of the event (or, for a hang, of the
/// budget running out).
const PROMPT: Duration = Duration::from_secs(2);
/// Room for a machine busy with other builds.
const SLACK: Duration = Duration::from_secs(3);

// --- A listener the pages report to ---

/// Records every `GET /<what>` a fixture sends, with when it arrived, and answers at once.
struct Reports {
    port: u16,
    seen: Arc<Mutex<Vec<(String, Instant)>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Reports {
    async fn start() -> Reports {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen: Arc<Mutex<Vec<(String, Instant)>>> = Arc::default();
        let log = seen.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let log = log.clone();
                tokio::spawn(async move {
                    let mut buf = Vec::new();
                    let mut chunk = [0u8; 1024];
                    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                        match stream.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                    }
                    let head = String::from_utf8_lossy(&buf);
                    let path = head.split_whitespace().nth(1).unwrap_or("/");
                    log.lock()
                        .unwrap()
                        .push((path.trim_start_matches('/').to_owned(), Instant::now()));
                    let _ = stream
                        .write_all(b"HTTP/1.1 204 No Content\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n")
                        .await;
                });
            }
        });
        Reports { port, seen, task }
    }

    fn query(&self) -> String {
        format!("report={}", self.port)
    }

    fn seen(&self, what: &str) -> Option<Instant> {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .find(|(w, _)| w == what)
            .map(|(_, at)| *at)
    }

    /// When the page reported `what`; panics after `limit`.
    async fn wait_for(&self, what: &str, limit: Duration) -> Instant {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(at) = self.seen(what) {
                return at;
            }
            assert!(
                Instant::now() < deadline,
                "the page never reported {what:?} (saw {:?})",
                self.seen.lock().unwrap()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

impl Drop for Reports {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn trace_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".json"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn trace_record(dir: &Path, name: &str) -> Value {
    let text = std::fs::read_to_string(dir.join(name))
        .unwrap_or_else(|e| panic!("{name} in {}: {e}", dir.display()));
    serde_json::from_str(&text).unwrap()
}

// --- The library: each kind ends the step with its code ---

#[tokio::test]
async fn a_renderer_crash_ends_the_step_as_page_crashed_at_once() {
    let reports = Reports::start().await;
    let traces = tempfile::tempdir().unwrap();
    let opts = Options {
        trace_dir: Some(traces.path().to_path_buf()),
        ..Options::default()
    };
    let page_url = format!("hostile/21-renderer-crash.html?{}", reports.query());
    let mut s = Session::open_with(&page_url, opts).await;
    let page = s.v.page().clone();

    let crash = async {
        reports.wait_for("crash", Duration::from_secs(30)).await;
        let at = Instant::now();
        // Page.crash never answers: the renderer that would answer is gone.
        tokio::spawn(async move {
            let _ = tokio::time::timeout(
                Duration::from_secs(5),
                prufe_harness::inject::send(&page, "Page.crash", json!({})),
            )
            .await;
        });
        at
    };
    let click = async {
        let r = s.v.click(target("button", "Crash"), None).await;
        (r, Instant::now())
    };
    let (crashed, (r, ended)) = tokio::time::timeout(Duration::from_secs(60), async {
        tokio::join!(crash, click)
    })
    .await
    .expect("the step ended");
    let e = r.expect_err("the renderer crashed under the step");
    let latency = ended.saturating_duration_since(crashed);
    eprintln!("renderer crash -> {}: {latency:?}", e.code());
    assert_eq!(e.code(), ErrorCode::PageCrashed, "{e}");
    assert!(e.to_string().contains("crashed"), "{e}");
    assert!(
        latency < PROMPT + SLACK,
        "PAGE_CRASHED {latency:?} after the crash"
    );

    let names = trace_names(traces.path());
    assert_eq!(names, ["0001-click-page-crashed.json"], "{names:?}");
    let record = trace_record(traces.path(), &names[0]);
    assert_eq!(record["error"], "PAGE_CRASHED");
    assert_eq!(record["ok"], false);
    assert!(s.v.held().is_empty(), "held: {:?}", s.v.held());

    // Every later call fails at once with the same cause, instead of timing out.
    let started = Instant::now();
    let again = s.v.snapshot().await.expect_err("the page is gone");
    assert_eq!(again.code(), ErrorCode::PageCrashed, "{again}");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    tokio::time::timeout(Duration::from_secs(15), s.close())
        .await
        .expect("a browser with a crashed tab still closes");
}

#[tokio::test]
async fn a_browser_killed_mid_drag_ends_the_step_as_browser_closed_at_once() {
    let reports = Reports::start().await;
    let traces = tempfile::tempdir().unwrap();
    let opts = Options {
        trace_dir: Some(traces.path().to_path_buf()),
        ..Options::default()
    };
    // Every move of the drag busy-waits 1.5 s: the drag lasts about 15 s.
    let page_url = format!(
        "hostile/19-kill-mid-drag.html?slow=1500&{}",
        reports.query()
    );
    let mut s = Session::open_with(&page_url, opts).await;
    let pid = s.v.browser_pid().expect("a launched browser");

    let kill = async {
        reports
            .wait_for("pointerdown", Duration::from_secs(30))
            .await;
        tokio::time::sleep(Duration::from_millis(1_000)).await;
        let at = Instant::now();
        signal(pid, libc::SIGKILL);
        at
    };
    let drag = async {
        let r =
            s.v.drag(
                target("listitem", "Card A"),
                target("list", "Far away"),
                Vec::new(),
                None,
            )
            .await;
        (r, Instant::now())
    };
    let (killed, (r, ended)) =
        tokio::time::timeout(Duration::from_secs(60), async { tokio::join!(kill, drag) })
            .await
            .expect("the step ended");
    let e = r.expect_err("the browser died under the drag");
    assert!(ended > killed, "the drag ended before the kill: {e}");
    let latency = ended - killed;
    eprintln!("browser killed -> {}: {latency:?}", e.code());
    assert_eq!(e.code(), ErrorCode::BrowserClosed, "{e}");
    assert!(
        latency < PROMPT + SLACK,
        "BROWSER_CLOSED {latency:?} after the kill"
    );

    let names = trace_names(traces.path());
    assert_eq!(names, ["0001-drag-browser-closed.json"], "{names:?}");
    assert_eq!(
        trace_record(traces.path(), &names[0])["error"],
        "BROWSER_CLOSED"
    );
    // The drag held the button; a browser that is gone holds nothing.
    assert!(s.v.held().is_empty(), "held: {:?}", s.v.held());
    let started = Instant::now();
    let again = s.v.snapshot().await.expect_err("the browser is gone");
    assert_eq!(again.code(), ErrorCode::BrowserClosed, "{again}");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    tokio::time::timeout(Duration::from_secs(15), s.close())
        .await
        .expect("closing a dead browser does not hang");
}

/// A hang is said once a command went unanswered for the budget and the probe got no
/// answer either: after the budget, never before it, and within PROMPT of it.
async fn hang_is_page_unresponsive(variant: &str) {
    let budget = Duration::from_millis(3_000);
    let reports = Reports::start().await;
    let traces = tempfile::tempdir().unwrap();
    let opts = Options {
        trace_dir: Some(traces.path().to_path_buf()),
        timing: Timing {
            timeout_ms: budget.as_millis() as u64,
            ..Timing::default()
        },
        ..Options::default()
    };
    let page_url = format!(
        "hostile/22-main-thread-hang.html?{}{variant}",
        reports.query()
    );
    let mut s = Session::open_with(&page_url, opts).await;
    let r = tokio::time::timeout(
        Duration::from_secs(60),
        s.v.click(target("button", "Freeze"), None),
    )
    .await
    .expect("the step ended");
    let ended = Instant::now();
    let hung = reports.seen("hang").expect("the page reported its hang");
    let e = r.expect_err("the page hung under the step");
    let after = ended - hung;
    eprintln!(
        "hang{variant} -> {}: {after:?} (budget {budget:?})",
        e.code()
    );
    assert_eq!(e.code(), ErrorCode::PageUnresponsive, "{e}");
    assert!(e.to_string().contains("main thread"), "{e}");
    assert!(
        after >= budget - Duration::from_millis(100),
        "declared unresponsive {after:?} into the hang, before the {budget:?} budget"
    );
    assert!(
        after < budget + PROMPT + SLACK,
        "PAGE_UNRESPONSIVE {after:?} after the hang began (budget {budget:?})"
    );
    let names = trace_names(traces.path());
    assert_eq!(names, ["0001-click-page-unresponsive.json"], "{names:?}");
    assert_eq!(
        trace_record(traces.path(), &names[0])["error"],
        "PAGE_UNRESPONSIVE"
    );
    // The page stays marked: the next call does not wait another budget.
    let started = Instant::now();
    let again = s.v.snapshot().await.expect_err("the page still hangs");
    assert_eq!(again.code(), ErrorCode::PageUnresponsive, "{again}");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    let started = Instant::now();
    tokio::time::timeout(Duration::from_secs(20), s.close())
        .await
        .expect("a browser with a hung tab still closes");
    eprintln!(
        "closed a browser with a hung tab in {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_click_handler_that_never_returns_is_page_unresponsive_after_the_budget() {
    hang_is_page_unresponsive("").await;
}

#[tokio::test]
async fn a_hang_while_the_page_settles_is_page_unresponsive_after_the_budget() {
    hang_is_page_unresponsive("&delay=400").await;
}

/// A TCP proxy to `upstream` that, once `silence` turns true, drops its side to the browser
/// and keeps the client's side open, saying nothing more: what a Selenium Grid may do with
/// the DevTools socket of a session it ended.
async fn silencing_proxy(
    upstream: std::net::SocketAddr,
    silence: tokio::sync::watch::Receiver<bool>,
) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let held = Arc::new(Mutex::new(Vec::new()));
    tokio::spawn(async move {
        while let Ok((down, _)) = listener.accept().await {
            let Ok(up) = tokio::net::TcpStream::connect(upstream).await else {
                continue;
            };
            let (mut silence, held) = (silence.clone(), held.clone());
            tokio::spawn(async move {
                let (mut dr, mut dw) = down.into_split();
                let (mut ur, mut uw) = up.into_split();
                tokio::select! {
                    _ = tokio::io::copy(&mut dr, &mut uw) => return,
                    _ = tokio::io::copy(&mut ur, &mut dw) => return,
                    _ = silence.wait_for(|s| *s) => {}
                }
                // The browser's side closes here; the client's stays open, unread.
                held.lock().unwrap().push((dr, dw));
            });
        }
    });
    port
}

#[tokio::test]
async fn a_browser_silent_behind_an_open_connection_is_browser_closed_not_unresponsive() {
    require_bundle();
    let servers = Servers::start().await;
    let browser = prufe_harness::cdp::Browser::launch(None, true)
        .await
        .expect("Chromium launches");
    let endpoint = url::Url::parse(browser.endpoint()).unwrap();
    let upstream = endpoint.socket_addrs(|| None).unwrap()[0];
    let (silence, silenced) = tokio::sync::watch::channel(false);
    let port = silencing_proxy(upstream, silenced).await;
    let proxied = format!("ws://127.0.0.1:{port}{}", endpoint.path());
    let budget = Duration::from_millis(3_000);
    let mut v = prufe_harness::Verifier::launch(Options {
        connect: Some(proxied),
        timing: Timing {
            timeout_ms: budget.as_millis() as u64,
            ..Timing::default()
        },
        ..Options::default()
    })
    .await
    .expect("attached through the proxy");
    v.open(&servers.url("shop.html")).await.unwrap();
    let o = v
        .click(target("button", "Add Shirt M"), None)
        .await
        .unwrap();
    assert!(o.ok, "{}", o.explain());

    silence.send(true).unwrap();
    let started = Instant::now();
    let e = tokio::time::timeout(
        Duration::from_secs(60),
        v.click(target("button", "Add Cap"), None),
    )
    .await
    .expect("the step ended")
    .expect_err("nothing answers any more");
    let after = started.elapsed();
    eprintln!(
        "silent browser -> {}: {after:?} (budget {budget:?})",
        e.code()
    );
    assert_eq!(e.code(), ErrorCode::BrowserClosed, "{e}");
    assert!(e.to_string().contains("not even Browser.getVersion"), "{e}");
    assert!(
        after < budget + PROMPT + SLACK,
        "BROWSER_CLOSED {after:?} after the browser went silent (budget {budget:?})"
    );
    // Every later command fails at once.
    let again = Instant::now();
    let e = v.snapshot().await.expect_err("still silent");
    assert_eq!(e.code(), ErrorCode::BrowserClosed, "{e}");
    assert!(
        again.elapsed() < Duration::from_secs(1),
        "{:?}",
        again.elapsed()
    );
    tokio::time::timeout(Duration::from_secs(15), v.close())
        .await
        .expect("closing a silent connection does not hang")
        .unwrap();
    browser.close().await.unwrap();
}

// --- `prufe run`: the codes, exit 1, and the processes it leaves ---

/// The marker every process of one run inherits.
fn mark() -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    format!(
        "crash-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

const MARK_VAR: &str = "PRUFE_TEST_RUN";

/// A live process (zombies are dead: they only wait to be reaped).
#[derive(Debug, Clone)]
struct Proc {
    pid: u32,
    cmdline: String,
}

/// Every live process of a run: `mark` in its environment or its `profile` on its command
/// line; `prufe` itself left out.
fn marked(mark: &str, prufe: u32, profile: Option<&Path>) -> Vec<Proc> {
    let needle = format!("{MARK_VAR}={mark}");
    let profile = profile.map(|p| format!("--user-data-dir={}", p.display()));
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if pid == prufe || !is_alive(pid) {
            continue;
        }
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline"))
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
            .unwrap_or_default();
        let in_profile = profile
            .as_deref()
            .is_some_and(|p| cmdline.split_whitespace().any(|a| a == p));
        let has_mark = std::fs::read(format!("/proc/{pid}/environ"))
            .is_ok_and(|env| env.split(|b| *b == 0).any(|v| v == needle.as_bytes()));
        if in_profile || has_mark {
            out.push(Proc { pid, cmdline });
        }
    }
    out
}

fn is_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name, which may hold spaces.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

/// Waits at most `limit` for every process of a run to be gone; the survivors.
async fn survivors(
    mark: &str,
    prufe: u32,
    profile: &Path,
    limit: Duration,
) -> (Vec<Proc>, Duration) {
    let started = Instant::now();
    loop {
        let left = marked(mark, prufe, Some(profile));
        if left.is_empty() || started.elapsed() >= limit {
            return (left, started.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn signal(pid: u32, signo: libc::c_int) {
    // SAFETY: kill(2) on a pid this test started (or its browser); no memory is shared.
    let r = unsafe { libc::kill(pid as libc::pid_t, signo) };
    assert_eq!(
        r,
        0,
        "kill({pid}, {signo}): {}",
        std::io::Error::last_os_error()
    );
}

/// The browser process of a run (not one of its zygotes, renderers or helpers) and its
/// profile, once it has started.
async fn browser_of(mark: &str, prufe: u32) -> (Proc, PathBuf) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let procs = marked(mark, prufe, None);
        if let Some(b) = procs
            .iter()
            .find(|p| p.cmdline.contains("chromium") && !p.cmdline.contains("--type="))
        {
            let profile = b
                .cmdline
                .split_whitespace()
                .find_map(|a| a.strip_prefix("--user-data-dir="))
                .map(PathBuf::from)
                .expect("the browser is given a profile");
            return (b.clone(), profile);
        }
        assert!(Instant::now() < deadline, "no browser started: {procs:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

struct Run {
    child: tokio::process::Child,
    pid: u32,
    mark: String,
    dir: tempfile::TempDir,
}

impl Run {
    /// Starts `prufe run URL --script … --json --trace-dir …` with its own marker.
    async fn start(url: &str, script: &str, extra: &[&str], stdout_open: bool) -> Run {
        require_bundle();
        let dir = tempfile::tempdir().unwrap();
        let script_path = dir.path().join("script.json");
        std::fs::write(&script_path, script).unwrap();
        let trace_dir = dir.path().join("traces");
        let mark = mark();
        let mut child = tokio::process::Command::new(PRUFE)
            .args(["run", url, "--script"])
            .arg(&script_path)
            .args(["--json", "--trace-dir"])
            .arg(&trace_dir)
            .args(extra)
            .env(MARK_VAR, &mark)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("prufe starts");
        if !stdout_open {
            drop(child.stdout.take());
        }
        let pid = child.id().expect("running");
        Run {
            child,
            pid,
            mark,
            dir,
        }
    }

    fn traces(&self) -> PathBuf {
        self.dir.path().join("traces")
    }

    /// Waits for the exit (bounded) and returns the output.
    async fn finish(self, limit: Duration) -> (Output, String, u32, PathBuf, tempfile::TempDir) {
        let out = tokio::time::timeout(limit, self.child.wait_with_output())
            .await
            .expect("prufe exits")
            .expect("prufe's output");
        let traces = self.dir.path().join("traces");
        (out, self.mark, self.pid, traces, self.dir)
    }
}

fn show(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

const CLICK_CRASH: &str = r#"[{"action":"click","target":{"role":"button","name":"Crash"}}]"#;
const CLICK_FREEZE: &str = r#"[{"action":"click","target":{"role":"button","name":"Freeze"}}]"#;
const LONG_DRAG: &str = r#"[{"action":"drag","target":{"role":"listitem","name":"Card A"},"to":{"role":"list","name":"Far away"}}]"#;

/// After an ending, the run exits 1, its line and its trace record carry `code`, and no
/// process of it remains.
async fn assert_failed_run(run: Run, profile: &Path, code: &str, action: &str, since: Instant) {
    let (out, mark, pid, traces, _dir) = run.finish(Duration::from_secs(60)).await;
    let exited = since.elapsed();
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "{}", show(&out));
    assert_eq!(lines[0]["error"], code, "{}", show(&out));
    assert_eq!(lines[0]["ok"], false);
    let expected = format!(
        "0001-{action}-{}.json",
        code.to_ascii_lowercase().replace('_', "-")
    );
    assert_eq!(trace_names(&traces), [expected.as_str()], "{}", show(&out));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let (left, took) = survivors(&mark, pid, profile, Duration::from_secs(2)).await;
    assert!(left.is_empty(), "still running after the exit: {left:?}");
    assert!(
        !profile.exists(),
        "the profile {} was removed",
        profile.display()
    );
    eprintln!("run ended by {code}: exited {exited:?} after the event; processes gone {took:?} after the exit");
}

#[tokio::test]
async fn prufe_run_reports_a_renderer_crash_and_exits_1() {
    let servers = Servers::start().await;
    let reports = Reports::start().await;
    let url = servers.url(&format!(
        "hostile/21-renderer-crash.html?{}",
        reports.query()
    ));
    let run = Run::start(&url, CLICK_CRASH, &[], true).await;
    let (_, profile) = browser_of(&run.mark, run.pid).await;
    reports.wait_for("crash", Duration::from_secs(60)).await;
    // A renderer killed is what a crash looks like to the browser. The page's tab is in one
    // of the run's renderers; the browser's own UI renderer is left alone.
    let renderers: Vec<Proc> = marked(&run.mark, run.pid, Some(&profile))
        .into_iter()
        .filter(|p| {
            p.cmdline.contains("--type=renderer") && !p.cmdline.contains("--top-chrome-webui")
        })
        .collect();
    assert!(!renderers.is_empty(), "no renderer found");
    let at = Instant::now();
    for r in &renderers {
        signal(r.pid, libc::SIGKILL);
    }
    assert_failed_run(run, &profile, "PAGE_CRASHED", "click", at).await;
}

#[tokio::test]
async fn prufe_run_reports_a_hang_and_exits_1() {
    let servers = Servers::start().await;
    let reports = Reports::start().await;
    let url = servers.url(&format!(
        "hostile/22-main-thread-hang.html?{}",
        reports.query()
    ));
    let run = Run::start(&url, CLICK_FREEZE, &["--timeout-ms", "3000"], true).await;
    let (_, profile) = browser_of(&run.mark, run.pid).await;
    let hung = reports.wait_for("hang", Duration::from_secs(60)).await;
    assert_failed_run(run, &profile, "PAGE_UNRESPONSIVE", "click", hung).await;
}

#[tokio::test]
async fn prufe_run_reports_a_dead_browser_and_exits_1() {
    let servers = Servers::start().await;
    let reports = Reports::start().await;
    let url = servers.url(&format!(
        "hostile/19-kill-mid-drag.html?slow=1500&{}",
        reports.query()
    ));
    let run = Run::start(&url, LONG_DRAG, &[], true).await;
    let (browser, profile) = browser_of(&run.mark, run.pid).await;
    reports
        .wait_for("pointerdown", Duration::from_secs(60))
        .await;
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    let at = Instant::now();
    signal(browser.pid, libc::SIGKILL);
    assert_failed_run(run, &profile, "BROWSER_CLOSED", "drag", at).await;
}

/// `prufe run` mid-drag gets `signo`: what it leaves behind two seconds later.
async fn stopped_mid_drag(signo: libc::c_int) {
    let servers = Servers::start().await;
    let reports = Reports::start().await;
    let url = servers.url(&format!(
        "hostile/19-kill-mid-drag.html?slow=1500&{}",
        reports.query()
    ));
    let run = Run::start(&url, LONG_DRAG, &[], true).await;
    let (browser, profile) = browser_of(&run.mark, run.pid).await;
    reports
        .wait_for("pointerdown", Duration::from_secs(60))
        .await;
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    let before = marked(&run.mark, run.pid, Some(&profile));
    assert!(
        before.len() > 1,
        "the browser and its children run: {before:?}"
    );
    assert!(before.iter().any(|p| p.pid == browser.pid));
    assert!(
        reports.seen("pointerup").is_none(),
        "the drag was still under way"
    );
    let at = Instant::now();
    signal(run.pid, signo);
    let traces = run.traces();
    let (out, mark, pid, _, _dir) = run.finish(Duration::from_secs(60)).await;
    let exited = at.elapsed();
    let (left, took) = survivors(&mark, pid, &profile, Duration::from_secs(2)).await;
    eprintln!(
        "signal {signo}: prufe exited after {exited:?}; {} processes before, {} left {took:?} later",
        before.len(),
        left.len()
    );
    assert!(
        left.is_empty(),
        "still running 2 s after prufe ended: {left:?}\n{}",
        show(&out)
    );
    // A process in the middle of exiting has no command line left to be found by, so the
    // ones seen before are waited for by their pids, within the same bound.
    let exiting = Instant::now();
    while before.iter().any(|p| is_alive(p.pid)) && exiting.elapsed() < Duration::from_secs(2) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for p in &before {
        assert!(!is_alive(p.pid), "{} {} survived", p.pid, p.cmdline);
    }
    if signo == libc::SIGKILL {
        assert_eq!(out.status.signal(), Some(libc::SIGKILL), "{}", show(&out));
        // Nothing of prufe runs after SIGKILL: the profile stays behind.
        let _ = std::fs::remove_dir_all(&profile);
        return;
    }
    let want = if signo == libc::SIGINT { 130 } else { 143 };
    assert_eq!(out.status.code(), Some(want), "{}", show(&out));
    assert!(
        !profile.exists(),
        "the profile {} was removed",
        profile.display()
    );
    // The button the drag held went up before the browser closed.
    assert!(
        reports.seen("pointerup").is_some(),
        "the held button was not released"
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "{}", show(&out));
    assert_eq!(lines[0]["error"], "INTERRUPTED", "{}", show(&out));
    assert_eq!(trace_names(&traces), ["0001-drag-interrupted.json"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[tokio::test]
async fn sigint_stops_the_run_releases_input_and_closes_the_browser() {
    stopped_mid_drag(libc::SIGINT).await;
}

#[tokio::test]
async fn sigterm_stops_the_run_releases_input_and_closes_the_browser() {
    stopped_mid_drag(libc::SIGTERM).await;
}

#[tokio::test]
async fn sigkill_of_prufe_takes_the_browser_down_with_it() {
    stopped_mid_drag(libc::SIGKILL).await;
}

#[tokio::test]
async fn a_closed_output_pipe_stops_the_run_without_a_panic_and_closes_the_browser() {
    let servers = Servers::start().await;
    let url = servers.url("shop.html");
    let script = r#"[{"action":"click","target":{"role":"button","name":"Add Shirt M"},"intent":"the cart gains a shirt in size M"},
                     {"action":"click","target":{"role":"button","name":"Add Cap"}}]"#;
    let run = Run::start(&url, script, &[], false).await;
    let (browser, profile) = browser_of(&run.mark, run.pid).await;
    let (out, mark, pid, traces, _dir) = run.finish(Duration::from_secs(60)).await;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(141), "{}", show(&out));
    // The first line could not be written: the run stopped there.
    assert_eq!(trace_names(&traces), ["0001-click-match.json"]);
    let (left, _) = survivors(&mark, pid, &profile, Duration::from_secs(2)).await;
    assert!(left.is_empty(), "still running: {left:?}");
    assert!(!is_alive(browser.pid));
    assert!(
        !profile.exists(),
        "the profile {} was removed",
        profile.display()
    );
}
