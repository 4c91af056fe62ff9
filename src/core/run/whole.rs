//! A need of the whole page composed root by root: the machine's, for every driver.
//!
//! A page whose frames of other origins have engines of their own has several roots: the
//! top document (path `""`) and each such frame. An observation, a fingerprint or a settle
//! of the page is one of all of them. A driver with several roots answers
//! [`Need::Observe`], [`Need::Fingerprint`] or [`Need::Settle`] with their paths
//! ([`Answer::Roots`]), and the machine asks each root in turn, the top first:
//! - observe: each root's snapshot ([`Read::Snapshot`], with that root's sensitive refs in
//!   its own terms), merged ([`frames::merge`]). A frame root that cannot answer (navigating
//!   away) stays an opaque `iframe`; the top document that cannot is no observation
//!   ([`Answer::Unavailable`]) when its failure is transient, else that failure.
//! - fingerprint: each root's ([`Read::Pulse`]), joined ([`frames::join`]); a frame root
//!   that cannot answer is unknown in the join; the top document's failure is handed on (a
//!   transient one reads as no fingerprint: `Run::unreadable`).
//! - settle: the settle loop ([`Settling`]) over the joined fingerprint and the least
//!   `quietFor` of the roots (0 for one that cannot answer), read at the start and after each
//!   wait it asks for ([`Need::Wait`], answered with the driver's clock); the roots are read
//!   again before each read (a navigation adds and removes frames). No top document reads
//!   as no fingerprint.
//!
//! A page of one root answers these needs itself, in one call each. When that call fails
//! transiently, the machine decides what it means, the same for every driver: an
//! observation is [`Answer::Unavailable`]; a settle whose page loop ended with its document
//! (a navigation) goes on here from that moment, as a change, to the need's deadline
//! ([`Settling::replaced`]).

use serde::{Deserialize, Serialize};

use super::need::{Answer, Need, Read};
use super::quiet::{Settling, Tick};
use crate::core::frames::{self, Part};
use crate::core::model::Snapshot;

/// What a composition waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "stage",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
enum Stage {
    /// The need is with the driver, which answers it whole or names its roots.
    Asked,
    /// The snapshots of `paths`, those so far in `parts`.
    Observing {
        paths: Vec<String>,
        parts: Vec<Option<Snapshot>>,
    },
    /// The fingerprints of `paths`, those so far in `parts`.
    Fingerprinting {
        paths: Vec<String>,
        parts: Vec<Option<String>>,
    },
    /// The settle loop: the driver's clock ([`Need::Wait`]), then the roots, then each
    /// root's pulse.
    Settling {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        settling: Option<Settling>,
        /// The settle went on from a page loop that ended with its document.
        replaced: bool,
        poll: Poll,
    },
}

/// Where one read of a settle stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "at", rename_all = "camelCase", rename_all_fields = "camelCase")]
enum Poll {
    /// Waiting for the clock; the roots when already known (the driver named them).
    Clock {
        paths: Option<Vec<String>>,
    },
    Roots {
        now: f64,
    },
    /// The pulses of `paths`, those so far in `parts`; `quiet` the least so far.
    Pulses {
        now: f64,
        paths: Vec<String>,
        parts: Vec<Option<String>>,
        quiet: Option<f64>,
    },
}

/// A need of the whole page and where its composition stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Composing {
    need: Need,
    stage: Stage,
}

/// What a composition does with an answer.
pub enum Composed {
    /// Ask the driver this; the composition goes on.
    Ask(Box<Composing>, Need),
    /// The answer to the whole page's need (or the answer as it came, when it is not one the
    /// composition reads).
    Done(Answer),
}

impl Composing {
    /// The composition of `need` once it is asked, for a need of the whole page.
    pub fn of(need: &Need) -> Option<Composing> {
        matches!(
            need,
            Need::Observe { .. } | Need::Fingerprint { .. } | Need::Settle { .. }
        )
        .then(|| Composing {
            need: need.clone(),
            stage: Stage::Asked,
        })
    }

    /// The next need of the composition, or the whole page's answer.
    pub fn on(mut self, answer: Answer) -> Composed {
        match (std::mem::replace(&mut self.stage, Stage::Asked), answer) {
            (Stage::Asked, Answer::Roots { paths }) => {
                let paths = top_first(paths);
                match &self.need {
                    Need::Observe { .. } => self.observe(paths, Vec::new()),
                    Need::Fingerprint { .. } => self.fingerprint(paths, Vec::new()),
                    _ => self.clock(None, false, Some(paths), 0),
                }
            }
            (Stage::Asked, Answer::Failed { error })
                if error.code.is_transient() && matches!(self.need, Need::Observe { .. }) =>
            {
                Composed::Done(Answer::Unavailable)
            }
            (Stage::Asked, Answer::Failed { error })
                if error.code.is_transient() && matches!(self.need, Need::Settle { .. }) =>
            {
                self.clock(None, true, None, 0)
            }
            (Stage::Observing { paths, mut parts }, answer) => {
                let top = parts.is_empty();
                match answer {
                    Answer::Observed { snapshot } => parts.push(Some(snapshot)),
                    Answer::Unavailable if top => return Composed::Done(Answer::Unavailable),
                    Answer::Failed { error } if top && error.code.is_transient() => {
                        return Composed::Done(Answer::Unavailable)
                    }
                    Answer::Unavailable | Answer::Failed { .. } if !top => parts.push(None),
                    other => return Composed::Done(other),
                }
                self.observe(paths, parts)
            }
            (Stage::Fingerprinting { paths, mut parts }, answer) => {
                let top = parts.is_empty();
                match answer {
                    Answer::Pulse { fingerprint, .. } => parts.push(Some(fingerprint)),
                    Answer::Failed { .. } if !top => parts.push(None),
                    other => return Composed::Done(other),
                }
                self.fingerprint(paths, parts)
            }
            (
                Stage::Settling {
                    settling,
                    replaced,
                    poll,
                },
                answer,
            ) => self.settle(settling, replaced, poll, answer),
            (_, answer) => Composed::Done(answer),
        }
    }

    /// The next root's snapshot, or the merged one.
    fn observe(mut self, paths: Vec<String>, parts: Vec<Option<Snapshot>>) -> Composed {
        let Some(path) = paths.get(parts.len()).cloned() else {
            let parts = paths
                .into_iter()
                .zip(parts)
                .map(|(path, snapshot)| Part { path, snapshot })
                .collect();
            return Composed::Done(match frames::merge(parts) {
                Ok(snapshot) => Answer::Observed { snapshot },
                Err(error) => Answer::Failed { error },
            });
        };
        let Need::Observe { sensitive } = &self.need else {
            return Composed::Done(Answer::Unavailable);
        };
        let sensitive = sensitive
            .iter()
            .map(|merged| frames::route(merged))
            .filter(|(root, _)| *root == path)
            .map(|(_, local)| local.to_owned())
            .collect();
        self.stage = Stage::Observing { paths, parts };
        Composed::Ask(
            Box::new(self),
            Need::Read {
                read: Read::Snapshot { path, sensitive },
            },
        )
    }

    /// The next root's fingerprint, or the joined one.
    fn fingerprint(mut self, paths: Vec<String>, parts: Vec<Option<String>>) -> Composed {
        let Some(path) = paths.get(parts.len()).cloned() else {
            let joined: Vec<(String, Option<String>)> = paths.into_iter().zip(parts).collect();
            return Composed::Done(Answer::Fingerprint {
                fingerprint: frames::join(&joined),
            });
        };
        let need = self.pulse(path);
        self.stage = Stage::Fingerprinting { paths, parts };
        Composed::Ask(Box::new(self), need)
    }

    /// The pulse of the root at `path`, leaving out the need's background.
    fn pulse(&self, path: String) -> Need {
        let background = match &self.need {
            Need::Fingerprint { background } | Need::Settle { background, .. } => {
                background.clone()
            }
            _ => Default::default(),
        };
        Need::Read {
            read: Read::Pulse { path, background },
        }
    }

    /// Asks for the clock, after `ms`.
    fn clock(
        mut self,
        settling: Option<Settling>,
        replaced: bool,
        paths: Option<Vec<String>>,
        ms: u64,
    ) -> Composed {
        self.stage = Stage::Settling {
            settling,
            replaced,
            poll: Poll::Clock { paths },
        };
        Composed::Ask(Box::new(self), Need::Wait { ms })
    }

    /// One answer of the settle loop.
    fn settle(
        mut self,
        settling: Option<Settling>,
        replaced: bool,
        poll: Poll,
        answer: Answer,
    ) -> Composed {
        let (now, paths, parts, quiet) = match (poll, answer) {
            (Poll::Clock { paths: Some(paths) }, Answer::Waited { now }) => {
                (now, paths, Vec::new(), None)
            }
            (Poll::Clock { paths: None }, Answer::Waited { now }) => {
                self.stage = Stage::Settling {
                    settling,
                    replaced,
                    poll: Poll::Roots { now },
                };
                let need = Need::Read { read: Read::Roots };
                return Composed::Ask(Box::new(self), need);
            }
            (Poll::Roots { now }, Answer::Roots { paths }) => {
                (now, top_first(paths), Vec::new(), None)
            }
            // No list of roots (no document): nothing to read.
            (Poll::Roots { now }, Answer::Failed { .. }) => {
                return self.read(settling, replaced, now, None, 0.0)
            }
            (
                Poll::Pulses {
                    now,
                    paths,
                    mut parts,
                    quiet,
                },
                answer,
            ) => match answer {
                Answer::Pulse {
                    fingerprint,
                    quiet_for,
                } => {
                    parts.push(Some(fingerprint));
                    let least = quiet.map_or(quiet_for, |q| q.min(quiet_for));
                    (now, paths, parts, Some(least))
                }
                // No document at the top: no fingerprint at all.
                Answer::Failed { .. } if parts.is_empty() => {
                    return self.read(settling, replaced, now, None, 0.0)
                }
                Answer::Failed { .. } => {
                    parts.push(None);
                    (now, paths, parts, Some(0.0))
                }
                other => return Composed::Done(other),
            },
            (_, other) => return Composed::Done(other),
        };
        let Some(path) = paths.get(parts.len()).cloned() else {
            let joined: Vec<(String, Option<String>)> = paths.into_iter().zip(parts).collect();
            let joined = Some(frames::join(&joined));
            return self.read(settling, replaced, now, joined, quiet.unwrap_or(0.0));
        };
        let need = self.pulse(path);
        self.stage = Stage::Settling {
            settling,
            replaced,
            poll: Poll::Pulses {
                now,
                paths,
                parts,
                quiet,
            },
        };
        Composed::Ask(Box::new(self), need)
    }

    /// One read of the settle loop: its answer, or the wait it asks for.
    fn read(
        self,
        settling: Option<Settling>,
        replaced: bool,
        now: f64,
        fingerprint: Option<String>,
        quiet_for: f64,
    ) -> Composed {
        let started = match settling {
            Some(mut s) => {
                let tick = s.read(now, fingerprint, quiet_for);
                Some((s, tick))
            }
            None if replaced => Settling::replaced(&self.need, now, now, fingerprint, quiet_for),
            None => Settling::start(&self.need, now, fingerprint, quiet_for),
        };
        match started {
            Some((_, Tick::Done(answer))) => Composed::Done(answer),
            Some((s, Tick::Wait { ms })) => self.clock(Some(s), replaced, None, ms.ceil() as u64),
            None => Composed::Done(Answer::Unavailable),
        }
    }
}

/// The roots as named, the top document first (and always there: its failure is the
/// page's).
fn top_first(paths: Vec<String>) -> Vec<String> {
    let mut out = vec![String::new()];
    for p in paths {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::{Error, ErrorCode};
    use crate::core::model::{Element, Snapshot};

    fn roots(paths: &[&str]) -> Answer {
        Answer::Roots {
            paths: paths.iter().map(|p| p.to_string()).collect(),
        }
    }

    fn failed(code: ErrorCode) -> Answer {
        Answer::Failed {
            error: Error::new(code, "gone"),
        }
    }

    fn snapshot(reference: &str) -> Snapshot {
        Snapshot {
            elements: vec![Element {
                reference: reference.into(),
                role: crate::core::model::Role::Button,
                name: "Go".into(),
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    fn ask(c: Composed) -> (Composing, Need) {
        match c {
            Composed::Ask(c, need) => (*c, need),
            Composed::Done(a) => panic!("done early: {a:?}"),
        }
    }

    fn done(c: Composed) -> Answer {
        match c {
            Composed::Done(a) => a,
            Composed::Ask(_, need) => panic!("still asking: {need:?}"),
        }
    }

    fn observing(sensitive: &[&str]) -> Composing {
        Composing::of(&Need::Observe {
            sensitive: sensitive.iter().map(|s| s.to_string()).collect(),
        })
        .expect("a need of the whole page")
    }

    #[test]
    fn only_needs_of_the_whole_page_are_composed() {
        assert!(Composing::of(&Need::Read { read: Read::Roots }).is_none());
        assert!(Composing::of(&Need::Wait { ms: 0 }).is_none());
        assert!(Composing::of(&Need::Fingerprint {
            background: Default::default()
        })
        .is_some());
    }

    #[test]
    fn a_whole_answer_passes_as_it_came() {
        let a = Answer::Observed {
            snapshot: snapshot("e1"),
        };
        assert_eq!(done(observing(&[]).on(a.clone())), a);
    }

    #[test]
    fn an_observation_asks_each_root_with_its_own_sensitive_refs_and_merges() {
        let (c, need) = ask(observing(&["e3", "f0:e2", "f1:e9"]).on(roots(&["", "0", "1"])));
        assert_eq!(
            need,
            Need::Read {
                read: Read::Snapshot {
                    path: String::new(),
                    sensitive: vec!["e3".into()]
                }
            }
        );
        let (c, need) = ask(c.on(Answer::Observed {
            snapshot: snapshot("e1"),
        }));
        assert_eq!(
            need,
            Need::Read {
                read: Read::Snapshot {
                    path: "0".into(),
                    sensitive: vec!["e2".into()]
                }
            }
        );
        let (c, _) = ask(c.on(Answer::Observed {
            snapshot: snapshot("e1"),
        }));
        // The frame at 1 navigates away: it stays opaque, the rest is merged.
        let Answer::Observed { snapshot } = done(c.on(failed(ErrorCode::NotReady))) else {
            panic!("an observation")
        };
        let refs: Vec<&str> = snapshot
            .elements
            .iter()
            .map(|e| e.reference.as_str())
            .collect();
        assert_eq!(refs, ["e1", "f0:e1"]);
    }

    #[test]
    fn the_top_that_cannot_answer_is_no_observation_unless_its_failure_is_lasting() {
        let (c, _) = ask(observing(&[]).on(roots(&["0", ""])));
        assert_eq!(done(c.on(failed(ErrorCode::NotReady))), Answer::Unavailable);
        let (c, _) = ask(observing(&[]).on(roots(&["", "0"])));
        let lasting = failed(ErrorCode::InvalidArgument);
        assert_eq!(done(c.on(lasting.clone())), lasting);
        // One root that fails transiently on its own is no observation either.
        assert_eq!(
            done(observing(&[]).on(failed(ErrorCode::NotReady))),
            Answer::Unavailable
        );
    }

    #[test]
    fn a_fingerprint_joins_the_roots_and_hands_on_the_tops_failure() {
        let c = Composing::of(&Need::Fingerprint {
            background: Default::default(),
        })
        .expect("whole");
        let (c2, need) = ask(c.clone().on(roots(&["", "0"])));
        assert!(
            matches!(need, Need::Read { read: Read::Pulse { ref path, .. } } if path.is_empty())
        );
        let pulse = |f: &str| Answer::Pulse {
            fingerprint: f.into(),
            quiet_for: 0.0,
        };
        let (c3, _) = ask(c2.clone().on(pulse("a")));
        assert_eq!(
            done(c3.on(failed(ErrorCode::NotReady))),
            Answer::Fingerprint {
                fingerprint: frames::join(&[("".into(), Some("a".into())), ("0".into(), None)])
            }
        );
        let gone = failed(ErrorCode::NotReady);
        assert_eq!(done(c2.on(gone.clone())), gone);
    }

    fn settle_need(since: Option<&str>) -> Need {
        Need::Settle {
            since: since.map(str::to_owned),
            poll_ms: 50,
            quiet_ms: 100,
            timeout_ms: 1000,
            stop_on_change: false,
            background: Default::default(),
            quick_ms: 0,
            claims: false,
        }
    }

    /// One read of the loop: the clock at `now`, the roots, a pulse per fingerprint given.
    fn poll(c: Composing, now: f64, fps: &[&str], quiet: f64) -> Composed {
        let (c, need) = ask(c.on(Answer::Waited { now }));
        assert_eq!(need, Need::Read { read: Read::Roots });
        let paths: Vec<String> = (0..fps.len())
            .map(|i| {
                if i == 0 {
                    String::new()
                } else {
                    (i - 1).to_string()
                }
            })
            .collect();
        let mut c = c;
        for (i, fp) in fps.iter().enumerate() {
            let answer = if i == 0 {
                Answer::Roots {
                    paths: paths.clone(),
                }
            } else {
                Answer::Pulse {
                    fingerprint: fps[i - 1].into(),
                    quiet_for: quiet,
                }
            };
            let (next, need) = ask(c.on(answer));
            assert!(
                matches!(
                    need,
                    Need::Read {
                        read: Read::Pulse { .. }
                    }
                ),
                "{fp}"
            );
            c = next;
        }
        let last = Answer::Pulse {
            fingerprint: fps[fps.len() - 1].into(),
            quiet_for: quiet,
        };
        c.on(last)
    }

    #[test]
    fn a_settle_over_roots_waits_for_the_joined_fingerprint_to_stay() {
        let c = Composing::of(&settle_need(None)).expect("whole");
        let (c, need) = ask(c.on(roots(&["", "0"])));
        assert_eq!(need, Need::Wait { ms: 0 });
        // The roots are known: the first read asks no roots.
        let (c, need) = ask(c.on(Answer::Waited { now: 1000.0 }));
        assert!(
            matches!(need, Need::Read { read: Read::Pulse { ref path, .. } } if path.is_empty())
        );
        let (c, _) = ask(c.on(Answer::Pulse {
            fingerprint: "a".into(),
            quiet_for: 0.0,
        }));
        let (c, need) = ask(c.on(Answer::Pulse {
            fingerprint: "x".into(),
            quiet_for: 0.0,
        }));
        assert_eq!(need, Need::Wait { ms: 50 });
        // The frame changes: not quiet yet.
        let (c, need) = ask(poll(c, 1050.0, &["a", "y"], 0.0));
        assert_eq!(need, Need::Wait { ms: 50 });
        let (c, _) = ask(poll(c, 1100.0, &["a", "y"], 0.0));
        let Answer::Settled {
            stable,
            changed,
            waited_ms,
            ..
        } = done(poll(c, 1150.0, &["a", "y"], 0.0))
        else {
            panic!("settled")
        };
        assert!(stable);
        assert!(changed);
        assert_eq!(waited_ms, 150);
    }

    #[test]
    fn a_settle_whose_page_loop_lost_its_document_goes_on_to_the_deadline() {
        let c = Composing::of(&settle_need(Some("before"))).expect("whole");
        let (c, need) = ask(c.on(failed(ErrorCode::NotReady)));
        assert_eq!(need, Need::Wait { ms: 0 });
        let (c, need) = ask(c.on(Answer::Waited { now: 0.0 }));
        assert_eq!(need, Need::Read { read: Read::Roots });
        // Still no document: a wait, then no document until the deadline.
        let (c, need) = ask(c.on(failed(ErrorCode::NotReady)));
        assert_eq!(need, Need::Wait { ms: 50 });
        let (c, _) = ask(c.on(Answer::Waited { now: 1000.0 }));
        let Answer::Failed { error } = done(c.on(failed(ErrorCode::NotReady))) else {
            panic!("lost")
        };
        assert_eq!(error.code, ErrorCode::NotReady);
        // A document that comes back, changed and quiet: settled, a change.
        let c = Composing::of(&settle_need(Some("before"))).expect("whole");
        let (c, _) = ask(c.on(failed(ErrorCode::NotReady)));
        let (c, _) = ask(poll(c, 0.0, &["after"], 0.0));
        let (c, _) = ask(poll(c, 50.0, &["after"], 0.0));
        let Answer::Settled {
            changed, stable, ..
        } = done(poll(c, 100.0, &["after"], 0.0))
        else {
            panic!("settled")
        };
        assert!(changed && stable);
    }

    #[test]
    fn the_top_comes_first_whatever_the_drivers_order() {
        assert_eq!(
            top_first(vec!["0".into(), "".into(), "0".into()]),
            ["", "0"]
        );
    }
}
