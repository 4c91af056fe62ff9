//! From the observation before the action to the input: resolve, re-check identity,
//! actionability, the reads the judge and the undo need, then the gesture.
//!
//! - Resolve runs on the snapshot (core `resolve`); its errors (`TARGET_AMBIGUOUS` with
//!   candidates, `TARGET_NOT_FOUND`, …) end the step with nothing dispatched.
//! - Right before input the live node is described again; a node that now shows something
//!   else (a recycled row), or is gone, is never acted on: the run settles, observes and
//!   resolves again, at most [`MAX_RESCANS`] times, then `TARGET_CHANGED`. A node that became
//!   disabled or hidden ends the step (`TARGET_DISABLED`, `TARGET_NOT_VISIBLE`).
//! - A pointer gesture arrives before the button goes down, as a person's does; arriving may
//!   change the page (a list that re-renders on pointerenter), so identity and hit test are
//!   checked once more with the pointer in place, and the point must not have moved.
//! - A `check` or `uncheck` of a box already in that state dispatches nothing: MATCH.
//! - A sensitive fill declares its field sensitive before the observation the judge reads,
//!   so the before snapshot already redacts it.

use super::need::{Answer, Gesture, Need, Read};
use super::step::Action;
use super::{Mode, Phase, Run, MAX_RESCANS};
use crate::core::diff::{diff, DiffOptions};
use crate::core::error::{Error, ErrorCode};
use crate::core::identity::{describe_element, is_in_place, Identity};
use crate::core::judge::{Verdict, VerdictKind};
use crate::core::model::{Element, Snapshot, Tristate};
use crate::core::resolve::resolve;

/// How a message names `element` (the machine's record of it, in the merged page's terms),
/// or `otherwise` when there is none.
fn describe_or(element: Option<&Element>, otherwise: &str) -> String {
    element.map_or_else(|| otherwise.to_owned(), describe_element)
}

/// The error of a step whose page kept replacing its document before the input.
pub(super) fn replaced_before() -> Error {
    Error::new(
        ErrorCode::StaleObservation,
        "the document kept being replaced before input; nothing was dispatched",
    )
}

impl Run {
    /// A new attempt: settle, observe, find the target, act.
    pub(super) fn begin_attempt(&mut self) -> Need {
        self.attempts += 1;
        self.rescans = 0;
        self.attempt = Default::default();
        self.settle_before(true)
    }

    pub(super) fn observe_before(&mut self, again: bool) -> Need {
        self.phase = Phase::Before { again };
        self.observe()
    }

    pub(super) fn diff_options(&self) -> DiffOptions {
        DiffOptions {
            regions: self.policy.regions.clone(),
            ignore_regions: self.policy.ignore_regions.clone(),
        }
    }

    /// The target moved, was recycled or scrolled: settle and look again, or give up.
    fn rescan(&mut self, give_up: impl FnOnce(&Run) -> Error) -> Need {
        self.rescans += 1;
        if self.rescans > MAX_RESCANS {
            let e = give_up(self);
            return self.fail(e);
        }
        self.settle_before(false)
    }

    fn rescan_target(&mut self) -> Need {
        self.rescan(|run| {
            let what = describe_or(run.attempt.target.as_ref(), "the target");
            Error::new(
                ErrorCode::TargetChanged,
                format!("{what} kept changing under the pointer; nothing was dispatched"),
            )
        })
    }

    fn target_ref(&self) -> String {
        self.attempt
            .target
            .as_ref()
            .map(|t| t.reference.clone())
            .unwrap_or_default()
    }

    pub(super) fn on_attempt(&mut self, phase: Phase, answer: Answer) -> Need {
        let recycled =
            |e: &Error| matches!(e.code, ErrorCode::StaleReference | ErrorCode::TargetChanged);
        match (phase, answer) {
            (Phase::Before { again }, Answer::Observed { snapshot }) => {
                self.on_before(snapshot, again)
            }
            (Phase::Before { .. }, Answer::Unavailable) => self.rescan(|_| replaced_before()),
            (Phase::Describe { again }, Answer::Described { element }) => {
                self.on_described(element, again)
            }
            (Phase::Describe { .. } | Phase::Prepare { .. }, Answer::Failed { error })
                if recycled(&error) =>
            {
                self.rescan_target()
            }
            (Phase::Prepare { again }, Answer::Prepared { point }) => {
                if again {
                    if self.attempt.point != Some(point) {
                        return self.rescan_target();
                    }
                    return self.prepare_destination();
                }
                self.attempt.point = Some(point);
                let arrive = self.step.action.needs_hit_test()
                    && !matches!(self.step.action, Action::Hover { .. });
                if !arrive {
                    return self.prepare_destination();
                }
                self.phase = Phase::Arrive;
                self.ask(Need::Input {
                    gesture: Gesture::MoveTo { at: point },
                })
            }
            (Phase::Prepare { .. }, Answer::Scrolled) => self.rescan_target(),
            (Phase::Prepare { .. }, Answer::Refused { refusal }) => {
                let what = describe_or(self.attempt.target.as_ref(), "the target");
                self.fail(refusal.error(&what))
            }
            (Phase::PrepareTo, Answer::Refused { refusal }) => {
                let what = describe_or(self.attempt.to.as_ref(), "the destination");
                self.fail(refusal.error(&what))
            }
            (Phase::Arrive, Answer::Sent) if self.step.action.is_pointer() => self.locate_again(),
            (Phase::Arrive, Answer::Sent) => {
                self.phase = Phase::Describe { again: true };
                let reference = self.target_ref();
                self.ask(Need::Describe { reference })
            }
            (Phase::PrepareTo, Answer::Prepared { point }) => {
                self.attempt.to_point = Some(point);
                self.before_input()
            }
            (Phase::PrepareTo, Answer::Scrolled) => self.rescan(|run| {
                let what = describe_or(run.attempt.to.as_ref(), "the destination");
                Error::new(
                    ErrorCode::TargetNotVisible,
                    format!("{what} does not come into view"),
                )
            }),
            (Phase::ReadPrevious, Answer::Value { value }) => {
                self.attempt.previous = value;
                self.read_destination()
            }
            (Phase::ReadDestination, Answer::Destination { destination }) => {
                self.attempt.destination = destination;
                self.focus_first()
            }
            // Where a click leads is a hint for the navigation rule, not a precondition.
            (Phase::ReadDestination, Answer::Failed { .. }) => self.focus_first(),
            // Held or not, the keys follow: they go where the focus is, as a person's would.
            (Phase::FocusFirst, Answer::Focus { .. }) => {
                self.attempt.focused_first = true;
                self.fingerprint0()
            }
            // The document is being replaced right before the input: nothing is sent into it;
            // settled and observed again, as a target that moved.
            (Phase::Fingerprint0, Answer::Fingerprint { fingerprint })
                if fingerprint == super::quiet::UNREACHABLE =>
            {
                self.rescan(|_| replaced_before())
            }
            (Phase::Fingerprint0, Answer::Fingerprint { fingerprint }) => {
                // What the pointer's arrival changed (a row's Delete button shown on hover, a
                // tooltip) happened before the input: observed again, it is the baseline the
                // effect is judged from, never part of the effect.
                // So did the focus put on a press's target before its keys.
                let arrived = (self.step.action.needs_hit_test()
                    && !matches!(self.step.action, Action::Hover { .. })
                    && !self.step.action.is_pointer())
                    || self.attempt.focused_first;
                let moved = fingerprint != self.attempt.fingerprint;
                self.attempt.fp0 = fingerprint;
                if arrived && moved && self.is_verified() && !self.attempt.rebased {
                    self.attempt.rebased = true;
                    self.phase = Phase::Rebase;
                    return self.observe();
                }
                self.input()
            }
            // The document is being replaced while it is observed again after the pointer's
            // arrival: nothing is sent into it; settled and observed again, as before.
            (Phase::Rebase, Answer::Unavailable) => self.rescan(|_| replaced_before()),
            (Phase::Rebase, Answer::Observed { snapshot }) => {
                self.attempt.before = snapshot;
                self.input()
            }
            (Phase::Reveal { moved: false }, Answer::Prepared { point }) => {
                self.phase = Phase::Reveal { moved: true };
                self.ask(Need::Input {
                    gesture: Gesture::MoveTo { at: point },
                })
            }
            (Phase::Reveal { moved: false }, Answer::Scrolled) => self.rescan_target(),
            (Phase::Reveal { moved: false }, Answer::Refused { .. }) => self.observe_before(true),
            (Phase::Reveal { moved: true }, Answer::Sent) => self.settle_before(false),
            (Phase::Input, Answer::Sent) if self.step.action.is_drag() => self.drag_pressed(),
            // The button may be down: it comes up before the step ends.
            (Phase::Input, Answer::Failed { error }) if self.step.action.is_drag() => {
                self.drag_abandon(error)
            }
            (Phase::Input, answer) if self.filling.is_some() => {
                self.on_filling(answer, Run::input_sent, Run::fail)
            }
            (Phase::Input, Answer::Sent) => self.input_sent(),
            (Phase::ReadFocus, Answer::Focused { element }) => {
                self.attempt.focus = element;
                self.settle_after()
            }
            (Phase::ReadFocus, Answer::Failed { .. }) => self.settle_after(),
            (Phase::ReadHash, Answer::Hash { hash }) => {
                self.attempt.value_hash = Some(hash);
                self.judge_attempt()
            }
            (Phase::ReadAddress, Answer::Address { url }) => self.followed(url),
            (Phase::ReadAddress, Answer::Failed { .. }) => self.followed(String::new()),
            // What the arbiter said, read and worded by the machine, the same everywhere.
            (Phase::Ask, Answer::Arbiter { said }) => self.arbitrated(super::arbiter::read(&said)),
            (Phase::Ask, Answer::NoArbiter) => self.arbitrated(super::arbiter::none()),
            (Phase::Ask, Answer::Failed { error }) if error.code == ErrorCode::Timeout => {
                self.arbitrated(super::arbiter::silent(super::need::ASK_TIMEOUT_MS))
            }
            (Phase::Ask, Answer::Failed { error }) => {
                self.arbitrated(super::arbiter::failed(&error.message))
            }
            (_, Answer::Failed { error }) => self.fail(error),
            (_, other) => self.out_of_step(&other),
        }
    }

    /// The arbiter's reading: recorded, and the step decided by it.
    fn arbitrated(&mut self, reading: super::arbiter::Reading) -> Need {
        self.attempt.arbiter = Some(reading.detail);
        self.decided(reading.yes)
    }

    fn on_before(&mut self, snapshot: Snapshot, again: bool) -> Need {
        if self.mode == Mode::Look {
            return self.looked(snapshot);
        }
        self.attempt.before = snapshot;
        if self.step.action.is_pointer() {
            return self.locate_from();
        }
        let target = match self.step.action.target() {
            Some(t) => match resolve(t, &self.attempt.before, None) {
                Ok(r) => Some(r.target),
                Err(e) if e.code == ErrorCode::TargetNotVisible && !self.attempt.revealed => {
                    return self.reveal(t.within.as_ref().map(|c| c.describe()), e)
                }
                Err(e) => return self.not_found(e),
            },
            None => None,
        };
        self.attempt.target = target.clone();
        if let (
            Action::Fill {
                value, sensitive, ..
            },
            Some(t),
        ) = (&self.step.action, &target)
        {
            let (value, declared) = (value.clone(), *sensitive);
            if declared || t.sensitive {
                self.add_secret(&value);
            }
            // Sensitivity sticks to the field: a password field the page later turns into a
            // text field ("Show PIN") stays declared.
            if (declared || t.sensitive) && !self.sensitive.contains(&t.reference) {
                self.sensitive.push(t.reference.clone());
                if declared && !t.sensitive && !again {
                    return self.observe_before(true);
                }
            }
        }
        if let (Action::Check { .. } | Action::Uncheck { .. }, Some(t)) =
            (&self.step.action, &target)
        {
            let want = matches!(self.step.action, Action::Check { .. });
            if t.checked == Some(Tristate::from(want)) {
                return self.noop(want);
            }
        }
        match target {
            Some(t) => {
                self.phase = Phase::Describe { again: false };
                self.ask(Need::Describe {
                    reference: t.reference,
                })
            }
            None => self.before_input(),
        }
    }

    /// A target placed in a row, hidden until the row is hovered (a `Delete` button that
    /// shows on hover): the pointer goes onto the row, as a person's would, and the page is
    /// settled and observed again. Once only; a target still hidden is `TARGET_NOT_VISIBLE`.
    fn reveal(&mut self, place: Option<String>, hidden: Error) -> Need {
        let row = place.and_then(|place| {
            self.attempt
                .before
                .elements
                .iter()
                .find(|e| e.visible && e.within.is_none() && is_in_place(e, &place))
                .map(|e| e.reference.clone())
        });
        let Some(reference) = row else {
            return self.fail(hidden);
        };
        self.attempt.revealed = true;
        self.phase = Phase::Reveal { moved: false };
        self.ask(Need::Prepare {
            reference,
            hit_test: false,
        })
    }

    /// A box already in the requested state: nothing to dispatch, MATCH.
    fn noop(&mut self, want: bool) -> Need {
        if !self.is_verified() {
            return self.finish_unverified();
        }
        let a = &mut self.attempt;
        a.noop = true;
        a.stable_after = true;
        a.after = a.before.clone();
        let what = if want { "checked" } else { "unchecked" };
        a.verdict = Some(Verdict {
            verdict: VerdictKind::Match,
            reason: format!("already {what}; nothing to do"),
            attributed_to: None,
            diff: diff(&a.before, &a.before, &DiffOptions::default()),
        });
        self.decided(true)
    }

    fn on_described(&mut self, live: Option<Element>, again: bool) -> Need {
        let Some(t) = self.attempt.target.clone() else {
            return self.out_of_step(&Answer::Described { element: live });
        };
        // Described again after the pointer's arrival, a target may read longer: the controls
        // it shows while hovered are in its name now. It is the same target (see `grown`).
        let grown = again
            && live
                .as_ref()
                .is_some_and(|l| super::grown::on_arrival(&t, l, &self.attempt.before));
        if let (true, Some(l)) = (grown, &live) {
            // Known by its new ref; named as it was resolved, before the pointer came.
            self.attempt.target = Some(Element {
                reference: l.reference.clone(),
                ..t.clone()
            });
        }
        match live {
            Some(live) if grown || Identity::of(&live) == Identity::of(&t) => {
                if live.disabled {
                    return self.fail(Error::new(
                        ErrorCode::TargetDisabled,
                        format!(
                            "{} became disabled before input; nothing was dispatched",
                            describe_element(&live)
                        ),
                    ));
                }
                if !live.visible {
                    return self.fail(Error::new(
                        ErrorCode::TargetNotVisible,
                        format!(
                            "{} was hidden before input; nothing was dispatched",
                            describe_element(&live)
                        ),
                    ));
                }
                self.phase = Phase::Prepare { again };
                self.ask(Need::Prepare {
                    reference: if grown { live.reference } else { t.reference },
                    hit_test: again || self.step.action.needs_hit_test(),
                })
            }
            _ => self.rescan_target(),
        }
    }

    /// A drag's destination is resolved on the same snapshot and brought into view.
    fn prepare_destination(&mut self) -> Need {
        let Action::Drag { to, .. } = &self.step.action else {
            return self.before_input();
        };
        match resolve(to, &self.attempt.before, None) {
            Ok(r) => {
                let reference = r.target.reference.clone();
                self.attempt.to = Some(r.target);
                self.phase = Phase::PrepareTo;
                self.ask(Need::Prepare {
                    reference,
                    hit_test: false,
                })
            }
            Err(e) => self.not_found(e),
        }
    }

    /// The reads before input: a field's value for the undo.
    fn before_input(&mut self) -> Need {
        let reads = self.is_verified()
            && self.attempt.target.is_some()
            && matches!(
                self.step.action,
                Action::Fill { .. } | Action::Select { .. }
            );
        if !reads {
            return self.read_destination();
        }
        self.phase = Phase::ReadPrevious;
        let reference = self.target_ref();
        self.ask(Need::Read {
            read: Read::Value { reference },
        })
    }

    /// Where a click or key press on the target would load a new document.
    fn read_destination(&mut self) -> Need {
        let reads = self.is_verified()
            && self.attempt.target.is_some()
            && matches!(
                self.step.action,
                Action::Click { .. } | Action::Press { .. }
            );
        if !reads {
            return self.focus_first();
        }
        self.phase = Phase::ReadDestination;
        let reference = self.target_ref();
        self.ask(Need::Read {
            read: Read::Destination { reference },
        })
    }

    /// A key press on a target that does not hold the focus: the focus is put there first,
    /// on its own, so that the fingerprint the effect is awaited from, and the observation it
    /// is judged from, have it there (Tab from a field when the focus was already on the next
    /// one moves it to where it was; an Enter that does nothing moves nothing). Without this
    /// the focus the press itself put on its target passed for the keys' effect, or hid it.
    fn focus_first(&mut self) -> Need {
        let reference = match (&self.step.action, &self.attempt.target) {
            (Action::Press { .. }, Some(t)) if !t.focused && !self.attempt.focused_first => {
                t.reference.clone()
            }
            _ => return self.fingerprint0(),
        };
        self.phase = Phase::FocusFirst;
        self.ask(Need::Input {
            gesture: Gesture::Focus {
                reference,
                select: false,
            },
        })
    }

    /// The step's input is sent: a click at a point notes where the focus went (typing may
    /// follow), then the effect settles.
    fn input_sent(&mut self) -> Need {
        if self.is_verified() && matches!(self.step.action, Action::ClickAt { .. }) {
            self.phase = Phase::ReadFocus;
            return self.ask(Need::Read {
                read: Read::Focused,
            });
        }
        self.settle_after()
    }

    /// The step's own input.
    fn input(&mut self) -> Need {
        self.phase = Phase::Input;
        let Some(gesture) = self.gesture() else {
            return self.fail(Error::new(
                ErrorCode::Internal,
                "a watch has no input of its own",
            ));
        };
        self.dispatched = true;
        self.ask(Need::Input { gesture })
    }

    pub(super) fn fingerprint0(&mut self) -> Need {
        self.phase = Phase::Fingerprint0;
        self.ask(Need::Fingerprint {
            background: self.attempt.background.clone(),
        })
    }

    fn gesture(&mut self) -> Option<Gesture> {
        let a = &self.attempt;
        let at = a.point.unwrap_or(super::Point { x: 0.0, y: 0.0 });
        let reference = self.target_ref();
        Some(match &self.step.action {
            Action::Click { .. } | Action::Check { .. } | Action::Uncheck { .. } => {
                Gesture::Click {
                    at,
                    button: Default::default(),
                }
            }
            Action::Hover { .. } => Gesture::MoveTo { at },
            // The focus first; the text follows once it holds (`fill`).
            Action::Fill { value, .. } => {
                let (filling, focus) = super::fill::Filling::start(reference, value.clone(), at);
                self.filling = Some(filling);
                focus
            }
            Action::Select { option, .. } => Gesture::Select {
                reference,
                option: option.clone(),
            },
            Action::Press { key, .. } => Gesture::Press {
                reference: a.target.as_ref().map(|t| t.reference.clone()),
                keys: super::chord::pressed(key),
            },
            Action::Upload { files, .. } => Gesture::SetFiles {
                reference,
                files: files.clone(),
            },
            // The button down at the start; the moves and the drop follow (`drag`).
            Action::Drag { .. } | Action::DragAt { .. } => self.drag_down(),
            Action::Goto { url } => Gesture::Navigate { url: url.clone() },
            Action::ClickAt { at, button, .. } => Gesture::Click {
                at: *at,
                button: *button,
            },
            // These run their own needs (`key`, `scroll`, `typing`).
            Action::Watch { .. }
            | Action::Key { .. }
            | Action::ScrollAt { .. }
            | Action::TypeText { .. } => return None,
        })
    }

    /// An unverified step is done once its input is sent (and, with `settle`, shown).
    pub(super) fn finish_unverified(&mut self) -> Need {
        let record = super::Record {
            action: self.step.action.name().into(),
            target: self.step.action.shown_target(self.attempt.target.as_ref()),
            value: self.step.action.shown_value(self.attempt.target.as_ref()),
            ok: true,
            reason: "performed without verification".into(),
            attempts: self.attempts,
            stable: self.attempt.stable_after,
            ..Default::default()
        };
        self.seen = None;
        debug_assert!(matches!(self.mode, Mode::Unverified { .. }));
        self.finish(record)
    }
}
