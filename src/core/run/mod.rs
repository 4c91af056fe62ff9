//! The verification loop of one step, as a value: sans-I/O, the way quinn-proto's
//! `Connection` and rustls's state machines are.
//!
//! ```text
//! settle (learn the background) → observe → resolve → re-describe → prepare → act
//!   → settle (while busy: settle again) → observe → judge ─┬─ MATCH ─────────────────→ done
//!                                                          ├─ AMBIGUOUS → policy | arbiter
//!                                                          └─ MISMATCH → undo → verify undo ─┬→ retry
//!                                                                                            ├→ UNDO_FAILED
//!                                                                                            └→ IRREVERSIBLE_ACTION
//! ```
//!
//! A [`Run`] is fed [`Answer`]s and returns the [`Need`] it has next, until
//! [`Need::Done`] carries the step's [`Record`]. It never touches a browser, a clock or a
//! socket: the driver (the CDP harness, a Node or Python driver of the in-page bundle, an
//! MCP server) performs each need and answers it. Every decision of the loop is made here,
//! once, so the drivers cannot disagree, and every decision is tested with scripted answers
//! (`tests/core_run.rs`). A `Run` is serialisable: a driver that loses its page context in a
//! navigation (the bundle's globals go with the document) keeps the run's JSON and carries
//! on. Trade-off: the serialised run holds the snapshots it still needs (before and after)
//! and the step as given, a sensitive fill's value included, so it must be kept as private
//! as the step itself.
//!
//! Semantic steps (`click`, `fill`, …, on a declared target) and pointer steps (`clickAt`,
//! `dragAt`, on a point of an observation) drive the same machine; they differ only in how
//! the target is found (resolved on the snapshot and re-described, or located under the
//! point) and in what the record names. A watch is a short run of its own:
//! settle → observe → act (the driver lets the watched actions happen) → settle → observe →
//! judge by the intent alone → policy | arbiter, never undone.

pub mod across;
pub mod arbiter;
mod attaching;
mod attempt;
mod back;
pub mod camera;
pub mod capture;
pub mod chord;
pub mod dialogs;
pub mod drag;
mod fill;
mod focus;
mod grown;
pub mod hitbox;
pub mod inverse;
mod key;
mod lift;
pub mod locate;
mod look;
pub mod navigation;
pub mod need;
pub mod picture;
mod point;
mod pointer;
pub mod policy;
pub mod prompt;
pub mod quiet;
pub mod ready;
pub mod record;
pub mod requests;
mod rewatch;
pub mod screen;
mod scroll;
mod settle;
pub mod shot;
pub mod step;
pub mod trace;
mod typing;
mod undo;
mod verdict;
mod wait;
mod watch;
pub mod whole;

pub use navigation::Destination;
pub use need::{
    Answer, Button, Chat, ChatMessage, Gesture, Moment, Need, Point, Question, Read,
    ScrollPosition, Selection,
};
pub use policy::{Ambiguous, Policy, Timing};
pub use record::Record;
pub use screen::{HitBox, Pick, Screen, Size};
pub use scroll::Scrolled;
pub use step::{Action, Step};

use crate::core::background::Background;
use crate::core::error::{Error, ErrorCode};
use crate::core::expect::Outcome;
use crate::core::judge::Verdict;
use crate::core::model::{Element, Snapshot};
use crate::core::redact::Redactor;
use serde::{Deserialize, Serialize};

/// Observe and resolve again at most this many times when the target was recycled, scrolled
/// or moved under the pointer before input.
pub const MAX_RESCANS: u32 = 4;

/// A page that still says it is working is observed again after each further quiet window,
/// at most this many times (and never past the deadline).
pub const MAX_BUSY_RESCANS: u32 = 20;

/// An element is tried this many times when the undo has to scroll to it.
pub const MAX_UNDO_SCROLLS: u32 = 3;

/// The driver's last observation of a document and the fingerprint it was taken at: hand
/// it to the next run ([`Run::with_seen`]) so that what the page changed by itself since is
/// learnt as background. It carries the background learnt on that document so far: a clock
/// that ticked before one step still ticks before the next, and the next run starts from
/// it instead of waiting for the page to show it again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Seen {
    pub fingerprint: String,
    pub snapshot: Snapshot,
    #[serde(default, skip_serializing_if = "Background::is_empty")]
    pub background: Background,
}

/// Verified, or performed only (a declared inverse; the inner steps of a watch).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
enum Mode {
    Verified,
    /// With `settle`, waits for the step's effect to show before it is done.
    Unverified {
        settle: bool,
    },
    /// No action: settle, learning what the page changes by itself, and observe
    /// ([`Run::look`]).
    Look,
    /// No action: look until a postcondition holds ([`Run::wait`]).
    Wait,
    /// Back one entry in the tab's history ([`Run::back`]).
    Back,
    /// No action: an observation for coordinate steps, settled first with `settle`
    /// ([`Run::shot`]).
    Shot {
        settle: bool,
    },
}

/// One attempt: the observations around the input and what was found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Attempt {
    before: Snapshot,
    after: Snapshot,
    target: Option<Element>,
    /// A drag's destination element.
    to: Option<Element>,
    point: Option<Point>,
    to_point: Option<Point>,
    /// The field's value before a fill or select, for the undo (never shown).
    previous: Option<String>,
    destination: Option<Destination>,
    fp0: String,
    /// The fingerprint the last settle ended on.
    fingerprint: String,
    stable_before: bool,
    stable_after: bool,
    left_ms: u64,
    /// The shorter window ended a settle before the action while requests were under way:
    /// the rest of that settle takes the full window.
    #[serde(default)]
    slow_before: bool,
    busy_rescans: u32,
    /// Why the page said it was working at the last quiet point, and at the deadline.
    working: Option<String>,
    busy: Option<String>,
    background: Background,
    /// Slots seen changing in one pair so far, while looking ([`Background::observe_repeated`]).
    #[serde(default, skip_serializing_if = "Background::is_empty")]
    once: Background,
    /// The latest snapshot taken while settling before the action.
    shown: Option<Snapshot>,
    /// Already in the requested state: nothing dispatched.
    noop: bool,
    /// The pointer was moved onto the target's row to show a hidden target.
    revealed: bool,
    /// The baseline was observed again with the pointer on the target.
    rebased: bool,
    /// The focus was put on a press's target before its keys (`attempt::focus_first`).
    #[serde(default)]
    focused_first: bool,
    /// How long, and how many times, the run waited for a frame to attach (`attaching`).
    #[serde(default)]
    attaching_ms: u64,
    #[serde(default)]
    attaching_looks: u32,
    /// The page was watched once more after the action (`rewatch`).
    #[serde(default)]
    rewatched: bool,
    value_hash: Option<String>,
    /// The field focused after a pointer click.
    focus: Option<Element>,
    /// How many steps the driver performed for a watch.
    watched: u32,
    verdict: Option<Verdict>,
    /// How the step's typed claims came out, once judged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    expect: Vec<Outcome>,
    arbiter: Option<String>,
}

/// Where the run is: which answer it waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "phase",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
enum Phase {
    Start,
    Settle {
        settling: settle::Before,
    },
    Before {
        again: bool,
    },
    /// The target was not found while a frame is still out of reach (`attaching`).
    Attaching {
        missing: Box<Error>,
    },
    Describe {
        again: bool,
    },
    Prepare {
        again: bool,
    },
    Arrive,
    PrepareTo,
    Locate {
        spot: pointer::Spot,
    },
    ReadPrevious,
    ReadDestination,
    /// A press's target is being focused before its keys.
    FocusFirst,
    Fingerprint0,
    /// The pointer's arrival changed the page (a hover reveal): observing it as the baseline.
    Rebase,
    /// A hidden target shown by hovering its row: where the row is, then the move there.
    Reveal {
        moved: bool,
    },
    Input,
    ReadFocus,
    After {
        settling: settle::After,
    },
    /// Watching for a tick after the action before a refusal (`rewatch`).
    Rewatch {
        at: rewatch::Rewatch,
    },
    ReadHash,
    ReadAddress,
    Ask,
    Undo,
    Watch {
        at: watch::At,
    },
    /// A look's observation is taken: is the page still at the fingerprint it settled on?
    Looked,
    /// A wait for a postcondition ([`Run::wait`]).
    Wait {
        at: wait::At,
    },
    /// Going back in history ([`Run::back`]).
    Back {
        at: back::At,
    },
    /// An observation for coordinate steps ([`Run::shot`]).
    Shot {
        at: shot::At,
    },
    /// A key chord (`Action::Key`).
    Key {
        at: key::At,
    },
    /// A wheel turn at a point (`Action::ScrollAt`).
    Scroll {
        at: scroll::At,
    },
    /// Typing into the focused field (`Action::TypeText`).
    Type {
        at: typing::At,
    },
    /// A drag with the button down (`drag`).
    Drag {
        at: drag::At,
    },
    Done {
        record: Box<Record>,
    },
}

/// The verification of one step. See the module docs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    step: Step,
    policy: Policy,
    mode: Mode,
    seen: Option<Seen>,
    /// Refs declared sensitive during the run (sticky: sent with every observation).
    sensitive: Vec<String>,
    secrets: Vec<String>,
    attempts: u32,
    undone: u32,
    rescans: u32,
    dispatched: bool,
    attempt: Attempt,
    /// A pointer step's undone failure, reported if its retry cannot start.
    failed: Option<Record>,
    undo: Option<undo::Undoing>,
    /// A wait's condition and what it learnt so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    waiting: Option<wait::Waiting>,
    /// A scroll's container and where it stood.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scrolling: Option<scroll::Scrolling>,
    /// What typing should leave in the field (a secret when the text is one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    typing: Option<typing::Typing>,
    /// A field being filled by its ref (the step's own input, or an undo's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    filling: Option<fill::Filling>,
    /// A prepare of a ref in a frame, moved to the top viewport (`lift`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lifting: Option<lift::Lifting>,
    /// A read of the focus, followed into the frames it is in (`focus`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    focusing: Option<focus::Focusing>,
    /// The element under a point, looked for across the roots (`locate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    locating: Option<Box<locate::Locating>>,
    /// What an observation for coordinate steps found (`shot`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shot: Option<shot::Shot>,
    /// The step's pictures, when the policy asks for them (`camera`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    camera: Option<camera::Camera>,
    /// A need of the whole page asked, composed root by root when the driver names its
    /// roots (`whole`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    whole: Option<Box<whole::Composing>>,
    pending: String,
    phase: Phase,
}

impl Run {
    /// A verified run of `step`. Start it with `next(Answer::Start)`.
    pub fn new(step: Step, policy: Policy) -> Run {
        Run::with_mode(step, policy, Mode::Verified)
    }

    /// A run that performs `step` without judging it (a declared inverse, a watched step).
    /// With `settle`, it waits for the step's effect to show before it is done.
    pub fn unverified(step: Step, policy: Policy, settle: bool) -> Run {
        Run::with_mode(step, policy, Mode::Unverified { settle })
    }

    fn with_mode(step: Step, policy: Policy, mode: Mode) -> Run {
        let mut run = Run {
            step,
            policy,
            mode,
            seen: None,
            sensitive: Vec::new(),
            secrets: Vec::new(),
            attempts: 0,
            undone: 0,
            rescans: 0,
            dispatched: false,
            attempt: Attempt::default(),
            failed: None,
            undo: None,
            waiting: None,
            scrolling: None,
            typing: None,
            filling: None,
            lifting: None,
            focusing: None,
            locating: None,
            shot: None,
            camera: None,
            whole: None,
            pending: "start".into(),
            phase: Phase::Start,
        };
        if let Action::Fill {
            value: secret,
            sensitive: true,
            ..
        }
        | Action::TypeText {
            text: secret,
            sensitive: true,
            ..
        } = &run.step.action
        {
            let secret = secret.clone();
            run.add_secret(&secret);
        }
        run
    }

    /// The driver's last observation of this document, taken while nothing else acted.
    pub fn with_seen(mut self, seen: Option<Seen>) -> Run {
        self.seen = seen;
        self
    }

    /// Feeds the answer to the last need and returns the next one.
    pub fn next(&mut self, answer: Answer) -> Need {
        let answer = match self.whole.take() {
            Some(whole) => match whole.on(answer) {
                whole::Composed::Ask(whole, need) => {
                    self.whole = Some(whole);
                    return need;
                }
                whole::Composed::Done(answer) => answer,
            },
            None => answer,
        };
        let need = self.pictured(answer);
        self.whole = whole::Composing::of(&need).map(Box::new);
        need
    }

    /// [`Run::next`] once a need of the whole page is composed.
    fn pictured(&mut self, answer: Answer) -> Need {
        // A picture's answer, whatever it was: the need it was asked before goes on.
        if let Some(held) = self.camera.as_mut().and_then(camera::Camera::resume) {
            return held;
        }
        let effect = match (&self.camera, &answer) {
            (Some(c), Answer::Observed { snapshot }) if self.phase() == "after" => {
                Some(c.effect(snapshot))
            }
            _ => None,
        };
        let need = self.advance(answer);
        if !self.policy.pictures || (effect.is_none() && matches!(need, Need::Done { .. })) {
            return need;
        }
        let phase = self.phase();
        let attempts = self.attempts;
        let camera = self.camera.get_or_insert_with(Default::default);
        camera.around(need, phase, attempts, &self.attempt.before, effect)
    }

    /// [`Run::next`] without the pictures.
    fn advance(&mut self, answer: Answer) -> Need {
        if matches!(self.phase, Phase::Start) && matches!(answer, Answer::Start) {
            if let Err(e) = self.step.action.name_keys() {
                return self.fail(e);
            }
            if let Err(e) = self.step.action.check_limits() {
                return self.fail(e);
            }
            if let Err(e) = self.step.check_inverse() {
                return self.fail(e);
            }
        }
        let answer = match self.lifting.take() {
            Some(lifting) => match lifting.on(answer) {
                lift::Lifted::Ask(lifting, need) => {
                    self.lifting = Some(lifting);
                    return self.ask(need);
                }
                lift::Lifted::Done(answer) => answer,
            },
            None => answer,
        };
        let answer = match self.focusing.take() {
            Some(focusing) => match focusing.on(answer) {
                focus::Focused::Ask(focusing, need) => {
                    self.focusing = Some(*focusing);
                    return self.ask(need);
                }
                focus::Focused::Done(answer) => answer,
            },
            None => answer,
        };
        let answer = match self.locating.take() {
            Some(locating) => match locating.on(answer) {
                locate::Located::Ask(locating, need) => {
                    self.locating = Some(locating);
                    return self.ask(need);
                }
                locate::Located::Done(answer) => answer,
            },
            None => answer,
        };
        let answer = self.unreadable(answer);
        match (self.phase.clone(), answer) {
            (Phase::Done { record }, _) => Need::Done { record },
            (Phase::Start, Answer::Start) if self.mode == Mode::Look => self.begin_look(),
            (Phase::Start, Answer::Start) if self.mode == Mode::Wait => self.begin_wait(),
            (Phase::Wait { at }, a) => self.on_wait(at, a),
            (Phase::Start, Answer::Start) if self.mode == Mode::Back => self.begin_back(),
            (Phase::Start, Answer::Start) if matches!(self.mode, Mode::Shot { .. }) => {
                let Mode::Shot { settle } = self.mode else {
                    unreachable!("matched above")
                };
                self.begin_shot(settle)
            }
            (Phase::Shot { at }, a) => self.on_shot(at, a),
            (Phase::Back { at }, a) => self.on_back(at, a),
            (Phase::Start, Answer::Start) if matches!(self.step.action, Action::Key { .. }) => {
                self.begin_key()
            }
            (Phase::Key { at }, a) => self.on_key(at, a),
            (Phase::Start, Answer::Start)
                if matches!(self.step.action, Action::ScrollAt { .. }) =>
            {
                self.begin_scroll()
            }
            (Phase::Scroll { at }, a) => self.on_scroll(at, a),
            (Phase::Start, Answer::Start)
                if matches!(self.step.action, Action::TypeText { .. }) =>
            {
                self.begin_type()
            }
            (Phase::Type { at }, a) => self.on_type(at, a),
            (Phase::Drag { at }, a) => self.on_drag(at, a),
            (Phase::Start, Answer::Start) if !self.step.expect.is_empty() && self.is_verified() => {
                match crate::core::expect::validate(&self.step.expect) {
                    Err(e) => self.fail(e),
                    Ok(()) if matches!(self.step.action, Action::Watch { .. }) => {
                        self.begin_watch()
                    }
                    Ok(()) => self.begin_attempt(),
                }
            }
            (Phase::Start, Answer::Start) if matches!(self.step.action, Action::Watch { .. }) => {
                self.begin_watch()
            }
            (Phase::Start, Answer::Start) => self.begin_attempt(),
            (Phase::Watch { at }, a) => self.on_watch(at, a),
            (Phase::Looked, a) => self.on_looked(a),
            (Phase::Settle { settling }, a) => self.on_settle_before(settling, a),
            (Phase::After { settling }, a) => self.on_settle_after(settling, a),
            (Phase::Rewatch { at }, a) => self.on_rewatch(at, a),
            (Phase::Undo, a) => self.on_undo(a),
            (Phase::Attaching { missing }, a) => self.on_attaching(*missing, a),
            (Phase::Locate { spot }, a) => self.on_locate(spot, a),
            (phase, a) => self.on_attempt(phase, a),
        }
    }

    /// Where the run is, as its JSON names it (`run.phase.phase`): `input` while the step's
    /// own input is asked for, `arrive` for the pointer move before it, `after` while the
    /// effect is settled and observed, `undo` while it is taken back, … A driver that keeps
    /// pictures of a step takes them at these points.
    pub fn phase(&self) -> &'static str {
        match &self.phase {
            Phase::Start => "start",
            Phase::Settle { .. } => "settle",
            Phase::Before { .. } => "before",
            Phase::Attaching { .. } => "attaching",
            Phase::Describe { .. } => "describe",
            Phase::Prepare { .. } => "prepare",
            Phase::Arrive => "arrive",
            Phase::PrepareTo => "prepareTo",
            Phase::Locate { .. } => "locate",
            Phase::ReadPrevious => "readPrevious",
            Phase::ReadDestination => "readDestination",
            Phase::FocusFirst => "focusFirst",
            Phase::Fingerprint0 => "fingerprint0",
            Phase::Rebase => "rebase",
            Phase::Reveal { .. } => "reveal",
            Phase::Input => "input",
            Phase::ReadFocus => "readFocus",
            Phase::After { .. } => "after",
            Phase::Rewatch { .. } => "rewatch",
            Phase::ReadHash => "readHash",
            Phase::ReadAddress => "readAddress",
            Phase::Ask => "ask",
            Phase::Undo => "undo",
            Phase::Watch { .. } => "watch",
            Phase::Looked => "looked",
            Phase::Wait { .. } => "wait",
            Phase::Back { .. } => "back",
            Phase::Shot { .. } => "shot",
            Phase::Key { .. } => "key",
            Phase::Scroll { .. } => "scroll",
            Phase::Type { .. } => "type",
            Phase::Drag { .. } => "drag",
            Phase::Done { .. } => "done",
        }
    }

    /// Attempts started so far.
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// Is the run over?
    pub fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done { .. })
    }

    /// What to hand the next run as [`Run::with_seen`]: the last observation when the step
    /// passed without an undo, or when it sent nothing; `None` once something acted on the
    /// page that the run did not observe to its end.
    pub fn seen(&self) -> Option<&Seen> {
        self.seen.as_ref()
    }

    /// Refs that became sensitive during the run: declare them in every later observation.
    pub fn sensitive(&self) -> &[String] {
        &self.sensitive
    }

    /// Where typing goes next: the element focused after a pointer click or a key, the
    /// field typed into.
    pub fn focused(&self) -> Option<&Element> {
        self.attempt.focus.as_ref()
    }

    /// Records the need the run now waits on, for the message of an answer that does not fit.
    /// Asks what lies under `at` now (`locate`); its answer comes as [`Answer::Under`].
    fn locate(&mut self, at: Point) -> Need {
        let (locating, need) = locate::Locating::start(at);
        self.locating = Some(Box::new(locating));
        self.ask(need)
    }

    fn ask(&mut self, need: Need) -> Need {
        if self.lifting.is_none() {
            self.lifting = lift::Lifting::of(&need);
        }
        if self.focusing.is_none() {
            self.focusing = focus::Focusing::of(&need);
        }
        self.pending = serde_json::to_value(&need)
            .ok()
            .and_then(|v| v["need"].as_str().map(str::to_owned))
            .unwrap_or_default();
        need
    }

    fn is_verified(&self) -> bool {
        self.mode == Mode::Verified
    }

    /// Does the settle before the action learn the background?
    fn learns(&self) -> bool {
        matches!(self.mode, Mode::Verified | Mode::Look)
    }

    fn add_secret(&mut self, secret: &str) {
        if !self.secrets.iter().any(|s| s == secret) {
            self.secrets.push(secret.to_owned());
        }
    }

    /// The session's secrets (the policy's forms) and the step's own.
    fn redactor(&self) -> Redactor {
        let mut r = Redactor::default();
        r.add_forms(self.policy.secrets.iter().cloned());
        for s in &self.secrets {
            r.add_secret_and_encodings(s);
        }
        r
    }

    fn observe(&mut self) -> Need {
        self.ask(Need::Observe {
            sensitive: self.sensitive.clone(),
        })
    }

    /// A fingerprint the page could not give now: the need answered [`Answer::Failed`] with a
    /// code of a page that cannot answer yet ([`ErrorCode::is_transient`]: a document being
    /// replaced) is read as [`quiet::UNREACHABLE`], unequal to every page's own. The page moved;
    /// what follows a move where the fingerprint was asked (a settle, which waits through the
    /// navigation to its deadline, a look again, a rescan before the input) is the retry, and
    /// the step's timeout its bound. A driver answers the failure as it came and never asks
    /// again itself. Any other code ends the step where it is answered.
    fn unreadable(&self, answer: Answer) -> Answer {
        match answer {
            Answer::Failed { error }
                if self.pending == "fingerprint" && error.code.is_transient() =>
            {
                Answer::Fingerprint {
                    fingerprint: quiet::UNREACHABLE.to_owned(),
                }
            }
            answer => answer,
        }
    }

    /// An answer that does not fit the need: the driver is out of step, so the run stops.
    fn out_of_step(&mut self, answer: &Answer) -> Need {
        let message = format!(
            "the answer '{}' does not fit the last need ('{}'); answer each need with its own answer",
            answer.name(),
            self.pending
        );
        self.fail(Error::new(ErrorCode::InvalidArgument, message))
    }

    /// Ends the run with `error` and no verdict (nothing judged).
    fn fail(&mut self, error: Error) -> Need {
        let record = Record {
            action: self.step.action.name().into(),
            target: self.step.action.shown_target(self.attempt.target.as_ref()),
            intent: self.step.intent.clone(),
            value: self.step.action.shown_value(self.attempt.target.as_ref()),
            reason: error.to_string(),
            error: Some(error),
            attempts: self.attempts,
            undone: self.undone,
            ..Record::default()
        };
        if self.dispatched {
            self.seen = None;
        }
        self.finish(record)
    }

    /// Ends the run with `record`, scrubbed of every secret the run knows.
    fn finish(&mut self, mut record: Record) -> Need {
        record.scrub(&self.redactor());
        let record = Box::new(record);
        self.phase = Phase::Done {
            record: record.clone(),
        };
        self.pending = "done".into();
        Need::Done { record }
    }
}
