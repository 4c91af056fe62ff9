//! The executor contract for coordinate-driven agents: the browser half.
//!
//! An agent that sees screenshots acts by coordinates. [`Executor::run`] takes one step, a
//! typed [`Request`] (`screenshot`, `click_at`, `drag_at`, `scroll_at`, `type`, `key`,
//! `wait`) whose shape was checked when it was read or built (`executor::parse_shape`, the
//! request's constructors), checks it against the latest observation first
//! (`executor::check_against_observation`: `STALE_OBSERVATION`, `POINT_OUT_OF_BOUNDS`, before
//! the first input event), then acts on the verifier's tab.
//!
//! **Observations.** A `screenshot` captures the viewport (`Page.captureScreenshot`, PNG,
//! optionally downscaled to `maxWidth`), issues `obs-N` (monotonic per executor) and, at the
//! same moment, records the hit boxes of the observable elements, so the identity (role,
//! label, region) under any point of that image is known (`executor::identity_at`). Every
//! step that sends input ends with a fresh observation (the next model call gets fresh
//! evidence), so a point chosen on an earlier image is `STALE_OBSERVATION`.
//!
//! **A point's identity.** Right before input the element under the point is asked again
//! (`prufe.at`). If it is not the one the image showed (a cookie banner slid in, a row was
//! recycled), the step stops with `TARGET_CHANGED` and nothing is pressed. The two hit tests
//! (boxes then, `prufe.at` now) can disagree on an unchanged page (a container whose centre
//! is covered, a frame element that snapshots do not list); a disagreement is only a change
//! when the boxes taken now give another answer than the boxes then, or when the element now
//! under the point appeared there since. The check runs before the pointer moves and again
//! after, right before the press.
//!
//! **Verification.** Every input step is a run of the verification machine
//! (`prufe::core::run`), driven here with the pointer driver (`coords::pointer`: points
//! reconciled with the observation's hit boxes, input through the ledger); this module only
//! turns image points into CSS pixels, hands the machine what the observation showed there
//! and returns its record. `click_at` and `drag_at` run the loop of semantic actions with the
//! element under the point as the target: stabilise → snapshot → act → stabilise → snapshot
//! → judge → MATCH | undo (verified) and retry | stop with a typed error. A retry re-checks
//! the point first; when it now shows something else (a list that recycles its rows on
//! press), the retry is not made and the undone `VERIFICATION_FAILED` is reported. A click on
//! a text field whose only effect is the focus it takes is MATCH (the judge sees no diff; the
//! focus is read right after the click). `type` (`core/run/typing.rs`) checks, right before
//! inserting, that focus is on the intended field (the one the last click or key left
//! focused), then reads the field back (by keyed hash when sensitive). `key`
//! (`core/run/key.rs`) and `scroll_at` (`core/run/scroll.rs`) are not judged: a `wait` states
//! what should follow them. A scroll's `dx`/`dy` are image pixels, scaled like points; its
//! record names the container under the pointer and where it stood before and after it
//! stopped moving.
//!
//! **Input.** Every press goes through the ledger of `coords::input` (the tab's, shared
//! with the verified actions): released in reverse order on success, failure, timeout or
//! cancellation, and the result says whether the release went through (`released`). An attached browser (`--connect`) may hold input from
//! before; the first input step releases every button and modifier first, or stops with
//! `INPUT_STATE_UNKNOWN`.
//!
//! **Not done here.** Native HTML drag and drop (`draggable`) is not intercepted: `drag_at`
//! sends pointer events, which pointer-driven drags (sortable lists, boards) use. `type`
//! does not undo a wrong read-back; it reports `VERIFICATION_FAILED`.

pub mod input;
pub(crate) mod page;
pub(crate) mod pointer;

pub use input::EVENT_TIMEOUT;
pub use prufe::core::run::ScrollPosition;
/// A scroll's effect on the container under the pointer: the machine's ([`run::Scrolled`]).
pub use prufe::core::run::Scrolled as Scroll;

use crate::clock::now_rfc3339;
use crate::drive::Drive;
use crate::error::{Error, Result};
use crate::executor::{
    check_against_observation, Button, Held, HitBox, Point, Postcondition, Request, Screen,
};
use crate::inject::Engine;
use crate::verify::Verifier;
use input::{lock, release_held, SharedLedger};
use pointer::Pointer;
use prufe::core::error::ErrorCode;
use prufe::core::model::{Element, Snapshot, REDACTED};
use prufe::core::redact::Redactor;
use prufe::core::run;
use prufe::core::run::screen::{self, Pick};
use prufe::core::run::Record as Outcome;
use serde::Serialize;
use serde_json::{json, Value};
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A screenshot as the agent receives it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Shot {
    /// `obs-N`: quote it in the next `click_at`, `drag_at` or `scroll_at`.
    pub id: String,
    /// The image's size: points are given in these pixels.
    pub width: f64,
    pub height: f64,
    /// The capture in device pixels, before any downscale.
    pub capture_width: f64,
    pub capture_height: f64,
    pub device_pixel_ratio: f64,
    /// The page was settled and did not change while it was captured.
    pub stable: bool,
    /// Where the PNG was saved, with [`Executor::with_screenshot_dir`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<PathBuf>,
    /// The PNG, base64, when it was not saved to a file.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub png_base64: String,
}

/// What a step did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The step's action name.
    pub action: &'static str,
    /// The verified record: the judged action (`click_at`, `drag_at`), the read-back
    /// (`type`), or what was sent (`key`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// For a step that sent input: nothing is held any more.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub released: Option<bool>,
    /// The observation taken at the end of the step (a screenshot's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observation: Option<Shot>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scroll: Option<Scroll>,
    /// A wait's condition, as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// The snapshot a wait's condition held on.
    #[serde(skip)]
    pub snapshot: Option<Snapshot>,
}

impl Report {
    fn new(action: &'static str) -> Self {
        Report {
            action,
            outcome: None,
            released: None,
            observation: None,
            scroll: None,
            condition: None,
            snapshot: None,
        }
    }
}

/// Why a step stopped, and what it leaves behind.
#[derive(Debug)]
pub struct Failure {
    pub error: Error,
    /// For a step that sent input: whether everything held was released. `Some(false)`
    /// means a key or button may still be down.
    pub released: Option<bool>,
    /// The observation taken after the failure (when the page could still be captured).
    pub observation: Option<Shot>,
    /// A wait's condition that did not hold.
    pub condition: Option<String>,
    /// A wait's last snapshot.
    pub last: Option<Snapshot>,
}

impl Failure {
    pub fn code(&self) -> ErrorCode {
        self.error.code()
    }

    fn released(mut self, clean: bool) -> Self {
        self.released = Some(clean);
        self
    }

    /// The failure with the verifier's secrets taken out of its words.
    pub(crate) fn scrub(mut self, redactor: &Redactor) -> Self {
        self.error = self.error.scrub(redactor);
        if let Some(c) = self.condition.take() {
            self.condition = Some(redactor.scrub(&c).into_owned());
        }
        self
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure {
            error,
            released: None,
            observation: None,
            condition: None,
            last: None,
        }
    }
}

impl From<prufe::core::Error> for Failure {
    fn from(e: prufe::core::Error) -> Self {
        Failure::from(Error::Core(e))
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.error)?;
        match self.released {
            Some(false) => write!(
                f,
                " (input release FAILED: a key or button may still be held)"
            ),
            _ => Ok(()),
        }
    }
}

impl std::error::Error for Failure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

type StepResult<T> = std::result::Result<T, Failure>;

/// The coordinate executor of one verifier's tab. It keeps the latest observation, the
/// input ledger and the field typing is meant for, across steps.
pub struct Executor {
    issued: u64,
    latest: Option<Screen>,
    max_width: Option<f64>,
    ledger: SharedLedger,
    input_known: bool,
    intended: Option<Element>,
    pointer: Option<Point>,
    screenshot_dir: Option<PathBuf>,
    event_timeout: Duration,
}

/// What a pointer step does once it is over its point.
#[derive(Debug, Clone, Copy)]
enum Gesture {
    Click(Button),
    Drag { to: Point, steps: u32 },
}

impl Executor {
    /// An executor for `v`'s tab. A verifier attached with `connect` starts with an unknown
    /// input state, established before its first input.
    pub fn new(v: &Verifier) -> Executor {
        Executor {
            issued: 0,
            latest: None,
            max_width: None,
            ledger: v.engine().ledger().clone(),
            input_known: v.options().connect.is_none(),
            intended: None,
            pointer: None,
            screenshot_dir: None,
            event_timeout: EVENT_TIMEOUT,
        }
    }

    /// Saves every screenshot as `DIR/obs-N.png` instead of returning it as base64.
    pub fn with_screenshot_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.screenshot_dir = Some(dir.into());
        self
    }

    /// Bounds every input event (default [`EVENT_TIMEOUT`]).
    pub fn with_event_timeout(mut self, timeout: Duration) -> Self {
        self.event_timeout = timeout;
        self
    }

    /// The observation points must be chosen on now.
    pub fn latest(&self) -> Option<&Screen> {
        self.latest.as_ref()
    }

    /// What the ledger says is held now (empty between steps unless a release failed).
    pub fn held(&self) -> Vec<Held> {
        lock(&self.ledger).held().to_vec()
    }

    /// The field `type` will insert into: the one focused by the last click or key.
    pub fn intended_field(&self) -> Option<&Element> {
        self.intended.as_ref()
    }

    /// Runs one step (see the module docs). The request is checked against the latest
    /// observation before anything is sent; every message is scrubbed of the verifier's
    /// secrets.
    pub async fn run(&mut self, v: &mut Verifier, request: &Request) -> StepResult<Report> {
        self.run_step(v, request, true).await
    }

    /// [`Executor::run`], but a `wait` ends without the fresh screenshot a script's wait ends
    /// with: the MCP server's `browser_wait_for` answers in words and shows a picture only when
    /// one is asked for. The id that screenshot would have had is passed over, so the next
    /// screenshot's id is a script's (records quote ids, and every surface's records are the
    /// same). Every other step runs as `run` runs it.
    pub async fn run_without_picture(
        &mut self,
        v: &mut Verifier,
        request: &Request,
    ) -> StepResult<Report> {
        self.run_step(v, request, false).await
    }

    async fn run_step(
        &mut self,
        v: &mut Verifier,
        request: &Request,
        wait_picture: bool,
    ) -> StepResult<Report> {
        v.forget_seen();
        check_against_observation(request, self.latest())
            .map_err(|e| Failure::from(e).scrub(v.redactor()))?;
        let result = match request {
            Request::Screenshot { max_width } => {
                self.max_width = *max_width;
                self.observe(v, true)
                    .await
                    .map(|shot| Report {
                        observation: Some(shot),
                        ..Report::new("screenshot")
                    })
                    .map_err(Failure::from)
            }
            Request::ClickAt {
                at, button, intent, ..
            } => {
                let r = self
                    .pointer_step(v, *at, Gesture::Click(*button), intent.clone())
                    .await;
                self.finish(v, r, true).await
            }
            Request::DragAt {
                from,
                to,
                steps,
                intent,
                ..
            } => {
                let gesture = Gesture::Drag {
                    to: *to,
                    steps: *steps,
                };
                let r = self.pointer_step(v, *from, gesture, intent.clone()).await;
                self.finish(v, r, true).await
            }
            Request::ScrollAt { at, dx, dy, .. } => {
                let r = self.scroll_step(v, *at, *dx, *dy).await;
                self.finish(v, r, true).await
            }
            Request::Type { text, sensitive } => {
                self.latest = None;
                let r = self.type_step(v, text.clone(), *sensitive).await;
                self.finish(v, r, true).await
            }
            Request::Key { chord } => {
                self.latest = None;
                let r = self.key_step(v, chord.clone()).await;
                self.finish(v, r, true).await
            }
            Request::Wait { until, timeout_ms } => {
                self.latest = None;
                let r = self.wait_step(v, until, *timeout_ms).await;
                if wait_picture {
                    self.finish(v, r, false).await
                } else {
                    self.issued += 1;
                    r
                }
            }
        };
        v.engine().release_handles().await;
        match result {
            Ok(mut report) => {
                if let Some(o) = report.outcome.as_mut() {
                    o.scrub(v.redactor());
                }
                Ok(report)
            }
            Err(mut f) => {
                f.error = v.engine().watchdog().cause(f.error);
                Err(f.scrub(v.redactor()))
            }
        }
    }

    /// What is under the point (`x`, `y`) of the latest image now: the element, or
    /// `TARGET_CHANGED` when it is not the one the image showed there (the check a pointer
    /// step makes before its input). Sends no input and keeps the observation quotable.
    pub async fn probe(&self, v: &mut Verifier, x: f64, y: f64) -> StepResult<Option<Element>> {
        let id = self.latest().map(|o| o.id.clone()).unwrap_or_default();
        Request::click_at(Point { x, y }, id, Button::Left, None)
            .and_then(|request| check_against_observation(&request, self.latest()))
            .map_err(|e| Failure::from(e).scrub(v.redactor()))?;
        let observed = self
            .latest
            .as_ref()
            .ok_or_else(|| Error::core(ErrorCode::StaleObservation, "take a screenshot first"))?;
        let p = observed.to_css(Point { x, y });
        let mut drive = Drive::pointer(Pointer::new(
            observed.boxes.clone(),
            self.ledger.clone(),
            self.event_timeout,
            self.pointer,
        ));
        let now = v
            .locate(p, &mut drive)
            .await
            .map_err(|e| Failure::from(e).scrub(v.redactor()))?;
        match screen::changed(p, observed.identity_at(p), now.as_ref(), "nothing was sent") {
            None => Ok(now),
            Some(e) => Err(Failure::from(Error::Core(e)).scrub(v.redactor())),
        }
    }

    /// Releases anything still held (after a failed release); `true` when nothing is held.
    /// The ledger is the tab's: this is [`Verifier::release_input`].
    pub async fn release_all(&mut self, v: &Verifier) -> bool {
        v.release_input().await
    }

    /// Ends a step with a fresh observation (or none when the page cannot be captured, so
    /// no earlier one stays quotable). A failed input step says whether anything is held.
    async fn finish(
        &mut self,
        v: &mut Verifier,
        r: StepResult<Report>,
        input: bool,
    ) -> StepResult<Report> {
        let shot = self.observe(v, false).await.ok();
        match r {
            Ok(mut report) => {
                report.observation = shot;
                Ok(report)
            }
            Err(mut f) => {
                f.observation = shot;
                if input && f.released.is_none() {
                    f.released = Some(lock(&self.ledger).held().is_empty());
                }
                Err(f)
            }
        }
    }

    /// Captures the viewport and the hit boxes behind it (the machine's observation,
    /// `Run::shot`), and issues the next `obs-N`. With `settle`, waits for the page to settle
    /// first.
    async fn observe(&mut self, v: &mut Verifier, settle: bool) -> Result<Shot> {
        self.latest = None;
        let mut run = run::Run::shot(v.policy(), settle);
        let mut drive = Drive::shot(self.max_width);
        let record = v.drive(&mut run, &mut drive).await?;
        if let Some(error) = record.error {
            return Err(Error::Core(error));
        }
        let taken = run.shot_taken().cloned();
        let (Some(taken), Some(captured)) = (taken, drive.shooting.and_then(|s| s.captured)) else {
            return Err(Error::core(
                ErrorCode::Internal,
                "the observation ended without a picture",
            ));
        };
        let boxes = taken.boxes;
        self.issued += 1;
        let id = format!("obs-{}", self.issued);
        let mut shot = Shot {
            id: id.clone(),
            width: captured.image.width,
            height: captured.image.height,
            capture_width: captured.capture.width,
            capture_height: captured.capture.height,
            device_pixel_ratio: captured.device_pixel_ratio,
            stable: taken.stable,
            path: None,
            png_base64: String::new(),
        };
        match &self.screenshot_dir {
            Some(dir) => {
                let bytes = page::decode_base64(&captured.png).ok_or_else(|| {
                    Error::core(
                        ErrorCode::BrowserError,
                        "the screenshot is not valid base64",
                    )
                })?;
                std::fs::create_dir_all(dir)
                    .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
                let path = dir.join(format!("{id}.png"));
                std::fs::write(&path, bytes)
                    .map_err(|e| Error::io(format!("writing {}", path.display()), e))?;
                shot.path = Some(path);
            }
            None => shot.png_base64 = captured.png,
        }
        self.latest = Some(Screen {
            id,
            image: captured.image,
            capture: captured.capture,
            dpr: captured.device_pixel_ratio,
            boxes,
        });
        Ok(shot)
    }

    /// Before the first input of a step: release what an earlier, interrupted step left
    /// held, and on an attached browser establish a known input state.
    async fn ensure_ready(&mut self, v: &Verifier) -> StepResult<()> {
        let page = v.engine().clone();
        if !lock(&self.ledger).held().is_empty() {
            let r = release_held(&page, &self.ledger, self.event_timeout).await;
            if !r.clean() {
                return Err(Failure::from(Error::core(
                    ErrorCode::InputStateUnknown,
                    format!("{} key(s) or button(s) from an earlier step could not be released; stop and check the browser", r.failed),
                ))
                .released(false));
            }
        }
        if !self.input_known {
            let p = self.pointer.unwrap_or(Point { x: 0.0, y: 0.0 });
            let mut failed = Vec::new();
            for b in [Button::Left, Button::Middle, Button::Right] {
                let params = json!({ "type": "mouseReleased", "x": p.x, "y": p.y, "button": b.as_cdp(), "buttons": 0, "clickCount": 0, "pointerType": "mouse" });
                if let Err(e) = self
                    .send_now(&page, "Input.dispatchMouseEvent", params)
                    .await
                {
                    failed.push(format!("{} button: {e}", b.as_cdp()));
                }
            }
            for name in ["Shift", "Control", "Alt", "Meta"] {
                let k = crate::executor::parse_key(name).map_err(Failure::from)?;
                let params = json!({ "type": "keyUp", "key": k.key, "code": k.code, "modifiers": 0,
                                     "windowsVirtualKeyCode": k.key_code, "nativeVirtualKeyCode": k.key_code });
                if let Err(e) = self.send_now(&page, "Input.dispatchKeyEvent", params).await {
                    failed.push(format!("{name}: {e}"));
                }
            }
            if !failed.is_empty() {
                return Err(Failure::from(Error::core(
                    ErrorCode::InputStateUnknown,
                    format!(
                        "the attached browser's input state could not be established ({}); a key or button may still be held, so no input was sent",
                        failed.join("; ")
                    ),
                ))
                .released(false));
            }
            self.input_known = true;
        }
        Ok(())
    }

    async fn send_now(
        &self,
        engine: &Engine,
        method: &'static str,
        params: Value,
    ) -> Result<Value> {
        tokio::time::timeout(self.event_timeout, engine.cmd(method, params))
            .await
            .map_err(|_| {
                Error::Timeout(format!(
                    "{method} got no answer within {} ms",
                    self.event_timeout.as_millis()
                ))
            })?
    }

    // --- click_at, drag_at ---

    /// The verified loop of a pointer step, with the element under the point as target: the
    /// machine's (`prufe::core::run`), driven over CDP with the observation's hit boxes.
    async fn pointer_step(
        &mut self,
        v: &mut Verifier,
        at: Point,
        gesture: Gesture,
        intent: Option<String>,
    ) -> StepResult<Report> {
        let observed = self.latest.take();
        let pick = match gesture {
            Gesture::Click(button) => Pick::ClickAt { at, button },
            Gesture::Drag { to, steps } => Pick::DragAt {
                from: at,
                to,
                steps: f64::from(steps),
            },
        };
        let action = screen::aim(observed.as_ref(), None, &pick).map_err(Failure::from)?;
        let boxes = observed.map(|o| o.boxes).unwrap_or_default();
        let started = Instant::now();
        let started_at = now_rfc3339();
        self.ensure_ready(v).await?;
        let clicks = matches!(gesture, Gesture::Click(_));
        let name = action.name();
        let (record, run, released) = self.drive_run(v, action, intent, boxes, true).await?;
        if clicks {
            self.intended = run.focused().cloned();
        }
        match traced(v, name, record, started, started_at) {
            Ok(outcome) => Ok(Report {
                outcome: Some(outcome),
                released: Some(released),
                ..Report::new(name)
            }),
            Err(e) => Err(Failure::from(e).released(released)),
        }
    }

    /// Drives the machine's run of one coordinate step with the pointer driver (its input
    /// through the tab's ledger, points reconciled with `boxes`), keeping the pictures when
    /// `pictures` (a traced step). The record comes back with the dialogs heard and scrubbed,
    /// and whether everything held was released.
    async fn drive_run(
        &mut self,
        v: &mut Verifier,
        action: run::Action,
        intent: Option<String>,
        boxes: Vec<HitBox>,
        pictures: bool,
    ) -> StepResult<(Outcome, run::Run, bool)> {
        let step = run::Step {
            action,
            intent,
            expect: Vec::new(),
            inverse: Vec::new(),
        };
        v.forget_seen();
        let camera = if pictures { v.camera() } else { None };
        let policy = run::Policy {
            pictures: camera.is_some(),
            ..v.policy()
        };
        let mut run = run::Run::new(step, policy);
        let mut drive = Drive::pointer(Pointer::new(
            boxes,
            self.ledger.clone(),
            self.event_timeout,
            self.pointer,
        ));
        v.engine().take_dialogs();
        drive.camera = camera;
        let record = v.drive(&mut run, &mut drive).await;
        if pictures {
            v.keep_pictures(drive.camera.take());
        }
        let mut pointer = drive.pointer.take().expect("the pointer driver stays");
        pointer.let_go(v.engine()).await;
        self.pointer = pointer.position;
        let mut record = record.map_err(|e| Failure::from(e).released(pointer.released))?;
        record.dialogs = v.engine().take_dialogs();
        record.scrub(v.redactor());
        Ok((record, run, pointer.released))
    }

    // --- scroll_at ---

    /// The machine's scroll (`Action::ScrollAt`): the point checked, the container under
    /// it found, the wheel turned, its position read until it stops moving.
    async fn scroll_step(
        &mut self,
        v: &mut Verifier,
        at: Point,
        dx: f64,
        dy: f64,
    ) -> StepResult<Report> {
        let observed = self.latest.take();
        let pick = Pick::ScrollAt { at, dx, dy };
        let action = screen::aim(observed.as_ref(), None, &pick).map_err(Failure::from)?;
        let boxes = observed.map(|o| o.boxes).unwrap_or_default();
        let started = Instant::now();
        let started_at = now_rfc3339();
        self.ensure_ready(v).await?;
        let (record, run, released) = self.drive_run(v, action, None, boxes, false).await?;
        let scroll = run.scrolled();
        let outcome = traced(v, "scroll_at", record, started, started_at)
            .map_err(|e| Failure::from(e).released(released))?;
        Ok(Report {
            outcome: Some(outcome),
            released: Some(released),
            scroll,
            ..Report::new("scroll_at")
        })
    }

    // --- type ---

    /// The machine's typing (`Action::TypeText`) into the field the last click or key left
    /// focused: the focus checked, the text inserted, the field read back.
    async fn type_step(
        &mut self,
        v: &mut Verifier,
        text: String,
        sensitive: bool,
    ) -> StepResult<Report> {
        let started = Instant::now();
        let started_at = now_rfc3339();
        self.ensure_ready(v).await?;
        if sensitive {
            v.add_secret(&text);
        }
        let action = run::Action::TypeText {
            text: text.clone(),
            sensitive,
            field: self.intended.clone().map(Box::new),
        };
        let (mut record, run, released) =
            self.drive_run(v, action, None, Vec::new(), false).await?;
        // A sensitive field makes the text a secret too: the record shows it redacted.
        if record.value.as_deref() == Some(REDACTED) {
            v.add_secret(&text);
            record.scrub(v.redactor());
        }
        if let Some(field) = run.focused() {
            self.intended = Some(field.clone());
        }
        let outcome = traced(v, "type", record, started, started_at)
            .map_err(|e| Failure::from(e).released(released))?;
        Ok(Report {
            outcome: Some(outcome),
            released: Some(released),
            ..Report::new("type")
        })
    }

    // --- key ---

    /// The machine's key chord (`Action::Key`) on whatever has the focus; typing follows the
    /// focus it leaves.
    async fn key_step(&mut self, v: &mut Verifier, chord: String) -> StepResult<Report> {
        let started = Instant::now();
        let started_at = now_rfc3339();
        self.ensure_ready(v).await?;
        let action = run::Action::Key { chord };
        let (record, run, released) = self.drive_run(v, action, None, Vec::new(), false).await?;
        self.intended = run.focused().cloned();
        let outcome = traced(v, "key", record, started, started_at)
            .map_err(|e| Failure::from(e).released(released))?;
        Ok(Report {
            outcome: Some(outcome),
            released: Some(released),
            ..Report::new("key")
        })
    }

    // --- wait ---

    /// Waits until `until` holds: the machine's wait (`Run::wait`), which looks again each
    /// time the page moves and at least every 500 ms.
    async fn wait_step(
        &mut self,
        v: &mut Verifier,
        until: &Postcondition,
        timeout_ms: u64,
    ) -> StepResult<Report> {
        let (record, last) = v.wait_until(until.clone(), timeout_ms).await?;
        let condition = until.describe();
        match record.error {
            None => Ok(Report {
                condition: Some(condition),
                snapshot: last,
                ..Report::new("wait")
            }),
            Some(e) if e.code == ErrorCode::PostconditionTimeout => Err(Failure {
                error: Error::Core(e),
                released: None,
                observation: None,
                condition: Some(condition),
                last,
            }),
            Some(e) => Err(Error::Core(e).into()),
        }
    }
}

/// A coordinate step's record with its timings, as its result, written to the trace as
/// every step is.
fn traced(
    v: &mut Verifier,
    name: &str,
    mut record: Outcome,
    started: Instant,
    started_at: String,
) -> Result<Outcome> {
    record.duration_ms = started.elapsed().as_millis() as u64;
    record.started_at = started_at;
    let result = crate::verify::outcome_result(record);
    v.trace_pointer(name, &result);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_say_when_input_may_still_be_held() {
        let f = Failure::from(Error::Timeout("Input.dispatchMouseEvent".into())).released(false);
        assert!(f.to_string().contains("release FAILED"), "{f}");
        assert_eq!(f.code(), ErrorCode::Timeout);
        let ok = Failure::from(Error::Timeout("x".into())).released(true);
        assert!(!ok.to_string().contains("release"), "{ok}");
    }

    #[test]
    fn outcomes_are_scrubbed_of_secrets() {
        let mut r = Redactor::default();
        r.add_secret("hunter22");
        let mut o = Outcome {
            reason: "textbox[Password] shows 'hunter22'".into(),
            value: Some("hunter22".into()),
            ..Outcome::default()
        };
        o.scrub(&r);
        assert!(
            !o.reason.contains("hunter22")
                && !o.value.as_deref().unwrap_or("").contains("hunter22"),
            "{o:?}"
        );
    }
}
