//! Settling, as needs: the driver polls the fingerprint; the machine decides what a settle
//! means.
//!
//! **Before the action** the run also learns the background (`core::background`): it asks
//! the settle to stop whenever the fingerprint moves, takes a snapshot, feeds the pair
//! (previous, this) to `Background::observe`, and settles again with what is left of the
//! deadline. The first pair may start from the driver's last observation of the same
//! document ([`super::Seen`]); a still page costs no snapshot. Pointer steps and unverified
//! steps settle plainly, learning nothing (an unverified step over the background it was
//! handed: a declared inverse, the step's it takes back); so does a rescan of the same
//! attempt, which keeps the background learnt before it.
//!
//! **After the action** the settle first waits for the fingerprint to leave its pre-action
//! value (an effect that starts late is still seen), then for quiet. At the quiet point the
//! run takes a snapshot and, while `core::busy` says the page is still working, settles
//! again (once the page has moved on from that quiet point) and looks again, one snapshot
//! per quiet window, at most
//! [`super::MAX_BUSY_RESCANS`] times and never past the deadline. A deadline reached while
//! busy is unstable, and the reason says so. A pointer click whose field took the focus
//! settles plainly: its effect is already there. A `goto` settles as a look does
//! (`look`): the new document's own changes are learnt, not waited out.

use super::need::{Answer, Need, Read};
use super::step::Action;
use super::{Mode, Phase, Run, MAX_BUSY_RESCANS};
use crate::core::background::Background;
use crate::core::busy::busy;
use crate::core::error::{Error, ErrorCode};
use crate::core::fingerprint::diffed;
use crate::core::identity::Identity;
use crate::core::model::Snapshot;
use crate::core::order;
use serde::{Deserialize, Serialize};

/// Where a settle before the action is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum Before {
    /// Waiting for the fingerprint, to compare with the last observation.
    Fingerprint,
    /// Waiting for a snapshot: the page moved since the last observation.
    Seen,
    /// Waiting for the settle (it stops when the page moves).
    Wait,
    /// Waiting for a snapshot after the page moved.
    Learn,
    /// Waiting for a plain settle.
    Plain,
    /// The settle ended on the shorter window: asking the driver for the page's requests.
    Network,
}

/// Where a settle after the action is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub(super) enum After {
    /// A key or a drag on a page that moves its claims by itself (a declared inverse too):
    /// waiting a quiet window for the fingerprint to leave its value.
    Glance,
    /// A key or a drag the fingerprint did not see: looking for what it does not hash.
    Glanced,
    /// Waiting for the first settle; with `busy_loop`, a quiet page is then looked at.
    Quiet { busy_loop: bool },
    /// Waiting for the snapshot of a quiet point.
    Check,
    /// Waiting for the next quiet window of a busy page.
    Again,
    /// A settle ended on the shorter window: asking the driver for the page's requests.
    Network,
    /// Requests were under way (or the driver cannot see them): waiting out the full window.
    Rest,
    /// A `goto`: waiting for the new document's settle (it stops when the page moves).
    Arrived,
    /// A `goto`: waiting for a snapshot of the new document after it moved by itself.
    Arriving,
    /// Waiting for the observation after the action.
    Final,
    /// An unverified step: waiting for its settle, then done.
    Tail,
}

impl Run {
    pub(super) fn settle_need(
        &self,
        since: Option<String>,
        timeout_ms: u64,
        stop_on_change: bool,
    ) -> Need {
        let t = self.policy.timing;
        Need::Settle {
            since,
            poll_ms: t.poll_ms,
            quiet_ms: t.quiet_ms,
            timeout_ms,
            stop_on_change,
            background: self.attempt.background.clone(),
            quick_ms: 0,
            claims: false,
        }
    }

    /// [`Run::settle_need`] from the pre-action fingerprint (or a quiet point of a busy
    /// page), which may end on the shorter window ([`super::Timing::quick_ms`]). For a key
    /// or a drag whose page does not move its claims by itself, a move of the focus, of the
    /// order or of the selection leaves `since` too ([`Run::sees_claims`]).
    fn quick_need(&self, since: String) -> Need {
        let mut need = self.settle_need(Some(since), self.attempt.left_ms, false);
        if let Need::Settle {
            quick_ms, claims, ..
        } = &mut need
        {
            *quick_ms = self.policy.timing.quick_ms;
            *claims = self.sees_claims();
        }
        need
    }

    /// The step may do no more than move the focus, the order or the selection, and the
    /// fingerprint shows those: the page was not seen moving them by itself.
    fn sees_claims(&self) -> bool {
        self.sees_claims_after([&self.step.action])
    }

    /// A settle after `actions` (at least one) may count the fingerprint's claims: each may
    /// do no more than move the focus, the order or the selection ([`glances`]), and the
    /// page was not seen moving them by itself. The step's own settle asks it of the step,
    /// the undo's of the inverses it applied (`super::undo`).
    pub(super) fn sees_claims_after<'a>(
        &self,
        actions: impl IntoIterator<Item = &'a Action>,
    ) -> bool {
        let mut actions = actions.into_iter().peekable();
        actions.peek().is_some() && actions.all(glances) && !self.attempt.background.claims
    }

    /// The other side of [`Run::sees_claims_after`]: each of `actions` may do no more than
    /// move the focus, the order or the selection, but the page moves those by itself, so
    /// the fingerprint leaves them out. The settle glances instead: one quiet window, then a
    /// look for what the fingerprint does not hash ([`unhashed_change`]), rather than a
    /// wait to the deadline. The step's settle asks it of the step, the undo's last settle
    /// of the inverses it applied (`super::undo`).
    pub(super) fn glances_after<'a>(&self, actions: impl IntoIterator<Item = &'a Action>) -> bool {
        let mut actions = actions.into_iter().peekable();
        actions.peek().is_some() && actions.all(glances) && self.attempt.background.claims
    }

    /// The fingerprint went from `was` to `now` by itself, before the action: when only its
    /// claims moved, the page moves them by itself (a look counts the second time only), and
    /// the fingerprint leaves them out from now on. A snapshot would show nothing to learn.
    fn learn_claims(&mut self, was: &str, now: &str, looking: bool) -> bool {
        if was == now || diffed(was) != diffed(now) {
            return false;
        }
        let a = &mut self.attempt;
        a.background.observe_claims(looking.then_some(&mut a.once));
        true
    }

    /// Starts the settle before an attempt's observation. A rescan (`fresh` false: the
    /// target moved, was recycled or was scrolled to) keeps what the attempt learnt and
    /// settles plainly: what moves now may answer the driver's own scrolling, which is not
    /// the page's background.
    pub(super) fn settle_before(&mut self, fresh: bool) -> Need {
        let a = &mut self.attempt;
        if fresh {
            // What the same document was seen changing by itself before (a document that
            // turns out to be another one drops it: `learn`).
            a.background = match &self.seen {
                Some(seen) => seen.background.clone(),
                None => Background::default(),
            };
        }
        a.shown = None;
        a.left_ms = self.policy.timing.timeout_ms;
        a.slow_before = false;
        if fresh && self.learns() && !self.step.action.is_pointer() {
            self.phase = Phase::Settle {
                settling: Before::Fingerprint,
            };
            // Read as the last run's settle read it, leaving out what it had learnt.
            let background = self.attempt.background.clone();
            return self.ask(Need::Fingerprint { background });
        }
        self.phase = Phase::Settle {
            settling: Before::Plain,
        };
        let need = self.settle_need(None, self.policy.timing.timeout_ms, false);
        self.ask(need)
    }

    /// Waits before the action, stopping when the page moves. The shorter window may end
    /// it when the page says it is quiet (the last step's effect has shown and nothing it
    /// started is under way), unless requests kept it from doing so already.
    pub(super) fn wait_before(&mut self) -> Need {
        self.phase = Phase::Settle {
            settling: Before::Wait,
        };
        let mut need = self.settle_need(None, self.attempt.left_ms, true);
        if let Need::Settle { quick_ms, .. } = &mut need {
            // A look is there to learn what the page changes by itself: it takes its time.
            if !self.attempt.slow_before && self.mode == Mode::Verified {
                *quick_ms = self.policy.timing.quick_ms;
            }
        }
        self.ask(need)
    }

    /// A snapshot taken while settling: what changed since the last one is the page's own.
    pub(super) fn learn(&mut self, now: Option<Snapshot>) {
        let looking = self.mode == Mode::Look;
        self.learn_from(now, looking);
    }

    /// [`Run::learn`] as a look learns: a slot once it changed in two pairs.
    pub(super) fn learn_repeated(&mut self, now: Option<Snapshot>) {
        self.learn_from(now, true);
    }

    fn learn_from(&mut self, now: Option<Snapshot>, looking: bool) {
        let a = &mut self.attempt;
        if let (Some(earlier), Some(now)) = (&a.shown, &now) {
            if earlier.context.epoch != now.context.epoch {
                a.background = Background::default();
                a.once = Background::default();
            } else if looking {
                // Content may still be arriving: only what changes again is background.
                a.background.observe_repeated(&mut a.once, earlier, now);
            } else {
                a.background.observe(earlier, now);
            }
        }
        if now.is_none() {
            // The document is being replaced: what the old one did by itself is not the
            // next one's background.
            a.background = Background::default();
            a.once = Background::default();
        }
        a.shown = now;
    }

    pub(super) fn on_settle_before(&mut self, s: Before, answer: Answer) -> Need {
        match (s, answer) {
            (Before::Fingerprint, Answer::Fingerprint { fingerprint }) => {
                self.attempt.fingerprint = fingerprint.clone();
                match &self.seen {
                    Some(seen) if seen.fingerprint == fingerprint => {
                        self.attempt.shown = Some(seen.snapshot.clone());
                        self.wait_before()
                    }
                    Some(_) => {
                        self.phase = Phase::Settle {
                            settling: Before::Seen,
                        };
                        self.observe()
                    }
                    None => self.wait_before(),
                }
            }
            (Before::Seen, Answer::Observed { snapshot }) => {
                self.attempt.shown = self.seen.as_ref().map(|s| s.snapshot.clone());
                self.learn(Some(snapshot));
                self.wait_before()
            }
            (Before::Seen | Before::Learn, Answer::Unavailable) => {
                self.learn(None);
                self.wait_before()
            }
            (
                Before::Wait,
                Answer::Settled {
                    fingerprint,
                    stable,
                    changed,
                    waited_ms,
                },
            ) => {
                let a = &mut self.attempt;
                a.left_ms = a.left_ms.saturating_sub(waited_ms);
                let was = std::mem::replace(&mut a.fingerprint, fingerprint);
                match (changed, a.left_ms) {
                    (true, 0) => self.settled_before(false),
                    (true, _)
                        if self.learn_claims(
                            &was,
                            &self.attempt.fingerprint.clone(),
                            self.mode == Mode::Look,
                        ) =>
                    {
                        self.wait_before()
                    }
                    (true, _) => {
                        self.phase = Phase::Settle {
                            settling: Before::Learn,
                        };
                        self.observe()
                    }
                    (false, _) => self.settled_before(stable),
                }
            }
            (
                Before::Wait,
                Answer::Quick {
                    fingerprint,
                    waited_ms,
                },
            ) => {
                let a = &mut self.attempt;
                a.left_ms = a.left_ms.saturating_sub(waited_ms);
                a.fingerprint = fingerprint;
                self.phase = Phase::Settle {
                    settling: Before::Network,
                };
                self.ask(Need::Read {
                    read: Read::Network {
                        recent_ms: self.policy.timing.quick_ms,
                    },
                })
            }
            (
                Before::Network,
                Answer::Network {
                    input_ms_ago,
                    requests,
                },
            ) if self.at_work(input_ms_ago, &requests) == 0 => self.settled_before(true),
            (Before::Network, Answer::Network { .. } | Answer::Unavailable) => {
                self.attempt.slow_before = true;
                self.wait_before()
            }
            (Before::Learn, Answer::Observed { snapshot }) => {
                self.learn(Some(snapshot));
                self.wait_before()
            }
            (
                Before::Plain,
                Answer::Settled {
                    fingerprint,
                    stable,
                    ..
                },
            ) => {
                self.attempt.fingerprint = fingerprint;
                self.settled_before(stable)
            }
            (_, Answer::Failed { error }) => self.fail(error),
            (_, other) => self.out_of_step(&other),
        }
    }

    fn settled_before(&mut self, stable: bool) -> Need {
        self.attempt.stable_before = stable;
        self.attempt.shown = None;
        self.observe_before(false)
    }

    /// Starts the settle after the input.
    pub(super) fn settle_after(&mut self) -> Need {
        let timeout = self.policy.timing.timeout_ms;
        let a = &mut self.attempt;
        a.left_ms = timeout;
        a.busy_rescans = 0;
        a.working = None;
        a.busy = None;
        let plain = self.focus_taken();
        let glance = !plain && self.glances_after([&self.step.action]);
        if let Mode::Unverified { settle } = self.mode {
            if settle && glance {
                return self.glance();
            }
            return self.tail();
        }
        if matches!(self.step.action, Action::Goto { .. }) {
            return self.land();
        }
        if glance {
            return self.glance();
        }
        self.quiet_after(!plain)
    }

    /// One quiet window from the pre-action fingerprint: a key or a drag on a page that
    /// moves its claims by itself, whose effect the fingerprint may not show.
    fn glance(&mut self) -> Need {
        self.phase = Phase::After {
            settling: After::Glance,
        };
        let window = self.policy.timing.quiet_ms.min(self.attempt.left_ms);
        let need = self.settle_need(Some(self.attempt.fp0.clone()), window, false);
        self.ask(need)
    }

    /// The settle after a glance that did not see the effect: the step's own, for what is
    /// left of the deadline.
    fn past_glance(&mut self) -> Need {
        match self.mode {
            Mode::Unverified { .. } => self.tail(),
            _ => self.quiet_after(true),
        }
    }

    /// The settle of an unverified step, from its pre-action fingerprint when it is to
    /// settle on its effect, for what is left of the deadline.
    fn tail(&mut self) -> Need {
        let Mode::Unverified { settle } = self.mode else {
            return self.quiet_after(true);
        };
        self.phase = Phase::After {
            settling: After::Tail,
        };
        let since = settle.then(|| self.attempt.fp0.clone());
        let mut need = self.settle_need(since, self.attempt.left_ms, false);
        if let Need::Settle { claims, .. } = &mut need {
            *claims = settle && self.sees_claims();
        }
        self.ask(need)
    }

    /// After a `goto`, the new document settles as a look does ([`Run::look`]): what it
    /// changes by itself (a clock, a ticker) is learnt, a slot only once it changed in two
    /// pairs since content may still be arriving, so a live page does not hold the wait to
    /// the deadline, and the next step starts from what was learnt.
    fn land(&mut self) -> Need {
        self.new_document();
        self.arriving()
    }

    /// A document was just reached (a `goto`, a `back`): nothing the last one did by itself
    /// is its background.
    pub(super) fn new_document(&mut self) {
        let a = &mut self.attempt;
        a.background = Background::default();
        a.once = Background::default();
        a.shown = None;
    }

    /// The settle of a document just reached ended: `true` when the page moved by itself and
    /// is to be looked at and learnt from ([`Run::learn_repeated`]) before settling again;
    /// otherwise the settle is over, and `stable_after` says how it ended.
    pub(super) fn arrival_moved(
        &mut self,
        fingerprint: String,
        stable: bool,
        changed: bool,
        waited_ms: u64,
    ) -> bool {
        let a = &mut self.attempt;
        a.left_ms = a.left_ms.saturating_sub(waited_ms);
        a.fingerprint = fingerprint;
        if changed && a.left_ms > 0 {
            return true;
        }
        a.stable_after = stable && !changed;
        false
    }

    fn arriving(&mut self) -> Need {
        self.phase = Phase::After {
            settling: After::Arrived,
        };
        let need = self.settle_need(None, self.attempt.left_ms, true);
        self.ask(need)
    }

    /// The settle after the input proper: with `busy_loop`, from the pre-action fingerprint
    /// (an effect that starts late is still seen), for what is left of the deadline.
    fn quiet_after(&mut self, busy_loop: bool) -> Need {
        self.phase = Phase::After {
            settling: After::Quiet { busy_loop },
        };
        let need = match busy_loop {
            true => self.quick_need(self.attempt.fp0.clone()),
            false => self.settle_need(None, self.attempt.left_ms, false),
        };
        self.ask(need)
    }

    /// How many of the requests a driver heard of are at work for the last input, as
    /// `run::requests` counts them against the shorter window.
    fn at_work(&self, input_ms_ago: Option<f64>, requests: &[super::requests::Heard]) -> u32 {
        super::requests::pending(input_ms_ago, requests, self.policy.timing.quick_ms)
    }

    /// A settle ended on the shorter window: the page said it was quiet; the requests it
    /// started since the input decide whether that is enough.
    fn quick_settled(&mut self, fingerprint: String, waited_ms: u64) -> Need {
        let a = &mut self.attempt;
        a.left_ms = a.left_ms.saturating_sub(waited_ms);
        a.fingerprint = fingerprint;
        self.phase = Phase::After {
            settling: After::Network,
        };
        self.ask(Need::Read {
            read: Read::Network {
                recent_ms: self.policy.timing.quick_ms,
            },
        })
    }

    /// After the shorter window, what the requests say: none under way, look now; else (or
    /// unseen) wait out the full window from here.
    fn on_network(&mut self, idle: bool) -> Need {
        if idle {
            self.phase = Phase::After {
                settling: After::Check,
            };
            return self.observe();
        }
        self.phase = Phase::After {
            settling: After::Rest,
        };
        let need = self.settle_need(None, self.attempt.left_ms, false);
        self.ask(need)
    }

    fn observe_after(&mut self) -> Need {
        self.phase = Phase::After {
            settling: After::Final,
        };
        self.observe()
    }

    /// The page said it was working at a quiet point: wait for the next one, or give up at
    /// the deadline.
    fn still_busy(&mut self, why: String) -> Need {
        let a = &mut self.attempt;
        a.working = Some(why);
        a.busy_rescans += 1;
        if a.left_ms == 0 || a.busy_rescans > MAX_BUSY_RESCANS {
            a.stable_after = false;
            a.busy = a.working.clone();
            return self.observe_after();
        }
        self.phase = Phase::After {
            settling: After::Again,
        };
        // Wait for the page to move on from this quiet point, then for quiet again: a page
        // that says it is working and shows nothing new has not shown its outcome.
        let need = self.quick_need(self.attempt.fingerprint.clone());
        self.ask(need)
    }

    pub(super) fn on_settle_after(&mut self, s: After, answer: Answer) -> Need {
        match (s, answer) {
            (
                After::Glance,
                Answer::Settled {
                    fingerprint,
                    changed,
                    waited_ms,
                    ..
                },
            ) => {
                let a = &mut self.attempt;
                a.left_ms = a.left_ms.saturating_sub(waited_ms);
                a.fingerprint = fingerprint;
                if changed {
                    return self.past_glance();
                }
                self.phase = Phase::After {
                    settling: After::Glanced,
                };
                self.observe()
            }
            (After::Glanced, Answer::Observed { snapshot }) => {
                if !unhashed_change(&self.attempt.before, &snapshot) {
                    return self.past_glance();
                }
                if let Mode::Unverified { .. } = self.mode {
                    self.attempt.stable_after = true;
                    return self.finish_unverified();
                }
                self.phase = Phase::After {
                    settling: After::Check,
                };
                self.on_settle_after(After::Check, Answer::Observed { snapshot })
            }
            (After::Glanced, Answer::Unavailable) => self.past_glance(),
            (
                After::Quiet { busy_loop },
                Answer::Settled {
                    fingerprint,
                    stable,
                    changed,
                    waited_ms,
                },
            ) => {
                let a = &mut self.attempt;
                a.left_ms = a.left_ms.saturating_sub(waited_ms);
                a.fingerprint = fingerprint;
                if busy_loop && stable && changed {
                    self.phase = Phase::After {
                        settling: After::Check,
                    };
                    return self.observe();
                }
                a.stable_after = stable;
                self.observe_after()
            }
            (After::Check, Answer::Observed { snapshot }) => {
                match busy(&self.attempt.before, &snapshot) {
                    Some(why) => self.still_busy(why),
                    None => {
                        self.attempt.stable_after = true;
                        self.attempt.after = snapshot;
                        self.after_observed()
                    }
                }
            }
            (After::Check, Answer::Unavailable) => {
                self.still_busy("the document is being replaced".into())
            }
            // The next quiet window of a busy page, or the rest of the full window after the
            // shorter one (looked at once stable, even with nothing of the deadline left).
            (
                After::Again | After::Rest,
                Answer::Settled {
                    fingerprint,
                    stable,
                    waited_ms,
                    ..
                },
            ) => {
                let a = &mut self.attempt;
                a.left_ms = a.left_ms.saturating_sub(waited_ms);
                a.fingerprint = fingerprint;
                if stable && (s == After::Rest || a.left_ms > 0) {
                    self.phase = Phase::After {
                        settling: After::Check,
                    };
                    return self.observe();
                }
                a.stable_after = false;
                a.busy = a.working.clone();
                self.observe_after()
            }
            (
                After::Arrived,
                Answer::Settled {
                    fingerprint,
                    stable,
                    changed,
                    waited_ms,
                },
            ) => {
                if self.arrival_moved(fingerprint, stable, changed, waited_ms) {
                    self.phase = Phase::After {
                        settling: After::Arriving,
                    };
                    return self.observe();
                }
                self.observe_after()
            }
            (After::Arriving, Answer::Observed { snapshot }) => {
                self.learn_repeated(Some(snapshot));
                self.arriving()
            }
            (After::Arriving, Answer::Unavailable) => {
                self.learn_repeated(None);
                self.arriving()
            }
            (After::Final, Answer::Observed { snapshot }) => {
                self.attempt.after = snapshot;
                self.after_observed()
            }
            (After::Final, Answer::Unavailable) => self.fail(Error::new(
                ErrorCode::BrowserError,
                "the page could not be observed after the action; check the tab and run the step again",
            )),
            (
                After::Quiet { busy_loop: true } | After::Again,
                Answer::Quick {
                    fingerprint,
                    waited_ms,
                },
            ) => self.quick_settled(fingerprint, waited_ms),
            (
                After::Network,
                Answer::Network {
                    input_ms_ago,
                    requests,
                },
            ) => {
                let none = self.at_work(input_ms_ago, &requests) == 0;
                self.on_network(none)
            }
            (After::Network, Answer::Unavailable) => self.on_network(false),
            (After::Tail, Answer::Settled { .. }) => self.finish_unverified(),
            (_, Answer::Failed { error }) => self.fail(error),
            (_, other) => self.out_of_step(&other),
        }
    }
}

/// Did the page change in what the fingerprint does not hash: the focus moved to another
/// element, or elements changed places (`core::order`)?
pub(super) fn unhashed_change(before: &Snapshot, after: &Snapshot) -> bool {
    fn focus(s: &Snapshot) -> Option<Identity<'_>> {
        s.elements.iter().find(|e| e.focused).map(Identity::of)
    }
    focus(before) != focus(after) || order::changed(before, after, |_| true)
}

/// A key moves the focus and a drag reorders a list, and the diff sees neither (a reorder
/// is no diff; focus is no observable field). The fingerprint's claims do, so such a step
/// settles from the pre-action fingerprint counting them ([`Run::sees_claims`]); on a page
/// that moves its claims by itself they are left out, and the step is looked at after one
/// quiet window rather than at the deadline ([`Run::glances_after`]).
fn glances(action: &Action) -> bool {
    matches!(
        action,
        Action::Press { .. } | Action::Drag { .. } | Action::DragAt { .. }
    )
}
