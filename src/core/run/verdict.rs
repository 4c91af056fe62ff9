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
use super::step::{declared, Action};
use super::undo::Purpose;
use super::{Phase, Run, Seen};
use crate::core::background::Background;
use crate::core::busy::busy;
use crate::core::diff::diff;
use crate::core::expect::{combine, Claim};
use crate::core::identity::{describe_element, describe_parts};
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

    pub(super) fn judge_options(&self) -> JudgeOptions {
        let a = &self.attempt;
        JudgeOptions {
            stable: a.stable_before && a.stable_after,
            regions: self.policy.regions.clone(),
            ignore_regions: self.policy.ignore_regions.clone(),
            background: a.background.clone(),
        }
    }

    pub(super) fn judge_action(&self) -> judge::Action {
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

    /// The current attempt judged again as `judge_attempt` judges it (the busy rule
    /// included, navigation and typed claims left out): for replaying the judge on states
    /// kept from real runs.
    pub fn judge_again(&self) -> crate::core::error::Result<Verdict> {
        let a = &self.attempt;
        let mut v = judge(
            &self.judge_action(),
            &a.before,
            &a.after,
            &self.judge_options(),
        )?;
        if a.busy.is_some() && !a.stable_after && v.verdict == VerdictKind::Match {
            v.verdict = VerdictKind::Ambiguous;
        }
        Ok(self.landed(v))
    }

    /// A drag's MATCH holds only if the dragged item went into the destination, where the
    /// page says which list an item is in: a list with an `id` or a label gives everything
    /// it holds its region (`region[Board]/list:done`). An item that left its place for
    /// another region than the destination's went elsewhere (the wrong list took it):
    /// MISMATCH. Any other destination (an item of a sortable list, a list without an id or
    /// a label) leaves the verdict as it is.
    fn landed(&self, v: Verdict) -> Verdict {
        let a = &self.attempt;
        let (Action::Drag { to: asked, .. }, Some(item), Some(to)) =
            (&self.step.action, a.target.as_ref(), a.to.as_ref())
        else {
            return v;
        };
        if v.verdict != VerdictKind::Match || !to.role.is_list_like() {
            return v;
        }
        let inside = |region: &str| {
            region == to.region
                || region
                    .strip_prefix(to.region.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
        };
        if inside(&item.region) {
            return v;
        }
        let now: Vec<&str> = a
            .after
            .elements
            .iter()
            .filter(|e| {
                e.visible
                    && e.role == item.role
                    && e.label() == item.label()
                    && e.frame == item.frame
            })
            .map(|e| e.region.as_str())
            .collect();
        if now.iter().any(|r| inside(r)) {
            return v;
        }
        let Some(went) = now.iter().find(|r| **r != item.region) else {
            return v;
        };
        let went = if went.is_empty() {
            "the document"
        } else {
            went
        };
        Verdict {
            verdict: VerdictKind::Mismatch,
            reason: format!(
                "{} went to {went}, not into the destination {} ({}): {}",
                describe_element(item),
                declared(asked),
                if to.region.is_empty() {
                    "the document"
                } else {
                    to.region.as_str()
                },
                v.reason
            ),
            attributed_to: None,
            diff: v.diff,
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
            Ok(v) => self.landed(v),
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
        if !navigated && self.should_rewatch(v.verdict, &v.diff) {
            return self.rewatch();
        }
        let own = !matches!(self.step.action, Action::Goto { .. } | Action::Watch { .. });
        let claims_address = self
            .step
            .expect
            .iter()
            .any(|c| matches!(c, Claim::Navigates(_)));
        if navigated && (own || claims_address) {
            self.attempt.verdict = Some(v);
            self.phase = Phase::ReadAddress;
            return self.ask(Need::Read {
                read: Read::Address,
            });
        }
        let v = self.expected(v, None);
        self.attempt.verdict = Some(v);
        self.decide_attempt()
    }

    /// Has the page settled around the action, with nothing on it saying it is still
    /// working? The busy rule is asked of the whole page: a loader the background holds
    /// keeps an unshown claim AMBIGUOUS rather than MISMATCH, the cautious side.
    fn settled(&self) -> bool {
        let a = &self.attempt;
        a.stable_before && a.stable_after && a.busy.is_none() && busy(&a.before, &a.after).is_none()
    }

    /// `v` narrowed by the step's typed claims (`core::expect`), whose outcomes the record
    /// shows; `navigated_to`, the address of the new document the action loaded.
    fn expected(&mut self, v: Verdict, navigated_to: Option<&str>) -> Verdict {
        if self.step.expect.is_empty() || !self.is_verified() {
            return v;
        }
        let a = &self.attempt;
        let outcomes: Vec<_> = self
            .step
            .expect
            .iter()
            .map(|c| c.check(&v.diff, &a.before, &a.after, navigated_to))
            .collect();
        let v = combine(v, &outcomes, self.settled());
        self.attempt.expect = outcomes;
        v
    }

    /// A click or key press replaced the document (see `navigation`): MATCH when the new
    /// address is the target's destination or the intent holds on the new page alone.
    ///
    /// With typed claims, the claims decide with the rule above as the judge: its MATCH, or
    /// an AMBIGUOUS new document, folded with the claims (`navigates` reads `url`). A broken
    /// claim is a wrong effect, taken back and retried like any other.
    pub(super) fn followed(&mut self, url: String) -> Need {
        if !self.step.expect.is_empty() && self.is_verified() {
            return self.followed_with_claims(url);
        }
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

    /// The navigation rule's verdict on the new document at `url`, as the judge's: MATCH
    /// with its reason and lines, or AMBIGUOUS when neither the destination nor the intent
    /// explains it.
    fn navigation_verdict(&self, url: &str) -> (Verdict, Vec<String>) {
        let a = &self.attempt;
        let diff = a
            .verdict
            .as_ref()
            .map(|v| v.diff.clone())
            .unwrap_or_default();
        let verdict = |kind, reason: String| Verdict {
            verdict: kind,
            reason,
            attributed_to: None,
            diff: diff.clone(),
        };
        let mut lines = vec![format!("navigated to {url}")];
        match &self.step.action {
            Action::Goto { .. } | Action::Watch { .. } => {
                let v = a.verdict.clone().unwrap_or_else(|| {
                    verdict(
                        VerdictKind::Ambiguous,
                        format!("a new document loaded at {url}"),
                    )
                });
                lines = v.diff.lines.clone();
                return (v, lines);
            }
            Action::Click { .. } | Action::Press { .. } => {
                if let Some(d) = a.destination.as_ref().filter(|d| d.reached(url)) {
                    let reason = format!("a new document loaded at {}, {url}", d.what());
                    return (verdict(VerdictKind::Match, reason), lines);
                }
                if let Some(j) = self.intent_on_new_page() {
                    let reason = format!(
                        "a new document loaded at {url} and supports the intent: {}",
                        j.reason
                    );
                    lines.extend(j.diff.lines);
                    return (verdict(VerdictKind::Match, reason), lines);
                }
            }
            _ => {}
        }
        let reason = format!(
            "a new document loaded at {url}; neither the target's destination nor the intent \
             explains it"
        );
        (verdict(VerdictKind::Ambiguous, reason), lines)
    }

    /// The intent judged on the new page alone, when it holds there.
    fn intent_on_new_page(&self) -> Option<Verdict> {
        let intent = self.step.intent.clone()?;
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
        judge(&action, &blank, &a.after, &opts)
            .ok()
            .filter(|j| j.verdict == VerdictKind::Match)
    }

    /// [`Run::followed`] for a step with typed claims.
    fn followed_with_claims(&mut self, url: String) -> Need {
        let (v, lines) = self.navigation_verdict(&url);
        let address = (!url.is_empty()).then_some(url.as_str());
        let v = self.expected(v, address);
        if v.verdict == VerdictKind::Match
            && !matches!(self.step.action, Action::Goto { .. } | Action::Watch { .. })
        {
            return self.pass_navigation(v.reason, lines);
        }
        self.attempt.verdict = Some(v);
        self.decide_attempt()
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
                    chat: Default::default(),
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
                question.chat = super::prompt::chat(&question);
                self.phase = Phase::Ask;
                self.ask(Need::Ask {
                    question,
                    timeout_ms: super::need::ASK_TIMEOUT_MS,
                    max_chars: super::arbiter::SAID_MAX_CHARS as u64,
                })
            }
        }
    }

    /// The decision is made: pass, or take the effect back.
    pub(super) fn decided(&mut self, ok: bool) -> Need {
        if matches!(self.step.action, Action::Watch { .. }) {
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
            background: self.attempt.background.clone(),
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
            expect: a.expect.clone(),
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
