//! Streamable HTTP: rmcp's service at `/mcp`, on an HTTP/1 listener of its own.
//!
//! The listener binds 127.0.0.1 unless told otherwise, and rmcp checks every request's
//! `Host` against loopback names (and the bound address), which keeps a web page from
//! reaching the server by DNS rebinding. Any other path is 404.

use super::server::Sessions;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::convert::Infallible;
use std::sync::Arc;
use tokio::net::TcpListener;

/// The path the MCP endpoint is served at.
pub const PATH: &str = "/mcp";

/// How long a session may go without a message from its client before it is ended (and its
/// browser context closed), by default: rmcp's own default.
pub const SESSION_IDLE_SECONDS: u64 = 300;

/// Largest request body accepted, in bytes: more than any argument the tools accept, so an
/// over-long argument gets the tools' JSON-RPC error rather than an HTTP one.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// Binds `host:port` (port 0: any free port), says where on stderr, and serves until the
/// listener fails. Every MCP session gets a handler of its own, and with its first tool call
/// a worker and a browser context of its own (see [`Sessions`]).
/// A session without a message from its client for `idle` is ended: a call in progress
/// counts as silence, so `idle` must outlast the longest call.
pub async fn serve(
    sessions: Arc<Sessions>,
    host: &str,
    port: u16,
    idle: std::time::Duration,
) -> std::io::Result<()> {
    let listener = TcpListener::bind((host, port)).await?;
    let addr = listener.local_addr()?;
    let mut allowed: Vec<String> = ["localhost", "127.0.0.1", "::1"]
        .into_iter()
        .map(str::to_owned)
        .collect();
    if !addr.ip().is_loopback() && !addr.ip().is_unspecified() {
        allowed.push(addr.ip().to_string());
    }
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(allowed)
        .with_max_request_body_bytes(MAX_BODY_BYTES);
    let mut manager = LocalSessionManager::default();
    manager.session_config.keep_alive = Some(idle);
    let service =
        StreamableHttpService::new(move || Ok(sessions.handler()), Arc::new(manager), config);
    let shown = if addr.is_ipv6() {
        format!("[{}]:{}", addr.ip(), addr.port())
    } else {
        addr.to_string()
    };
    {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "prufe mcp: listening on http://{shown}{PATH}"
        );
    }
    loop {
        let (stream, _) = listener.accept().await?;
        let service = service.clone();
        tokio::spawn(async move {
            let route = hyper::service::service_fn(move |req: Request<Incoming>| {
                let service = service.clone();
                async move {
                    if req.uri().path() != PATH {
                        let body =
                            Full::new(Bytes::from_static(b"not found: the MCP endpoint is /mcp\n"))
                                .boxed();
                        let mut response = Response::new(body);
                        *response.status_mut() = StatusCode::NOT_FOUND;
                        return Ok::<_, Infallible>(response);
                    }
                    let delete = req.method() == hyper::Method::DELETE;
                    let mut response = service.handle(req).await;
                    // rmcp has closed the session (and dropped its handler) by the time it
                    // answers a DELETE: done, not merely accepted.
                    if delete && response.status() == StatusCode::ACCEPTED {
                        *response.status_mut() = StatusCode::NO_CONTENT;
                    }
                    Ok(response)
                }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), route)
                .await;
        });
    }
}
