//! The engine in the page: injecting `js/dist/prufe.js` into an isolated world of every frame
//! and calling it there.
//!
//! **Isolation.** The bundle runs in a world named `"prufe"`, not in the page's main world: the
//! page shares the DOM with it but not the JavaScript globals, so a page that redefines
//! `window.prufe`, `JSON.stringify` or `Element.prototype.getAttribute` changes nothing the
//! engine sees. `Page.addScriptToEvaluateOnNewDocument { worldName: "prufe", runImmediately }`
//! installs it before any page script on every new document of every frame (cross-origin
//! frames included, since site isolation is off in a launched browser, see `cdp`), and
//! `Page.createIsolatedWorld` covers a frame whose world does not hold the engine yet.
//! Chromium keeps one world per (frame, name), so both paths share it and injecting twice is
//! harmless. `Page.setBypassCSP(true)` lets the inlined wasm compile on a page whose CSP
//! forbids it.
//!
//! **Contexts.** A world gets a new execution context with every document. They are tracked
//! from `Runtime.executionContextCreated` (name `"prufe"`, `auxData.frameId`) and dropped on
//! `executionContextDestroyed`/`executionContextsCleared`; a frame with no known context asks
//! `Page.createIsolatedWorld`, which returns the world's current context. A call that meets a
//! destroyed context (a navigation raced it) forgets it and is sent again, as often as the
//! machine allows ([`ErrorCode::RESENDS`]: a transport's matter, the call never reached a page).
//!
//! **Bundle.** Read at run time, not embedded: `PRUFE_BUNDLE` if set, else
//! `js/dist/prufe.js` next to the crate (`CARGO_MANIFEST_DIR/..`), else `prufe.js` beside the
//! executable. Embedding with `include_str!` would fail the harness build whenever the bundle
//! has not been built yet and would silently keep a stale engine after `make bundle`.
//!
//! **Calls.** Every engine call is one `Runtime.evaluate` in the frame's prufe context with
//! `awaitPromise` and `returnByValue`: it awaits `prufe.ready`, runs, and returns either
//! `{ ok: true, value }` or the engine's error as `{ ok: false, code, message, candidates }`,
//! so its SCREAMING_SNAKE_CASE code reaches the caller unchanged.
//!
//! **Out-of-process frames.** A browser attached with `--connect` may run a frame of another
//! site in another renderer, as a DevTools target of its own that the page's session neither
//! lists in `Page.getFrameTree` nor gives contexts for. Every session sets
//! `Target.setAutoAttach { flatten, waitForDebuggerOnStart }` for such frames: each one is
//! attached as it starts, paused, given the same events, dialogs and engine script as the
//! page's session, then resumed, so the engine is there before its first script. Its frames
//! (its own tree) are remembered as its session's, and every command about them, or about a
//! handle made there, goes to that session ([`Engine::cmd_in`], [`Engine::cmd_on`]). Boxes
//! such a session reports are in its own viewport: [`Engine::session_offset`] adds its
//! `<iframe>`'s content box, as the document holding it reports it, up to the top.
//!
//! **Liveness.** Every command goes through [`Engine::cmd`], which races the tab's
//! [`Watchdog`]: a crashed renderer, a tab or browser gone, or a stuck main thread fail the
//! command with the cause as soon as it is known (see `watchdog`).

use crate::cdp::Page;
pub use crate::cdp::{exception_text, send, Closed};
use crate::coords::input::{SharedLedger, Sink};
use crate::error::{Error, Result};
use crate::requests::{RequestEvent, Requests};
use crate::watchdog::Watchdog;
use futures::StreamExt;
use prufe::core::error::{Candidate, ErrorCode};
use prufe::core::run::dialogs::{self, Dialog};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The isolated world's name: `ExecutionContextDescription.name` of our contexts.
pub const WORLD: &str = "prufe";

/// Object group of remote handles we create; released after every action.
pub const OBJECT_GROUP: &str = "prufe-harness";

/// The engine bundle's source.
#[derive(Clone)]
pub struct Bundle {
    pub path: PathBuf,
    source: Arc<str>,
}

impl Bundle {
    /// Where the bundle is looked for, in order.
    pub fn candidates() -> Vec<PathBuf> {
        let mut out = Vec::new();
        if let Some(p) = std::env::var_os("PRUFE_BUNDLE").filter(|v| !v.is_empty()) {
            out.push(PathBuf::from(p));
            return out;
        }
        out.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../js/dist/prufe.js"));
        if let Ok(exe) = std::env::current_exe() {
            if let Some(dir) = exe.parent() {
                out.push(dir.join("prufe.js"));
            }
        }
        out
    }

    /// Reads the bundle from `explicit`, else from the first of [`Bundle::candidates`] that exists.
    pub fn load(explicit: Option<&Path>) -> Result<Bundle> {
        let candidates = match explicit {
            Some(p) => vec![p.to_path_buf()],
            None => Self::candidates(),
        };
        for path in &candidates {
            match std::fs::read_to_string(path) {
                Ok(source) => {
                    return Ok(Bundle {
                        path: path.clone(),
                        source: source.into(),
                    })
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(Error::io(format!("reading {}", path.display()), e)),
            }
        }
        Err(Error::Bundle(format!(
            "the engine bundle was not found (looked at {}); run `make bundle` or set PRUFE_BUNDLE",
            candidates
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )))
    }

    /// A bundle from source text (tests, embedders).
    pub fn from_source(source: impl Into<Arc<str>>) -> Bundle {
        Bundle {
            path: PathBuf::from("<memory>"),
            source: source.into(),
        }
    }

    pub fn source(&self) -> &str {
        &self.source
    }
}

/// `Runtime.executionContextCreated`, the fields read.
#[derive(Deserialize)]
struct ContextCreated {
    context: ContextDescription,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ContextDescription {
    id: i64,
    name: String,
    #[serde(default)]
    unique_id: String,
    aux_data: Option<Value>,
}

/// `Runtime.executionContextDestroyed`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ContextDestroyed {
    #[serde(default)]
    execution_context_unique_id: String,
}

/// `Page.frameDetached`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FrameDetached {
    frame_id: String,
}

/// `Page.javascriptDialogOpening`.
#[derive(Deserialize)]
struct DialogOpening {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    message: String,
}

/// A frame of the page as DevTools reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameInfo {
    pub id: String,
    pub parent: Option<String>,
    pub origin: String,
    pub url: String,
    pub loader: String,
}

/// Frame id → (execution context id, its unique id; empty when learnt from
/// `createIsolatedWorld` rather than from the creation event).
type Contexts = Arc<Mutex<HashMap<String, (i64, String)>>>;

/// The sessions of a page's out-of-process frames (see "Out-of-process frames" above).
#[derive(Default)]
struct Sessions {
    /// Frame id → the session of the target its document runs in, for every frame outside
    /// the page's own target (an out-of-process frame and the frames in its process).
    of_frame: HashMap<String, Page>,
    /// An out-of-process frame's id (its target's id) → the session that attached it: the
    /// one whose document holds its `<iframe>`.
    owner: HashMap<String, Page>,
    /// Remote handle (objectId) → the session it belongs to, for handles outside the page's
    /// own target.
    handles: HashMap<String, Page>,
}

/// `Target.attachedToTarget`, the fields read.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Attached {
    session_id: String,
    target_info: AttachedTarget,
    #[serde(default)]
    waiting_for_debugger: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AttachedTarget {
    target_id: String,
    #[serde(rename = "type")]
    kind: String,
}

/// `Target.detachedFromTarget`, the field read.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Detached {
    #[serde(default)]
    session_id: String,
}

/// What every session of a page shares: the contexts, the dialogs, the frames' sessions
/// and the tasks listening to them.
#[derive(Clone)]
struct Shared {
    bundle: Bundle,
    contexts: Contexts,
    /// The dialogs heard since the last `take_dialogs`, the first `dialogs::PER_STEP`.
    dialogs: Arc<Mutex<Vec<Dialog>>>,
    dialog_answer: Arc<Mutex<Option<DialogAnswer>>>,
    sessions: Arc<Mutex<Sessions>>,
    /// The requests of every session of the tab (`requests`).
    requests: Arc<Mutex<Requests>>,
    tasks: Arc<Tasks>,
}

/// The engine installed in a page, and the per-frame contexts to call it in.
#[derive(Clone)]
pub struct Engine {
    page: Page,
    shared: Shared,
    call_timeout: Duration,
    filters: Arc<Filters>,
    watchdog: Watchdog,
    ledger: SharedLedger,
}

/// Region filters applied to fingerprints (docs/DESIGN.md: `regions`, `ignoreRegions`),
/// and the walk budget of every snapshot and fingerprint.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filters {
    pub regions: Vec<String>,
    pub ignore_regions: Vec<String>,
    /// The time budget of a walk (`budgetMs`), for snapshots and fingerprints; the
    /// engine's default when `None`.
    pub budget_ms: Option<u64>,
}

/// How to answer the next JavaScript dialog, when it is not to be declined.
#[derive(Clone, PartialEq, Eq)]
pub struct DialogAnswer {
    pub accept: bool,
    /// The text a `prompt()` receives; never recorded.
    pub prompt_text: Option<String>,
}

/// The event tasks of an engine, stopped when its last clone is dropped.
#[derive(Default)]
struct Tasks(Mutex<Vec<tokio::task::JoinHandle<()>>>);

impl Tasks {
    fn push(&self, task: tokio::task::JoinHandle<()>) {
        lock(&self.0).push(task);
    }
}

impl Drop for Tasks {
    fn drop(&mut self) {
        for t in lock(&self.0).iter() {
            t.abort();
        }
    }
}

/// Listens to one session of the page: its prufe contexts, and the JavaScript dialogs its
/// documents open.
fn watch_session(page: &Page, shared: &Shared) {
    let mut created = page.subscribe::<ContextCreated>("Runtime.executionContextCreated");
    let mut destroyed = page.subscribe::<ContextDestroyed>("Runtime.executionContextDestroyed");
    let mut cleared = page.subscribe::<Value>("Runtime.executionContextsCleared");
    let mut detached = page.subscribe::<FrameDetached>("Page.frameDetached");
    let map = shared.contexts.clone();
    shared.tasks.push(tokio::spawn(async move {
        loop {
            tokio::select! {
                Some(ev) = created.next() => {
                    let frame = ev.context.aux_data.as_ref()
                        .and_then(|a| a.get("frameId")).and_then(Value::as_str);
                    if ev.context.name == WORLD {
                        if let Some(frame) = frame {
                            lock(&map).insert(frame.to_owned(), (ev.context.id, ev.context.unique_id.clone()));
                        }
                    }
                }
                Some(ev) = destroyed.next() => {
                    let gone = &ev.execution_context_unique_id;
                    lock(&map).retain(|_, (_, unique)| unique != gone);
                }
                // Another session's contexts go too; `context` finds them again.
                Some(_) = cleared.next() => lock(&map).clear(),
                Some(ev) = detached.next() => { lock(&map).remove(&ev.frame_id); }
                else => break,
            }
        }
    }));

    // The session's requests, for the machine's `Read::Network`.
    let mut sent = page.subscribe::<RequestEvent>("Network.requestWillBeSent");
    let mut finished = page.subscribe::<RequestEvent>("Network.loadingFinished");
    let mut failed = page.subscribe::<RequestEvent>("Network.loadingFailed");
    let requests = shared.requests.clone();
    let session = page.session_id().to_owned();
    shared.tasks.push(tokio::spawn(async move {
        loop {
            let now = std::time::Instant::now();
            tokio::select! {
                Some(ev) = sent.next() => lock(&requests).started(&session, &ev.request_id, now),
                Some(ev) = finished.next() => lock(&requests).ended(&session, &ev.request_id, now),
                Some(ev) = failed.next() => lock(&requests).ended(&session, &ev.request_id, now),
                else => break,
            }
        }
    }));

    // A JavaScript dialog blocks the page, and every later call with it; dismiss it
    // (the safe answer: a confirm() is declined, nothing is approved on the user's behalf)
    // unless the caller said beforehand how to answer the next one.
    let mut opened = page.subscribe::<DialogOpening>("Page.javascriptDialogOpening");
    let dialog_page = page.clone();
    let seen = shared.dialogs.clone();
    let armed = shared.dialog_answer.clone();
    shared.tasks.push(tokio::spawn(async move {
        while let Some(ev) = opened.next().await {
            let answer = lock(&armed).take();
            let accept = answer.as_ref().is_some_and(|a| a.accept);
            let mut params = json!({ "accept": accept });
            if let Some(text) = answer.and_then(|a| a.prompt_text).filter(|_| accept) {
                params["promptText"] = json!(text);
            }
            let _ = send(&dialog_page, "Page.handleJavaScriptDialog", params).await;
            let mut heard = lock(&seen);
            if heard.len() < dialogs::PER_STEP {
                heard.push(Dialog {
                    kind: ev.kind,
                    message: ev.message,
                    accepted: accept,
                });
            }
        }
    }));
}

/// Attaches to the out-of-process frames of `page`'s documents as they come, each with the
/// engine installed before its first script runs. Call before `Target.setAutoAttach`.
fn watch_targets(page: &Page, shared: &Shared) {
    let mut attached = page.subscribe::<Attached>("Target.attachedToTarget");
    let mut detached = page.subscribe::<Detached>("Target.detachedFromTarget");
    let parent = page.clone();
    let on = shared.clone();
    shared.tasks.push(tokio::spawn(async move {
        loop {
            tokio::select! {
                Some(ev) = attached.next() => {
                    let child = parent.connection().session(&ev.target_info.target_id, &ev.session_id);
                    if ev.target_info.kind == "iframe" {
                        {
                            let mut s = lock(&on.sessions);
                            s.of_frame.insert(ev.target_info.target_id.clone(), child.clone());
                            s.owner.insert(ev.target_info.target_id.clone(), parent.clone());
                        }
                        watch_session(&child, &on);
                        watch_targets(&child, &on);
                        let _ = install_in(&child, &on.bundle).await;
                    }
                    // Resumed whatever happened above: a frame is never left paused.
                    if ev.waiting_for_debugger {
                        let _ = send(&child, "Runtime.runIfWaitingForDebugger", json!({})).await;
                    }
                    if ev.target_info.kind != "iframe" {
                        let _ = send(&parent, "Target.detachFromTarget", json!({ "sessionId": ev.session_id })).await;
                    }
                }
                Some(ev) = detached.next() => {
                    lock(&on.requests).forget_session(&ev.session_id);
                    let mut s = lock(&on.sessions);
                    let gone = |p: &Page| p.session_id() == ev.session_id;
                    s.of_frame.retain(|_, p| !gone(p));
                    s.owner.retain(|_, p| !gone(p));
                    s.handles.retain(|_, p| !gone(p));
                }
                else => break,
            }
        }
    }));
}

/// The work watch, run in each document's main world beside the engine: it tells the engine
/// when timers an input set off are still to run.
const WORK_WATCH: &str = include_str!("../../js/src/work.js");

/// Enables what the engine needs in one session and installs it in every new document
/// there, its own out-of-process frames included (`Target.setAutoAttach`, paused at their
/// start until [`watch_targets`] has installed the engine in them).
async fn install_in(page: &Page, bundle: &Bundle) -> Result<()> {
    send(page, "Page.enable", json!({})).await?;
    send(page, "Runtime.enable", json!({})).await?;
    send(page, "DOM.enable", json!({})).await?;
    // Only the requests' comings and goings are read: no payload is kept.
    send(
        page,
        "Network.enable",
        json!({ "maxTotalBufferSize": 0, "maxResourceBufferSize": 0, "maxPostDataSize": 0 }),
    )
    .await?;
    send(page, "Page.setBypassCSP", json!({ "enabled": true })).await?;
    send(
        page,
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": bundle.source(), "worldName": WORLD, "runImmediately": true }),
    )
    .await?;
    // The page's own timers are seen from its main world only (js/src/work.js).
    send(
        page,
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": WORK_WATCH, "runImmediately": true }),
    )
    .await?;
    send(
        page,
        "Target.setAutoAttach",
        json!({ "autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true,
                "filter": [{ "type": "iframe", "exclude": false }] }),
    )
    .await?;
    Ok(())
}

impl Engine {
    /// Installs the engine into every current and future document of `page`.
    pub async fn install(page: Page, bundle: Bundle, call_timeout: Duration) -> Result<Engine> {
        let shared = Shared {
            bundle,
            contexts: Arc::default(),
            dialogs: Arc::default(),
            dialog_answer: Arc::default(),
            sessions: Arc::default(),
            requests: Arc::default(),
            tasks: Arc::default(),
        };
        // Listen before anything can create a context or attach a frame.
        watch_session(&page, &shared);
        watch_targets(&page, &shared);
        let watchdog = Watchdog::for_page(&page).await?;
        install_in(&page, &shared.bundle).await?;

        let watchdog = watchdog
            .with_unresponsive_after(crate::watchdog::DEFAULT_UNRESPONSIVE_AFTER, call_timeout);
        Ok(Engine {
            page,
            shared,
            call_timeout,
            filters: Arc::default(),
            watchdog,
            ledger: SharedLedger::default(),
        })
    }

    /// A command unanswered for `budget` has the page probed for a hang (see `watchdog`);
    /// a document load is given the call timeout first.
    pub fn with_unresponsive_after(mut self, budget: Duration) -> Engine {
        self.watchdog = self
            .watchdog
            .with_unresponsive_after(budget, self.call_timeout);
        self
    }

    /// The tab's liveness: every command races it.
    pub fn watchdog(&self) -> &Watchdog {
        &self.watchdog
    }

    /// An input is about to be sent: the requests heard of from now on are its own
    /// ([`Engine::pending_requests`]).
    pub fn mark_input(&self) {
        lock(&self.shared.requests).mark(std::time::Instant::now());
    }

    /// The page's requests heard of since the last input, for the machine's `Read::Network`:
    /// since the input, and each request, in ms before now.
    pub fn heard_requests(&self) -> (Option<f64>, Vec<prufe::core::run::requests::Heard>) {
        lock(&self.shared.requests).heard(std::time::Instant::now())
    }

    /// The keys and buttons this tab holds, recorded before each press is sent.
    pub fn ledger(&self) -> &SharedLedger {
        &self.ledger
    }

    /// Sends a raw DevTools command to the page. It fails at once, with the cause, when the
    /// renderer crashed, the tab or the browser went away, or the page's main thread is
    /// stuck (see `watchdog`), instead of waiting for an answer that will never come.
    pub async fn cmd(&self, method: &'static str, params: Value) -> Result<Value> {
        self.cmd_to(&self.page, method, params).await
    }

    /// [`Engine::cmd`], sent to `session` (the page's own or an out-of-process frame's).
    pub async fn cmd_to(
        &self,
        session: &Page,
        method: &'static str,
        params: Value,
    ) -> Result<Value> {
        self.watchdog
            .guard(method, send(session, method, params))
            .await
    }

    /// The session of the target `frame`'s document runs in: the page's own, or an
    /// out-of-process frame's.
    pub fn session_of(&self, frame: &str) -> Page {
        lock(&self.shared.sessions)
            .of_frame
            .get(frame)
            .cloned()
            .unwrap_or_else(|| self.page.clone())
    }

    /// The session of the document holding `frame`'s `<iframe>`: where `DOM.getFrameOwner`
    /// answers for it.
    pub fn owner_session(&self, frame: &str) -> Page {
        let owner = lock(&self.shared.sessions).owner.get(frame).cloned();
        owner.unwrap_or_else(|| self.session_of(frame))
    }

    /// [`Engine::cmd`], sent to the session `frame`'s document runs in.
    pub async fn cmd_in(&self, frame: &str, method: &'static str, params: Value) -> Result<Value> {
        self.cmd_to(&self.session_of(frame), method, params).await
    }

    /// [`Engine::cmd`] about a remote handle (`objectId`), sent to the session it belongs to.
    pub async fn cmd_on(&self, object: &str, method: &'static str, params: Value) -> Result<Value> {
        self.cmd_to(&self.session_of_handle(object), method, params)
            .await
    }

    fn session_of_handle(&self, object: &str) -> Page {
        lock(&self.shared.sessions)
            .handles
            .get(object)
            .cloned()
            .unwrap_or_else(|| self.page.clone())
    }

    /// Where a handle made in `session` is to be used.
    fn keep_handle(&self, session: &Page, object: &str) {
        if session.session_id() != self.page.session_id() {
            lock(&self.shared.sessions)
                .handles
                .insert(object.to_owned(), session.clone());
        }
    }

    /// Where the top-left of `session`'s viewport lies in the top viewport: (0, 0) for the
    /// page's own target; for an out-of-process frame, its `<iframe>`'s content box, itself
    /// placed by its own document's session. Boxes DevTools reports in a session are in its
    /// own viewport.
    pub async fn session_offset(&self, session: &Page) -> Result<(f64, f64)> {
        let mut at = (0.0, 0.0);
        let mut session = session.clone();
        for _ in 0..16 {
            if session.session_id() == self.page.session_id() {
                return Ok(at);
            }
            let frame = session.target_id().to_owned();
            let owner = lock(&self.shared.sessions).owner.get(&frame).cloned();
            let Some(owner) = owner else { break };
            let [x, y, ..] = owner_box(&owner, &frame).await?.1;
            at = (at.0 + x, at.1 + y);
            session = owner;
        }
        Err(Error::core(
            ErrorCode::StaleReference,
            "the frame is no longer attached to the page",
        ))
    }

    /// [`Engine::session_offset`] of the session a handle belongs to.
    pub async fn handle_offset(&self, object: &str) -> Result<(f64, f64)> {
        let session = self.session_of_handle(object);
        self.session_offset(&session).await
    }

    /// `Err` with the cause when commands to the tab cannot complete now.
    pub fn alive(&self) -> Result<()> {
        self.watchdog.alive("the next command")
    }

    /// Applies region filters to every later fingerprint.
    pub fn with_filters(mut self, filters: Filters) -> Engine {
        self.filters = Arc::new(filters);
        self
    }

    pub fn filters(&self) -> &Filters {
        &self.filters
    }

    /// The JavaScript dialogs answered since the last call, as the record lists them.
    pub fn take_dialogs(&self) -> Vec<String> {
        dialogs::lines(&std::mem::take(&mut *lock(&self.shared.dialogs)))
    }

    /// Answers the next JavaScript dialog so, instead of declining it; once.
    pub fn answer_next_dialog(&self, answer: DialogAnswer) {
        *lock(&self.shared.dialog_answer) = Some(answer);
    }

    pub fn page(&self) -> &Page {
        &self.page
    }

    pub fn call_timeout(&self) -> Duration {
        self.call_timeout
    }

    /// Every frame of the page, parents before children, in frame-tree order. The page's
    /// own tree holds no out-of-process frame: each is read from its own session's tree,
    /// after its parent, and its frames are remembered as that session's.
    pub async fn frames(&self) -> Result<Vec<FrameInfo>> {
        let tree = self.cmd("Page.getFrameTree", json!({})).await?;
        let attached: Vec<(String, Page)> = {
            let s = lock(&self.shared.sessions);
            s.owner
                .keys()
                .filter_map(|f| s.of_frame.get(f).map(|p| (f.clone(), p.clone())))
                .collect()
        };
        // Each out-of-process frame's own tree, by the frame it hangs from.
        let mut hanging: HashMap<String, Vec<(Value, Page)>> = HashMap::new();
        for (frame, session) in attached {
            let Ok(sub) = self.cmd_to(&session, "Page.getFrameTree", json!({})).await else {
                continue;
            };
            let sub = sub.get("frameTree").cloned().unwrap_or(Value::Null);
            if sub["frame"]["id"].as_str() != Some(frame.as_str()) {
                continue;
            }
            let parent = sub["frame"]["parentId"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            hanging.entry(parent).or_default().push((sub, session));
        }
        let mut out = Vec::new();
        let mut stack = vec![(
            tree.get("frameTree").cloned().unwrap_or(Value::Null),
            None::<Page>,
        )];
        while let Some((node, session)) = stack.pop() {
            let Some(f) = frame_info(&node["frame"]) else {
                continue;
            };
            if let Some(s) = &session {
                let mut sessions = lock(&self.shared.sessions);
                // A frame attached on its own keeps its own session: a parent's tree still
                // lists a nested frame while it moves to its own process, and taking the
                // parent's session for it then would lose its document for good.
                if !sessions.owner.contains_key(&f.id) {
                    sessions.of_frame.insert(f.id.clone(), s.clone());
                }
            }
            for (sub, s) in hanging.remove(&f.id).into_iter().flatten().rev() {
                stack.push((sub, Some(s)));
            }
            if let Some(children) = node["childFrames"].as_array() {
                stack.extend(children.iter().rev().map(|c| (c.clone(), session.clone())));
            }
            out.push(f);
        }
        Ok(out)
    }

    /// The main frame.
    pub async fn main_frame(&self) -> Result<FrameInfo> {
        let tree = self.cmd("Page.getFrameTree", json!({})).await?;
        frame_info(&tree["frameTree"]["frame"])
            .ok_or_else(|| Error::core(ErrorCode::BrowserError, "the page has no main frame"))
    }

    /// The prufe context of `frame`, creating the world (and installing the engine in it)
    /// when the frame has none yet.
    pub async fn context(&self, frame: &str) -> Result<i64> {
        if let Some((id, _)) = lock(&self.shared.contexts).get(frame) {
            return Ok(*id);
        }
        let created = self
            .cmd_in(
                frame,
                "Page.createIsolatedWorld",
                json!({ "frameId": frame, "worldName": WORLD, "grantUniversalAccess": false }),
            )
            .await?;
        let id = created["executionContextId"].as_i64().ok_or_else(|| {
            Error::core(
                ErrorCode::BrowserError,
                "createIsolatedWorld returned no context",
            )
        })?;
        // A world created here (a frame that existed before we attached) has no engine yet.
        let has = self
            .evaluate_raw(
                frame,
                id,
                "typeof globalThis.prufe === 'object' && globalThis.prufe !== null",
            )
            .await?;
        if has != Value::Bool(true) {
            let r = self.cmd_in(frame, "Runtime.evaluate",
                json!({ "expression": self.shared.bundle.source(), "contextId": id, "returnByValue": true, "silent": true }),
            )
            .await?;
            if let Some(ex) = r.get("exceptionDetails") {
                return Err(Error::Bundle(format!(
                    "the engine bundle failed to install: {}",
                    exception_text(ex)
                )));
            }
        }
        lock(&self.shared.contexts)
            .entry(frame.to_owned())
            .or_insert((id, String::new()));
        Ok(id)
    }

    fn forget(&self, frame: &str, id: i64) {
        let mut map = lock(&self.shared.contexts);
        if map.get(frame).is_some_and(|(known, _)| *known == id) {
            map.remove(frame);
        }
    }

    async fn evaluate_raw(&self, frame: &str, context: i64, expression: &str) -> Result<Value> {
        let r = self.cmd_in(frame, "Runtime.evaluate",
            json!({ "expression": expression, "contextId": context, "returnByValue": true, "awaitPromise": true, "silent": true }),
        )
        .await?;
        if let Some(ex) = r.get("exceptionDetails") {
            return Err(Error::core(ErrorCode::Internal, exception_text(ex)));
        }
        Ok(r["result"].get("value").cloned().unwrap_or(Value::Null))
    }

    /// Runs `function` (JS source of `(prufe, args) => value`) in `frame`'s prufe world after
    /// `prufe.ready`, returning its value or the engine's typed error.
    pub async fn call_value(&self, frame: &str, function: &str, args: &Value) -> Result<Value> {
        self.call_value_in(frame, function, args, true).await
    }

    /// [`Engine::call_value`], sent once: a call that its document's end interrupts fails
    /// with the transient error (for a call whose meaning depends on the time it was sent).
    pub async fn call_once<T: DeserializeOwned>(
        &self,
        frame: &str,
        function: &str,
        args: &Value,
    ) -> Result<T> {
        let v = self.call_value_in(frame, function, args, false).await?;
        serde_json::from_value(v).map_err(|e| {
            Error::core(
                ErrorCode::Internal,
                format!("the engine returned an unexpected shape: {e}"),
            )
        })
    }

    async fn call_value_in(
        &self,
        frame: &str,
        function: &str,
        args: &Value,
        retry: bool,
    ) -> Result<Value> {
        let expression = format!(
            "(async () => {{ const P = globalThis.prufe; \
               if (!P || typeof P.snapshot !== 'function') return {{ ok: false, code: 'NOT_READY', message: 'the prufe engine is not installed in this frame' }}; \
               try {{ await P.ready; const args = {args}; return {{ ok: true, value: await ({function})(P, args) }}; }} \
               catch (e) {{ return {{ ok: false, code: (e && typeof e.code === 'string') ? e.code : 'INTERNAL', \
                 message: String((e && e.message) || e), \
                 candidates: (e && Array.isArray(e.candidates)) ? e.candidates.slice(0, 10) : [] }}; }} }})()"
        );
        // Sent again to the new context while the one it was addressed to is destroyed, as
        // often as the machine allows.
        let mut resends = if retry { ErrorCode::RESENDS } else { 0 };
        loop {
            let ctx = self.context(frame).await?;
            let sent = tokio::time::timeout(
                self.call_timeout,
                self.cmd_in(frame, "Runtime.evaluate",
                    json!({ "expression": expression, "contextId": ctx, "returnByValue": true, "awaitPromise": true, "silent": true, "objectGroup": OBJECT_GROUP }),
                ),
            )
            .await
            .map_err(|_| Error::Timeout(format!("the engine did not answer within {} ms", self.call_timeout.as_millis())))?;
            let r = match sent {
                Ok(r) => r,
                Err(e) if resends > 0 && is_context_gone(&e) => {
                    self.forget(frame, ctx);
                    resends -= 1;
                    continue;
                }
                Err(e) => return Err(e),
            };
            if let Some(ex) = r.get("exceptionDetails") {
                let text = exception_text(ex);
                if resends > 0 && text.contains("context") {
                    self.forget(frame, ctx);
                    resends -= 1;
                    continue;
                }
                return Err(Error::core(ErrorCode::Internal, text));
            }
            let v = r["result"].get("value").cloned().unwrap_or(Value::Null);
            return engine_result(v);
        }
    }

    /// [`Engine::call_value`] deserialised into `T`.
    pub async fn call<T: DeserializeOwned>(
        &self,
        frame: &str,
        function: &str,
        args: &Value,
    ) -> Result<T> {
        let v = self.call_value(frame, function, args).await?;
        serde_json::from_value(v).map_err(|e| {
            Error::core(
                ErrorCode::Internal,
                format!("the engine returned an unexpected shape: {e}"),
            )
        })
    }

    /// A remote handle (objectId) on the live element behind `reference` in `frame`'s world:
    /// the node the engine's `prufe.element` (or, with `via`, another primitive taking a ref
    /// and giving a node, such as `fileInput`) answers.
    pub async fn element_handle(
        &self,
        frame: &str,
        reference: &str,
        via: Option<&str>,
    ) -> Result<String> {
        let via = Value::String(via.unwrap_or("element").to_owned());
        // The node itself, or the engine's typed error as a plain `{ ok: false, code, … }`
        // object (read back by value below): one error shape from page to harness.
        let expression = format!(
            "(async () => {{ const P = globalThis.prufe; await P.ready; \
               try {{ return P[{via}]({r}); }} catch (e) {{ return {{ ok: false, code: (e && e.code) || 'STALE_REFERENCE', message: String((e && e.message) || e) }}; }} }})()",
            r = Value::String(reference.to_owned())
        );
        let mut resends = ErrorCode::RESENDS;
        loop {
            let ctx = self.context(frame).await?;
            let session = self.session_of(frame);
            let r = self.cmd_to(&session, "Runtime.evaluate",
                json!({ "expression": expression, "contextId": ctx, "awaitPromise": true, "silent": true, "objectGroup": OBJECT_GROUP }),
            )
            .await;
            let r = match r {
                Ok(r) => r,
                Err(e) if resends > 0 && is_context_gone(&e) => {
                    self.forget(frame, ctx);
                    resends -= 1;
                    continue;
                }
                Err(e) => return Err(e),
            };
            if let Some(ex) = r.get("exceptionDetails") {
                return Err(Error::core(ErrorCode::Internal, exception_text(ex)));
            }
            if let Some(object) = r["result"]["objectId"].as_str() {
                self.keep_handle(&session, object);
            }
            if r["result"]["subtype"] != "node" {
                if let Some(object) = r["result"]["objectId"].as_str() {
                    let v = self
                        .call_on(object, "function () { return this; }", &[])
                        .await?;
                    return Err(engine_result(v).err().unwrap_or_else(|| {
                        Error::core(
                            ErrorCode::StaleReference,
                            format!("{reference} has no live node"),
                        )
                    }));
                }
            }
            return r["result"]["objectId"]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| {
                    Error::core(
                        ErrorCode::StaleReference,
                        format!("{reference} has no live node"),
                    )
                });
        }
    }

    /// Calls `function` (JS source, `this` = the handle) on a remote handle, by value.
    pub async fn call_on(&self, object: &str, function: &str, args: &[Value]) -> Result<Value> {
        let arguments: Vec<Value> = args
            .iter()
            .map(|a| match a.get("__objectId").and_then(Value::as_str) {
                Some(id) => json!({ "objectId": id }),
                None => json!({ "value": a }),
            })
            .collect();
        let r = tokio::time::timeout(
            self.call_timeout,
            self.cmd_on(
                object,
                "Runtime.callFunctionOn",
                json!({ "functionDeclaration": function, "objectId": object, "arguments": arguments,
                        "returnByValue": true, "awaitPromise": true, "silent": true }),
            ),
        )
        .await
        .map_err(|_| {
            Error::Timeout(format!(
                "the page did not answer within {} ms",
                self.call_timeout.as_millis()
            ))
        })??;
        if let Some(ex) = r.get("exceptionDetails") {
            return Err(Error::core(ErrorCode::Internal, exception_text(ex)));
        }
        Ok(r["result"].get("value").cloned().unwrap_or(Value::Null))
    }

    /// Releases every remote handle created by the harness.
    pub async fn release_handles(&self) {
        let mut sessions = vec![self.page.clone()];
        {
            let mut s = lock(&self.shared.sessions);
            s.handles.clear();
            for p in s.of_frame.values() {
                if !sessions.iter().any(|k| k.session_id() == p.session_id()) {
                    sessions.push(p.clone());
                }
            }
        }
        for session in sessions {
            let _ = self
                .cmd_to(
                    &session,
                    "Runtime.releaseObjectGroup",
                    json!({ "objectGroup": OBJECT_GROUP }),
                )
                .await;
        }
    }

    /// Resolves a DOM node (by backend id) to a handle in `frame`'s prufe world.
    pub async fn resolve_node(&self, frame: &str, backend_node_id: i64) -> Result<String> {
        let ctx = self.context(frame).await?;
        let r = self.cmd_in(frame, "DOM.resolveNode",
            json!({ "backendNodeId": backend_node_id, "executionContextId": ctx, "objectGroup": OBJECT_GROUP }),
        )
        .await?;
        let session = self.session_of(frame);
        r["object"]["objectId"]
            .as_str()
            .inspect(|object| self.keep_handle(&session, object))
            .map(str::to_owned)
            .ok_or_else(|| {
                Error::core(
                    ErrorCode::StaleReference,
                    "the node has no handle in this frame",
                )
            })
    }
}

/// Input sent to the tab goes through [`Engine::cmd`], so it races the watchdog too.
impl Sink for Engine {
    fn send(
        &self,
        method: &'static str,
        params: Value,
    ) -> impl std::future::Future<Output = Result<Value>> + Send {
        let engine = self.clone();
        async move { engine.cmd(method, params).await }
    }
}

/// A frame of a `Page.getFrameTree` node.
fn frame_info(f: &Value) -> Option<FrameInfo> {
    Some(FrameInfo {
        id: f["id"].as_str()?.to_owned(),
        parent: f["parentId"].as_str().map(str::to_owned),
        origin: f["securityOrigin"].as_str().unwrap_or_default().to_owned(),
        url: f["url"].as_str().unwrap_or_default().to_owned(),
        loader: f["loaderId"].as_str().unwrap_or_default().to_owned(),
    })
}

/// A frame's `<iframe>` as `session` (the session of the document holding it) sees it: its
/// backend node, and its content box (x, y, width, height) in that session's viewport.
pub async fn owner_box(session: &Page, frame: &str) -> Result<(i64, [f64; 4])> {
    let owner = send(session, "DOM.getFrameOwner", json!({ "frameId": frame })).await?;
    let backend = owner["backendNodeId"]
        .as_i64()
        .ok_or_else(|| Error::core(ErrorCode::StaleReference, "the frame has no owner element"))?;
    let model = send(
        session,
        "DOM.getBoxModel",
        json!({ "backendNodeId": backend }),
    )
    .await?;
    let quad: Vec<f64> = model["model"]["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_f64)
        .collect();
    if quad.len() != 8 {
        return Err(Error::core(
            ErrorCode::TargetNotVisible,
            "the frame holding the element has no box",
        ));
    }
    let (xs, ys) = (
        [quad[0], quad[2], quad[4], quad[6]],
        [quad[1], quad[3], quad[5], quad[7]],
    );
    let least = |a: [f64; 4]| a.into_iter().fold(f64::INFINITY, f64::min);
    let most = |a: [f64; 4]| a.into_iter().fold(f64::NEG_INFINITY, f64::max);
    let (x, y) = (least(xs), least(ys));
    Ok((backend, [x, y, most(xs) - x, most(ys) - y]))
}

/// [`owner_box`] in top-viewport pixels, from the session of the document holding the frame.
pub async fn owner_box_in_top(engine: &Engine, frame: &str) -> Result<(i64, [f64; 4])> {
    let session = engine.owner_session(frame);
    let (backend, [x, y, w, h]) = owner_box(&session, frame).await?;
    let (dx, dy) = engine.session_offset(&session).await?;
    Ok((backend, [x + dx, y + dy, w, h]))
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Did a call fail because its execution context no longer exists?
pub fn is_context_gone(e: &Error) -> bool {
    let s = e.to_string();
    s.contains("Cannot find context")
        || s.contains("context was destroyed")
        || s.contains("Cannot find default execution context")
}

/// `{ ok, value }` or `{ ok: false, code, message, candidates }` → value or typed error.
pub fn engine_result(v: Value) -> Result<Value> {
    match v.get("ok") {
        Some(Value::Bool(true)) => Ok(v.get("value").cloned().unwrap_or(Value::Null)),
        Some(Value::Bool(false)) => {
            let code_str = v["code"].as_str().unwrap_or("INTERNAL");
            let code = serde_json::from_value::<ErrorCode>(Value::String(code_str.to_owned()))
                .unwrap_or(ErrorCode::Internal);
            let message = v["message"].as_str().unwrap_or("").to_owned();
            let message = if code == ErrorCode::Internal && code_str != "INTERNAL" {
                format!("{code_str}: {message}")
            } else {
                message
            };
            let candidates: Vec<Candidate> = v["candidates"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|c| serde_json::from_value(c.clone()).ok())
                        .collect()
                })
                .unwrap_or_default();
            Err(Error::Core(
                prufe::core::Error::new(code, message).with_candidates(candidates),
            ))
        }
        _ => Err(Error::core(
            ErrorCode::Internal,
            "the engine call returned no result",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_errors_keep_their_code_and_candidates() {
        let e = engine_result(
            json!({ "ok": false, "code": "TARGET_AMBIGUOUS", "message": "two",
            "candidates": [{ "ref": "e1", "role": "button", "name": "Save", "region": "main" }] }),
        )
        .unwrap_err();
        assert_eq!(e.code(), ErrorCode::TargetAmbiguous);
        assert_eq!(e.candidates().len(), 1);
        let e =
            engine_result(json!({ "ok": false, "code": "WHO_KNOWS", "message": "m" })).unwrap_err();
        assert_eq!(e.code(), ErrorCode::Internal);
        assert!(e.to_string().contains("WHO_KNOWS"));
        assert_eq!(
            engine_result(json!({ "ok": true, "value": 3 })).unwrap(),
            json!(3)
        );
        assert!(engine_result(json!(null)).is_err());
    }

    #[test]
    fn bundle_lookup_reports_where_it_looked() {
        let e = match Bundle::load(Some(Path::new("/nonexistent/prufe.js"))) {
            Err(e) => e,
            Ok(_) => panic!("a missing bundle loaded"),
        };
        assert_eq!(e.code(), ErrorCode::NotReady);
        assert!(e.to_string().contains("/nonexistent/prufe.js"), "{e}");
        assert!(e.to_string().contains("make bundle"), "{e}");
    }
}
