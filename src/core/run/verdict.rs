//! From the observation after the action to the decision: judge, the navigation rule, the
//! busy rule, the policy or the arbiter.
//!
//! - A page still working at the deadline has not shown its outcome: a MATCH so far is
//!   AMBIGUOUS, and the reason says the page was still working.
//! - A new document after anything but a `goto` is judged by `navigation`: the effect asked
//!   for (MATCH, never undone), or `STALE_OBSERVATION` after going back.
//! - MATCH passes; MISMATCH fails; AMBIGUOUS goes to the policy (`reject`, `accept`) or to
//!   the arbiter. A failure is undone, and retried only once the undo is verified.

use super::navigation::Destination;
use super::need::{Need, Question, Read};
use super::policy::{decide, Decision};
use super::record::{background_lines, Record};
use super::step::Action;
use super::undo::Purpose;
use super::{Phase, Run, Seen};
use crate::core::background::Background;
use crate::core::diff::diff;
use crate::core::identity::describe_parts;
use crate::core::judge::{self, judge, JudgeOptions, Verdict, VerdictKind};
use crate::core::model::Snapshot;

impl Run {
    pub(super) fn after_observed(&mut self) -> Need {
        let secret = self.step.action.is_secret(self.attempt.target.as_ref());
        if let (true, Action::Fill { value, .. }, Some(t)) =
            (secret, &self.step.action, &self.attempt.target)
        {
            let read = Read::Hash {
                reference: t.reference.clone(),
                value: value.clone(),
            };
            self.phase = Phase::ReadHash;
            return self.ask(Need::Read { read });
        }
        self.judge_attempt()
    }

    fn judge_options(&self) -> JudgeOptions {
        let a = &self.attempt;
        JudgeOptions {
            stable: a.stable_before && a.stable_after,
            regions: self.policy.regions.clone(),
            ignore_regions: self.policy.ignore_regions.clone(),
            background: a.background.clone(),
        }
    }

    fn judge_action(&self) -> judge::Action {
        let a = &self.attempt;
        let secret = self.step.action.is_secret(a.target.as_ref());
        let (value, option, key) = match &self.step.action {
            Action::Fill { value, .. } if !secret => (Some(value.clone()), None, None),
            Action::Select { option, .. } => (None, Some(option.clone()), None),
            Action::Press { key, .. } => (None, None, Some(key.clone())),
            _ => (None, None, None),
        };
        judge::Action {
            kind: self.step.action.judged(),
            target: a.target.clone(),
            value,
            value_hash: if secret { a.value_hash.clone() } else { None },
            option,
            intent: self.step.intent.clone(),
            key,
        }
    }

    pub(super) fn judge_attempt(&mut self) -> Need {
        if self.step.action.is_pointer() && self.attempt.target.is_none() {
            let a = &self.attempt;
            self.attempt.verdict = Some(Verdict {
                verdict: VerdictKind::Ambiguous,
                reason: "no observable element under the point, so nothing says what the input was meant to do; the effect cannot be judged".into(),
                attributed_to: None,
                diff: diff(&a.before, &a.after, &self.diff_options()),
            });
            return self.decide_attempt();
        }
        let a = &self.attempt;
        let mut v = match judge(
            &self.judge_action(),
            &a.before,
            &a.after,
            &self.judge_options(),
        ) {
            Ok(v) => v,
            Err(e) => return self.fail(e),
        };
        if let Some(why) = a.busy.as_ref().filter(|_| !a.stable_after) {
            if v.verdict == VerdictKind::Match {
                v.verdict = VerdictKind::Ambiguous;
            }
            v.reason = format!(
                "{}; the page still said it was working at the deadline ({why}), so its outcome is yet to come",
                v.reason
            );
        }
        let navigated = a.before.context.epoch != a.after.context.epoch;
        self.attempt.verdict = Some(v);
        if navigated && !matches!(self.step.action, Action::Goto { .. } | Action::Watch) {
            self.phase = Phase::ReadAddress;
            return self.ask(Need::Read {
                read: Read::Address,
            });
        }
        self.decide_attempt()
    }

    /// A click or key press replaced the document (see `navigation`): MATCH when the new
    /// address is the target's destination or the intent holds on the new page alone.
    pub(super) fn followed(&mut self, url: String) -> Need {
        if matches!(
            self.step.action,
            Action::Click { .. } | Action::Press { .. }
        ) {
            if let Some(d) = self
                .attempt
                .destination
                .as_ref()
                .filter(|d| d.reached(&url))
            {
                let reason = format!("a new document loaded at {}, {url}", d.what());
                return self.pass_navigation(reason, vec![format!("navigated to {url}")]);
            }
            if let Some(intent) = self.step.intent.clone() {
                let a = &self.attempt;
                let blank = Snapshot {
                    context: a.after.context.clone(),
                    ..Snapshot::default()
                };
                let action = judge::Action {
                    kind: judge::ActionKind::Goto,
                    target: None,
                    value: None,
                    value_hash: None,
                    option: None,
                    intent: Some(intent),
                    key: None,
                };
                let opts = JudgeOptions {
                    background: Background::default(),
                    ..self.judge_options()
                };
                if let Ok(j) = judge(&action, &blank, &a.after, &opts) {
                    if j.verdict == VerdictKind::Match {
                        let reason = format!(
                            "a new document loaded at {url} and supports the intent: {}",
                            j.reason
                        );
                        let mut lines = vec![format!("navigated to {url}")];
                        lines.extend(j.diff.lines);
                        return self.pass_navigation(reason, lines);
                    }
                }
            }
        }
        self.start_undo(Purpose::Replaced { url })
    }

    fn pass_navigation(&mut self, reason: String, lines: Vec<String>) -> Need {
        let mut record = self.outcome_record(true);
        record.verdict = Some(VerdictKind::Match);
        record.reason = reason;
        record.attributed_to = None;
        record.lines = lines;
        self.keep_seen();
        self.finish(record)
    }

    fn decide_attempt(&mut self) -> Need {
        let Some(v) = &self.attempt.verdict else {
            return self.fail(crate::core::error::Error::new(
                crate::core::error::ErrorCode::Internal,
                "no verdict to decide on",
            ));
        };
        match decide(v.verdict, self.policy.ambiguous) {
            Decision::Pass => self.decided(true),
            Decision::Fail => self.decided(false),
            Decision::Ask => {
                let question = Question {
                    action: self.step.action.name().into(),
                    target: self.step.action.shown_target(self.attempt.target.as_ref()),
                    intent: self.step.intent.clone(),
                    observed: v.diff.lines.clone(),
                    reason: v.reason.clone(),
                    stable: self.attempt.stable_before && self.attempt.stable_after,
                };
                let mut question = question;
                let r = self.redactor();
                for s in question
                    .observed
                    .iter_mut()
                    .chain(std::iter::once(&mut question.reason))
                    .chain(question.target.iter_mut())
                    .chain(question.intent.iter_mut())
                {
                    *s = r.scrub(s).into_owned();
                }
                self.phase = Phase::Ask;
                self.ask(Need::Ask { question })
            }
        }
    }

    /// The decision is made: pass, or take the effect back.
    pub(super) fn decided(&mut self, ok: bool) -> Need {
        if self.step.action == Action::Watch {
            return self.watched(ok);
        }
        let unjudged = self.step.action.is_pointer() && self.attempt.target.is_none();
        if ok {
            let mut record = self.outcome_record(true);
            if unjudged {
                record.reason = format!(
                    "{}; passed as the ambiguous policy (or the arbiter) allows",
                    record.reason
                );
            }
            self.keep_seen();
            return self.finish(record);
        }
        if unjudged {
            self.seen = None;
            let record = self.outcome_record(false);
            return self.fail_verification(record);
        }
        self.start_undo(Purpose::Retry)
    }

    /// The observation after a passed semantic step is the next run's starting point.
    fn keep_seen(&mut self) {
        let semantic = self.is_verified() && !self.step.action.is_pointer();
        self.seen = semantic.then(|| Seen {
            fingerprint: self.attempt.fingerprint.clone(),
            snapshot: self.attempt.after.clone(),
        });
    }

    /// The record of the current attempt.
    pub(super) fn outcome_record(&self, ok: bool) -> Record {
        let a = &self.attempt;
        let v = a.verdict.clone().unwrap_or(Verdict {
            verdict: VerdictKind::Ambiguous,
            reason: String::new(),
            attributed_to: None,
            diff: Default::default(),
        });
        let mut diff = v.diff;
        if diff.lines.is_empty() && !diff.is_empty() {
            diff.lines = diff.describe();
        }
        Record {
            action: self.step.action.name().into(),
            target: self.step.action.shown_target(a.target.as_ref()),
            intent: self.step.intent.clone(),
            value: self.step.action.shown_value(a.target.as_ref()),
            verdict: Some(v.verdict),
            ok,
            reason: v.reason,
            attributed_to: v
                .attributed_to
                .map(|t| describe_parts(t.role.as_str(), &t.name, &t.region)),
            lines: diff.lines.clone(),
            diff,
            attempts: self.attempts,
            undone: self.undone,
            stable: a.stable_before && a.stable_after,
            arbiter: a.arbiter.clone(),
            background: background_lines(&a.background),
            ..Record::default()
        }
    }

    /// Ends with `VERIFICATION_FAILED` carrying `record`.
    pub(super) fn fail_verification(&mut self, mut record: Record) -> Need {
        record.ok = false;
        record.error = Some(crate::core::error::Error::new(
            crate::core::error::ErrorCode::VerificationFailed,
            record.summary(),
        ));
        self.finish(record)
    }

    /// `the target's address X` for the replaced-document message.
    pub(super) fn destination(&self) -> Option<&Destination> {
        self.attempt.destination.as_ref()
    }
}
