//! The MCP handler and the worker that owns the browser.
//!
//! The handler ([`Handler`], what rmcp serves over stdio or per HTTP session) only parses a
//! call into a [`Call`] and hands it to its worker over a channel: a malformed call is a
//! JSON-RPC error before anything runs. The worker owns the [`Verifier`], so a session's
//! calls run one at a time, in the order they came, whatever the transport. It maps each
//! call to one or more verified steps and formats the records as [`Answer`]s; every
//! verdict, undo and resolution is the verifier's.
//!
//! Over stdio there is one session, whose worker launches (or attaches to) a browser of its
//! own, as `prufe run` does. Over HTTP every MCP session gets a worker of its own
//! ([`Sessions`]), started by the session's first tool call, with its own browser context
//! in the server's one browser ([`SharedBrowser`]), its own refs, secrets learnt, trace
//! directory and records; the workers run in parallel. A session that ends (the client's
//! DELETE, or rmcp dropping it after its idle time) drops its handler, which ends its
//! worker, which disposes of its context.
//!
//! The browser (or the context) starts on the first call that needs it and again after
//! `browser_close` or after it went away (`BROWSER_CLOSED`, `PAGE_CRASHED`).

use super::answer::{self, Answer};
use super::refs::Refs;
use super::secrets::Secrets;
use super::shared::{Context, SharedBrowser};
use super::tools::{self, Call, FieldType, Invalid, MouseButton, TabAction};
use crate::coords::{Executor, Failure, Report};
use crate::error::Error;
use crate::executor::{Button, Point, Request, Until};
use crate::verify::{register_secret, Outcome, Verifier};
use crate::Options;
use prufe::core::error::ErrorCode;
use prufe::core::expect::Claim;
use prufe::core::redact::Redactor;
use prufe::core::resolve::Target;
use prufe::core::run::{Action, Step};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
    Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot, watch};

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The verifier's options (launch or `connect`, timing, attempts, trace directory, …).
    pub options: Options,
    /// Serve the coordinate tools (`--caps=vision`).
    pub vision: bool,
    pub secrets: Secrets,
    /// Every acting tool's answer carries the page snapshot.
    pub snapshot_in_answers: bool,
}

/// Longest `browser_wait_for` time, in seconds.
pub const MAX_WAIT_SECONDS: f64 = 60.0;

/// What a call answers.
#[derive(Debug, Clone, Default)]
pub struct Reply {
    pub ok: bool,
    pub text: String,
    /// One line for the log: the first line of each step's answer.
    pub summary: String,
    pub structured: Option<Value>,
    /// A PNG, base64.
    pub image: Option<String>,
}

impl Reply {
    fn into_result(self) -> CallToolResult {
        let mut content = vec![ContentBlock::text(self.text)];
        if let Some(png) = self.image {
            content.push(ContentBlock::image(png, "image/png"));
        }
        let mut result = if self.ok {
            CallToolResult::success(content)
        } else {
            CallToolResult::error(content)
        };
        result.structured_content = self.structured;
        result
    }
}

struct Job {
    tool: String,
    call: Call,
    reply: oneshot::Sender<Reply>,
}

/// The rmcp handler: parses calls, queues them for its session's worker.
#[derive(Clone)]
pub struct Handler {
    queue: Queue,
    tools: Arc<Vec<Tool>>,
    vision: bool,
}

/// Where a handler's calls go.
#[derive(Clone)]
enum Queue {
    /// The server's one worker (stdio).
    One(mpsc::Sender<Job>),
    /// The worker of this HTTP session, started by its first call.
    Session(Arc<Session>),
}

/// An HTTP session's end of its worker. When the session is gone, so is this (rmcp drops
/// the session's handler), and with it the queue's last sender: the worker ends.
struct Session {
    jobs: OnceLock<mpsc::Sender<Job>>,
    sessions: Arc<Sessions>,
}

impl Handler {
    /// A handler and the queue its worker reads (stdio: one session).
    pub fn new(vision: bool) -> (Handler, Jobs) {
        let (tx, rx) = mpsc::channel(32);
        (
            Handler {
                queue: Queue::One(tx),
                tools: Arc::new(tools::tools(vision)),
                vision,
            },
            Jobs(rx),
        )
    }

    /// The queue of this handler's worker, starting the worker of an HTTP session on its
    /// first call.
    fn jobs(&self) -> mpsc::Sender<Job> {
        match &self.queue {
            Queue::One(jobs) => jobs.clone(),
            Queue::Session(s) => s.jobs.get_or_init(|| s.sessions.start()).clone(),
        }
    }
}

/// The queue of calls, for [`work`].
pub struct Jobs(mpsc::Receiver<Job>);

/// The HTTP server's sessions: each new MCP session gets a [`Handler`] of its own
/// ([`Sessions::handler`], rmcp's service factory), whose first tool call starts the
/// session's worker in a browser context of the shared browser.
pub struct Sessions {
    config: Config,
    browser: Arc<SharedBrowser>,
    tools: Arc<Vec<Tool>>,
    /// Sessions started so far (they are numbered from 1 in the log and trace directories).
    started: AtomicU64,
    stop: watch::Receiver<bool>,
}

impl Sessions {
    /// No browser yet: the first session's first call launches it (or attaches with
    /// `connect`). Every worker ends when `stop` turns true.
    pub fn new(config: Config, stop: watch::Receiver<bool>) -> Arc<Sessions> {
        Arc::new(Sessions {
            browser: Arc::new(SharedBrowser::new(config.options.clone())),
            tools: Arc::new(tools::tools(config.vision)),
            config,
            started: AtomicU64::new(0),
            stop,
        })
    }

    /// A handler for a new session (rmcp also asks for one to read a tool's schema: a
    /// session's worker starts only with its first tool call).
    pub fn handler(self: &Arc<Self>) -> Handler {
        Handler {
            queue: Queue::Session(Arc::new(Session {
                jobs: OnceLock::new(),
                sessions: self.clone(),
            })),
            tools: self.tools.clone(),
            vision: self.config.vision,
        }
    }

    /// The browser the sessions' contexts are in.
    pub fn browser(&self) -> &Arc<SharedBrowser> {
        &self.browser
    }

    /// Starts a session's worker; returns its queue.
    fn start(&self) -> mpsc::Sender<Job> {
        let n = self.started.fetch_add(1, Ordering::Relaxed) + 1;
        let mut config = self.config.clone();
        // Each session writes its records (numbered from 1) and viewer script apart.
        if let Some(dir) = config.options.trace_dir.as_mut() {
            *dir = dir.join(format!("session-{n}"));
        }
        let (tx, rx) = mpsc::channel(32);
        let worker = Worker::new(config, Some((n, self.browser.clone())));
        say(format_args!("prufe mcp: session {n}: started"));
        tokio::spawn(run(worker, Jobs(rx), self.stop.clone()));
        tx
    }
}

const INSTRUCTIONS: &str = "Browser tools whose every action is verified: each acting tool \
answers with the verdict (MATCH, MISMATCH, AMBIGUOUS), the reason, what changed on the page, \
and whether a wrong effect was undone. Call browser_snapshot for refs (e12); a ref from an \
earlier page is refused with STALE_REFERENCE: snapshot again. Give `intent` (what the action \
is meant to do) to have the effect judged against it.";

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("prufe", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    /// Over HTTP, the revisions with sessions only (up to 2025-11-25): a session is what
    /// ties a client's calls to its browser context, refs and secrets, and a revision
    /// without them (2026-07-28, every request on its own) has nothing to tie them to. A
    /// client that asks for it is told these, and falls back to `initialize`.
    fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
        std::borrow::Cow::Borrowed(match self.queue {
            Queue::One(_) => ProtocolVersion::KNOWN_VERSIONS,
            Queue::Session(_) => {
                ProtocolVersion::known_up_to(&ProtocolVersion::LATEST_WITH_INITIALIZE)
            }
        })
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let call =
            tools::parse(&request.name, request.arguments.as_ref(), self.vision).map_err(|e| {
                match e {
                    Invalid::UnknownTool(m) | Invalid::Params(m) => {
                        McpError::invalid_params(m, None)
                    }
                }
            })?;
        let (tx, rx) = oneshot::channel();
        let job = Job {
            tool: request.name.to_string(),
            call,
            reply: tx,
        };
        let gone = || McpError::internal_error("the server is shutting down", None);
        self.jobs().send(job).await.map_err(|_| gone())?;
        let reply = rx.await.map_err(|_| gone())?;
        Ok(reply.into_result().into())
    }
}

/// Runs calls until `stop` turns true (or every handler is gone), then closes the browser.
pub async fn work(config: Config, jobs: Jobs, stop: watch::Receiver<bool>) {
    run(Worker::new(config, None), jobs, stop).await;
}

/// A worker's loop: its session's calls, one at a time, until `stop` turns true or the
/// session is gone; then its browser (or context) is closed.
async fn run(mut worker: Worker, jobs: Jobs, mut stop: watch::Receiver<bool>) {
    let Jobs(mut jobs) = jobs;
    let who = match &worker.session {
        Some((n, _)) => format!("session {n}: "),
        None => String::new(),
    };
    loop {
        let job = tokio::select! {
            job = jobs.recv() => job,
            _ = stop.wait_for(|s| *s) => None,
        };
        let Some(job) = job else { break };
        let started = Instant::now();
        let mut reply = worker.call(job.call).await;
        worker.scrub_reply(&mut reply);
        say(format_args!(
            "prufe mcp: {who}{}: {} ({} ms)",
            job.tool,
            prufe::core::text::cap(&reply.summary, 300),
            started.elapsed().as_millis()
        ));
        worker.write_viewer_script();
        let _ = job.reply.send(reply);
    }
    let had_context = worker.context.is_some();
    worker.close().await;
    if worker.session.is_some() {
        say(format_args!(
            "prufe mcp: {who}ended{}",
            if had_context {
                ", its browser context closed"
            } else {
                ""
            }
        ));
    }
}

fn say(line: std::fmt::Arguments) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The state of a session: the browser, the refs issued, the last screenshot shown.
struct Worker {
    config: Config,
    /// The secrets file's values (the verifier holds them too, and what it learns).
    redactor: Redactor,
    verifier: Option<Verifier>,
    executor: Option<Executor>,
    refs: Refs,
    /// The observation of the last screenshot returned: coordinates are chosen on it.
    shown: Option<String>,
    /// The element of the last click, for `browser_file_upload` without a ref.
    last_target: Option<Target>,
    /// The last step ended the browser (it crashed or closed): start a new one next time.
    gone: bool,
    /// The claims of the call in progress (`expect`), for its last verified step.
    expect: Vec<Claim>,
    /// An HTTP session: its number, and the browser its context is opened in.
    session: Option<(u64, Arc<SharedBrowser>)>,
    /// The session's browser context, while its tab is open.
    context: Option<Context>,
}

/// What a call did, before it is scrubbed and sent.
struct Done {
    answers: Vec<Answer>,
    /// Add the page snapshot to the answer.
    snapshot: bool,
    /// The page snapshot, when that is the answer (`browser_snapshot`).
    tree: Option<String>,
}

impl From<Answer> for Done {
    fn from(a: Answer) -> Self {
        Done::of(vec![a], false)
    }
}

impl Done {
    fn of(answers: Vec<Answer>, snapshot: bool) -> Done {
        Done {
            answers,
            snapshot,
            tree: None,
        }
    }
}

fn refused(code: ErrorCode, message: impl Into<String>) -> Answer {
    Answer::of_error(prufe::core::Error::new(code, message))
}

fn step(action: Action, intent: Option<&str>) -> Step {
    let s = Step::new(action);
    match intent {
        Some(i) => s.with_intent(i),
        None => s,
    }
}

/// The inverse an `inverseKey` declares: its keys, pressed in order on `target` (on the focus
/// without one). The machine reads the keys when the step starts and refuses one it does not
/// know.
fn inverse_key(keys: Option<&tools::Keys>, target: Option<&Target>) -> Vec<Step> {
    keys.map_or(&[][..], tools::Keys::keys)
        .iter()
        .map(|key| {
            Step::new(Action::Press {
                key: key.clone(),
                target: target.cloned(),
            })
        })
        .collect()
}

/// The claims of a tool call's `expect`, read as the machine reads them: a malformed list is
/// `INVALID_EXPECT`, answered before anything is sent.
fn claims(v: &tools::Verified) -> Result<Vec<Claim>, prufe::core::Error> {
    match &v.expect {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(value) => prufe::core::expect::from_value(value),
    }
}

/// The claims of every acting call, `None` for the others.
fn verified_of(call: &Call) -> Option<&tools::Verified> {
    match call {
        Call::Navigate(p) => Some(&p.verified),
        Call::Click(p) => Some(&p.verified),
        Call::Type(p) => Some(&p.verified),
        Call::FillForm(p) => Some(&p.verified),
        Call::SelectOption(p) => Some(&p.verified),
        Call::Hover(p) => Some(&p.verified),
        Call::Drag(p) => Some(&p.verified),
        Call::PressKey(p) => Some(&p.verified),
        Call::FileUpload(p) => Some(&p.verified),
        Call::ClickXy(p) => Some(&p.verified),
        Call::DragXy(p) => Some(&p.verified),
        Call::Watch(p) => Some(&p.verified),
        _ => None,
    }
}

impl Worker {
    fn new(config: Config, session: Option<(u64, Arc<SharedBrowser>)>) -> Worker {
        let mut redactor = Redactor::default();
        for value in config.secrets.values() {
            register_secret(&mut redactor, value);
        }
        Worker {
            config,
            redactor,
            verifier: None,
            executor: None,
            refs: Refs::default(),
            shown: None,
            last_target: None,
            gone: false,
            expect: Vec::new(),
            session,
            context: None,
        }
    }

    async fn call(&mut self, call: Call) -> Reply {
        if matches!(call, Call::Close) {
            let was_open = self.verifier.is_some();
            self.close().await;
            return self.reply(
                Answer::note([if was_open && self.session.is_some() {
                    "This session's browser context is closed; the next tool call opens a new one."
                        .to_owned()
                } else if was_open {
                    "The browser is closed; the next tool call opens a new one.".to_owned()
                } else {
                    "No browser was open.".to_owned()
                }])
                .into(),
                None,
            );
        }
        let mut v = match self.verifier.take() {
            Some(v) => v,
            None => match self.launch().await {
                Ok(v) => v,
                Err(e) => {
                    let a = Answer::of_step(&Err(e), &self.refs);
                    return self.reply(a.into(), None);
                }
            },
        };
        self.gone = false;
        let (mut done, image) = self.dispatch(&mut v, call).await;
        if done.snapshot && !self.gone {
            done.tree = Some(match self.snapshot_text(&mut v).await {
                Ok(t) => t,
                Err(e) => format!("(no snapshot: {e})\n"),
            });
        }
        let reply = self.reply(done, image);
        if self.gone {
            self.executor = None;
            self.end(v, Duration::from_secs(5)).await;
        } else {
            self.verifier = Some(v);
        }
        reply
    }

    async fn launch(&mut self) -> Result<Verifier, Error> {
        let options = self.config.options.clone();
        let mut v = match &self.session {
            None => Verifier::launch(options).await?,
            Some((_, browser)) => {
                let (v, context) = browser.open(options).await?;
                self.context = Some(context);
                v
            }
        };
        for value in self.config.secrets.values() {
            v.add_secret(value);
        }
        self.executor = Some(Executor::new(&v));
        self.shown = None;
        self.last_target = None;
        Ok(v)
    }

    async fn close(&mut self) {
        self.executor = None;
        self.shown = None;
        if let Some(v) = self.verifier.take() {
            self.end(v, Duration::from_secs(10)).await;
        }
    }

    /// Closes `v`'s browser, or its tab and the session's context.
    async fn end(&mut self, v: Verifier, timeout: Duration) {
        let _ = tokio::time::timeout(timeout, v.close()).await;
        if let Some(context) = self.context.take() {
            context.close().await;
        }
    }

    fn write_viewer_script(&self) {
        if let Some(dir) = &self.config.options.trace_dir {
            if dir.is_dir() {
                let _ = crate::trace::write_viewer_script(dir);
            }
        }
    }

    fn reply(&self, done: Done, image: Option<String>) -> Reply {
        let ok = done.answers.iter().all(|a| a.ok);
        let mut text = done
            .answers
            .iter()
            .map(Answer::text)
            .collect::<Vec<_>>()
            .join("\n");
        if let Some(tree) = done.tree {
            if !text.is_empty() {
                text.push_str("\nPage snapshot:\n");
            }
            text.push_str(&tree);
        }
        // The page snapshot is text only: as JSON it would double the answer.
        let structured = match done.answers.as_slice() {
            [] => None,
            [one] => serde_json::to_value(one).ok(),
            many => Some(json!({ "ok": ok, "steps": many })),
        };
        let summary = match done.answers.as_slice() {
            [] => text.lines().next().unwrap_or_default().to_owned(),
            answers => answers
                .iter()
                .map(|a| a.text().lines().next().unwrap_or_default().to_owned())
                .collect::<Vec<_>>()
                .join(" | "),
        };
        Reply {
            ok,
            text,
            summary,
            structured,
            image,
        }
    }

    /// Scrubs every secret known (the file's, and what the verifier learnt) from a reply.
    fn scrub_reply(&self, reply: &mut Reply) {
        let redactors = [
            Some(&self.redactor),
            self.verifier.as_ref().map(|v| v.redactor()),
        ];
        for r in redactors.into_iter().flatten() {
            for text in [&mut reply.text, &mut reply.summary] {
                if let std::borrow::Cow::Owned(clean) = r.scrub(text) {
                    *text = clean;
                }
            }
            if let Some(s) = reply.structured.as_mut() {
                r.scrub_value(s);
            }
        }
    }

    /// Runs one verified step; a step on a ref whose identity is gone says so.
    async fn perform(&mut self, v: &mut Verifier, reference: Option<&str>, step: Step) -> Answer {
        let step = match std::mem::take(&mut self.expect) {
            claims if claims.is_empty() => step,
            claims => step.with_expect(claims),
        };
        let result = v.perform(&step).await;
        self.answer(result, reference)
    }

    fn answer(&mut self, result: Result<Outcome, Error>, reference: Option<&str>) -> Answer {
        let result = match (result, reference) {
            (Err(Error::Core(e)), Some(r)) if e.code == ErrorCode::TargetNotFound => {
                let what = self
                    .refs
                    .describe(r)
                    .unwrap_or_else(|| "an element".to_owned());
                Err(Error::Core(prufe::core::Error::new(
                    ErrorCode::StaleReference,
                    format!(
                        "{r} stood for {what}, which the page no longer shows (it was removed, or \
                         it shows something else now); call browser_snapshot again"
                    ),
                )))
            }
            (r, _) => r,
        };
        if let Err(e) = &result {
            if e.is_fatal() && e.code() != ErrorCode::Interrupted {
                self.gone = true;
            }
        }
        Answer::of_step(&result, &self.refs)
    }

    /// The target a ref stands for on the page the tab shows now.
    async fn target(
        &self,
        v: &Verifier,
        reference: Option<&str>,
        what: &str,
    ) -> Result<(String, Target), Answer> {
        let Some(r) = reference.map(str::trim).filter(|r| !r.is_empty()) else {
            return Err(refused(
                ErrorCode::InvalidTarget,
                format!("give {what}'s ref (`target`, or the older `ref`) from browser_snapshot"),
            ));
        };
        let document = v
            .main_frame()
            .await
            .map_err(|e| Answer::of_step(&Err(e), &self.refs))?
            .loader;
        let target = self.refs.target(r, &document).map_err(Answer::of_error)?;
        Ok((r.to_owned(), target))
    }

    async fn dispatch(&mut self, v: &mut Verifier, call: Call) -> (Done, Option<String>) {
        // The claims go with the call's last verified step (a typed text's Enter, a form's
        // last field): that is the step whose effect they describe.
        self.expect = match verified_of(&call).map(claims).transpose() {
            Ok(c) => c.unwrap_or_default(),
            Err(e) => return (Answer::of_error(e).into(), None),
        };
        let done = match call {
            Call::Navigate(p) => {
                let a = self
                    .perform(
                        v,
                        None,
                        step(Action::Goto { url: p.url }, p.verified.intent.as_deref()),
                    )
                    .await;
                self.with_snapshot(a, p.verified.snapshot)
            }
            Call::NavigateBack(p) => {
                let a = self.back(v).await;
                self.with_snapshot(a, p.snapshot)
            }
            Call::Snapshot => match self.snapshot_text(v).await {
                Ok(tree) => Done {
                    answers: Vec::new(),
                    snapshot: false,
                    tree: Some(tree),
                },
                Err(e) => self.answer(Err(e), None).into(),
            },
            Call::Click(p) => {
                let intent = p.verified.intent.as_deref();
                if p.double_click == Some(true)
                    || p.button.is_some_and(|b| b != MouseButton::Left)
                    || p.modifiers.as_ref().is_some_and(|m| !m.is_empty())
                {
                    refused(
                        ErrorCode::InvalidAction,
                        "prufe verifies single left clicks without modifier keys; a double, \
                         right or modified click is not sent",
                    )
                    .into()
                } else {
                    match self.target(v, p.element.reference(), "the element").await {
                        Err(a) => a.into(),
                        Ok((r, target)) => {
                            self.last_target = Some(target.clone());
                            let a = self
                                .perform(v, Some(&r), step(Action::Click { target }, intent))
                                .await;
                            self.with_snapshot(a, p.verified.snapshot)
                        }
                    }
                }
            }
            Call::Type(p) => self.type_text(v, p).await,
            Call::FillForm(p) => self.fill_form(v, p).await,
            Call::SelectOption(p) => {
                let intent = p.verified.intent.as_deref();
                match (
                    p.values.as_slice(),
                    self.target(v, p.element.reference(), "the dropdown").await,
                ) {
                    (_, Err(a)) => a.into(),
                    ([option], Ok((r, target))) => {
                        let action = Action::Select {
                            target,
                            option: option.clone(),
                        };
                        let a = self.perform(v, Some(&r), step(action, intent)).await;
                        self.with_snapshot(a, p.verified.snapshot)
                    }
                    (_, Ok(_)) => refused(
                        ErrorCode::InvalidAction,
                        "give exactly one value: prufe verifies one choice at a time",
                    )
                    .into(),
                }
            }
            Call::Hover(p) => match self.target(v, p.element.reference(), "the element").await {
                Err(a) => a.into(),
                Ok((r, target)) => {
                    let a = self
                        .perform(
                            v,
                            Some(&r),
                            step(Action::Hover { target }, p.verified.intent.as_deref()),
                        )
                        .await;
                    self.with_snapshot(a, p.verified.snapshot)
                }
            },
            Call::Drag(p) => {
                let from = self
                    .target(
                        v,
                        p.start_target.as_deref().or(p.start_ref.as_deref()),
                        "the source element",
                    )
                    .await;
                let to = self
                    .target(
                        v,
                        p.end_target.as_deref().or(p.end_ref.as_deref()),
                        "the drop target",
                    )
                    .await;
                match (from, to) {
                    (Err(a), _) | (_, Err(a)) => a.into(),
                    (Ok((r, target)), Ok((_, to))) => {
                        let inverse = inverse_key(p.inverse_key.as_ref(), Some(&target));
                        let drag = step(Action::Drag { target, to }, p.verified.intent.as_deref())
                            .with_inverse(inverse);
                        let a = self.perform(v, Some(&r), drag).await;
                        self.with_snapshot(a, p.verified.snapshot)
                    }
                }
            }
            Call::PressKey(p) => {
                let a = self.press_key(v, &p).await;
                self.with_snapshot(a, p.verified.snapshot)
            }
            Call::FileUpload(p) => self.upload(v, p).await,
            Call::Watch(p) => {
                let a = self.watch(v, &p).await;
                self.with_snapshot(a, p.verified.snapshot)
            }
            Call::WaitFor(p) => self.wait_for(v, p).await.into(),
            Call::HandleDialog(p) => {
                v.answer_next_dialog(p.accept, p.prompt_text.as_deref());
                Answer::note([format!(
                    "The next JavaScript dialog will be {}; every later one is declined.",
                    if p.accept { "accepted" } else { "declined" }
                )])
                .into()
            }
            Call::Screenshot(p) => {
                let mut notes = Vec::new();
                if p.kind == Some(tools::ImageType::Jpeg) {
                    notes.push("The image is a PNG (prufe captures PNG).".to_owned());
                }
                if p.full_page == Some(true) || p.element.reference().is_some() {
                    notes.push("The image shows the viewport.".to_owned());
                }
                if p.filename.is_some() {
                    notes.push("The image is in this answer; no file was written.".to_owned());
                }
                return self.screenshot(v, notes).await;
            }
            Call::Tabs(p) => match p.action {
                TabAction::List => match v.main_frame().await {
                    Ok(main) => Answer::note([format!("- 0: (current) {}", main.url)]).into(),
                    Err(e) => self.answer(Err(e), None).into(),
                },
                _ => refused(
                    ErrorCode::InvalidAction,
                    "prufe verifies actions in one tab: browser_tabs can list it, not open, \
                     close or select others",
                )
                .into(),
            },
            Call::Close => Answer::note(["closed".to_owned()]).into(),
            Call::ClickXy(_) | Call::DragXy(_) if !self.expect.is_empty() => refused(
                ErrorCode::InvalidExpect,
                "the coordinate tools take no expect: their target is a point, not an element; \
                 claim the effect of browser_click or browser_drag on a ref instead",
            )
            .into(),
            Call::ClickXy(p) => {
                let at = Point { x: p.x, y: p.y };
                let intent = p.verified.intent.clone();
                let a = self
                    .on_shown(v, |shown| {
                        Request::click_at(at, shown, Button::Left, intent)
                    })
                    .await;
                self.with_snapshot(a, p.verified.snapshot)
            }
            Call::DragXy(p) => {
                let from = Point {
                    x: p.start_x,
                    y: p.start_y,
                };
                let to = Point {
                    x: p.end_x,
                    y: p.end_y,
                };
                let intent = p.verified.intent.clone();
                let a = self
                    .on_shown(v, |shown| Request::drag_at(from, to, shown, None, intent))
                    .await;
                self.with_snapshot(a, p.verified.snapshot)
            }
            Call::WheelXy(p) => {
                let at = Point { x: p.x, y: p.y };
                let (dx, dy) = (p.delta_x, p.delta_y);
                let a = self
                    .on_shown(v, |shown| Request::scroll_at(at, dx, dy, shown))
                    .await;
                self.with_snapshot(a, p.snapshot)
            }
            Call::KeyboardPress(p) => {
                let a = self.coordinate(v, Request::key(p.key.clone())).await;
                self.with_snapshot(a, p.snapshot)
            }
        };
        (done, None)
    }

    fn with_snapshot(&self, a: Answer, asked: Option<bool>) -> Done {
        Done::of(vec![a], asked.unwrap_or(self.config.snapshot_in_answers))
    }

    /// `Page: URL` and the tree, with refs issued for this document.
    async fn snapshot_text(&mut self, v: &mut Verifier) -> Result<String, Error> {
        let mut tries = 0;
        loop {
            let before = v.main_frame().await?.loader;
            let snapshot = v.snapshot().await?;
            let main = v.main_frame().await?;
            tries += 1;
            // A navigation between the two reads: the snapshot may be of either document.
            if main.loader != before && tries < 3 {
                continue;
            }
            let assigned = self.refs.assign(&main.loader, &snapshot);
            return Ok(format!(
                "Page: {}\n{}",
                main.url,
                answer::snapshot_tree(&snapshot, &assigned)
            ));
        }
    }

    async fn back(&mut self, v: &mut Verifier) -> Answer {
        let record = match v.back_verified().await {
            Ok(r) => r,
            Err(e) => return self.answer(Err(e), None),
        };
        if record.verdict.is_none() {
            if let Some(e) = record.error {
                return Answer::of_error(e);
            }
        }
        Answer {
            ok: record.ok,
            verdict: record.verdict,
            action: format!("back to {}", record.value.unwrap_or_default()),
            reason: record.reason,
            changes: record.lines,
            attempts: record.attempts,
            error: record.error,
            ..Answer::default()
        }
    }

    async fn type_text(&mut self, v: &mut Verifier, p: tools::Type) -> Done {
        let intent = p.verified.intent.as_deref();
        let expanded = match self.config.secrets.expand(&p.text) {
            Ok(e) => e,
            Err(m) => return refused(ErrorCode::InvalidAction, m).into(),
        };
        if p.element.reference().is_none() && self.config.vision {
            // Into the field the last coordinate click focused, read back after.
            let step = Request::type_text(expanded.text, expanded.sensitive);
            let mut answers = vec![self.coordinate(v, step).await];
            if answers[0].ok && p.submit == Some(true) {
                let step = Request::key("Enter".to_owned());
                answers.push(self.coordinate(v, step).await);
            }
            return Done::of(
                answers,
                p.verified
                    .snapshot
                    .unwrap_or(self.config.snapshot_in_answers),
            );
        }
        let (r, target) = match self.target(v, p.element.reference(), "the field").await {
            Ok(t) => t,
            Err(a) => return a.into(),
        };
        let fill = Action::Fill {
            target: target.clone(),
            value: expanded.text,
            sensitive: expanded.sensitive,
        };
        // The claims describe what the whole call does: the Enter's effect when it submits.
        let claims = std::mem::take(&mut self.expect);
        if p.submit != Some(true) {
            self.expect = claims.clone();
        }
        let mut answers = vec![self.perform(v, Some(&r), step(fill, intent)).await];
        if answers[0].ok && p.submit == Some(true) {
            self.expect = claims;
            let press = Action::Press {
                key: "Enter".to_owned(),
                target: Some(target),
            };
            answers.push(self.perform(v, Some(&r), step(press, None)).await);
        }
        Done::of(
            answers,
            p.verified
                .snapshot
                .unwrap_or(self.config.snapshot_in_answers),
        )
    }

    async fn fill_form(&mut self, v: &mut Verifier, p: tools::FillForm) -> Done {
        let intent = p.verified.intent.as_deref();
        let mut answers = Vec::new();
        let claims = std::mem::take(&mut self.expect);
        let last = p.fields.len().saturating_sub(1);
        for (i, field) in p.fields.into_iter().enumerate() {
            if i == last {
                self.expect = claims.clone();
            }
            let reference = field.target.as_deref().or(field.reference.as_deref());
            let what = format!(
                "the field {:?}",
                prufe::core::text::cap(field.name.as_deref().unwrap_or(""), 40)
            );
            let (r, target) = match self.target(v, reference, &what).await {
                Ok(t) => t,
                Err(a) => {
                    answers.push(a);
                    break;
                }
            };
            let action = match field.kind {
                FieldType::Textbox => match self.config.secrets.expand(&field.value) {
                    Ok(e) => Ok(Action::Fill {
                        target,
                        value: e.text,
                        sensitive: e.sensitive,
                    }),
                    Err(m) => Err(m),
                },
                FieldType::Checkbox => match field.value.trim() {
                    "true" => Ok(Action::Check { target }),
                    "false" => Ok(Action::Uncheck { target }),
                    _ => Err("a checkbox's value is \"true\" or \"false\"".to_owned()),
                },
                FieldType::Radio => Ok(Action::Check { target }),
                FieldType::Combobox => Ok(Action::Select {
                    target,
                    option: field.value.clone(),
                }),
                FieldType::Slider => {
                    Err("prufe does not set sliders: use browser_press_key on the slider".into())
                }
            };
            let a = match action {
                Ok(action) => self.perform(v, Some(&r), step(action, intent)).await,
                Err(m) => refused(ErrorCode::InvalidAction, m),
            };
            let ok = a.ok;
            answers.push(a);
            if !ok {
                break;
            }
        }
        if answers.is_empty() {
            answers.push(refused(ErrorCode::InvalidAction, "no fields to fill"));
        }
        Done::of(
            answers,
            p.verified
                .snapshot
                .unwrap_or(self.config.snapshot_in_answers),
        )
    }

    /// `browser_watch`: the steps read as a script's watch step reads them (an error names the
    /// step, `INVALID_SCRIPT`, and nothing is sent), then performed as `prufe run` performs it.
    async fn watch(&mut self, v: &mut Verifier, p: &tools::Watch) -> Answer {
        let mut watch = json!({ "action": "watch", "steps": p.steps });
        if let Some(intent) = &p.verified.intent {
            watch["intent"] = Value::from(intent.as_str());
        }
        let here = std::env::current_dir().unwrap_or_default();
        match crate::script::parse_steps(&Value::Array(vec![watch]), &here) {
            Ok(mut steps) if steps.len() == 1 => {
                let step = steps.remove(0);
                self.perform(v, None, step).await
            }
            Ok(_) => refused(ErrorCode::Internal, "a watch read as more than one step"),
            Err(e) => {
                self.expect.clear();
                Answer::of_error(prufe::core::Error::new(
                    ErrorCode::InvalidScript,
                    format!("browser_watch: {e}"),
                ))
            }
        }
    }

    async fn upload(&mut self, v: &mut Verifier, p: tools::FileUpload) -> Done {
        let files: Vec<PathBuf> = p
            .paths
            .unwrap_or_default()
            .into_iter()
            .map(PathBuf::from)
            .collect();
        if files.is_empty() {
            return Answer::note(["No files given: nothing was uploaded.".to_owned()]).into();
        }
        if let Some(missing) = files.iter().find(|f| !f.is_file()) {
            return refused(
                ErrorCode::InvalidAction,
                format!("{} does not exist or is not a file", missing.display()),
            )
            .into();
        }
        let (r, target) = match p.element.reference() {
            Some(_) => match self
                .target(v, p.element.reference(), "the file input")
                .await
            {
                Ok((r, t)) => (Some(r), t),
                Err(a) => return a.into(),
            },
            None => match self.last_target.clone() {
                Some(t) => (None, t),
                None => {
                    return refused(
                        ErrorCode::InvalidTarget,
                        "give the file input's ref (`target` or `ref`), or click it first",
                    )
                    .into()
                }
            },
        };
        // Clearing the input is the inverse of setting its files.
        let inverse = vec![Step::new(Action::Upload {
            target: target.clone(),
            files: Vec::new(),
        })];
        let files = files.iter().map(|f| f.display().to_string()).collect();
        let s = step(
            Action::Upload { target, files },
            p.verified.intent.as_deref(),
        )
        .with_inverse(inverse);
        let a = self.perform(v, r.as_deref(), s).await;
        self.with_snapshot(a, p.verified.snapshot)
    }

    /// `browser_wait_for`: time alone sleeps; a text, a text gone or an element is the
    /// coordinate executor's `wait` (the machine's wait, as a `prufe run` script's), `time`
    /// its deadline; the answer is words only, so no screenshot is taken at its end.
    async fn wait_for(&mut self, v: &mut Verifier, p: tools::WaitFor) -> Answer {
        let conditions = [&p.text, &p.text_gone, &p.role, &p.name];
        if let Some(seconds) = p.time {
            if !(0.0..=MAX_WAIT_SECONDS).contains(&seconds) {
                return refused(
                    ErrorCode::InvalidAction,
                    format!("time is 0 to {MAX_WAIT_SECONDS} seconds"),
                );
            }
            if conditions.iter().all(|c| c.is_none()) {
                tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
                return Answer::note([format!("Waited {seconds} s.")]);
            }
        }
        let until = match conditions {
            [Some(text), None, None, None] => Until {
                text: Some(text.clone()),
                ..Until::default()
            },
            [None, Some(text), None, None] => Until {
                text_gone: Some(text.clone()),
                ..Until::default()
            },
            [None, None, Some(role), Some(name)] => Until {
                role: Some(role.clone()),
                name: Some(name.clone()),
                ..Until::default()
            },
            _ => {
                return refused(
                    ErrorCode::InvalidAction,
                    "give one of text, textGone, role with name (or time alone)",
                )
            }
        };
        let until = Until {
            region: p.region.clone(),
            ..until
        };
        let most = (MAX_WAIT_SECONDS * 1000.0) as u64;
        let timeout_ms = match p.time {
            Some(s) => ((s * 1000.0).round() as u64).max(1),
            None => self.config.options.timing.timeout_ms.clamp(5_000, most),
        };
        let Some(executor) = self.executor.as_mut() else {
            return refused(ErrorCode::Internal, "no executor");
        };
        let started = Instant::now();
        let request = match Request::wait(Some(until), Some(timeout_ms)) {
            Ok(request) => request,
            Err(e) => return self.failure(Failure::from(e).scrub(v.redactor())),
        };
        match executor.run_without_picture(v, &request).await {
            Ok(report) => Answer::note([format!(
                "Held after {:.1} s: {}.",
                started.elapsed().as_secs_f64(),
                report.condition.unwrap_or_default()
            )]),
            Err(f) => self.failure(f),
        }
    }

    /// `browser_press_key`: the verified press, on the element of the ref given (as a
    /// script's `press` with a target), else on whatever has the focus.
    async fn press_key(&mut self, v: &mut Verifier, p: &tools::PressKey) -> Answer {
        // The machine reads the key and refuses one it does not know.
        let key = p.key.clone();
        let intent = p.verified.intent.as_deref();
        let inverse = p.inverse_key.as_ref();
        if p.element.reference().is_none() {
            let press = step(Action::Press { key, target: None }, intent);
            let press = press.with_inverse(inverse_key(inverse, None));
            return self.perform(v, None, press).await;
        }
        match self.target(v, p.element.reference(), "the element").await {
            Err(a) => a,
            Ok((r, target)) => {
                let inverse = inverse_key(inverse, Some(&target));
                let press = Action::Press {
                    key,
                    target: Some(target),
                };
                let press = step(press, intent).with_inverse(inverse);
                self.perform(v, Some(&r), press).await
            }
        }
    }

    async fn screenshot(&mut self, v: &mut Verifier, notes: Vec<String>) -> (Done, Option<String>) {
        let Some(executor) = self.executor.as_mut() else {
            return (refused(ErrorCode::Internal, "no executor").into(), None);
        };
        match executor
            .run(v, &Request::Screenshot { max_width: None })
            .await
        {
            Ok(Report {
                observation: Some(shot),
                ..
            }) => {
                self.shown = Some(shot.id.clone());
                let mut lines = vec![format!(
                    "Screenshot {} of the viewport, {}×{} px.",
                    shot.id, shot.width, shot.height
                )];
                if self.config.vision {
                    lines.push(
                        "Coordinates of browser_mouse_*_xy are pixels of this image.".to_owned(),
                    );
                }
                lines.extend(notes);
                (Answer::note(lines).into(), Some(shot.png_base64))
            }
            Ok(_) => (
                refused(ErrorCode::BrowserError, "the page could not be captured").into(),
                None,
            ),
            Err(f) => (self.failure(f).into(), None),
        }
    }

    /// A step of the coordinate executor on the last screenshot returned: `request` is
    /// given its id.
    async fn on_shown(
        &mut self,
        v: &mut Verifier,
        request: impl FnOnce(String) -> Result<Request, prufe::core::Error>,
    ) -> Answer {
        let Some(shown) = self.shown.clone() else {
            return refused(
                ErrorCode::StaleObservation,
                "take a screenshot (browser_take_screenshot) first: points are pixels of it",
            );
        };
        self.coordinate(v, request(shown)).await
    }

    /// A step of the coordinate executor; a request its constructor refused is answered
    /// as the executor answers a failure.
    async fn coordinate(
        &mut self,
        v: &mut Verifier,
        request: Result<Request, prufe::core::Error>,
    ) -> Answer {
        let request = match request {
            Ok(request) => request,
            Err(e) => return self.failure(Failure::from(e).scrub(v.redactor())),
        };
        let Some(executor) = self.executor.as_mut() else {
            return refused(ErrorCode::Internal, "no executor");
        };
        let result = executor.run(v, &request).await;
        match result {
            Ok(report) => match report.outcome {
                Some(o) => self.answer(Ok(o), None),
                None => Answer::note([format!("{} sent.", report.action)]),
            },
            Err(f) => self.failure(f),
        }
    }

    fn failure(&mut self, f: Failure) -> Answer {
        let released = f.released;
        let mut a = self.answer(Err(f.error), None);
        if released == Some(false) {
            a.notes
                .push("Input release FAILED: a key or button may still be held.".to_owned());
        }
        if let Some(e) = a.error.as_mut() {
            if e.code == ErrorCode::StaleObservation {
                e.message.push_str(" (with browser_take_screenshot)");
            }
        }
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config {
            options: Options::default(),
            vision: false,
            secrets: Secrets::default(),
            snapshot_in_answers: false,
        }
    }

    #[test]
    fn http_sessions_speak_the_revisions_with_sessions_only() {
        let (_stop, stopped) = watch::channel(false);
        let sessions = Sessions::new(config(), stopped);
        let http = sessions.handler().supported_protocol_versions();
        assert!(http.iter().all(ProtocolVersion::has_initialize), "{http:?}");
        assert!(http.contains(&ProtocolVersion::LATEST_WITH_INITIALIZE));
        let (stdio, _jobs) = Handler::new(false);
        assert!(stdio
            .supported_protocol_versions()
            .contains(&ProtocolVersion::V_2026_07_28));
    }

    #[test]
    fn a_session_handler_starts_no_worker_until_its_first_call() {
        let (_stop, stopped) = watch::channel(false);
        let sessions = Sessions::new(config(), stopped);
        // rmcp asks the factory for a handler on every request (to read a tool's schema).
        let handlers: Vec<Handler> = (0..5).map(|_| sessions.handler()).collect();
        assert!(handlers
            .iter()
            .all(|h| h.get_tool("browser_click").is_some()));
        assert_eq!(sessions.started.load(Ordering::Relaxed), 0);
        let Queue::Session(s) = &handlers[0].queue else {
            panic!("an HTTP handler has a session queue");
        };
        assert!(s.jobs.get().is_none());
    }
}
