//! The DevTools connection: one WebSocket to the browser, commands matched to their replies
//! by `id`, events handed to whoever subscribed to them.
//!
//! Every command is raw JSON (`{id, method, params, sessionId?}`), so the harness does not
//! depend on the generated types of one protocol revision: a newer Chromium that adds enum
//! values or drops fields changes nothing here.
//!
//! **Tasks.** A reader task parses every incoming message: a reply (`id`) goes to the caller
//! waiting for it, an event (`method`, optional `sessionId`) to every live subscription to
//! that method on that session. A writer task sends the queued commands. A message that does
//! not parse is ignored; an event nobody subscribed to (yet) is dropped. When the socket
//! closes (or the reader is stopped) the `closed` channel flips to `true`, every command
//! still waiting fails with [`CdpError::Closed`] and every subscription ends.
//!
//! **Timeouts.** A command unanswered for [`REQUEST_TIMEOUT`] fails with
//! [`CdpError::Timeout`]; the watchdog (see `watchdog`) usually knows why long before.

use async_tungstenite::tungstenite::protocol::WebSocketConfig;
use async_tungstenite::tungstenite::Message;
use futures::{Stream, StreamExt};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;

/// How long a command may wait for its reply.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

pub use crate::error::CdpError;

/// Flips to `true` when the connection to the browser is gone.
pub type Closed = watch::Receiver<bool>;

type Reply = std::result::Result<Value, CdpError>;

struct Subscriber {
    method: &'static str,
    session: Option<String>,
    tx: mpsc::UnboundedSender<Value>,
}

#[derive(Default)]
struct Pending {
    waiting: HashMap<u64, oneshot::Sender<Reply>>,
    /// Set once the reader stopped: nothing will be answered any more.
    done: bool,
}

struct Inner {
    out: mpsc::UnboundedSender<Message>,
    next_id: AtomicU64,
    pending: Mutex<Pending>,
    subscribers: Mutex<Vec<Subscriber>>,
    closed: Closed,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Inner {
    /// Ends everything waiting on the connection: it is gone.
    fn shut(&self) {
        let waiting = {
            let mut p = lock(&self.pending);
            p.done = true;
            std::mem::take(&mut p.waiting)
        };
        for (_, tx) in waiting {
            let _ = tx.send(Err(CdpError::Closed));
        }
        lock(&self.subscribers).clear();
    }

    fn dispatch(&self, text: &str) {
        let Ok(msg) = serde_json::from_str::<Incoming>(text) else {
            return;
        };
        if let Some(id) = msg.id {
            let tx = lock(&self.pending).waiting.remove(&id);
            if let Some(tx) = tx {
                let reply = match msg.error {
                    Some(e) => Err(CdpError::Protocol {
                        code: e.code,
                        message: e.message,
                    }),
                    None => Ok(msg.result.unwrap_or_else(|| json!({}))),
                };
                let _ = tx.send(reply);
            }
            return;
        }
        let Some(method) = msg.method else {
            return;
        };
        let params = msg.params.unwrap_or_else(|| json!({}));
        let mut subs = lock(&self.subscribers);
        subs.retain(|s| !s.tx.is_closed());
        for s in subs.iter() {
            if s.method == method && s.session == msg.session_id {
                let _ = s.tx.send(params.clone());
            }
        }
    }
}

#[derive(Deserialize)]
struct Incoming {
    id: Option<u64>,
    result: Option<Value>,
    error: Option<ProtocolError>,
    method: Option<String>,
    params: Option<Value>,
    #[serde(rename = "sessionId")]
    session_id: Option<String>,
}

#[derive(Deserialize)]
struct ProtocolError {
    #[serde(default)]
    code: i64,
    #[serde(default)]
    message: String,
}

/// Clears what waits on the connection when the reader ends, however it ends (the socket
/// closed, or the task was aborted).
struct OnExit {
    inner: Arc<Inner>,
    closed: watch::Sender<bool>,
}

impl Drop for OnExit {
    fn drop(&mut self) {
        self.inner.shut();
        let _ = self.closed.send(true);
    }
}

/// A connection to a browser (its browser-level session). Clones share it.
#[derive(Clone)]
pub struct Connection {
    inner: Arc<Inner>,
}

/// The tasks that drive a connection: stopping them closes it.
pub struct Driver {
    reader: JoinHandle<()>,
    writer: JoinHandle<()>,
}

impl Driver {
    pub fn abort(&self) {
        self.reader.abort();
        self.writer.abort();
    }
}

impl Connection {
    /// Opens the WebSocket at `ws` (`ws://…/devtools/browser/…`) and starts its tasks.
    pub async fn connect(ws: &str) -> std::result::Result<(Connection, Driver), String> {
        let config = WebSocketConfig::default()
            .max_message_size(None)
            .max_frame_size(None);
        let (socket, _) = async_tungstenite::tokio::connect_async_with_config(ws, Some(config))
            .await
            .map_err(|e| e.to_string())?;
        let (mut sink, mut stream) = socket.split();
        let (out, mut queue) = mpsc::unbounded_channel::<Message>();
        let (closed_tx, closed) = watch::channel(false);
        let inner = Arc::new(Inner {
            out,
            next_id: AtomicU64::new(1),
            pending: Mutex::default(),
            subscribers: Mutex::default(),
            closed,
        });
        let on_exit = OnExit {
            inner: inner.clone(),
            closed: closed_tx,
        };
        let reader = tokio::spawn(async move {
            let on_exit = on_exit;
            while let Some(msg) = stream.next().await {
                match msg {
                    Ok(Message::Text(text)) => on_exit.inner.dispatch(text.as_str()),
                    Ok(Message::Binary(bytes)) => {
                        if let Ok(text) = std::str::from_utf8(&bytes) {
                            on_exit.inner.dispatch(text);
                        }
                    }
                    Ok(Message::Close(_)) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        });
        let writer = tokio::spawn(async move {
            while let Some(msg) = queue.recv().await {
                if sink.send(msg).await.is_err() {
                    break;
                }
            }
            let _ = sink.close(None).await;
        });
        Ok((Connection { inner }, Driver { reader, writer }))
    }

    /// Flips to `true` when the connection is gone.
    pub fn closed(&self) -> Closed {
        self.inner.closed.clone()
    }

    /// Sends `method` on `session` (the browser's own session when `None`) and waits at most
    /// [`REQUEST_TIMEOUT`] for its result.
    pub async fn execute_on(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> std::result::Result<Value, CdpError> {
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let mut cmd = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = session {
            cmd["sessionId"] = json!(s);
        }
        let (tx, rx) = oneshot::channel();
        {
            let mut p = lock(&self.inner.pending);
            if p.done {
                return Err(CdpError::Closed);
            }
            p.waiting.insert(id, tx);
        }
        if self.inner.out.send(Message::text(cmd.to_string())).is_err() {
            lock(&self.inner.pending).waiting.remove(&id);
            return Err(CdpError::Closed);
        }
        match tokio::time::timeout(REQUEST_TIMEOUT, rx).await {
            Ok(Ok(reply)) => reply,
            Ok(Err(_)) => Err(CdpError::Closed),
            Err(_) => {
                lock(&self.inner.pending).waiting.remove(&id);
                Err(CdpError::Timeout)
            }
        }
    }

    /// A browser-level command.
    pub async fn execute(
        &self,
        method: &str,
        params: Value,
    ) -> std::result::Result<Value, CdpError> {
        self.execute_on(None, method, params).await
    }

    /// The events `method` sent on `session` (browser-level ones when `None`) from now on,
    /// their params read as `T` (an event whose params do not fit is skipped).
    pub fn subscribe_on<T: DeserializeOwned>(
        &self,
        session: Option<&str>,
        method: &'static str,
    ) -> Events<T> {
        let (tx, rx) = mpsc::unbounded_channel();
        // A connection already closed leaves the subscription ended at once.
        if !lock(&self.inner.pending).done {
            lock(&self.inner.subscribers).push(Subscriber {
                method,
                session: session.map(str::to_owned),
                tx,
            });
        }
        Events {
            rx,
            _of: PhantomData,
        }
    }

    /// Browser-level events `method`.
    pub fn subscribe<T: DeserializeOwned>(&self, method: &'static str) -> Events<T> {
        self.subscribe_on(None, method)
    }

    /// Opens a new tab on `about:blank` and attaches to it.
    pub async fn new_page(&self) -> std::result::Result<Page, CdpError> {
        let created = self
            .execute("Target.createTarget", json!({ "url": "about:blank" }))
            .await?;
        let target = field(&created, "Target.createTarget", "targetId")?;
        self.attach(&target).await
    }

    /// The session `session_id` this connection already holds with `target_id` (one that
    /// `Target.setAutoAttach` opened).
    pub fn session(&self, target_id: &str, session_id: &str) -> Page {
        Page {
            conn: self.clone(),
            target_id: Arc::from(target_id),
            session_id: Arc::from(session_id),
        }
    }

    /// Attaches to the page target `target_id` (a flattened session on this connection).
    pub async fn attach(&self, target_id: &str) -> std::result::Result<Page, CdpError> {
        let attached = self
            .execute(
                "Target.attachToTarget",
                json!({ "targetId": target_id, "flatten": true }),
            )
            .await?;
        let session = field(&attached, "Target.attachToTarget", "sessionId")?;
        Ok(Page {
            conn: self.clone(),
            target_id: Arc::from(target_id),
            session_id: Arc::from(session),
        })
    }
}

/// The non-empty string `field` of `method`'s reply.
fn field(
    reply: &Value,
    method: &'static str,
    field: &'static str,
) -> std::result::Result<String, CdpError> {
    match reply[field].as_str() {
        Some(value) if !value.is_empty() => Ok(value.to_owned()),
        _ => Err(CdpError::Reply { method, field }),
    }
}

/// A stream of one event's params.
pub struct Events<T> {
    rx: mpsc::UnboundedReceiver<Value>,
    _of: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> Stream for Events<T> {
    type Item = T;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        loop {
            match self.rx.poll_recv(cx) {
                Poll::Ready(Some(v)) => {
                    if let Ok(t) = serde_json::from_value(v) {
                        return Poll::Ready(Some(t));
                    }
                }
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

/// A tab: its target and the session this connection is attached to it with. Clones share
/// the connection.
#[derive(Clone)]
pub struct Page {
    conn: Connection,
    target_id: Arc<str>,
    session_id: Arc<str>,
}

impl Page {
    pub fn target_id(&self) -> &str {
        &self.target_id
    }

    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    /// The connection the tab is reached through.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Sends a command to the tab's session.
    pub async fn execute(
        &self,
        method: &str,
        params: Value,
    ) -> std::result::Result<Value, CdpError> {
        self.conn
            .execute_on(Some(&self.session_id), method, params)
            .await
    }

    /// The tab's events `method` from now on.
    pub fn subscribe<T: DeserializeOwned>(&self, method: &'static str) -> Events<T> {
        self.conn.subscribe_on(Some(&self.session_id), method)
    }

    /// Evaluates `expression` in the main world of the top document, awaiting a promise and
    /// returning the value.
    pub async fn evaluate(
        &self,
        expression: impl AsRef<str>,
    ) -> std::result::Result<Evaluation, CdpError> {
        let r = self
            .execute(
                "Runtime.evaluate",
                json!({ "expression": expression.as_ref(), "awaitPromise": true, "returnByValue": true }),
            )
            .await?;
        if let Some(ex) = r.get("exceptionDetails") {
            return Err(CdpError::Exception(exception_text(ex)));
        }
        Ok(Evaluation {
            result: r.get("result").cloned().unwrap_or(Value::Null),
        })
    }

    /// The URL of the top document.
    pub async fn url(&self) -> std::result::Result<Option<String>, CdpError> {
        let tree = self.execute("Page.getFrameTree", json!({})).await?;
        Ok(tree["frameTree"]["frame"]["url"]
            .as_str()
            .map(str::to_owned))
    }

    /// Closes the tab.
    pub async fn close(self) -> std::result::Result<(), CdpError> {
        self.execute("Page.close", json!({})).await.map(drop)
    }
}

/// What an evaluation returned.
#[derive(Debug, Clone)]
pub struct Evaluation {
    result: Value,
}

impl Evaluation {
    /// The value, read as `T`.
    pub fn into_value<T: DeserializeOwned>(self) -> serde_json::Result<T> {
        let value = match self.result {
            Value::Object(mut o) => o.remove("value").unwrap_or(Value::Null),
            _ => Value::Null,
        };
        serde_json::from_value(value)
    }

    /// The `RemoteObject` as the browser sent it.
    pub fn object(&self) -> &Value {
        &self.result
    }
}

/// The readable text of a DevTools `exceptionDetails`.
pub fn exception_text(ex: &Value) -> String {
    ex["exception"]["description"]
        .as_str()
        .or_else(|| ex["exception"]["value"].as_str())
        .or_else(|| ex["text"].as_str())
        .unwrap_or("a script error")
        .lines()
        .next()
        .unwrap_or("")
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::net::TcpListener;

    /// A fake browser: answers every command with `answer(cmd)`, and sends `events` first.
    async fn fake(
        answer: impl Fn(&Value) -> Option<Value> + Send + 'static,
        events: Vec<Value>,
    ) -> (String, JoinHandle<()>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let task = tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.unwrap();
            let mut ws = async_tungstenite::tokio::accept_async(tcp).await.unwrap();
            while let Some(Ok(msg)) = ws.next().await {
                let Message::Text(text) = msg else { continue };
                let cmd: Value = serde_json::from_str(text.as_str()).unwrap();
                if cmd["method"] == "Test.events" {
                    for e in &events {
                        ws.send(Message::text(e.to_string())).await.unwrap();
                    }
                }
                if cmd["method"] == "Test.hangUp" {
                    return;
                }
                if let Some(reply) = answer(&cmd) {
                    ws.send(Message::text(reply.to_string())).await.unwrap();
                }
            }
        });
        (format!("ws://127.0.0.1:{port}/devtools/browser/x"), task)
    }

    #[tokio::test]
    async fn replies_are_matched_by_id_and_errors_carry_the_message() {
        let (ws, _server) = fake(
            |cmd| {
                Some(match cmd["method"].as_str() {
                    Some("Test.fail") => {
                        json!({ "id": cmd["id"], "error": { "code": -32000, "message": "Cannot find context with specified id" } })
                    }
                    _ => json!({ "id": cmd["id"], "result": { "echo": cmd["params"], "session": cmd["sessionId"] } }),
                })
            },
            vec![],
        )
        .await;
        let (conn, driver) = Connection::connect(&ws).await.unwrap();
        let r = conn.execute("Test.echo", json!({ "a": 1 })).await.unwrap();
        assert_eq!(r["echo"], json!({ "a": 1 }));
        assert_eq!(r["session"], Value::Null);
        let r = conn
            .execute_on(Some("S1"), "Test.echo", json!({}))
            .await
            .unwrap();
        assert_eq!(r["session"], "S1");
        let e = conn.execute("Test.fail", json!({})).await.unwrap_err();
        assert!(matches!(e, CdpError::Protocol { code: -32000, .. }));
        assert!(e.to_string().contains("Cannot find context"), "{e}");
        driver.abort();
    }

    #[tokio::test]
    async fn a_new_page_without_a_target_or_a_session_is_a_typed_error() {
        // The first tab's creation answers without a targetId; the second's attach without a
        // sessionId; the third is whole.
        let (ws, _server) = fake(
            |cmd| {
                let id = cmd["id"].as_u64().unwrap_or(0);
                Some(match cmd["method"].as_str() {
                    Some("Target.createTarget") if id == 1 => json!({ "id": id, "result": {} }),
                    Some("Target.createTarget") => {
                        json!({ "id": id, "result": { "targetId": format!("T{id}") } })
                    }
                    Some("Target.attachToTarget") if id == 3 => {
                        json!({ "id": id, "result": { "sessionId": "" } })
                    }
                    Some("Target.attachToTarget") => {
                        json!({ "id": id, "result": { "sessionId": "S" } })
                    }
                    _ => json!({ "id": id, "result": {} }),
                })
            },
            vec![],
        )
        .await;
        let (conn, driver) = Connection::connect(&ws).await.unwrap();
        let mut ids = Vec::new();
        for _ in 0..3 {
            ids.push(conn.new_page().await.map(|p| p.session_id.to_string()));
        }
        for (got, method, field) in [
            (&ids[0], "Target.createTarget", "targetId"),
            (&ids[1], "Target.attachToTarget", "sessionId"),
        ] {
            let e = got.as_ref().unwrap_err();
            assert!(matches!(e, CdpError::Reply { .. }), "{e}");
            assert_eq!(
                e.to_string(),
                format!("the browser's reply to {method} has no {field}")
            );
        }
        assert_eq!(ids[2].as_deref().ok(), Some("S"));
        driver.abort();
    }

    #[tokio::test]
    async fn events_go_to_the_subscribers_of_their_session() {
        let events = vec![
            json!({ "method": "Target.targetCrashed", "params": { "targetId": "T1" } }),
            json!({ "method": "Target.targetCrashed", "params": { "targetId": "T2" }, "sessionId": "S1" }),
            json!("not a message"),
            json!({ "method": "Inspector.targetCrashed", "params": {}, "sessionId": "S1" }),
        ];
        let (ws, _server) =
            fake(|cmd| Some(json!({ "id": cmd["id"], "result": {} })), events).await;
        let (conn, driver) = Connection::connect(&ws).await.unwrap();
        #[derive(Deserialize)]
        struct Crashed {
            #[serde(rename = "targetId")]
            target_id: String,
        }
        let mut browser = conn.subscribe::<Crashed>("Target.targetCrashed");
        let mut session = conn.subscribe_on::<Value>(Some("S1"), "Inspector.targetCrashed");
        conn.execute("Test.events", json!({})).await.unwrap();
        let first = tokio::time::timeout(Duration::from_secs(5), browser.next())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(first.target_id, "T1");
        assert!(tokio::time::timeout(Duration::from_secs(5), session.next())
            .await
            .unwrap()
            .is_some());
        // The crash on session S1 is not a browser-level one.
        assert!(
            tokio::time::timeout(Duration::from_millis(200), browser.next())
                .await
                .is_err()
        );
        driver.abort();
    }

    #[tokio::test]
    async fn a_closed_socket_fails_waiting_commands_and_flips_closed() {
        let (ws, _server) = fake(|_| None, vec![]).await;
        let (conn, _driver) = Connection::connect(&ws).await.unwrap();
        let mut closed = conn.closed();
        let waiting = {
            let conn = conn.clone();
            tokio::spawn(async move { conn.execute("Test.never", json!({})).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        let _ = conn.execute("Test.hangUp", json!({})).await;
        tokio::time::timeout(Duration::from_secs(5), closed.wait_for(|c| *c))
            .await
            .unwrap()
            .unwrap();
        let e = tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .unwrap()
            .unwrap()
            .unwrap_err();
        assert_eq!(e, CdpError::Closed);
        assert_eq!(
            conn.execute("Test.after", json!({})).await.unwrap_err(),
            CdpError::Closed
        );
        let mut events = conn.subscribe::<Value>("Target.targetCrashed");
        assert!(events.next().await.is_none());
    }
}
