//! [`Verifier`], the library face of the harness: one tab, and every action in it verified.
//!
//! The loop of a step (settle → observe → resolve → re-check identity → actionability → act →
//! settle → observe → judge → MATCH | undo, verify the undo and retry | stop) is the core
//! verification machine's (`prufe::core::run::Run`): it decides, and the harness answers
//! its needs over CDP (see `drive`). What the harness adds around a step: the secrets it
//! registers with a [`Redactor`] (every string that leaves the verifier is scrubbed of
//! them), the dialogs it dismissed, the time it took, the trace record, and the errors of a
//! tab that is gone (`watchdog`).
//!
//! A failed step is an error carrying its record: `VERIFICATION_FAILED` (undone),
//! `UNDO_FAILED` (with what is still there) and `IRREVERSIBLE_ACTION` (whose `source()` is
//! the `VERIFICATION_FAILED` it could not undo); errors before input (`TARGET_AMBIGUOUS`,
//! `TARGET_OBSCURED`, …) carry none: nothing was dispatched, so nothing was judged.

use crate::act::{self};
use crate::arbiter::ArbiterConfig;
use crate::cdp::Browser;
use crate::cdp::Page;
pub use crate::clock::now_rfc3339;
use crate::drive::{wait_for_document, wait_for_new_document, Drive, Driven, Tab};
use crate::error::{Error, Result};
use crate::inject::{Bundle, Engine, Filters};
use crate::observe::Sensitive;
use crate::stabilise::{stabilise, Seen, Timing};
use crate::trace::TraceWriter;
use prufe::core::error::ErrorCode;
use prufe::core::model::Snapshot;
use prufe::core::redact::Redactor;
use prufe::core::resolve::Target;
use prufe::core::run::{Action, Ambiguous, Run, Step};
use serde_json::json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The deterministic verdict.
pub use prufe::core::judge::VerdictKind as Verdict;

/// How the verifier runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// Chromium to launch (else `PRUFE_CHROMIUM`, else `/usr/bin/chromium`).
    pub chromium: Option<PathBuf>,
    /// Attach to this DevTools endpoint instead of launching.
    pub connect: Option<String>,
    pub headless: bool,
    /// The engine bundle (else `PRUFE_BUNDLE`, else `js/dist/prufe.js`).
    pub bundle: Option<PathBuf>,
    pub timing: Timing,
    /// Attempts per action, the first included.
    pub max_attempts: u32,
    /// What AMBIGUOUS means when no arbiter answers it (`Arbiter` without one: `Reject`).
    pub ambiguous: Ambiguous,
    pub arbiter: Option<ArbiterConfig>,
    pub trace_dir: Option<PathBuf>,
    /// Which traced steps keep a before and an after picture (with `trace_dir`).
    pub screenshots: crate::pictures::Screenshots,
    /// Judge only these regions (prefixes), e.g. `["main"]`.
    pub regions: Vec<String>,
    /// Leave these regions out of the judgement, e.g. a ticker.
    pub ignore_regions: Vec<String>,
    /// A pause after each input, to watch a headed run.
    pub slow_mo: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            chromium: None,
            connect: None,
            headless: true,
            bundle: None,
            timing: Timing::default(),
            max_attempts: 2,
            ambiguous: Ambiguous::Reject,
            arbiter: None,
            trace_dir: None,
            screenshots: crate::pictures::Screenshots::default(),
            regions: Vec::new(),
            ignore_regions: Vec::new(),
            slow_mo: Duration::ZERO,
        }
    }
}

/// The record of one verified action (or watch): the one record type of a step.
pub use prufe::core::run::Record as Outcome;

/// Drives one tab and verifies every action taken in it.
pub struct Verifier {
    browser: Option<Browser>,
    engine: Engine,
    opts: Options,
    sensitive: Sensitive,
    redactor: Redactor,
    trace: Option<TraceWriter>,
    step_no: usize,
    /// The last observation taken while nothing else acted, for learning the background.
    seen: Option<Seen>,
    /// The record of the last look (`open`, `snapshot`): whether the page settled, and
    /// where it was seen changing by itself.
    last_look: Option<Outcome>,
    /// Needs answered during the last verified step.
    round_trips: u32,
    quick_settles: u32,
    unmoved_settles: u32,
    /// The pictures of the step in progress, for its trace record.
    pictures: Option<crate::pictures::Pictures>,
}

impl Verifier {
    /// Launches Chromium (or attaches with `opts.connect`), opens a tab and installs the
    /// engine in it.
    pub async fn launch(opts: Options) -> Result<Verifier> {
        let bundle = Bundle::load(opts.bundle.as_deref())?;
        let browser = match &opts.connect {
            Some(url) => Browser::connect(url).await?,
            None => Browser::launch(opts.chromium.as_deref(), opts.headless).await?,
        };
        let page = match browser.new_page().await {
            Ok(p) => p,
            Err(e) => {
                let _ = browser.close().await;
                return Err(e);
            }
        };
        let attached = match Self::attach_with(page, bundle, opts).await {
            Ok(v) => v
                .engine
                .watchdog()
                .watch_browser(browser.connection())
                .await
                .map(|()| v),
            Err(e) => Err(e),
        };
        match attached {
            Ok(mut v) => {
                v.browser = Some(browser);
                Ok(v)
            }
            Err(e) => {
                let _ = browser.close().await;
                Err(e)
            }
        }
    }

    /// Verifies actions in a tab the caller already drives (a [`Page`] of its own
    /// [`crate::cdp::Connection`]).
    pub async fn attach(page: Page, opts: Options) -> Result<Verifier> {
        let bundle = Bundle::load(opts.bundle.as_deref())?;
        Self::attach_with(page, bundle, opts).await
    }

    async fn attach_with(page: Page, bundle: Bundle, opts: Options) -> Result<Verifier> {
        let call_timeout = Duration::from_millis(opts.timing.timeout_ms.max(10_000));
        // The walk budget below is also the least a command may take before the page is
        // probed for a hang: an observation of a big page keeps the main thread that long.
        let budget = Duration::from_millis(opts.timing.timeout_ms.max(2_000));
        let engine = Engine::install(page, bundle, call_timeout)
            .await?
            .with_unresponsive_after(budget)
            .with_filters(Filters {
                regions: opts.regions.clone(),
                ignore_regions: opts.ignore_regions.clone(),
                // A walk cut short by its time budget cannot prove a target unique, and cuts at
                // different points before and after an action; the harness can afford to wait
                // up to its own timeout for a whole observation.
                budget_ms: Some(budget.as_millis() as u64),
            });
        let trace = opts.trace_dir.clone().map(TraceWriter::new);
        Ok(Verifier {
            browser: None,
            engine,
            opts,
            sensitive: Sensitive::default(),
            redactor: Redactor::default(),
            trace,
            step_no: 0,
            seen: None,
            last_look: None,
            round_trips: 0,
            quick_settles: 0,
            unmoved_settles: 0,
            pictures: None,
        })
    }

    /// Feeds the tab's watchdog from `browser`, the browser-level connection the tab was
    /// opened through (for a tab of [`Verifier::attach`]): its target crashing or going away,
    /// and the connection closing, then end a step at once with the reason.
    pub async fn watch_browser(&self, browser: &crate::cdp::Connection) -> Result<()> {
        self.engine.watchdog().watch_browser(browser).await
    }

    /// The tab, for anything the verifier does not do itself.
    pub fn page(&self) -> &Page {
        self.engine.page()
    }

    /// The process id of the Chromium launched for this verifier (`None` when attached).
    pub fn browser_pid(&self) -> Option<u32> {
        self.browser.as_ref().and_then(Browser::pid)
    }

    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// The redactor holding every secret registered so far (scrub your own output with it).
    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }

    /// Registers a secret of the caller's: it is scrubbed from every output from now on.
    pub fn add_secret(&mut self, secret: &str) {
        register_secret(&mut self.redactor, secret);
    }

    /// Closes the tab's browser if it was launched here; an attached browser keeps running
    /// (only the tab opened for the verifier is closed).
    pub async fn close(mut self) -> Result<()> {
        match self.browser.take() {
            Some(browser) if browser.is_launched() => browser.close().await,
            Some(browser) => {
                let _ = tokio::time::timeout(
                    Duration::from_secs(3),
                    self.engine.page().clone().close(),
                )
                .await;
                browser.close().await
            }
            None => Ok(()),
        }
    }

    /// Opens `url` without verifying it (the starting page of a run), waits for the document,
    /// then looks at it as a step would before acting ([`Verifier::look`]).
    pub async fn open(&mut self, url: &str) -> Result<()> {
        self.seen = None;
        let loader = act::navigate(&self.engine, url).await?;
        wait_for_document(&self.engine, self.opts.timing, loader.as_deref()).await?;
        self.look().await.map(drop)
    }

    /// The machine's look (`Run::look`): settles, learning what the page changes by itself
    /// (a clock, a ticker, a carousel) so that it does not hold the wait to the deadline, and
    /// keeps the observation for the next step, with what was learnt. Returns that
    /// observation, unscrubbed.
    async fn look(&mut self) -> Result<Snapshot> {
        let seen = self.seen.take();
        let mut run = prufe::core::run::Run::look(self.policy()).with_seen(seen);
        let mut drive = Drive::default();
        let record = self.drive(&mut run, &mut drive).await?;
        if let Some(e) = record.error {
            return Err(Error::Core(e).scrub(&self.redactor));
        }
        self.last_look = Some(record);
        self.seen = run.seen().cloned();
        self.seen
            .as_ref()
            .map(|s| s.snapshot.clone())
            .ok_or_else(|| Error::core(ErrorCode::Internal, "a look ended without an observation"))
    }

    /// The tab's main frame now: its address, and its loader, which changes with every new
    /// document the tab shows (as a snapshot's epoch does; a same-document navigation keeps
    /// both).
    pub async fn main_frame(&self) -> Result<crate::inject::FrameInfo> {
        self.engine.main_frame().await
    }

    /// Goes one entry back in the tab's history, unverified, and waits for that document.
    /// Returns the address of the entry it went to, `None` when there is none to go to.
    pub async fn back(&mut self) -> Result<Option<String>> {
        self.seen = None;
        let history = self
            .engine
            .cmd("Page.getNavigationHistory", json!({}))
            .await?;
        let current = history["currentIndex"].as_i64().unwrap_or(0);
        let Some(entry) = current
            .checked_sub(1)
            .and_then(|i| history["entries"].get(usize::try_from(i).ok()?))
        else {
            return Ok(None);
        };
        let url = entry["url"].as_str().unwrap_or_default().to_owned();
        let old = self.engine.main_frame().await?.loader;
        if !act::history_back(&self.engine).await? {
            return Ok(None);
        }
        wait_for_new_document(&self.engine, self.opts.timing, &old).await?;
        stabilise(&self.engine, self.opts.timing, None).await?;
        Ok(Some(url))
    }

    /// Goes one entry back in the tab's history, verified: the machine's back (`Run::back`)
    /// reads where the previous entry leads, goes back, settles the document as a look does
    /// and checks the address the tab shows (MATCH, or MISMATCH naming both addresses;
    /// `NAVIGATION_FAILED` in `error` when there is no entry to go back to).
    pub async fn back_verified(&mut self) -> Result<Outcome> {
        let started = Instant::now();
        let started_at = now_rfc3339();
        let mut run = prufe::core::run::Run::back(self.policy());
        self.engine.take_dialogs();
        let mut drive = Drive::default();
        let record = self.drive(&mut run, &mut drive).await;
        self.seen = run.seen().cloned();
        let mut record = record?;
        record.dialogs = self.engine.take_dialogs();
        record.duration_ms = started.elapsed().as_millis() as u64;
        record.started_at = started_at;
        record.scrub(&self.redactor);
        Ok(record)
    }

    /// Answers the next JavaScript dialog as told (accept, with a prompt's text), once;
    /// every other dialog is declined.
    pub fn answer_next_dialog(&self, accept: bool, prompt_text: Option<&str>) {
        self.engine.answer_next_dialog(crate::inject::DialogAnswer {
            accept,
            prompt_text: prompt_text.map(str::to_owned),
        });
    }

    /// The page as it is this instant (all frames), redacted: no settle, and not kept as the
    /// last observation. For a caller that polls for something (a bench timing when an
    /// effect shows); a step's baseline is [`Verifier::snapshot`].
    pub async fn observe_now(&mut self) -> Result<Snapshot> {
        let obs = crate::whole::observe(&self.engine, &self.sensitive)
            .await
            .map_err(|e| e.scrub(&self.redactor))?;
        let mut snapshot = obs.snapshot;
        scrub_snapshot(&mut snapshot, &self.redactor);
        Ok(snapshot)
    }

    /// A merged snapshot of the page (all frames), redacted: the machine's look, which the
    /// next step starts from.
    pub async fn snapshot(&mut self) -> Result<Snapshot> {
        let mut snapshot = self.look().await?;
        scrub_snapshot(&mut snapshot, &self.redactor);
        Ok(snapshot)
    }

    /// Clicks `target`, verified.
    pub async fn click(&mut self, target: Target, intent: Option<&str>) -> Result<Outcome> {
        self.perform(&with_intent(Step::new(Action::Click { target }), intent))
            .await
    }

    /// Fills `target` with `value`, verified. The value is never logged when `sensitive` or
    /// when the page marks the field sensitive.
    pub async fn fill(
        &mut self,
        target: Target,
        value: &str,
        sensitive: bool,
        intent: Option<&str>,
    ) -> Result<Outcome> {
        self.perform(&with_intent(
            Step::new(Action::Fill {
                target,
                value: value.to_owned(),
                sensitive,
            }),
            intent,
        ))
        .await
    }

    pub async fn check(&mut self, target: Target, intent: Option<&str>) -> Result<Outcome> {
        self.perform(&with_intent(Step::new(Action::Check { target }), intent))
            .await
    }

    pub async fn uncheck(&mut self, target: Target, intent: Option<&str>) -> Result<Outcome> {
        self.perform(&with_intent(Step::new(Action::Uncheck { target }), intent))
            .await
    }

    pub async fn select(
        &mut self,
        target: Target,
        option: &str,
        intent: Option<&str>,
    ) -> Result<Outcome> {
        self.perform(&with_intent(
            Step::new(Action::Select {
                target,
                option: option.to_owned(),
            }),
            intent,
        ))
        .await
    }

    pub async fn hover(&mut self, target: Target, intent: Option<&str>) -> Result<Outcome> {
        self.perform(&with_intent(Step::new(Action::Hover { target }), intent))
            .await
    }

    /// Presses `key` (`Enter`, `Shift+Tab`), on `target` if given.
    pub async fn press(
        &mut self,
        key: &str,
        target: Option<Target>,
        intent: Option<&str>,
    ) -> Result<Outcome> {
        self.perform(&with_intent(
            Step::new(Action::Press {
                key: key.to_owned(),
                target,
            }),
            intent,
        ))
        .await
    }

    /// Navigates to `url`, verified; undone by going back in history.
    pub async fn goto(&mut self, url: &str, intent: Option<&str>) -> Result<Outcome> {
        self.perform(&with_intent(
            Step::new(Action::Goto {
                url: url.to_owned(),
            }),
            intent,
        ))
        .await
    }

    /// Sets the files of a file input; `inverse` (steps) undoes it if the effect is wrong.
    pub async fn upload(
        &mut self,
        target: Target,
        files: Vec<PathBuf>,
        inverse: Vec<Step>,
        intent: Option<&str>,
    ) -> Result<Outcome> {
        let files = files.iter().map(|f| f.display().to_string()).collect();
        self.perform(&with_intent(
            Step::new(Action::Upload { target, files }).with_inverse(inverse),
            intent,
        ))
        .await
    }

    /// Drags `target` onto `to`; `inverse` (steps) undoes it if the effect is wrong.
    pub async fn drag(
        &mut self,
        target: Target,
        to: Target,
        inverse: Vec<Step>,
        intent: Option<&str>,
    ) -> Result<Outcome> {
        self.perform(&with_intent(
            Step::new(Action::Drag { target, to }).with_inverse(inverse),
            intent,
        ))
        .await
    }

    /// Runs `steps` unverified and judges what they did against `intent` alone. Never
    /// undoes, never fails on a verdict: read [`Outcome::ok`].
    pub async fn watch(&mut self, intent: Option<&str>, steps: Vec<Step>) -> Result<Outcome> {
        self.perform(&with_intent(Step::new(Action::Watch { steps }), intent))
            .await
    }

    /// Starts observing while someone else acts on the page (another client, an agent);
    /// finish with [`Verifier::end_watch`]. The machine settles and observes, then waits.
    pub async fn begin_watch(&mut self, intent: Option<&str>) -> Result<Watching> {
        let started = Instant::now();
        let started_at = now_rfc3339();
        self.seen = None;
        self.engine.take_dialogs();
        let mut step = Step::new(Action::watch());
        step.intent = intent.map(str::to_owned);
        let mut run = prufe::core::run::Run::new(step, self.policy());
        let mut drive = Drive::default();
        match self
            .tab()
            .drive_from(&mut run, &mut drive, prufe::core::run::Answer::Start)
            .await?
        {
            Driven::Act => Ok(Watching {
                run: Box::new(run),
                drive,
                started,
                started_at,
                steps: 0,
            }),
            Driven::Done(record) => {
                Err(record.error.clone().map(Error::Core).unwrap_or_else(|| {
                    Error::core(ErrorCode::Internal, "the watch ended before it watched")
                }))
            }
        }
    }

    /// Judges what happened since [`Verifier::begin_watch`].
    pub async fn end_watch(&mut self, watching: Watching) -> Result<Outcome> {
        self.step_no += 1;
        let r = self.finish_watch(watching).await;
        self.after_step("watch", r).await
    }

    /// Runs one step, verified (a `watch` step observes its inner steps).
    ///
    /// When the page crashes, the browser goes away or the page stops answering during the
    /// step, the step ends with `PAGE_CRASHED`, `BROWSER_CLOSED` or `PAGE_UNRESPONSIVE` as
    /// soon as that is known (see `watchdog`), whatever the step was waiting for.
    pub async fn perform(&mut self, step: &Step) -> Result<Outcome> {
        self.step_no += 1;
        let r = match &step.action {
            Action::Watch { steps } => self.watch_steps(step.intent.as_deref(), steps).await,
            _ => self.verified(step).await,
        };
        self.after_step(step.action.name(), r).await
    }

    /// Every step ends here: the cause when the tab is gone, input released, handles
    /// released, secrets scrubbed, the trace record written.
    async fn after_step(&mut self, kind: &str, r: Result<Outcome>) -> Result<Outcome> {
        let r = match r {
            Ok(o) => Ok(o),
            Err(e) => Err(self.engine.watchdog().cause_after(e).await),
        }
        .map_err(|e| e.scrub(&self.redactor));
        self.release_input().await;
        self.engine.release_handles().await;
        self.write_trace(kind, &r);
        r
    }

    /// Writes the trace record of a pointer step (`click_at`, `drag_at`) the coordinate
    /// executor verified, with its pictures.
    pub(crate) fn trace_pointer(&mut self, kind: &str, r: &Result<Outcome>) {
        self.step_no += 1;
        self.write_trace(kind, r);
    }

    /// The step's record, and its pictures when `--screenshots` keeps them.
    fn write_trace(&mut self, kind: &str, r: &Result<Outcome>) {
        if let Some(trace) = self.trace.as_mut() {
            let (outcome, error) = match r {
                Ok(o) => (Some(o), None),
                Err(e) => (e.outcome(), Some(e)),
            };
            let ok = matches!(r, Ok(o) if o.ok);
            let pictures = self
                .pictures
                .take()
                .filter(|_| self.opts.screenshots.keeps(ok));
            trace.write(
                self.step_no,
                outcome,
                kind,
                error,
                &self.redactor,
                pictures.as_ref(),
            );
        }
        self.pictures = None;
    }

    /// Keeps the pictures a drive took, for the step's trace record.
    pub(crate) fn keep_pictures(&mut self, camera: Option<crate::pictures::Camera>) {
        self.pictures = camera.map(|c| c.pictures);
    }

    /// Writes the trace record of a step that did not finish (the run was stopped while it
    /// ran), with the error that stopped it.
    pub fn trace_unfinished(&mut self, kind: &str, error: &Error) {
        if let Some(trace) = self.trace.as_mut() {
            let pictures = self
                .pictures
                .take()
                .filter(|_| self.opts.screenshots.keeps(false));
            trace.write(
                self.step_no,
                None,
                kind,
                Some(error),
                &self.redactor,
                pictures.as_ref(),
            );
        }
    }

    /// What the tab holds now: keys and buttons pressed and not yet released (empty between
    /// steps unless a release failed or a step was stopped mid-gesture).
    pub fn held(&self) -> Vec<crate::executor::Held> {
        crate::coords::input::lock(self.engine.ledger())
            .held()
            .to_vec()
    }

    /// Releases every key and button the tab still holds, newest first (a button over the
    /// point it was pressed at); `true` when nothing is held any more. A renderer that
    /// crashed or a browser that is gone holds nothing: the record is cleared. A page that
    /// does not answer keeps what it holds recorded, and the result is `false`.
    pub async fn release_input(&self) -> bool {
        let ledger = self.engine.ledger();
        if self.engine.watchdog().gone().is_some() {
            crate::coords::input::lock(ledger).clear();
            return true;
        }
        if crate::coords::input::lock(ledger).held().is_empty() {
            return true;
        }
        crate::coords::input::release_held(
            &self.engine,
            ledger,
            crate::coords::input::EVENT_TIMEOUT,
        )
        .await
        .clean()
    }

    async fn watch_steps(&mut self, intent: Option<&str>, steps: &[Step]) -> Result<Outcome> {
        let mut watching = self.begin_watch(intent).await?;
        for step in steps {
            self.unverified(step, false).await?;
            watching.steps += 1;
        }
        self.finish_watch(watching).await
    }

    /// The watched actions are done: the machine settles, observes and judges. A watch
    /// never fails on its verdict: its record says `ok` (and carries the failure's code).
    async fn finish_watch(&mut self, mut w: Watching) -> Result<Outcome> {
        let acted = prufe::core::run::Answer::Acted { steps: w.steps };
        let mut record = match self
            .tab()
            .drive_from(&mut w.run, &mut w.drive, acted)
            .await?
        {
            Driven::Done(record) => *record,
            Driven::Act => {
                return Err(Error::core(
                    ErrorCode::Internal,
                    "the watch asked to act twice",
                ))
            }
        };
        self.seen = w.run.seen().cloned();
        if let Some(e) = record
            .error
            .as_ref()
            .filter(|e| e.code != ErrorCode::VerificationFailed)
        {
            return Err(Error::Core(e.clone()));
        }
        record.dialogs = self.engine.take_dialogs();
        record.duration_ms = w.started.elapsed().as_millis() as u64;
        record.started_at = w.started_at;
        self.scrub_outcome(&mut record);
        Ok(record)
    }

    /// The verification policy of a run, from the options.
    pub(crate) fn policy(&self) -> prufe::core::run::Policy {
        use prufe::core::run::Policy;
        Policy {
            max_attempts: self.opts.max_attempts.max(1),
            ambiguous: match (&self.opts.arbiter, self.opts.ambiguous) {
                (Some(_), _) => Ambiguous::Arbiter,
                (None, Ambiguous::Accept) => Ambiguous::Accept,
                (None, Ambiguous::Reject | Ambiguous::Arbiter) => Ambiguous::Reject,
            },
            timing: self.opts.timing,
            regions: self.opts.regions.clone(),
            ignore_regions: self.opts.ignore_regions.clone(),
            secrets: self.redactor.secrets().to_vec(),
            pictures: false,
        }
    }

    /// The verified loop for one non-watch step: the machine's, driven over CDP.
    async fn verified(&mut self, step: &Step) -> Result<Outcome> {
        let started = Instant::now();
        let started_at = now_rfc3339();
        if matches!(step.action, Action::Watch { .. }) {
            return Err(Error::core(
                ErrorCode::InvalidAction,
                "a watch step is observed, not verified one by one",
            ));
        }
        let core_step = step.clone();
        self.declared_secret(&step.action);
        let seen = self.seen.take();
        let camera = self.camera();
        let policy = prufe::core::run::Policy {
            pictures: camera.is_some(),
            ..self.policy()
        };
        let mut run = prufe::core::run::Run::new(core_step, policy).with_seen(seen);
        self.engine.take_dialogs();
        let mut drive = Drive::default();
        drive.camera = camera;
        let record = self.drive(&mut run, &mut drive).await;
        self.pictures = drive.camera.take().map(|c| c.pictures);
        self.seen = run.seen().cloned();
        let mut record = record?;
        self.learn_secret(step, &record);
        record.dialogs = self.engine.take_dialogs();
        record.duration_ms = started.elapsed().as_millis() as u64;
        record.started_at = started_at;
        record.scrub(&self.redactor);
        self.round_trips = drive.needs;
        self.quick_settles = drive.quick;
        self.unmoved_settles = drive.unmoved;
        outcome_result(record)
    }

    /// A picture of the page as it is now, every secret covered the way a trace's pictures
    /// are (see [`crate::pictures`]).
    pub async fn picture(&self) -> Result<crate::pictures::Shot> {
        let roots = self.engine.roots().await?;
        let marks = crate::pictures::Marks {
            target: None,
            effect: &[],
            point: None,
        };
        crate::pictures::capture(
            &self.engine,
            &roots,
            &self.sensitive,
            self.redactor.secrets(),
            &marks,
        )
        .await
    }

    /// What keeps the pictures of a step, when the trace wants them.
    pub(crate) fn camera(&self) -> Option<crate::pictures::Camera> {
        (self.trace.is_some() && self.opts.screenshots.captures())
            .then(crate::pictures::Camera::default)
    }

    /// A fill whose field turned out sensitive: its value is a secret from now on.
    fn learn_secret(&mut self, step: &Step, record: &Outcome) {
        if let Action::Fill { value, .. } = &step.action {
            if record.value.as_deref() == Some(prufe::core::model::REDACTED) {
                register_secret(&mut self.redactor, value);
            }
        }
    }

    /// Performs a step without judging it (inner steps of a watch, declared inverses).
    /// With `settle`, waits for its effect to show.
    pub(crate) async fn unverified(&mut self, step: &Step, settle: bool) -> Result<()> {
        self.seen = None;
        if matches!(step.action, Action::Watch { .. }) {
            return Err(Error::core(
                ErrorCode::InvalidAction,
                "a watch cannot be nested in a watch",
            ));
        }
        let core_step = step.clone();
        self.declared_secret(&step.action);
        let mut run = prufe::core::run::Run::unverified(core_step, self.policy(), settle);
        let mut drive = Drive::default();
        let record = self.drive(&mut run, &mut drive).await?;
        self.learn_secret(step, &record);
        match record.error {
            Some(e) => Err(Error::Core(e).scrub(&self.redactor)),
            None => Ok(()),
        }
    }

    /// Needs answered for the last verified step (round trips of a driver).
    pub fn round_trips(&self) -> u32 {
        self.round_trips
    }

    /// Settles after the last verified step's input that ended on the shorter window
    /// (`Timing::quick_ms`): the page said it was quiet and no request was under way.
    pub fn quick_settles(&self) -> u32 {
        self.quick_settles
    }

    /// Settles of the last verified step (its undo's included) that waited from a
    /// fingerprint and ended at the deadline without the page leaving it: an effect the
    /// settle did not count, or none.
    pub fn unmoved_settles(&self) -> u32 {
        self.unmoved_settles
    }

    fn scrub_outcome(&self, o: &mut Outcome) {
        o.scrub(&self.redactor);
    }

    /// Something other than a verified action acts on the page: what it changes is not the
    /// page's own doing.
    pub(crate) fn forget_seen(&mut self) {
        self.seen = None;
    }

    /// What the driver answers a run's needs with (see `drive`): the tab, lent for one drive.
    fn tab(&mut self) -> Tab<'_> {
        Tab {
            engine: &self.engine,
            sensitive: &mut self.sensitive,
            redactor: &self.redactor,
            timing: self.opts.timing,
            slow_mo: self.opts.slow_mo,
            arbiter: self.opts.arbiter.as_ref(),
        }
    }

    /// Runs `run` to its end, answering each need; returns the record the machine made.
    pub(crate) async fn drive(&mut self, run: &mut Run, d: &mut Drive) -> Result<Outcome> {
        self.tab().drive(run, d).await
    }

    /// The element under `at` now, found by the machine's locate over this tab's answers.
    pub(crate) async fn locate(
        &mut self,
        at: prufe::core::run::Point,
        d: &mut Drive,
    ) -> Result<Option<prufe::core::model::Element>> {
        self.tab().locate(at, d).await
    }

    /// Waits until `until` holds, at most `timeout_ms`: the machine's wait (`Run::wait`),
    /// which looks again each time the page moves and at least every 500 ms. Returns its
    /// record (`POSTCONDITION_TIMEOUT` in `error` when the deadline came first) and the last
    /// observation, unscrubbed.
    pub async fn wait_until(
        &mut self,
        until: prufe::core::until::Postcondition,
        timeout_ms: u64,
    ) -> Result<(Outcome, Option<Snapshot>)> {
        if let prufe::core::until::Postcondition::ValueEquals {
            value,
            sensitive: true,
            ..
        } = &until
        {
            register_secret(&mut self.redactor, value);
        }
        let mut run = prufe::core::run::Run::wait(until, timeout_ms, self.policy());
        let mut drive = Drive::default();
        let started = Instant::now();
        let mut record = self.drive(&mut run, &mut drive).await?;
        if let Some(seen) = run.seen() {
            self.seen = Some(seen.clone());
        }
        record.duration_ms = started.elapsed().as_millis() as u64;
        record.scrub(&self.redactor);
        // A wait is a step of the trace, as every other step is.
        self.trace_pointer("wait", &outcome_result(record.clone()));
        Ok((record, run.last_observation().cloned()))
    }

    /// A sensitive fill's value is a secret from now on, before anything is sent.
    fn declared_secret(&mut self, action: &Action) {
        if let Action::Fill {
            value,
            sensitive: true,
            ..
        } = action
        {
            register_secret(&mut self.redactor, value);
        }
    }

    /// The record of the last look ([`Verifier::open`], [`Verifier::snapshot`]): `stable`
    /// and `background` say how the page settled.
    pub fn last_look(&self) -> Option<&Outcome> {
        self.last_look.as_ref()
    }

    // Accessors for the coordinate executor.
    pub(crate) fn engine(&self) -> &Engine {
        &self.engine
    }
}

/// An observation in progress (see [`Verifier::begin_watch`]): the machine's run, waiting
/// for the watched actions.
pub struct Watching {
    run: Box<prufe::core::run::Run>,
    drive: Drive,
    started: Instant,
    started_at: String,
    steps: u32,
}

/// A finished record as the harness returns it: the record, or the error it ended with
/// (a verification failure carries the record that proved it).
pub(crate) fn outcome_result(record: Outcome) -> Result<Outcome> {
    let Some(error) = record.error.clone() else {
        return Ok(record);
    };
    Err(match error.code {
        ErrorCode::VerificationFailed => Error::VerificationFailed(Box::new(record)),
        ErrorCode::UndoFailed => {
            let residue = record.residue.clone();
            Error::UndoFailed {
                outcome: Box::new(record),
                residue,
            }
        }
        ErrorCode::IrreversibleAction => {
            let cause = Box::new(Error::VerificationFailed(Box::new(record.clone())));
            Error::IrreversibleAction {
                outcome: Box::new(record),
                cause,
            }
        }
        _ => Error::Core(error),
    })
}

/// Scrubs every string of a snapshot of the secrets `redactor` holds.
pub fn scrub_snapshot(s: &mut Snapshot, redactor: &Redactor) {
    if redactor.is_empty() {
        return;
    }
    let scrub = |t: &mut String| {
        if let std::borrow::Cow::Owned(clean) = redactor.scrub(t) {
            *t = clean;
        }
    };
    for e in &mut s.elements {
        scrub(&mut e.name);
        scrub(&mut e.region);
        for t in [&mut e.text, &mut e.href, &mut e.value]
            .into_iter()
            .flatten()
        {
            scrub(t);
        }
    }
    for t in &mut s.texts {
        scrub(&mut t.text);
        scrub(&mut t.region);
    }
}

/// Registers a secret and the forms a page is likely to echo it in (core
/// `Redactor::add_secret_and_encodings`).
pub fn register_secret(redactor: &mut Redactor, secret: &str) {
    redactor.add_secret_and_encodings(secret);
}

fn with_intent(step: Step, intent: Option<&str>) -> Step {
    match intent {
        Some(i) => step.with_intent(i),
        None => step,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prufe::core::model::Element;

    #[test]
    fn secrets_are_registered_with_their_url_encodings() {
        let mut r = Redactor::default();
        register_secret(&mut r, "Tr0ub4dor&3 lamp");
        for echo in [
            "Tr0ub4dor&3 lamp",
            "Tr0ub4dor%263%20lamp",
            "Tr0ub4dor%263+lamp",
            "Tr0ub4dor%263%20lamp".to_ascii_lowercase().as_str(),
        ] {
            let shown = r.scrub(&format!("#token={echo}")).into_owned();
            assert_eq!(shown, "#token=[redacted]", "{echo}");
        }
    }

    #[test]
    fn snapshots_are_scrubbed_everywhere() {
        let mut r = Redactor::default();
        register_secret(&mut r, "PIN-739154");
        let mut s = Snapshot {
            elements: vec![Element {
                name: "PIN-739154".into(),
                region: "echo PIN-739154".into(),
                href: Some("#t=PIN-739154".into()),
                value: Some("PIN-739154".into()),
                text: Some("x PIN-739154".into()),
                ..Element::default()
            }],
            texts: vec![prufe::core::model::Text {
                kind: prufe::core::model::TextKind::Paragraph,
                text: "your PIN-739154".into(),
                region: "main".into(),
                frame: String::new(),
            }],
            ..Snapshot::default()
        };
        scrub_snapshot(&mut s, &r);
        assert!(!serde_json::to_string(&s).unwrap().contains("739154"));
    }

    #[test]
    fn explain_reads_like_the_report() {
        let o = Outcome {
            action: "click".into(),
            target: Some("button[Add Shirt M] in list".into()),
            verdict: Some(Verdict::Mismatch),
            reason: "the effect matches button[Add Trousers L] in list, not the target".into(),
            lines: vec!["appeared listitem[Trousers L] in cart".into()],
            attempts: 2,
            undone: 2,
            stable: true,
            ..Outcome::default()
        };
        let e = o.explain();
        assert!(
            e.starts_with("Action:    click on button[Add Shirt M] in list\n"),
            "{e}"
        );
        assert!(e.contains("Intent:    (not declared)\n"));
        assert!(e.contains("Verdict:   MISMATCH — the effect matches button[Add Trousers L]"));
        assert!(e.contains("Attempts:  2, 2 undone\n"));
        assert!(e.contains("Observed:\n  appeared listitem[Trousers L] in cart\n"));
        assert_eq!(o.summary(), "click on button[Add Shirt M] in list: MISMATCH — the effect matches button[Add Trousers L] in list, not the target");
    }
}
