//! A tiny static file server on 127.0.0.1, for the demo and the browser tests.
//!
//! GET and HEAD only, one request per connection, no directory listing, no path outside the
//! root (`..` is refused). Text files may have placeholders substituted on the way out
//! (`__XORIGIN_PORT__` → the port of a second server, so a fixture can frame a page from
//! another origin).

use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// A running server; stops when dropped.
pub struct StaticServer {
    port: u16,
    root: PathBuf,
    task: JoinHandle<()>,
}

impl StaticServer {
    /// Serves `root` on an ephemeral port of 127.0.0.1, replacing each `(from, to)` in text
    /// responses.
    pub async fn start(
        root: impl Into<PathBuf>,
        substitutions: Vec<(String, String)>,
    ) -> io::Result<StaticServer> {
        let root: PathBuf = root.into();
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let port = listener.local_addr()?.port();
        let shared = Arc::new((root.clone(), substitutions));
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let shared = shared.clone();
                tokio::spawn(async move {
                    let _ = handle(stream, &shared.0, &shared.1).await;
                });
            }
        });
        Ok(StaticServer { port, root, task })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `http://127.0.0.1:<port>/<path>`.
    pub fn url(&self, path: &str) -> String {
        format!(
            "http://127.0.0.1:{}/{}",
            self.port,
            path.trim_start_matches('/')
        )
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn handle(mut stream: TcpStream, root: &Path, subs: &[(String, String)]) -> io::Result<()> {
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 2048];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut chunk).await?;
        if n == 0 || buf.len() > 64 * 1024 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let head = String::from_utf8_lossy(&buf);
    let mut parts = head.lines().next().unwrap_or("").split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    if method != "GET" && method != "HEAD" {
        return respond(
            &mut stream,
            405,
            "text/plain",
            b"method not allowed",
            method == "HEAD",
        )
        .await;
    }
    let Some(path) = local_path(root, target) else {
        return respond(
            &mut stream,
            404,
            "text/plain",
            b"not found",
            method == "HEAD",
        )
        .await;
    };
    let path = if path.is_dir() {
        path.join("index.html")
    } else {
        path
    };
    match tokio::fs::read(&path).await {
        Ok(mut body) => {
            let mime = mime_of(&path);
            if mime.starts_with("text/") || mime.contains("javascript") || mime.contains("json") {
                if let Ok(text) = std::str::from_utf8(&body) {
                    if subs.iter().any(|(from, _)| text.contains(from.as_str())) {
                        let mut t = text.to_owned();
                        for (from, to) in subs {
                            t = t.replace(from.as_str(), to);
                        }
                        body = t.into_bytes();
                    }
                }
            }
            respond(&mut stream, 200, mime, &body, method == "HEAD").await
        }
        Err(_) => {
            respond(
                &mut stream,
                404,
                "text/plain",
                b"not found",
                method == "HEAD",
            )
            .await
        }
    }
}

/// The file a request target names under `root`, or `None` when it would leave the root.
pub fn local_path(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let decoded = percent_decode(path)?;
    let mut out = root.to_path_buf();
    for c in Path::new(decoded.trim_start_matches('/')).components() {
        match c {
            Component::Normal(p) => out.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(out)
}

fn percent_decode(s: &str) -> Option<String> {
    // A `%` not followed by two hex digits is refused, not passed through.
    let malformed = s.match_indices('%').any(|(i, _)| {
        !s.get(i + 1..i + 3)
            .is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
    });
    if malformed {
        return None;
    }
    let text = percent_encoding::percent_decode_str(s).decode_utf8().ok()?;
    (!text.contains('\0')).then(|| text.into_owned())
}

fn mime_of(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "wasm" => "application/wasm",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

async fn respond(
    stream: &mut TcpStream,
    status: u16,
    mime: &str,
    body: &[u8],
    head_only: bool,
) -> io::Result<()> {
    let reason = match status {
        200 => "OK",
        404 => "Not Found",
        _ => "Method Not Allowed",
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {mime}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    if !head_only {
        stream.write_all(body).await?;
    }
    stream.shutdown().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_under_the_root() {
        let root = Path::new("/srv");
        assert_eq!(
            local_path(root, "/a/b.html?x=1").unwrap(),
            Path::new("/srv/a/b.html")
        );
        assert_eq!(
            local_path(root, "/a%20b.html").unwrap(),
            Path::new("/srv/a b.html")
        );
        assert_eq!(local_path(root, "/").unwrap(), Path::new("/srv"));
        for bad in [
            "/../etc/passwd",
            "/a/../../x",
            "/%2e%2e/x",
            "/a%00b",
            "/%zz",
        ] {
            assert!(local_path(root, bad).is_none(), "{bad}");
        }
    }

    #[tokio::test]
    async fn serves_files_with_substitutions() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("p.html"),
            "<iframe src=\"http://127.0.0.1:__XORIGIN_PORT__/x\">",
        )
        .unwrap();
        let server =
            StaticServer::start(dir.path(), vec![("__XORIGIN_PORT__".into(), "4242".into())])
                .await
                .unwrap();
        let port = server.port();
        let get = |path: &'static str| async move {
            let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
            s.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
                .await
                .unwrap();
            let mut out = String::new();
            s.read_to_string(&mut out).await.unwrap();
            out
        };
        let ok = get("/p.html").await;
        assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
        assert!(ok.contains("text/html"));
        assert!(ok.contains("127.0.0.1:4242/x"), "{ok}");
        assert!(get("/missing.html").await.starts_with("HTTP/1.1 404"));
        assert!(get("/../p.html").await.starts_with("HTTP/1.1 404"));
    }
}
