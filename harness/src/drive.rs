//! The harness as a driver of the verification machine ([`prufe::core::run::Run`]).
//!
//! The machine decides everything a step's verification decides (when to look again, what
//! the effect means, which inverse to try, when to stop); this module only answers its needs
//! over the DevTools Protocol: settle, read the fingerprint, observe, describe a ref, prepare
//! a target, read the element under a point in one root, send input, read back, ask the arbiter. Each
//! need gets exactly one answer; a failed operation is answered with its typed error, except
//! the errors that end the whole run (a crashed page, a closed browser), which stop the drive
//! at once.

use crate::act::{self, Actionable};
use crate::arbiter::{self, ArbiterConfig};
use crate::error::{Error, Result};
use crate::inject::Engine;
use crate::observe::{Observation, Root, Sensitive};
use crate::stabilise::{fingerprint_over, settle_over, SettleUntil, Timing};
use prufe::core::error::ErrorCode;
use prufe::core::model::Element;
use prufe::core::redact::Redactor;
use prufe::core::run::locate::{Located, Locating};
use prufe::core::run::ready::Size;
use prufe::core::run::{Answer, Gesture, Moment, Need, Point, Read, Record, Run};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;

/// What the driver keeps between needs of one run.
#[derive(Default)]
pub(crate) struct Drive {
    /// The latest observation: its roots route refs, its elements name them.
    last: Option<Observation>,
    /// When it was taken.
    observed_at: Option<std::time::Instant>,
    /// How many needs were answered (round trips of a driver of the machine).
    pub(crate) needs: u32,
    /// How many settles after the step's input ended on the shorter window
    /// (`Answer::Quick`).
    pub(crate) quick: u32,
    /// How many settles from a fingerprint (`since`) ended without the page leaving it: at
    /// the deadline, waiting for an effect the settle did not see.
    pub(crate) unmoved: u32,
    /// The step's input was sent.
    sent: bool,
    /// A pointer step's side: the observation its points were chosen on, and its input.
    pub(crate) pointer: Option<crate::coords::pointer::Pointer>,
    /// The step's pictures, when the trace keeps them (see `pictures`).
    pub(crate) camera: Option<crate::pictures::Camera>,
    /// A semantic drag with its button down, between the machine's gestures.
    dragging: Option<act::Dragging>,
    /// An observation for coordinate steps: how wide its picture may be, and the last one
    /// taken (`Need::Capture`).
    pub(crate) shooting: Option<Shooting>,
}

/// The pictures of an observation for coordinate steps ([`Run::shot`]).
pub(crate) struct Shooting {
    pub(crate) max_width: Option<f64>,
    pub(crate) captured: Option<crate::coords::page::Captured>,
}

impl Drive {
    /// The drive of an observation for coordinate steps, its picture at most `max_width`
    /// wide.
    pub(crate) fn shot(max_width: Option<f64>) -> Drive {
        Drive {
            shooting: Some(Shooting {
                max_width,
                captured: None,
            }),
            ..Drive::default()
        }
    }

    /// The drive of a pointer step.
    pub(crate) fn pointer(p: crate::coords::pointer::Pointer) -> Drive {
        Drive {
            pointer: Some(p),
            ..Drive::default()
        }
    }
}

/// Where a drive stopped.
pub(crate) enum Driven {
    /// The run is over: the record the machine made.
    Done(Box<Record>),
    /// A watch waits for the watched actions ([`Need::Act`]); answer with
    /// [`Answer::Acted`] through [`Tab::drive_from`].
    Act,
}

/// What the needs of a run are answered with: the tab's engine, and what the verifier keeps
/// for it (the refs observed sensitive, the secrets, the timing, the arbiter). The verifier
/// lends it for each drive (see `verify`).
pub(crate) struct Tab<'a> {
    pub(crate) engine: &'a Engine,
    /// Every ref observed sensitive so far; a finished run adds its own.
    pub(crate) sensitive: &'a mut Sensitive,
    pub(crate) redactor: &'a Redactor,
    pub(crate) timing: Timing,
    /// A pause after each input, to watch a headed run.
    pub(crate) slow_mo: Duration,
    pub(crate) arbiter: Option<&'a ArbiterConfig>,
}

impl Tab<'_> {
    /// Runs `run` to its end, answering each need; returns the record the machine made.
    pub(crate) async fn drive(&mut self, run: &mut Run, d: &mut Drive) -> Result<Record> {
        match self.drive_from(run, d, Answer::Start).await? {
            Driven::Done(record) => Ok(*record),
            Driven::Act => Err(Error::core(
                ErrorCode::Internal,
                "only a watch waits for someone else to act",
            )),
        }
    }

    /// Feeds `answer` to `run` and answers its needs until it is over or waits for the
    /// watched actions.
    pub(crate) async fn drive_from(
        &mut self,
        run: &mut Run,
        d: &mut Drive,
        mut answer: Answer,
    ) -> Result<Driven> {
        loop {
            let need = run.next(answer);
            d.needs += 1;
            if let Need::Done { record } = need {
                self.let_go(d).await;
                for r in run.sensitive() {
                    self.sensitive.add(r);
                }
                return Ok(Driven::Done(record));
            }
            if need == Need::Act {
                return Ok(Driven::Act);
            }
            let t = std::time::Instant::now();
            let r = self.answer(&need, d).await;
            if std::env::var_os("PRUFE_TIME_NEEDS").is_some() {
                let name = serde_json::to_value(&need)
                    .ok()
                    .and_then(|v| v["need"].as_str().map(str::to_owned))
                    .unwrap_or_default();
                eprintln!("need {name}: {:.1} ms", t.elapsed().as_secs_f64() * 1000.0);
            }
            answer = match r {
                Ok(a) => {
                    d.sent |= matches!(need, Need::Input { .. });
                    d.quick += u32::from(d.sent && matches!(a, Answer::Quick { .. }));
                    d.unmoved += u32::from(
                        matches!(need, Need::Settle { since: Some(_), .. })
                            && matches!(a, Answer::Settled { changed: false, .. }),
                    );
                    a
                }
                Err(e) if e.is_fatal() || self.engine.watchdog().gone().is_some() => {
                    self.let_go(d).await;
                    return Err(self.engine.watchdog().cause(e));
                }
                Err(e) => Answer::Failed { error: e.to_core() },
            };
        }
    }

    /// The element under `at` now, a point of the top viewport, found by the machine's
    /// locate (core `run::locate`) over this tab's answers: through the frames under it,
    /// reconciled with the boxes of the pointer's observation.
    pub(crate) async fn locate(&mut self, at: Point, d: &mut Drive) -> Result<Option<Element>> {
        let (mut locating, mut need) = Locating::start(at);
        loop {
            let answer = match self.answer(&need, d).await {
                Ok(a) => a,
                Err(e) if e.is_fatal() => return Err(e),
                Err(e) => Answer::Failed { error: e.to_core() },
            };
            match locating.on(answer) {
                Located::Ask(next, asked) => (locating, need) = (*next, asked),
                Located::Done(Answer::Under { element }) => return Ok(element),
                Located::Done(Answer::Failed { error }) => return Err(Error::Core(error)),
                Located::Done(other) => {
                    return Err(Error::core(
                        ErrorCode::Internal,
                        format!("a locate ended on {}", other.name()),
                    ))
                }
            }
        }
    }

    /// The machine releases every button it pressed; should a drag still be under way when
    /// the run ends (a driver error ended it), its button comes up over the drag's start.
    async fn let_go(&self, d: &mut Drive) {
        if let Some(dragging) = d.dragging.take() {
            let at = dragging.start();
            let _ = dragging.up(self.engine, at).await;
        }
    }

    /// One covered capture; `None` when it could not be taken (the step goes on without it).
    async fn covered_shot(
        &self,
        d: &Drive,
        target: Option<&str>,
        effect: &[String],
        point: Option<Point>,
    ) -> Option<crate::pictures::Shot> {
        // A tab that is gone or hung gets no picture; the next need says why.
        self.engine.alive().ok()?;
        let roots = self.roots_of(d).await.ok()?;
        let marks = crate::pictures::Marks {
            target,
            effect,
            point,
        };
        crate::pictures::capture(
            self.engine,
            &roots,
            self.sensitive,
            self.redactor.secrets(),
            &marks,
        )
        .await
        .ok()
    }

    async fn roots_of(&self, d: &Drive) -> Result<Vec<Root>> {
        match &d.last {
            Some(o) => Ok(o.roots.clone()),
            None => self.engine.roots().await,
        }
    }

    /// The element a ref names in the latest observation.
    fn element_of(d: &Drive, reference: &str) -> Element {
        d.last
            .as_ref()
            .and_then(|o| {
                o.snapshot
                    .elements
                    .iter()
                    .find(|e| e.reference == reference)
                    .cloned()
            })
            .unwrap_or_else(|| Element {
                reference: reference.to_owned(),
                ..Element::default()
            })
    }

    /// The live node of a ref, looked up now in the root the ref names.
    async fn actionable(&self, d: &Drive, reference: &str) -> Result<Actionable> {
        let roots = self.roots_of(d).await?;
        let (path, local) = crate::observe::route(reference);
        let root = crate::observe::root_of(&roots, path)?;
        let handle = self.engine.element_handle(&root.frame, local, None).await?;
        Ok(Actionable {
            handle,
            frame: root.frame.clone(),
            reference: local.to_owned(),
        })
    }

    async fn answer(&mut self, need: &Need, d: &mut Drive) -> Result<Answer> {
        let e = self.engine.clone();
        Ok(match need {
            Need::Settle {
                since,
                poll_ms,
                quiet_ms,
                timeout_ms,
                stop_on_change,
                background,
                quick_ms,
                claims,
            } => {
                let until = SettleUntil {
                    poll: Duration::from_millis(*poll_ms),
                    quiet: Duration::from_millis(*quiet_ms),
                    timeout: Duration::from_millis(*timeout_ms),
                    stop_on_change: *stop_on_change,
                    quick: Duration::from_millis(*quick_ms),
                    claims: *claims,
                };
                let s = settle_over(&e, until, since.as_deref(), background).await?;
                let waited_ms = s.waited.as_millis() as u64;
                match s.quick {
                    true => Answer::Quick {
                        fingerprint: s.fingerprint,
                        waited_ms,
                    },
                    false => Answer::Settled {
                        fingerprint: s.fingerprint,
                        stable: s.stable,
                        changed: s.changed,
                        waited_ms,
                    },
                }
            }
            Need::Fingerprint { background } => Answer::Fingerprint {
                fingerprint: fingerprint_over(&e, background).await?,
            },
            Need::Observe { sensitive } => {
                for r in sensitive {
                    self.sensitive.add(r);
                }
                match crate::whole::observe(&e, self.sensitive).await {
                    Ok(o) => {
                        let snapshot = o.snapshot.clone();
                        d.last = Some(o);
                        d.observed_at = Some(std::time::Instant::now());
                        Answer::Observed { snapshot }
                    }
                    Err(err) if crate::stabilise::transient(&err) && !err.is_fatal() => {
                        d.last = None;
                        Answer::Unavailable
                    }
                    Err(err) => return Err(err),
                }
            }
            Need::Describe { reference } => {
                let roots = self.roots_of(d).await?;
                // The live record is the observed one while nothing that can change an
                // observation has happened since it was taken (`prufe.stillFor`).
                if let (Some(o), Some(at)) = (&d.last, d.observed_at) {
                    if let Some(seen) = o
                        .snapshot
                        .elements
                        .iter()
                        .find(|el| &el.reference == reference)
                    {
                        let since_ms = at.elapsed().as_secs_f64() * 1000.0 + 1.0;
                        if e.still_for(&roots).await > since_ms {
                            return Ok(Answer::Described {
                                element: Some(seen.clone()),
                            });
                        }
                    }
                }
                Answer::Described {
                    element: e.describe(&roots, reference).await?,
                }
            }
            Need::Prepare {
                reference,
                hit_test,
            } => {
                // The page engine's prepare (`prufe.prepare`, src/dom/prepare.rs), as every
                // driver answers it: in the ref's own root, its point in that root's viewport
                // (the machine moves a frame's to the top viewport: core `run::lift`).
                let roots = self.roots_of(d).await?;
                let (path, local) = crate::observe::route(reference);
                let root = crate::observe::root_of(&roots, path)?;
                let args = json!({ "ref": local, "hitTest": hit_test, "timeoutMs": self.timing.timeout_ms });
                let answer: Answer = e
                    .call(
                        &root.frame,
                        "(P, a) => P.prepare(a.ref, a.hitTest, a.timeoutMs)",
                        &args,
                    )
                    .await?;
                if matches!(answer, Answer::Scrolled) {
                    d.observed_at = None;
                }
                answer
            }
            Need::Frame { paths } => {
                let roots = self.roots_of(d).await?;
                let (width, height) = act::viewport(&e).await?;
                Answer::Frame {
                    chain: crate::hit::frame_boxes(&e, &roots, paths).await,
                    viewport: Size { width, height },
                }
            }
            Need::HitFrame { path, at } => {
                let roots = self.roots_of(d).await?;
                Answer::Hit {
                    by: crate::hit::hit_frame(&e, &roots, path, *at).await?,
                }
            }
            Need::RevealFrame { path } => {
                let roots = self.roots_of(d).await?;
                crate::hit::reveal_frame(&e, &roots, path).await?;
                d.observed_at = None;
                Answer::Scrolled
            }
            Need::Picture {
                moment,
                target,
                effect,
                point,
                ..
            } => {
                let shot = self
                    .covered_shot(d, target.as_deref(), effect, *point)
                    .await;
                if let Some(c) = d.camera.as_mut() {
                    match moment {
                        Moment::Before => {
                            c.pictures = crate::pictures::Pictures {
                                before: shot,
                                after: None,
                            }
                        }
                        Moment::After => c.pictures.after = shot,
                    }
                }
                Answer::Pictured
            }
            Need::Capture => {
                let Some(shooting) = d.shooting.as_mut() else {
                    return Err(Error::core(
                        ErrorCode::InvalidArgument,
                        "a capture is asked only by an observation for coordinate steps",
                    ));
                };
                let roots = e.roots().await?;
                let top = crate::observe::root_of(&roots, "")?;
                let captured = crate::coords::page::capture(&e, top, shooting.max_width).await?;
                shooting.captured = Some(captured);
                Answer::Captured
            }
            // Asked of a driver that names its roots for a need of the whole page; this one
            // answers such needs whole, by the machine's composition (`whole`).
            Need::Wait { .. } => crate::whole::read(&e, need, &mut self.roots_of(d).await?).await?,
            Need::Input { gesture } => {
                // A pointer that only moves changes the page only through what `stillFor`
                // counts (the page's handlers mutate; its `:hover` rules count once they do
                // more than paint): the observation stays good while the page says so. Any
                // other gesture starts afresh.
                if !matches!(gesture, Gesture::MoveTo { .. }) {
                    d.observed_at = None;
                }
                let answer = self.send(gesture, d).await?;
                let slow_mo = self.slow_mo;
                if !slow_mo.is_zero() {
                    tokio::time::sleep(slow_mo).await;
                }
                answer
            }
            Need::Read { read } => match read {
                Read::Value { reference } => {
                    let a = self.actionable(d, reference).await?;
                    Answer::Value {
                        value: act::read_value(&e, &a).await?,
                    }
                }
                Read::Hash { reference, value } => {
                    let roots = self.roots_of(d).await?;
                    Answer::Hash {
                        hash: e.hash(&roots, reference, value).await?,
                    }
                }
                Read::Destination { reference } => {
                    let a = self.actionable(d, reference).await?;
                    Answer::Destination {
                        destination: act::destination(&e, &a).await?,
                    }
                }
                Read::Address => Answer::Address {
                    url: e.main_frame().await?.url,
                },
                Read::Previous => Answer::Address {
                    url: crate::act::previous_entry(&e).await?.unwrap_or_default(),
                },
                Read::Focused => {
                    let roots = self.roots_of(d).await?;
                    let top = crate::observe::root_of(&roots, "")?;
                    Answer::Focused {
                        element: crate::coords::page::focused_in(&e, top).await?.1,
                    }
                }
                Read::Roots => Answer::Roots {
                    paths: self
                        .roots_of(d)
                        .await?
                        .into_iter()
                        .map(|r| r.path)
                        .collect(),
                },
                // One root's, in its own viewport and terms: the machine looks into the
                // frames under a point and moves the boxes (core `run::locate`).
                Read::Under { path, at } => {
                    let roots = self.roots_of(d).await?;
                    let root = crate::observe::root_of(&roots, path)?;
                    Answer::Under {
                        element: crate::coords::page::element_at(&e, root, *at).await?,
                    }
                }
                Read::HitBoxes { path } => {
                    let roots = self.roots_of(d).await?;
                    let root = crate::observe::root_of(&roots, path)?;
                    Answer::HitBoxes {
                        boxes: crate::coords::page::hit_boxes_of(&e, root).await?,
                    }
                }
                Read::Aimed => Answer::Aimed {
                    boxes: d.pointer.as_ref().map(|p| p.boxes().to_vec()),
                },
                Read::FocusedIn { path } => {
                    let roots = self.roots_of(d).await?;
                    let root = crate::observe::root_of(&roots, path)?;
                    let (has, element) = crate::coords::page::focused_in(&e, root).await?;
                    Answer::FocusedIn { has, element }
                }
                Read::Scroll { at } => {
                    let roots = e.roots().await?;
                    let top = roots.first().ok_or_else(|| {
                        Error::core(ErrorCode::BrowserError, "the page has no document")
                    })?;
                    let position = match at {
                        Some(p) => Some(crate::coords::page::scroll_begin(&e, top, *p).await?),
                        None => crate::coords::page::scroll_read(&e, top).await?,
                    };
                    Answer::Position { position }
                }
                Read::Selection { reference } => {
                    let roots = self.roots_of(d).await?;
                    Answer::Selection {
                        selection: crate::coords::page::selection(&e, &roots, reference).await?,
                    }
                }
                Read::Snapshot { .. } | Read::Pulse { .. } => {
                    crate::whole::read(&e, need, &mut self.roots_of(d).await?).await?
                }
                Read::Network { .. } => {
                    let (input_ms_ago, requests) = e.heard_requests();
                    Answer::Network {
                        input_ms_ago,
                        requests,
                    }
                }
            },
            Need::Ask {
                question,
                timeout_ms,
                max_chars,
            } => match self.arbiter {
                // Within the machine's bound; it reads and words what comes back.
                Some(config) => {
                    let config = ArbiterConfig {
                        timeout: Duration::from_millis(*timeout_ms),
                        ..config.clone()
                    };
                    let max_chars = usize::try_from(*max_chars).unwrap_or(usize::MAX);
                    arbiter::ask(&config, question, max_chars).await
                }
                None => Answer::NoArbiter,
            },
            Need::Done { .. } | Need::Act => unreachable!("the drive loop returns on these"),
        })
    }

    /// Sends one gesture.
    async fn send(&mut self, gesture: &Gesture, d: &mut Drive) -> Result<Answer> {
        let e = self.engine.clone();
        e.mark_input();
        // A coordinate step's input goes through the executor's ledger; so does a key on
        // whatever has the focus, there.
        if matches!(
            gesture,
            Gesture::Click { .. }
                | Gesture::MoveTo { .. }
                | Gesture::Down { .. }
                | Gesture::Up { .. }
                | Gesture::Wheel { .. }
                | Gesture::Insert { .. }
                | Gesture::Press {
                    reference: None,
                    ..
                }
        ) {
            if let Some(p) = d.pointer.as_mut() {
                p.send(&e, gesture).await?;
                return Ok(Answer::Sent);
            }
        }
        match gesture {
            Gesture::Click { at, button } => {
                act::click_with(&e, *at, *button).await?;
            }
            Gesture::MoveTo { at } => match d.dragging.as_mut() {
                Some(dragging) => dragging.move_to(&e, *at).await?,
                None => act::move_mouse(&e, *at).await?,
            },
            Gesture::Down { at, button } => {
                self.let_go(d).await;
                d.dragging = Some(act::Dragging::down(&e, *at, *button).await?);
            }
            Gesture::Up { at, button } => match d.dragging.take() {
                Some(dragging) => dragging.up(&e, *at).await?,
                None => act::release_mouse(&e, *at, *button).await?,
            },
            Gesture::Focus { reference, select } => {
                let a = self.actionable(d, reference).await?;
                let held = match select {
                    true => act::focus_select(&e, &a).await?,
                    false => act::focus(&e, &a).await?,
                };
                return Ok(Answer::Focus { held });
            }
            Gesture::Insert { text } => act::insert_text(&e, text).await?,
            Gesture::Press { reference, keys } => {
                if let Some(r) = reference {
                    let a = self.actionable(d, r).await?;
                    act::focus(&e, &a).await?;
                }
                act::press(&e, keys).await?;
            }
            Gesture::Select { reference, option } => {
                let a = self.actionable(d, reference).await?;
                act::select_option(&e, &a, option).await?;
            }
            Gesture::Restore { reference, value } => {
                let a = self.actionable(d, reference).await?;
                act::restore_select(&e, &a, value).await?;
            }
            Gesture::SetFiles { reference, files } => {
                let roots = self.roots_of(d).await?;
                let element = Self::element_of(d, reference);
                let files: Vec<PathBuf> = files.iter().map(PathBuf::from).collect();
                act::set_files(&e, &roots, &element, &files).await?;
            }
            Gesture::Navigate { url } => {
                let loader = act::navigate(&e, url).await?;
                wait_for_document(self.engine, self.timing, loader.as_deref()).await?;
                d.last = None;
            }
            Gesture::GoBack => {
                let old = e.main_frame().await?.loader;
                if !act::history_back(&e).await? {
                    return Err(Error::Navigation(
                        "there is no history entry to go back to".into(),
                    ));
                }
                wait_for_new_document(self.engine, self.timing, &old).await?;
                d.last = None;
            }
            Gesture::Wheel { .. } => {
                return Err(Error::core(
                    ErrorCode::Internal,
                    "a wheel turn is sent by the coordinate executor's drive",
                ))
            }
        }
        Ok(Answer::Sent)
    }
}

/// Waits until the main frame shows the document of navigation `loader` and the engine
/// answers in it.
pub(crate) async fn wait_for_document(
    engine: &Engine,
    timing: Timing,
    loader: Option<&str>,
) -> Result<()> {
    let deadline =
        std::time::Instant::now() + Duration::from_millis(timing.timeout_ms.max(1_000) * 2);
    loop {
        engine.alive()?;
        if let Ok(main) = engine.main_frame().await {
            let loaded = loader.is_none_or(|l| main.loader == l);
            if loaded {
                let state = engine
                    .call_value(&main.id, "(P) => P.page()", &Value::Null)
                    .await
                    .map(|p| p["readyState"].clone());
                if matches!(
                    state.as_ref().ok().and_then(Value::as_str),
                    Some("interactive" | "complete")
                ) {
                    return Ok(());
                }
                if let Err(e) = &state {
                    if e.code() == ErrorCode::WasmBlocked {
                        return Err(state.unwrap_err());
                    }
                }
            }
        }
        if std::time::Instant::now() >= deadline {
            return Err(Error::Navigation(
                "the new document did not load in time".into(),
            ));
        }
        tokio::time::sleep(Duration::from_millis(timing.poll_ms.max(10))).await;
    }
}

/// Waits until the main frame shows a document other than `old_loader`'s, and the engine
/// answers in it (at most the step's timeout).
pub(crate) async fn wait_for_new_document(
    engine: &Engine,
    timing: Timing,
    old_loader: &str,
) -> Result<()> {
    let deadline =
        std::time::Instant::now() + std::time::Duration::from_millis(timing.timeout_ms.max(1_000));
    loop {
        engine.alive()?;
        if let Ok(main) = engine.main_frame().await {
            if main.loader != old_loader {
                return wait_for_document(engine, timing, Some(&main.loader)).await;
            }
        }
        if std::time::Instant::now() >= deadline {
            return Ok(());
        }
        tokio::time::sleep(std::time::Duration::from_millis(timing.poll_ms.max(10))).await;
    }
}
