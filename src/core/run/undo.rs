//! Taking a wrong effect back, then checking that it is gone.
//!
//! Inverses are tried in this order, each only where the diff shows what it needs:
//! 1. **history back**, when the action replaced the document (the epoch changed);
//! 2. for `upload` and `drag`, and for a wrong effect that is a reorder alone whatever the
//!    action (the diff shows nothing but what the page changes by itself, the order of a
//!    list changed: `core::order`), the **inverse steps the caller declared** (no generic
//!    inverse exists; none puts a list back in order), performed unverified;
//! 3. **rewrite the previous value** of a field whose value changed (the target's raw value
//!    was read before input; another field's from the before snapshot, unless redacted);
//! 4. **toggle back** a control whose `checked`/`pressed` state flipped, by clicking it;
//! 5. **the removal control that appeared** with the wrong effect (a button or link named
//!    Remove, Delete, ×, Quitar, Eliminar, Supprimer, Entfernen, …), only when it appeared in
//!    the same region as the wrong effect, so a page cannot steer the undo to an unrelated
//!    "Delete" elsewhere, and never when a landmark, dialog or region appeared with it or
//!    more than [`super::inverse::MAX_REMOVAL_CONTROLS`] such controls did (a part of the page came back, not
//!    a row);
//! 6. **move the pointer away** after a hover.
//!
//! An element is found again by identity on a fresh observation; one that is gone or cannot
//! take input is skipped. Then the page settles (over the background the step learnt, and
//! counting the fingerprint's claims when every inverse is a declared key or drag:
//! [`Run::sees_claims_after`]; on a page that moves its claims by itself such a plan's
//! settle glances instead, one quiet window and a look for the focus or order it moved, as
//! the step's own settle does: [`Run::glances_after`]), is observed, and is diffed against
//! the before snapshot, restricted to the identities the wrong effect touched: anything
//! left is a residue (`UNDO_FAILED`). After declared inverses, which are to put the page back
//! as it was, a list the wrong effect reordered that is still out of its order is residue
//! too; a generic inverse leaves the order to the page (a virtualised list that turned its
//! rows with the wrong effect). Text changes (a status line saying "Removed") are not
//! residue: they report, they are not state. No inverse applied at all is
//! `IRREVERSIBLE_ACTION`; a reorder alone with no declared inverse is that too, naming the
//! reorder. An effect with nothing observable (no diff, no reorder) has nothing to undo, and
//! the step is not retried: its effect may still be on its way, and a repeat would double
//! it.

use super::fill::Filling;
use super::inverse::{away_from, removal_controls, residue};
use super::need::{Answer, Gesture, Need, Point};
use super::settle::unhashed_change;
use super::step::{Action, Step};
use super::{Phase, Run, Seen, MAX_UNDO_SCROLLS};
use crate::core::diff::{diff, Diff, Field};
use crate::core::error::{Error, ErrorCode};
use crate::core::identity::Identity;
use crate::core::judge::without_background;
use crate::core::model::{Element, Snapshot, REDACTED};
use crate::core::order::{self, Reorder};
use serde::{Deserialize, Serialize};

/// One inverse of the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub(super) enum Inverse {
    Back,
    Declared {
        step: Box<Step>,
    },
    Rewrite {
        element: Element,
        value: String,
        select: bool,
    },
    Toggle {
        element: Element,
    },
    Remove {
        element: Element,
    },
    MoveAway {
        from: Point,
    },
}

/// Why the undo runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub(super) enum Purpose {
    /// A wrong effect: undone and verified, the step may be retried.
    Retry,
    /// An unexpected new document at `url`: go back, then stop.
    Replaced { url: String },
}

/// Where the undo is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum Stage {
    FingerprintAfter,
    RemovalFingerprint,
    Find,
    Prepare,
    Scrolled,
    Input,
    RemovalSettle,
    Inner,
    Glance,
    Glanced,
    Settle,
    Check,
}

/// The undo in progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Undoing {
    purpose: Purpose,
    plan: Vec<Inverse>,
    at: usize,
    applied: u32,
    fp_after: String,
    removal_fp: String,
    scrolls: u32,
    inner: Option<Box<Run>>,
    stage: Stage,
}

/// How an undo ended.
enum Ending {
    /// The diff showed nothing: nothing to take back.
    Nothing,
    Undone,
    Residue(Vec<String>),
    NoInverse,
}

impl Run {
    /// The lists whose order `now` shows changed from the attempt's before snapshot, among
    /// what the diff looks at and the page does not change by itself (`core::order`).
    fn reorders(&self, now: &Snapshot) -> Vec<Reorder> {
        let a = &self.attempt;
        let opts = self.diff_options();
        order::reordered(&a.before, now, |e| {
            opts.keeps(&e.region) && !a.background.has_element(e)
        })
    }

    /// The reorders of a wrong effect that is a reorder and nothing else: the diff shows
    /// nothing but what the page changes by itself (a clock that ticked meanwhile,
    /// `judge::without_background`), the order does. Empty for any other effect.
    fn order_only(&self) -> Vec<Reorder> {
        let a = &self.attempt;
        let alone = |d: &Diff| without_background(d, &a.background, a.target.as_ref()).is_empty();
        match &a.verdict {
            Some(v) if a.before.context.epoch == a.after.context.epoch && alone(&v.diff) => {
                self.reorders(&a.after)
            }
            _ => Vec::new(),
        }
    }

    /// The inverses for the current attempt's wrong effect; `None` when nothing observable
    /// happened.
    fn plan(&self) -> Option<Vec<Inverse>> {
        let a = &self.attempt;
        let d = &a.verdict.as_ref()?.diff;
        let has_elements = !(d.appeared.is_empty()
            && d.disappeared.is_empty()
            && d.changed.is_empty()
            && d.moved.is_empty());
        let has_texts = !(d.texts_appeared.is_empty() && d.texts_disappeared.is_empty());
        let reordered = !self.order_only().is_empty();
        let observable = has_elements || has_texts || reordered;
        if a.noop || !observable {
            return None;
        }
        if a.before.context.epoch != a.after.context.epoch {
            return Some(vec![Inverse::Back]);
        }
        // No generic inverse puts a list back in order: a reorder is taken back by what the
        // caller declared, whatever the action.
        if reordered
            || matches!(
                self.step.action,
                Action::Upload { .. } | Action::Drag { .. } | Action::DragAt { .. }
            )
        {
            let steps = self.step.inverse.iter().cloned();
            return Some(
                steps
                    .map(|step| Inverse::Declared {
                        step: Box::new(step),
                    })
                    .collect(),
            );
        }
        let mut plan = Vec::new();
        for c in d.changed.iter().filter(|c| c.has(Field::Value)) {
            let is_target = a
                .target
                .as_ref()
                .is_some_and(|t| Identity::of(t) == Identity::of(&c.before));
            let previous = if is_target {
                a.previous.clone()
            } else {
                c.before.value.clone().filter(|v| {
                    v != REDACTED && !c.before.sensitive && c.before.value_hash.is_none()
                })
            };
            if let Some(value) = previous {
                let select = is_target && matches!(self.step.action, Action::Select { .. });
                plan.push(Inverse::Rewrite {
                    element: c.after.clone(),
                    value,
                    select,
                });
            }
        }
        for c in &d.changed {
            if c.has(Field::Checked) || c.has(Field::Pressed) {
                plan.push(Inverse::Toggle {
                    element: c.after.clone(),
                });
            }
        }
        for e in removal_controls(d) {
            plan.push(Inverse::Remove { element: e.clone() });
        }
        if let (Action::Hover { .. }, Some(p)) = (&self.step.action, a.point) {
            plan.push(Inverse::MoveAway { from: p });
        }
        Some(plan)
    }

    pub(super) fn start_undo(&mut self, purpose: Purpose) -> Need {
        self.seen = None;
        let Some(plan) = self.plan() else {
            return self.undo_finished(purpose, Ok(Ending::Nothing));
        };
        self.undo = Some(Undoing {
            purpose,
            plan,
            at: 0,
            applied: 0,
            fp_after: String::new(),
            removal_fp: String::new(),
            scrolls: 0,
            inner: None,
            stage: Stage::FingerprintAfter,
        });
        self.phase = Phase::Undo;
        self.ask(Need::Fingerprint {
            background: self.attempt.background.clone(),
        })
    }

    /// The undo's last settle may count the fingerprint's claims when every inverse of the
    /// plan is a declared step that may do no more than move the focus, the order or the
    /// selection (a key, a drag: [`Run::sees_claims_after`], as the step's own settle
    /// decides): a reorder taken back by a drag, or a focus moved back by a key, shows at
    /// once and is not waited for to the deadline. A declared plan was applied whole when
    /// the last settle comes (an inverse that failed ends the undo). Any other inverse
    /// clicks, types or goes back, and the focus it moves at once is no sign that its
    /// effect came.
    fn undo_sees_claims(&self) -> bool {
        self.declared_plan()
            .is_some_and(|actions| self.sees_claims_after(actions))
    }

    /// The actions of the undo's plan when every inverse of it is a declared step.
    fn declared_plan(&self) -> Option<Vec<&Action>> {
        self.undo
            .as_ref()?
            .plan
            .iter()
            .map(|i| match i {
                Inverse::Declared { step } => Some(&step.action),
                _ => None,
            })
            .collect()
    }

    /// What of the wrong effect `now` still shows: its residue (`inverse::residue`), and
    /// after declared inverses, which are to put the page back as it was, the lists it
    /// reordered that are still out of their order. A generic inverse takes out what
    /// appeared or changed and leaves the order to the page (a virtualised list that turned
    /// its rows with the wrong effect).
    fn left_over(&self, now: &Snapshot) -> Vec<String> {
        let a = &self.attempt;
        let then = diff(&a.before, now, &self.diff_options());
        let wrong = a
            .verdict
            .as_ref()
            .map(|v| v.diff.clone())
            .unwrap_or_default();
        let mut left = residue(&wrong, &then);
        if self.declared_plan().is_some_and(|p| !p.is_empty()) {
            let reordered: Vec<String> = self
                .reorders(&a.after)
                .into_iter()
                .map(|r| r.region)
                .collect();
            let document = reordered.iter().any(String::is_empty);
            left.extend(
                self.reorders(now)
                    .iter()
                    .filter(|r| document || reordered.contains(&r.region))
                    .map(Reorder::line),
            );
        }
        left
    }

    /// The undo's last settle: from the fingerprint of the wrong effect, to the deadline.
    fn last_settle(&mut self) -> Need {
        let since = Some(self.undoing().fp_after.clone());
        let mut need = self.settle_need(since, self.policy.timing.timeout_ms, false);
        if let Need::Settle { claims, .. } = &mut need {
            *claims = self.undo_sees_claims();
        }
        self.stage(Stage::Settle, need)
    }

    /// The page after the undo, against the wrong effect.
    fn checked(&mut self, purpose: Purpose, now: &Snapshot) -> Need {
        let left = self.left_over(now);
        let result = if left.is_empty() {
            Ending::Undone
        } else {
            Ending::Residue(left)
        };
        self.undo_finished(purpose, Ok(result))
    }

    fn undoing(&mut self) -> &mut Undoing {
        self.undo.get_or_insert_with(|| Undoing {
            purpose: Purpose::Retry,
            plan: Vec::new(),
            at: 0,
            applied: 0,
            fp_after: String::new(),
            removal_fp: String::new(),
            scrolls: 0,
            inner: None,
            stage: Stage::Check,
        })
    }

    fn stage(&mut self, stage: Stage, need: Need) -> Need {
        self.undoing().stage = stage;
        self.ask(need)
    }

    fn current(&mut self) -> Option<Inverse> {
        let u = self.undoing();
        u.plan.get(u.at).cloned()
    }

    /// Skips to the next inverse (`applied`: the current one was applied).
    fn next_inverse(&mut self, applied: bool) -> Need {
        let u = self.undoing();
        u.applied += u32::from(applied);
        u.at += 1;
        u.scrolls = 0;
        self.run_inverse()
    }

    fn run_inverse(&mut self) -> Need {
        let Some(inverse) = self.current() else {
            let u = self.undoing();
            if u.applied == 0 {
                let purpose = u.purpose.clone();
                return self.undo_finished(purpose, Ok(Ending::NoInverse));
            }
            let since = Some(u.fp_after.clone());
            if self
                .declared_plan()
                .is_some_and(|actions| self.glances_after(actions))
            {
                let t = self.policy.timing;
                let need = self.settle_need(since, t.quiet_ms.min(t.timeout_ms), false);
                return self.stage(Stage::Glance, need);
            }
            return self.last_settle();
        };
        match inverse {
            Inverse::Back => self.stage(
                Stage::Input,
                Need::Input {
                    gesture: Gesture::GoBack,
                },
            ),
            Inverse::MoveAway { from } => self.stage(
                Stage::Input,
                Need::Input {
                    gesture: Gesture::MoveTo {
                        at: away_from(from),
                    },
                },
            ),
            Inverse::Declared { step } => {
                // Performed on the page the step learnt: it settles over what the page
                // changes by itself, as the step did.
                let seen = Seen {
                    fingerprint: self.undoing().fp_after.clone(),
                    snapshot: self.attempt.after.clone(),
                    background: self.attempt.background.clone(),
                };
                let mut inner =
                    Run::unverified(*step, self.policy.clone(), true).with_seen(Some(seen));
                inner.sensitive = self.sensitive.clone();
                inner.secrets = self.secrets.clone();
                let need = inner.next(Answer::Start);
                self.undoing().inner = Some(Box::new(inner));
                self.stage(Stage::Inner, need)
            }
            Inverse::Remove { .. } => self.stage(
                Stage::RemovalFingerprint,
                Need::Fingerprint {
                    background: self.attempt.background.clone(),
                },
            ),
            Inverse::Rewrite { .. } | Inverse::Toggle { .. } => {
                let need = Need::Observe {
                    sensitive: self.sensitive.clone(),
                };
                self.stage(Stage::Find, need)
            }
        }
    }

    pub(super) fn on_undo(&mut self, answer: Answer) -> Need {
        let stage = self.undoing().stage;
        let purpose = self.undoing().purpose.clone();
        let inverse = self.current();
        match (stage, answer) {
            (Stage::FingerprintAfter, Answer::Fingerprint { fingerprint }) => {
                self.undoing().fp_after = fingerprint;
                self.run_inverse()
            }
            (Stage::RemovalFingerprint, Answer::Fingerprint { fingerprint }) => {
                self.undoing().removal_fp = fingerprint;
                let need = Need::Observe {
                    sensitive: self.sensitive.clone(),
                };
                self.stage(Stage::Find, need)
            }
            (Stage::Find, Answer::Observed { snapshot }) => {
                let wanted = match &inverse {
                    Some(
                        Inverse::Rewrite { element, .. }
                        | Inverse::Toggle { element }
                        | Inverse::Remove { element },
                    ) => element.clone(),
                    _ => return self.next_inverse(false),
                };
                let live = snapshot
                    .elements
                    .iter()
                    .find(|x| x.visible && Identity::of(x) == Identity::of(&wanted));
                let Some(live) = live else {
                    return self.next_inverse(false);
                };
                let hit_test = !matches!(inverse, Some(Inverse::Rewrite { .. }));
                let need = Need::Prepare {
                    reference: live.reference.clone(),
                    hit_test,
                };
                let replaced = match inverse {
                    Some(Inverse::Rewrite { value, select, .. }) => Inverse::Rewrite {
                        element: live.clone(),
                        value,
                        select,
                    },
                    Some(Inverse::Toggle { .. }) => Inverse::Toggle {
                        element: live.clone(),
                    },
                    _ => Inverse::Remove {
                        element: live.clone(),
                    },
                };
                let u = self.undoing();
                let at = u.at;
                u.plan[at] = replaced;
                self.stage(Stage::Prepare, need)
            }
            (Stage::Find, Answer::Unavailable) => self.next_inverse(false),
            (Stage::Prepare, Answer::Prepared { point }) => {
                let gesture = match inverse {
                    Some(Inverse::Rewrite {
                        element,
                        value,
                        select: true,
                    }) => Gesture::Restore {
                        reference: element.reference,
                        value,
                    },
                    // The focus first; the old value follows once it holds (`fill`).
                    Some(Inverse::Rewrite { element, value, .. }) => {
                        let (filling, focus) = Filling::start(element.reference, value, point);
                        self.filling = Some(filling);
                        focus
                    }
                    _ => Gesture::Click {
                        at: point,
                        button: Default::default(),
                    },
                };
                self.stage(Stage::Input, Need::Input { gesture })
            }
            (Stage::Prepare, Answer::Scrolled) => {
                let u = self.undoing();
                u.scrolls += 1;
                if u.scrolls >= MAX_UNDO_SCROLLS {
                    return self.next_inverse(false);
                }
                let t = self.policy.timing;
                let need = Need::Settle {
                    since: None,
                    poll_ms: t.poll_ms,
                    quiet_ms: t.quiet_ms,
                    timeout_ms: t.timeout_ms,
                    stop_on_change: false,
                    background: self.attempt.background.clone(),
                    quick_ms: 0,
                    claims: false,
                };
                self.stage(Stage::Scrolled, need)
            }
            // An element that cannot take input now is no inverse.
            (Stage::Prepare, Answer::Failed { .. } | Answer::Refused { .. }) => {
                self.next_inverse(false)
            }
            (Stage::Scrolled, Answer::Settled { .. }) => {
                let need = Need::Observe {
                    sensitive: self.sensitive.clone(),
                };
                self.stage(Stage::Find, need)
            }
            (Stage::Input, answer) if self.filling.is_some() => self.on_filling(
                answer,
                |run| run.next_inverse(true),
                |run, error| run.undo_finished(purpose, Err(error)),
            ),
            (Stage::Input, Answer::Sent) if matches!(inverse, Some(Inverse::Remove { .. })) => {
                let since = Some(self.undoing().removal_fp.clone());
                let t = self.policy.timing;
                let need = Need::Settle {
                    since,
                    poll_ms: t.poll_ms,
                    quiet_ms: t.quiet_ms,
                    timeout_ms: t.timeout_ms,
                    stop_on_change: false,
                    background: self.attempt.background.clone(),
                    quick_ms: 0,
                    claims: false,
                };
                self.undoing().applied += 1;
                self.stage(Stage::RemovalSettle, need)
            }
            (Stage::Input, Answer::Sent) => self.next_inverse(true),
            // No history entry to go back to: that inverse does not apply.
            (Stage::Input, Answer::Failed { .. }) if inverse == Some(Inverse::Back) => {
                self.next_inverse(false)
            }
            (Stage::RemovalSettle, Answer::Settled { .. }) => self.next_inverse(false),
            (Stage::Inner, answer) => {
                let Some(mut inner) = self.undoing().inner.take() else {
                    return self.out_of_step(&answer);
                };
                match inner.next(answer) {
                    Need::Done { record } => {
                        for r in &inner.sensitive {
                            if !self.sensitive.contains(r) {
                                self.sensitive.push(r.clone());
                            }
                        }
                        match record.error {
                            Some(e) => self.undo_finished(purpose, Err(e)),
                            None => self.next_inverse(true),
                        }
                    }
                    need => {
                        self.undoing().inner = Some(inner);
                        self.ask(need)
                    }
                }
            }
            // Declared keys and drags on a page that moves its claims by itself: one quiet
            // window, then a look for the focus or the order they moved back, as the step's
            // own settle glances (`settle`).
            (Stage::Glance, Answer::Settled { changed: true, .. }) => self.last_settle(),
            (Stage::Glance, Answer::Settled { .. }) => {
                let need = Need::Observe {
                    sensitive: self.sensitive.clone(),
                };
                self.stage(Stage::Glanced, need)
            }
            (Stage::Glanced, Answer::Observed { snapshot })
                if unhashed_change(&self.attempt.after, &snapshot) =>
            {
                self.checked(purpose, &snapshot)
            }
            (Stage::Glanced, Answer::Observed { .. } | Answer::Unavailable) => self.last_settle(),
            (Stage::Settle, Answer::Settled { .. }) => {
                let need = Need::Observe {
                    sensitive: self.sensitive.clone(),
                };
                self.stage(Stage::Check, need)
            }
            (Stage::Check, Answer::Observed { snapshot }) => self.checked(purpose, &snapshot),
            (_, Answer::Failed { error }) => self.undo_finished(purpose, Err(error)),
            (_, other) => self.out_of_step(&other),
        }
    }

    /// What the undo comes to, for the purpose it ran for.
    fn undo_finished(&mut self, purpose: Purpose, result: Result<Ending, Error>) -> Need {
        self.undo = None;
        self.seen = None;
        if let Purpose::Replaced { url } = purpose {
            return self.replaced(&url, result);
        }
        let undone = match result {
            Err(e) => return self.fail(e),
            Ok(u) => u,
        };
        if matches!(undone, Ending::Undone) {
            self.undone += 1;
        }
        let mut record = self.outcome_record(false);
        match undone {
            // Dispatched, and its effect may still land: a repeat could double it.
            Ending::Nothing => self.fail_verification(record),
            Ending::Undone if self.attempts >= self.policy.max_attempts.max(1) => {
                self.fail_verification(record)
            }
            Ending::Undone => {
                if self.step.action.is_pointer() {
                    self.failed = Some(record);
                }
                self.begin_attempt()
            }
            Ending::Residue(left) => {
                let message = format!("{}; still there: {}", record.summary(), left.join("; "));
                record.residue = left;
                record.error = Some(Error::new(ErrorCode::UndoFailed, message));
                self.finish(record)
            }
            Ending::NoInverse => {
                let reorders = self.order_only();
                let message = if reorders.is_empty() {
                    format!(
                        "{} has no inverse and its effect could not be verified; prufe stopped: declare an inverse, or check the page by hand",
                        record.action_line()
                    )
                } else {
                    let lines: Vec<String> = reorders.iter().map(Reorder::line).collect();
                    format!(
                        "{} reordered the page ({}) and its effect could not be verified; no generic inverse puts a list back in order and the step declares none, so prufe stopped: declare the inverse (the key or drag that moves it back), or check the page by hand",
                        record.action_line(),
                        lines.join("; ")
                    )
                };
                record.error = Some(Error::new(ErrorCode::IrreversibleAction, message));
                self.finish(record)
            }
        }
    }

    /// An action other than `goto` replaced the document, and not with its own effect.
    fn replaced(&mut self, now: &str, result: Result<Ending, Error>) -> Need {
        let expected = match self.destination() {
            Some(d) => format!(" to {now}, not to the target's address {}", d.url),
            None if now.is_empty() => String::new(),
            None => format!(" to {now}"),
        };
        let what = self
            .step
            .action
            .shown_target(self.attempt.target.as_ref())
            .map(|w| format!(" on {w}"))
            .unwrap_or_default();
        let back = match result {
            Ok(Ending::Undone) => "the tab went back to the page it started on",
            Ok(_) => "going back did not restore the page it started on",
            Err(_) => "going back failed",
        };
        let a = &self.attempt;
        let message = format!(
            "{}{what} replaced the document{expected} (epoch {} -> {}); no verdict is computed across two documents and \
             the action is not repeated; {back}. Verify a navigation with goto, or declare an intent the new page supports",
            self.step.action.name(),
            a.before.context.epoch,
            a.after.context.epoch,
        );
        self.fail(Error::new(ErrorCode::StaleObservation, message))
    }
}
