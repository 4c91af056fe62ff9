//! A tiny static file server on 127.0.0.1, for the demo and the browser tests.
//!
//! HTTP/1.1 is hyper's (keep-alive included); what is ours is which file a path names and how
//! it is sent. GET and HEAD only, no directory listing (a directory gives its `index.html`),
//! no path outside the root (`..` is refused), the query string ignored, nothing cached
//! (`Cache-Control: no-store`). Text files may have placeholders substituted on the way out
//! (`__XORIGIN_PORT__` → the port of a second server, so a fixture can frame a page from
//! another origin).

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{CACHE_CONTROL, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::task::{JoinHandle, JoinSet};

/// A running server; stops when dropped, open connections with it.
pub struct StaticServer {
    port: u16,
    root: PathBuf,
    task: JoinHandle<()>,
}

/// What every connection serves: the root and the substitutions.
struct Site {
    root: PathBuf,
    substitutions: Vec<(String, String)>,
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
        let site = Arc::new(Site {
            root: root.clone(),
            substitutions,
        });
        let task = tokio::spawn(async move {
            // Dropped with the accepting task, the set aborts the connections still open.
            let mut connections = JoinSet::new();
            while let Ok((stream, _)) = listener.accept().await {
                while connections.try_join_next().is_some() {}
                let site = site.clone();
                connections.spawn(async move {
                    let service = hyper::service::service_fn(move |req| {
                        let site = site.clone();
                        async move { Ok::<_, Infallible>(answer(&site, &req).await) }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
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

/// The answer to one request (hyper leaves out the body of a HEAD's).
async fn answer(site: &Site, req: &Request<Incoming>) -> Response<Full<Bytes>> {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return respond(
            StatusCode::METHOD_NOT_ALLOWED,
            "text/plain",
            b"method not allowed".to_vec(),
        );
    }
    let not_found = || respond(StatusCode::NOT_FOUND, "text/plain", b"not found".to_vec());
    let Some(path) = local_path(&site.root, req.uri().path()) else {
        return not_found();
    };
    let path = match tokio::fs::metadata(&path).await {
        Ok(m) if m.is_dir() => path.join("index.html"),
        _ => path,
    };
    let Ok(body) = tokio::fs::read(&path).await else {
        return not_found();
    };
    let mime = mime_of(&path);
    let is_text = mime.starts_with("text/") || mime.contains("javascript") || mime.contains("json");
    let body = if is_text {
        substitute(body, &site.substitutions)
    } else {
        body
    };
    respond(StatusCode::OK, mime, body)
}

/// `body` with every `(from, to)` replaced, when it is UTF-8 and holds any `from`.
fn substitute(body: Vec<u8>, subs: &[(String, String)]) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(&body) else {
        return body;
    };
    if !subs.iter().any(|(from, _)| text.contains(from.as_str())) {
        return body;
    }
    let mut t = text.to_owned();
    for (from, to) in subs {
        t = t.replace(from.as_str(), to);
    }
    t.into_bytes()
}

fn respond(status: StatusCode, mime: &'static str, body: Vec<u8>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, hyper::header::HeaderValue::from_static(mime));
    headers.insert(
        CACHE_CONTROL,
        hyper::header::HeaderValue::from_static("no-store"),
    );
    response
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

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

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

    /// One request on a connection of its own, closed by the client; the whole answer.
    async fn ask(port: u16, request: &str) -> String {
        let mut s = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .unwrap();
        s.write_all(request.as_bytes()).await.unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).await.unwrap();
        String::from_utf8_lossy(&out).into_owned()
    }

    fn get(path: &str) -> String {
        format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    }

    #[tokio::test]
    async fn serves_files_with_substitutions() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("p.html"),
            "<iframe src=\"http://127.0.0.1:__XORIGIN_PORT__/x\">",
        )
        .unwrap();
        std::fs::create_dir(dir.path().join("d")).unwrap();
        std::fs::write(dir.path().join("d/index.html"), "index").unwrap();
        std::fs::write(dir.path().join("b.png"), [0x89, b'P', 0xff]).unwrap();
        let server =
            StaticServer::start(dir.path(), vec![("__XORIGIN_PORT__".into(), "4242".into())])
                .await
                .unwrap();
        let port = server.port();
        let ok = ask(port, &get("/p.html?cache=1")).await;
        assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
        let lower = ok.to_ascii_lowercase();
        assert!(
            lower.contains("content-type: text/html; charset=utf-8"),
            "{ok}"
        );
        assert!(lower.contains("cache-control: no-store"), "{ok}");
        assert!(
            ok.ends_with("<iframe src=\"http://127.0.0.1:4242/x\">"),
            "{ok}"
        );
        let index = ask(port, &get("/d/")).await;
        assert!(
            index.starts_with("HTTP/1.1 200") && index.ends_with("index"),
            "{index}"
        );
        let png = ask(port, &get("/b.png")).await;
        assert!(
            png.to_ascii_lowercase().contains("content-type: image/png"),
            "{png}"
        );
        assert!(ask(port, &get("/missing.html"))
            .await
            .starts_with("HTTP/1.1 404"));
        assert!(ask(port, &get("/../p.html"))
            .await
            .starts_with("HTTP/1.1 404"));
        assert!(ask(port, &get("/d")).await.starts_with("HTTP/1.1 200"));
        let post =
            "POST /p.html HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        assert!(ask(port, post).await.starts_with("HTTP/1.1 405"));
    }

    #[tokio::test]
    async fn head_gives_the_length_without_the_body() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "twelve bytes").unwrap();
        let server = StaticServer::start(dir.path(), Vec::new()).await.unwrap();
        let head = ask(
            server.port(),
            "HEAD /a.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        )
        .await;
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert!(
            head.to_ascii_lowercase().contains("content-length: 12\r\n"),
            "{head}"
        );
        assert!(
            head.ends_with("\r\n\r\n"),
            "a body after the head: {head:?}"
        );
    }

    #[tokio::test]
    async fn a_connection_serves_several_requests_and_ends_with_the_server() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "a").unwrap();
        let server = StaticServer::start(dir.path(), Vec::new()).await.unwrap();
        let mut s = tokio::net::TcpStream::connect(("127.0.0.1", server.port()))
            .await
            .unwrap();
        let request = "GET /a.txt HTTP/1.1\r\nHost: x\r\n\r\n";
        for _ in 0..2 {
            s.write_all(request.as_bytes()).await.unwrap();
            let mut answer = Vec::new();
            while !answer.ends_with(b"\r\n\r\na") {
                let mut chunk = [0u8; 1024];
                let n = s.read(&mut chunk).await.unwrap();
                assert!(n > 0, "closed after {:?}", String::from_utf8_lossy(&answer));
                answer.extend_from_slice(&chunk[..n]);
            }
            assert!(answer.starts_with(b"HTTP/1.1 200"));
        }
        drop(server);
        // The kept-alive connection is closed with the server: the read ends (0 bytes or reset).
        let mut rest = [0u8; 64];
        let closed = tokio::time::timeout(std::time::Duration::from_secs(10), s.read(&mut rest))
            .await
            .expect("the connection outlived the server");
        assert_eq!(closed.unwrap_or(0), 0);
    }
}
