//! Getting a DevTools connection: launch a local Chromium, or attach to one already running.
//!
//! Launching spawns Chromium ourselves (not through chromiumoxide's launcher) so the command
//! line is exactly [`launch_args`] and nothing else, with a fresh temporary profile removed
//! when the browser closes. Chromium is started with `--remote-debugging-port=0`; the port it
//! picked is read from the `DevToolsActivePort` file it writes into the profile, and the
//! connection then goes through the same path as `--connect`.
//!
//! Site isolation is switched off (`--disable-features=site-per-process,IsolateOrigins
//! --disable-site-isolation-trials`). With it on, a cross-origin iframe runs in another
//! renderer process as a separate DevTools target, and its frame gets no execution context in
//! the page's own target; with it off, every frame of the page lives in one target, so the
//! engine can be injected into, and called in, each of them through one session. A browser
//! attached with `--connect` keeps whatever isolation it was started with: its cross-origin
//! frames that run out of process stay opaque (reported as an `iframe` element, not walked).

use crate::error::{Error, Result};
use crate::watchdog::Watchdog;
use chromiumoxide::cdp::browser_protocol::target::CreateTargetParams;
use chromiumoxide::error::CdpError;
use chromiumoxide::handler::HandlerConfig;
use chromiumoxide::Page;
use futures::StreamExt;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};
use tokio::task::JoinHandle;

/// Used when neither the options nor `PRUFE_CHROMIUM` name a browser.
pub const DEFAULT_CHROMIUM: &str = "/usr/bin/chromium";

/// How long Chromium may take to open its DevTools port.
pub const LAUNCH_TIMEOUT: Duration = Duration::from_secs(30);

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

/// A DevTools connection, and the Chromium process when we launched it.
pub struct Browser {
    browser: chromiumoxide::Browser,
    handler: JoinHandle<()>,
    closed: crate::inject::Closed,
    child: Option<Child>,
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
        let mut child = Command::new(&exe)
            .args(launch_args(profile.path(), headless))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| {
                Error::Launch(format!(
                    "cannot start {} ({e}); install Chromium or set PRUFE_CHROMIUM to its path",
                    exe.display()
                ))
            })?;
        let endpoint = match wait_for_port_file(profile.path(), &mut child, LAUNCH_TIMEOUT).await {
            Ok(ws) => ws,
            Err(e) => {
                let _ = child.kill().await;
                return Err(e);
            }
        };
        match Self::attach(&endpoint).await {
            Ok((browser, handler, closed)) => Ok(Browser {
                browser,
                handler,
                closed,
                child: Some(child),
                profile: Some(profile),
                endpoint,
            }),
            Err(e) => {
                let _ = child.kill().await;
                Err(e)
            }
        }
    }

    /// Attaches to a running browser: a `ws://…/devtools/browser/…` URL, or an
    /// `http://host:port` DevTools endpoint whose `/json/version` names the WebSocket.
    pub async fn connect(endpoint: &str) -> Result<Browser> {
        let ws = resolve_endpoint(endpoint).await?;
        let (browser, handler, closed) = Self::attach(&ws).await?;
        Ok(Browser {
            browser,
            handler,
            closed,
            child: None,
            profile: None,
            endpoint: ws,
        })
    }

    async fn attach(
        ws: &str,
    ) -> Result<(
        chromiumoxide::Browser,
        JoinHandle<()>,
        crate::inject::Closed,
    )> {
        let config = HandlerConfig {
            viewport: None,
            ..HandlerConfig::default()
        };
        let (browser, mut handler) = tokio::time::timeout(
            LAUNCH_TIMEOUT,
            chromiumoxide::Browser::connect_with_config(ws.to_owned(), config),
        )
        .await
        .map_err(|_| Error::Launch(format!("timed out connecting to {ws}")))?
        .map_err(|e| Error::Launch(format!("cannot connect to {ws}: {e}")))?;
        // The handler drives the connection; it must be polled for any command to complete.
        // A message chromiumoxide cannot decode is not fatal; a closed socket is, and flips
        // `closed`, which the watchdog of every tab turns into BROWSER_CLOSED.
        let (tx, closed) = tokio::sync::watch::channel(false);
        let task = tokio::spawn(async move {
            while let Some(event) = handler.next().await {
                if let Err(CdpError::Ws(_) | CdpError::Io(_)) = event {
                    break;
                }
            }
            let _ = tx.send(true);
        });
        Ok((browser, task, closed))
    }

    /// The WebSocket endpoint this connection uses.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Flips to `true` when the connection is gone.
    pub fn closed(&self) -> crate::inject::Closed {
        self.closed.clone()
    }

    /// The process id of a browser launched here.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().and_then(Child::id)
    }

    /// Was this browser launched by us (and so closed by us)?
    pub fn is_launched(&self) -> bool {
        self.child.is_some()
    }

    /// Opens a new tab on `about:blank`.
    pub async fn new_page(&self) -> Result<Page> {
        Ok(self
            .browser
            .new_page(CreateTargetParams::new("about:blank"))
            .await?)
    }

    /// Feeds a tab's watchdog from the browser's side: its target crashing, detaching or
    /// being destroyed, and this connection closing.
    pub async fn watch(&self, watchdog: &Watchdog) -> Result<()> {
        watchdog
            .watch_browser(&self.browser, self.closed.clone())
            .await
    }

    /// Closes a launched browser (and removes its profile); for an attached browser only the
    /// connection is dropped, the browser keeps running.
    pub async fn close(mut self) -> Result<()> {
        if let Some(mut child) = self.child.take() {
            let _ = tokio::time::timeout(Duration::from_secs(3), self.browser.close()).await;
            if tokio::time::timeout(Duration::from_secs(5), child.wait())
                .await
                .is_err()
            {
                let _ = child.kill().await;
            }
        }
        self.handler.abort();
        drop(self.profile.take());
        Ok(())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.handler.abort();
        if let Some(child) = self.child.as_mut() {
            // kill_on_drop reaps it too; start the kill now so the profile can be removed.
            let _ = child.start_kill();
        }
    }
}

/// Reads `DevToolsActivePort` (port, then browser path) from a profile Chromium was started
/// with `--remote-debugging-port=0`, waiting for it to appear.
pub async fn wait_for_port_file(
    profile: &Path,
    child: &mut Child,
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
        if let Ok(Some(status)) = child.try_wait() {
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

/// A minimal HTTP/1.1 GET over plain TCP, enough for a DevTools `/json/version`.
async fn http_get(host: &str, port: u16, path: &str) -> Result<String> {
    let work = async {
        let mut stream = tokio::net::TcpStream::connect((host, port)).await?;
        let request = format!("GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\nAccept: application/json\r\n\r\n");
        stream.write_all(request.as_bytes()).await?;
        // Read until the body announced by Content-Length is complete: DevTools keeps the
        // connection open whatever the request says.
        let mut raw = Vec::new();
        let mut chunk = [0u8; 8192];
        loop {
            let n = stream.read(&mut chunk).await?;
            if n == 0 {
                break;
            }
            raw.extend_from_slice(&chunk[..n]);
            if raw.len() > 4 * 1024 * 1024 || body_complete(&raw) {
                break;
            }
        }
        Ok::<_, std::io::Error>(raw)
    };
    let raw = tokio::time::timeout(Duration::from_secs(10), work)
        .await
        .map_err(|_| Error::Launch(format!("timed out reading http://{host}:{port}{path}")))?
        .map_err(|e| Error::Launch(format!("cannot read http://{host}:{port}{path}: {e}")))?;
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n").ok_or_else(|| {
        Error::Launch(format!("http://{host}:{port}{path}: not an HTTP response"))
    })?;
    let status = head.lines().next().unwrap_or("");
    if status
        .split_whitespace()
        .nth(1)
        .is_none_or(|code| code != "200")
    {
        return Err(Error::Launch(format!(
            "http://{host}:{port}{path} answered {status:?}"
        )));
    }
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        return Ok(dechunk(body));
    }
    Ok(body.to_owned())
}

/// Has the whole response arrived (headers, and a body of the announced length or a final
/// chunk)?
fn body_complete(raw: &[u8]) -> bool {
    let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
        return false;
    };
    let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
    let body = &raw[end + 4..];
    if let Some(len) = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok())
    {
        return body.len() >= len;
    }
    head.contains("transfer-encoding: chunked") && body.ends_with(b"0\r\n\r\n")
}

fn dechunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
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

    #[test]
    fn responses_are_complete_by_length_or_last_chunk() {
        assert!(!body_complete(
            b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabc"
        ));
        assert!(body_complete(
            b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"
        ));
        assert!(!body_complete(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n"));
        assert!(body_complete(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n"
        ));
    }

    #[test]
    fn chunked_bodies_are_joined() {
        assert_eq!(dechunk("4\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n"), "{\"a\":1}");
    }

    #[tokio::test]
    async fn connect_rejects_unknown_schemes() {
        let e = resolve_endpoint("ftp://127.0.0.1:1").await.unwrap_err();
        assert!(e.to_string().contains("ws://"), "{e}");
        let e = resolve_endpoint("not a url").await.unwrap_err();
        assert_eq!(e.code().as_str(), "BROWSER_ERROR");
    }

    #[tokio::test]
    async fn json_version_is_read_over_plain_http() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.unwrap();
            let mut buf = [0u8; 1024];
            let n = s.read(&mut buf).await.unwrap();
            assert!(String::from_utf8_lossy(&buf[..n]).starts_with("GET /json/version "));
            let body = r#"{"Browser":"Chrome","webSocketDebuggerUrl":"ws://127.0.0.1:9/devtools/browser/x"}"#;
            let resp = format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            );
            s.write_all(resp.as_bytes()).await.unwrap();
        });
        let ws = resolve_endpoint(&format!("http://127.0.0.1:{port}"))
            .await
            .unwrap();
        assert_eq!(ws, "ws://127.0.0.1:9/devtools/browser/x");
        server.await.unwrap();
    }
}
