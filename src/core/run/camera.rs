//! When a step's pictures are taken, and what they mark: the machine's, for every driver.
//!
//! A run whose policy asks for pictures ([`super::Policy::pictures`]) asks for them itself
//! ([`Need::Picture`]), one order for every driver:
//! - the *before* picture when the step's own input is asked for (phase `arrive`, the
//!   pointer's move, or `input`), once per attempt, so it shows the target where it will be
//!   pressed;
//! - the *after* picture right after each observation of the effect (phase `after`), so the
//!   last one is the page the verdict was judged on, wrong effect included, before any undo.
//!
//! Each names the target (the ref prepared for the step's input), the point input went to,
//! the refs observed sensitive, and for the after picture the effect's elements: what the
//! core diff of the before picture's observation and this one says appeared, changed or
//! moved, [`MAX_EFFECT`] at most. The driver covers the secrets, captures, marks and keeps
//! the picture (a later before picture replaces both), and answers [`Answer::Pictured`]; a
//! picture it could not take is no failure of the step. The need asked before the picture
//! follows it.

use serde::{Deserialize, Serialize};

use super::need::{Gesture, Moment, Need, Point};
use crate::core::diff::{diff, DiffOptions};
use crate::core::model::Snapshot;

/// The most effect elements outlined in one picture.
pub const MAX_EFFECT: usize = 24;

/// What the pictures of a run know so far.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Camera {
    /// The attempt whose before picture was asked.
    attempt: u32,
    target: Option<String>,
    point: Option<Point>,
    sensitive: Vec<String>,
    /// The observation the before picture went with.
    before: Option<Snapshot>,
    /// The need a picture was asked before, asked once it is answered.
    held: Option<Box<Need>>,
}

impl Camera {
    /// The need held for a picture, once the picture's answer (taken or not) comes.
    pub(super) fn resume(&mut self) -> Option<Need> {
        self.held.take().map(|n| *n)
    }

    /// The refs of the effect's elements in `after`, from the before picture's observation.
    pub(super) fn effect(&self, after: &Snapshot) -> Vec<String> {
        let Some(before) = &self.before else {
            return Vec::new();
        };
        let d = diff(before, after, &DiffOptions::default());
        let mut refs: Vec<String> = d
            .appeared
            .iter()
            .map(|e| e.reference.clone())
            .chain(d.changed.iter().map(|c| c.after.reference.clone()))
            .chain(d.moved.iter().map(|m| m.after.reference.clone()))
            .collect();
        refs.dedup();
        refs.truncate(MAX_EFFECT);
        refs
    }

    fn picture(&mut self, moment: Moment, effect: Vec<String>, then: Need) -> Need {
        self.held = Some(Box::new(then));
        Need::Picture {
            moment,
            target: self.target.clone(),
            effect,
            point: self.point,
            sensitive: self.sensitive.clone(),
        }
    }

    /// The need to ask after `need` was made in `phase` of attempt `attempt` (`before`: the
    /// attempt's observation before the input), with `effect` when an observation of the
    /// effect was just answered: a picture first, holding `need`, or `need` itself.
    pub(super) fn around(
        &mut self,
        need: Need,
        phase: &str,
        attempt: u32,
        before: &Snapshot,
        effect: Option<Vec<String>>,
    ) -> Need {
        if let Some(effect) = effect {
            return self.picture(Moment::After, effect, need);
        }
        match &need {
            Need::Observe { sensitive } => self.sensitive = sensitive.clone(),
            Need::Prepare { reference, .. } if phase == "prepare" => {
                self.target = Some(reference.clone());
            }
            Need::Input { gesture } if matches!(phase, "input" | "arrive") => {
                if let Gesture::Click { at, .. }
                | Gesture::MoveTo { at }
                | Gesture::Down { at, .. } = gesture
                {
                    self.point = Some(*at);
                }
                if self.attempt != attempt {
                    self.attempt = attempt;
                    self.before = Some(before.clone());
                    return self.picture(Moment::Before, Vec::new(), need);
                }
            }
            _ => {}
        }
        need
    }
}
