//! Getting a DevTools connection: launch a local Chromium, or attach to one already running.
//!
//! Launching spawns Chromium ourselves so the command line is exactly [`launch_args`] and
//! nothing else, with a fresh temporary profile removed
//! when the browser closes. Chromium is started with `--remote-debugging-port=0`; the port it
//! picked is read from the `DevToolsActivePort` file it writes into the profile, and the
//! connection then goes through the same path as `--connect`.
//!
//! Site isolation is switched off (`--disable-features=site-per-process,IsolateOrigins
//! --disable-site-isolation-trials`). With it on, a cross-origin iframe runs in another
//! renderer process as a separate DevTools target, and its frame gets no execution context in
//! the page's own target; with it off, every frame of the page lives in one target, so the
//! engine can be injected into, and called in, each of them through one session. A browser
//! attached with `--connect` keeps whatever isolation it was started with: a frame that runs
//! out of process is reached through a session of its own (see `inject`).
//!
//! **No browser outlives prufe.** A launched Chromium is closed by [`Browser::close`], and
//! killed (then reaped, then its profile removed) when a `Browser` is dropped without it, so
//! a run that is stopped (a signal, a panic) takes it down. Against what no code can run
//! after (SIGKILL of prufe), Chromium is tied to prufe's life: on Linux it is spawned with a
//! parent-death signal (`prctl(PR_SET_PDEATHSIG, SIGKILL)` between fork and exec). That
//! signal fires when the *thread* that forked the child ends, not the process, so every
//! Chromium is spawned from one thread started for that purpose that lives as long as the
//! process (see [`spawn_tied`]); `/usr/bin/chromium`, a shell script, `exec`s the browser,
//! which keeps the signal. Chromium's own children (zygotes, renderers, GPU and utility
//! processes) exit when the browser process does, and its crash handler with them.
//! Chromium also gets its own process group, so a terminal's Ctrl-C reaches prufe alone:
//! prufe then stops the step, releases input and closes the browser in that order, instead
//! of the browser dying under a step that is still sending to it.
//!
//! The connection itself (commands, replies, events) is [`conn`].

pub mod conn;

use crate::error::{Error, Result};
pub use conn::{exception_text, CdpError, Closed, Connection, Evaluation, Events, Page};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::time::Duration;

/// Used when neither the options nor `PRUFE_CHROMIUM` name a browser.
pub const DEFAULT_CHROMIUM: &str = "/usr/bin/chromium";

/// How long Chromium may take to open its DevTools port.
pub const LAUNCH_TIMEOUT: Duration = Duration::from_secs(30);

/// Sends a raw DevTools command (JSON params, JSON result) to the page's session.
pub async fn send(page: &Page, method: &'static str, params: Value) -> Result<Value> {
    Ok(page.execute(method, params).await?)
}

/// The Chromium executable: `explicit`, else `PRUFE_CHROMIUM`, else [`DEFAULT_CHROMIUM`].
pub fn chromium_path(explicit: Option<&Path>) -> PathBuf {
    explicit
        .map(Path::to_path_buf)
        .or_else(|| {
            std::env::var_os("PRUFE_CHROMIUM")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        })
        .unwrap_or_else(|| PathBuf::from(DEFAULT_CHROMIUM))
}

/// The full command line given to a launched Chromium, profile and port included.
pub fn launch_args(profile: &Path, headless: bool) -> Vec<String> {
    let mut args = vec![
        "--remote-debugging-port=0".to_owned(),
        "--remote-debugging-address=127.0.0.1".to_owned(),
        format!("--user-data-dir={}", profile.display()),
        "--no-sandbox".to_owned(),
        "--disable-gpu".to_owned(),
        "--disable-quic".to_owned(),
        "--no-first-run".to_owned(),
        "--no-default-browser-check".to_owned(),
        "--disable-background-networking".to_owned(),
        "--disable-component-update".to_owned(),
        "--disable-sync".to_owned(),
        "--disable-features=site-per-process,IsolateOrigins".to_owned(),
        "--disable-site-isolation-trials".to_owned(),
        "--window-size=1280,900".to_owned(),
    ];
    if headless {
        args.push("--headless=new".to_owned());
        args.push("--hide-scrollbars".to_owned());
        args.push("--mute-audio".to_owned());
    }
    args.push("about:blank".to_owned());
    args
}

/// A process that can be asked, without blocking, whether it has exited.
pub trait Launched {
    fn exited(&mut self) -> Option<ExitStatus>;
}

impl Launched for std::process::Child {
    fn exited(&mut self) -> Option<ExitStatus> {
        self.try_wait().ok().flatten()
    }
}

impl Launched for tokio::process::Child {
    fn exited(&mut self) -> Option<ExitStatus> {
        self.try_wait().ok().flatten()
    }
}

/// A Chromium we launched: killed and reaped when dropped.
struct Process {
    child: std::process::Child,
    reaped: bool,
}

impl Process {
    fn id(&self) -> u32 {
        self.child.id()
    }

    /// Waits at most `timeout` for the process to exit; `true` once it has (and is reaped).
    async fn wait(&mut self, timeout: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if self.child.exited().is_some() {
                self.reaped = true;
                return true;
            }
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn kill(&mut self) {
        if !self.reaped {
            let _ = self.child.kill();
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if self.reaped {
            return;
        }
        let _ = self.child.kill();
        // SIGKILL takes effect at once; reap it so it leaves no zombie and writes nothing
        // more into the profile removed next.
        for _ in 0..200 {
            if self.child.exited().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Spawns `command` so that, on Linux, the child gets SIGKILL when prufe dies, however it
/// dies. The parent-death signal is tied to the thread that forks, so the fork happens on a
/// thread that never ends (started on first use); if that thread cannot be started, the
/// command is spawned here, still with the signal, which then also fires if this thread
/// ends first (documented rather than hidden: only a failed thread spawn leads there).
pub fn spawn_tied(command: std::process::Command) -> std::io::Result<std::process::Child> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let mut command = command;
        let parent = std::process::id();
        // SAFETY: the closure runs in the forked child before exec and makes only
        // async-signal-safe system calls (prctl, getppid).
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // prufe died between fork and prctl: the signal will never come.
                if libc::getppid() as u32 != parent {
                    return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
        launcher::spawn(command)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let mut command = command;
        command.spawn()
    }
}

#[cfg(target_os = "linux")]
mod launcher {
    use std::process::{Child, Command};
    use std::sync::mpsc;
    use std::sync::OnceLock;

    type Job = (Command, mpsc::Sender<std::io::Result<Child>>);

    /// The thread every launched Chromium is forked from. It holds no other work and its
    /// queue is never closed, so it lives until the process ends.
    fn queue() -> Option<&'static mpsc::Sender<Job>> {
        static QUEUE: OnceLock<Option<mpsc::Sender<Job>>> = OnceLock::new();
        QUEUE
            .get_or_init(|| {
                let (tx, rx) = mpsc::channel::<Job>();
                std::thread::Builder::new()
                    .name("prufe-launcher".into())
                    .spawn(move || {
                        for (mut command, reply) in rx {
                            let _ = reply.send(command.spawn());
                        }
                    })
                    .ok()
                    .map(|_| tx)
            })
            .as_ref()
    }

    pub(super) fn spawn(mut command: Command) -> std::io::Result<Child> {
        let Some(queue) = queue() else {
            return command.spawn();
        };
        let (reply, answer) = mpsc::channel();
        queue
            .send((command, reply))
            .map_err(|_| std::io::Error::other("the launcher thread is gone"))?;
        // A fork and exec: milliseconds.
        answer
            .recv()
            .map_err(|_| std::io::Error::other("the launcher thread is gone"))?
    }
}

/// A DevTools connection, and the Chromium process when we launched it.
pub struct Browser {
    conn: Connection,
    driver: conn::Driver,
    // Dropped in this order: the process is killed before its profile is removed.
    process: Option<Process>,
    profile: Option<tempfile::TempDir>,
    endpoint: String,
}

impl Browser {
    /// Launches Chromium with a fresh profile and connects to it.
    pub async fn launch(executable: Option<&Path>, headless: bool) -> Result<Browser> {
        let exe = chromium_path(executable);
        let profile = tempfile::Builder::new()
            .prefix("prufe-profile-")
            .tempdir()
            .map_err(|e| Error::io("creating a temporary Chromium profile", e))?;
        let mut command = std::process::Command::new(&exe);
        command
            .args(launch_args(profile.path(), headless))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let child = spawn_tied(command).map_err(|e| {
            Error::Launch(format!(
                "cannot start {} ({e}); install Chromium or set PRUFE_CHROMIUM to its path",
                exe.display()
            ))
        })?;
        let mut process = Process {
            child,
            reaped: false,
        };
        // From here on, any early return (or a dropped future) kills the process.
        let endpoint =
            wait_for_port_file(profile.path(), &mut process.child, LAUNCH_TIMEOUT).await?;
        let (conn, driver) = Self::attach(&endpoint).await?;
        Ok(Browser {
            conn,
            driver,
            process: Some(process),
            profile: Some(profile),
            endpoint,
        })
    }

    /// Attaches to a running browser: a `ws://…/devtools/browser/…` URL, or an
    /// `http://host:port` DevTools endpoint whose `/json/version` names the WebSocket.
    pub async fn connect(endpoint: &str) -> Result<Browser> {
        let ws = resolve_endpoint(endpoint).await?;
        let (conn, driver) = Self::attach(&ws).await?;
        Ok(Browser {
            conn,
            driver,
            process: None,
            profile: None,
            endpoint: ws,
        })
    }

    async fn attach(ws: &str) -> Result<(Connection, conn::Driver)> {
        let (conn, driver) = tokio::time::timeout(LAUNCH_TIMEOUT, Connection::connect(ws))
            .await
            .map_err(|_| Error::Launch(format!("timed out connecting to {ws}")))?
            .map_err(|e| Error::Launch(format!("cannot connect to {ws}: {e}")))?;
        // A closed socket flips `closed`, which the watchdog of every tab turns into
        // BROWSER_CLOSED. Discovery makes the browser report targets crashing and going away.
        if let Err(e) = conn
            .execute("Target.setDiscoverTargets", json!({ "discover": true }))
            .await
        {
            driver.abort();
            return Err(Error::Launch(format!("cannot use {ws}: {e}")));
        }
        Ok((conn, driver))
    }

    /// The WebSocket endpoint this connection uses.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Flips to `true` when the connection is gone.
    pub fn closed(&self) -> Closed {
        self.conn.closed()
    }

    /// The browser-level connection.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// The process id of a browser launched here.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(Process::id)
    }

    /// Was this browser launched by us (and so closed by us)?
    pub fn is_launched(&self) -> bool {
        self.process.is_some()
    }

    /// Opens a new tab on `about:blank`.
    pub async fn new_page(&self) -> Result<Page> {
        Ok(self.conn.new_page().await?)
    }

    /// Closes a launched browser (and removes its profile); for an attached browser only the
    /// connection is dropped, the browser keeps running.
    pub async fn close(mut self) -> Result<()> {
        if let Some(mut process) = self.process.take() {
            if !*self.conn.closed().borrow() {
                let _ = tokio::time::timeout(
                    Duration::from_secs(3),
                    self.conn.execute("Browser.close", json!({})),
                )
                .await;
            }
            if !process.wait(Duration::from_secs(5)).await {
                process.kill();
                process.wait(Duration::from_secs(2)).await;
            }
        }
        self.driver.abort();
        if let Some(profile) = self.profile.take() {
            remove_profile(profile).await;
        }
        Ok(())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.driver.abort();
        // `process` is killed and reaped as it drops, before `profile` is removed.
    }
}

/// Removes a profile once its browser has exited. A child process still finishing may
/// write into it after the browser exits (a browser killed leaves its renderers and helpers
/// to notice on their own, which on a loaded machine took over the half second this once
/// waited): the removal is tried again every 50 ms, for up to 5 s.
async fn remove_profile(profile: tempfile::TempDir) {
    let path = profile.path().to_path_buf();
    let _ = profile.close();
    for _ in 0..100 {
        if !path.exists() || std::fs::remove_dir_all(&path).is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Reads `DevToolsActivePort` (port, then browser path) from a profile Chromium was started
/// with `--remote-debugging-port=0`, waiting for it to appear.
pub async fn wait_for_port_file(
    profile: &Path,
    child: &mut impl Launched,
    timeout: Duration,
) -> Result<String> {
    let file = profile.join("DevToolsActivePort");
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if let Ok(text) = tokio::fs::read_to_string(&file).await {
            if let Some(ws) = parse_port_file(&text) {
                return Ok(ws);
            }
        }
        if let Some(status) = child.exited() {
            return Err(Error::Launch(format!(
                "Chromium exited ({status}) before opening its DevTools port; try running it by hand with \
                 --headless=new to see why"
            )));
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(Error::Launch(format!(
                "Chromium did not open its DevTools port within {} s",
                timeout.as_secs()
            )));
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// `DevToolsActivePort` holds the port on its first line and the browser's WebSocket path on
/// its second.
pub fn parse_port_file(text: &str) -> Option<String> {
    let mut lines = text.lines();
    let port: u16 = lines.next()?.trim().parse().ok()?;
    let path = lines.next()?.trim();
    if port == 0 || !path.starts_with("/devtools/browser/") {
        return None;
    }
    Some(format!("ws://127.0.0.1:{port}{path}"))
}

/// Turns a `--connect` argument into a browser WebSocket URL.
pub async fn resolve_endpoint(endpoint: &str) -> Result<String> {
    let url = url::Url::parse(endpoint)
        .map_err(|e| Error::Launch(format!("--connect {endpoint:?} is not a URL ({e})")))?;
    match url.scheme() {
        "ws" | "wss" => Ok(endpoint.to_owned()),
        "http" => {
            let host = url
                .host_str()
                .ok_or_else(|| Error::Launch(format!("--connect {endpoint:?} has no host")))?;
            let port = url.port_or_known_default().unwrap_or(80);
            let body = http_get(host, port, "/json/version").await?;
            let v: serde_json::Value = serde_json::from_str(&body).map_err(|e| {
                Error::Launch(format!(
                    "{endpoint}/json/version did not return JSON ({e}); is it a DevTools endpoint?"
                ))
            })?;
            match v.get("webSocketDebuggerUrl").and_then(|w| w.as_str()) {
                Some(ws) if ws.starts_with("ws") => Ok(ws.to_owned()),
                _ => Err(Error::Launch(format!(
                    "{endpoint}/json/version names no webSocketDebuggerUrl"
                ))),
            }
        }
        other => Err(Error::Launch(format!(
            "--connect takes ws://…/devtools/browser/… or http://host:port, not {other}://"
        ))),
    }
}

/// An HTTP GET of a DevTools `/json/version`: one plain HTTP/1.1 request on a connection of
/// its own (hyper's client), answered within 10 s.
async fn http_get(host: &str, port: u16, path: &str) -> Result<String> {
    use http_body_util::{BodyExt, Empty};
    use hyper::body::Bytes;
    use hyper::header::{ACCEPT, HOST};
    let url = format!("http://{host}:{port}{path}");
    let fail = |e: String| Error::Launch(format!("cannot read {url}: {e}"));
    let work = async {
        let stream = tokio::net::TcpStream::connect((host, port))
            .await
            .map_err(|e| e.to_string())?;
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
                .await
                .map_err(|e| e.to_string())?;
        let request = hyper::Request::get(path)
            .header(HOST, format!("{host}:{port}"))
            .header(ACCEPT, "application/json")
            .body(Empty::<Bytes>::new())
            .map_err(|e| e.to_string())?;
        let exchange = async move {
            let response = sender
                .send_request(request)
                .await
                .map_err(|e| e.to_string())?;
            let status = response.status();
            let body = response
                .into_body()
                .collect()
                .await
                .map_err(|e| e.to_string())?
                .to_bytes();
            // The connection ends once its only sender is gone.
            drop(sender);
            Ok::<_, String>((status, body))
        };
        // The connection is driven beside the exchange; a broken answer fails both.
        futures::future::join(exchange, connection).await.0
    };
    let (status, body) = tokio::time::timeout(Duration::from_secs(10), work)
        .await
        .map_err(|_| fail("no answer within 10 s".into()))?
        .map_err(fail)?;
    if status != hyper::StatusCode::OK {
        return Err(Error::Launch(format!("{url} answered {}", status.as_u16())));
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_file_gives_a_browser_websocket() {
        assert_eq!(
            parse_port_file("40123\n/devtools/browser/abc-def\n").as_deref(),
            Some("ws://127.0.0.1:40123/devtools/browser/abc-def")
        );
        for bad in [
            "",
            "40123\n",
            "x\n/devtools/browser/a",
            "0\n/devtools/browser/a",
            "1\n/elsewhere",
        ] {
            assert_eq!(parse_port_file(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn launch_args_keep_the_required_flags() {
        let args = launch_args(Path::new("/tmp/p"), true);
        for flag in [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-site-isolation-trials",
            "--disable-features=site-per-process,IsolateOrigins",
            "--user-data-dir=/tmp/p",
        ] {
            assert!(args.iter().any(|a| a == flag), "missing {flag}");
        }
        assert!(!launch_args(Path::new("/tmp/p"), false)
            .iter()
            .any(|a| a.starts_with("--headless")));
    }

    #[tokio::test]
    async fn connect_rejects_unknown_schemes() {
        let e = resolve_endpoint("ftp://127.0.0.1:1").await.unwrap_err();
        assert!(e.to_string().contains("ws://"), "{e}");
        let e = resolve_endpoint("not a url").await.unwrap_err();
        assert_eq!(e.code().as_str(), "BROWSER_ERROR");
    }

    /// A one-connection server giving `answer` to the first request; yields the request.
    async fn answer_once(answer: String) -> (u16, tokio::task::JoinHandle<String>) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.unwrap();
            let mut buf = [0u8; 1024];
            let n = s.read(&mut buf).await.unwrap();
            s.write_all(answer.as_bytes()).await.unwrap();
            String::from_utf8_lossy(&buf[..n]).into_owned()
        });
        (port, server)
    }

    const VERSION: &str =
        r#"{"Browser":"Chrome","webSocketDebuggerUrl":"ws://127.0.0.1:9/devtools/browser/x"}"#;

    #[tokio::test]
    async fn json_version_is_read_over_plain_http() {
        let (port, server) = answer_once(format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{VERSION}",
            VERSION.len()
        ))
        .await;
        let ws = resolve_endpoint(&format!("http://127.0.0.1:{port}"))
            .await
            .unwrap();
        assert_eq!(ws, "ws://127.0.0.1:9/devtools/browser/x");
        let request = server.await.unwrap();
        assert!(
            request.starts_with("GET /json/version HTTP/1.1\r\n"),
            "{request}"
        );
        assert!(
            request
                .to_ascii_lowercase()
                .contains(&format!("\r\nhost: 127.0.0.1:{port}\r\n")),
            "{request}"
        );
    }

    #[tokio::test]
    async fn json_version_without_a_length_is_read_to_the_end() {
        let (port, server) = answer_once(format!(
            "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{VERSION}"
        ))
        .await;
        let ws = resolve_endpoint(&format!("http://127.0.0.1:{port}"))
            .await
            .unwrap();
        assert_eq!(ws, "ws://127.0.0.1:9/devtools/browser/x");
        server.await.unwrap();
    }

    #[tokio::test]
    async fn a_bad_json_version_answer_is_a_browser_error() {
        for (answer, said) in [
            (
                "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
                "answered 404",
            ),
            ("SSH-2.0-OpenSSH_9.6\r\n\r\n", "cannot read"),
            (
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
                "did not return JSON",
            ),
            (
                "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
                "names no webSocketDebuggerUrl",
            ),
        ] {
            let (port, server) = answer_once(answer.to_owned()).await;
            let e = resolve_endpoint(&format!("http://127.0.0.1:{port}"))
                .await
                .unwrap_err();
            assert_eq!(e.code().as_str(), "BROWSER_ERROR", "{answer:?}: {e}");
            assert!(e.to_string().contains(said), "{answer:?}: {e}");
            server.await.unwrap();
        }
    }
}
