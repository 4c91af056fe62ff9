//! Taking a wrong effect back, then checking that it is gone.
//!
//! Inverses are tried in this order, each only where the diff shows what it needs:
//! 1. **history back**, when the action replaced the document (the epoch changed);
//! 2. **rewrite the previous value** of a field whose value changed (the target's raw value
//!    was read before typing; another field's from the before-snapshot, unless redacted);
//! 3. **toggle back** a control whose `checked`/`pressed` state flipped, by clicking it;
//! 4. **the removal control that appeared** with the wrong effect (a button or link named
//!    Remove, Delete, ×, Quitar, Eliminar, Supprimer, Entfernen, …), only when it appeared in
//!    the same region as the wrong effect, so a page cannot steer the undo to an unrelated
//!    "Delete" elsewhere, and never when a landmark, dialog or region appeared with it or
//!    more than two such controls did (a part of the page came back, not a row);
//! 5. **move the mouse away** after a hover;
//! 6. for upload and drag, the **inverse the caller declared** (no generic inverse exists).
//!
//! Then the page is observed again and diffed against the pre-action snapshot, restricted to
//! the identities the wrong effect touched: anything left is a residue (`UNDO_FAILED`). Text
//! changes (a status line saying "Removed") are not residue: they report, they are not state.
//! No applicable inverse at all is `IRREVERSIBLE_ACTION`.

use crate::act::{self, Point, Prepared};
use crate::error::Result;
use crate::script::{Action, Step};
use crate::stabilise::{fingerprint_now, stabilise};
use crate::verify::{Attempt, Undo, Verifier};
use prufe::core::diff::{self, Diff, Field};
use prufe::core::identity::Identity;
use prufe::core::model::{Element, REDACTED};
use std::collections::HashSet;

// Which controls take a thing out, and which of them may undo an effect: one rule, in core.
pub use prufe::core::run::inverse::{is_removal_name, removal_controls, MAX_REMOVAL_CONTROLS};

/// The identities a diff touched.
fn affected(d: &Diff) -> HashSet<Identity<'_>> {
    let mut set = HashSet::new();
    set.extend(d.appeared.iter().map(Identity::of));
    set.extend(d.disappeared.iter().map(Identity::of));
    for c in &d.changed {
        set.insert(Identity::of(&c.before));
        set.insert(Identity::of(&c.after));
    }
    for m in &d.moved {
        set.insert(Identity::of(&m.before));
        set.insert(Identity::of(&m.after));
    }
    set
}

/// What of `wrong` is still there in `now` (a diff from the pre-action snapshot).
pub fn residue(wrong: &Diff, now: &Diff) -> Vec<String> {
    let ids = affected(wrong);
    let mut out = Vec::new();
    out.extend(
        now.appeared
            .iter()
            .filter(|e| ids.contains(&Identity::of(e)))
            .map(diff::line_appeared),
    );
    out.extend(
        now.disappeared
            .iter()
            .filter(|e| ids.contains(&Identity::of(e)))
            .map(diff::line_disappeared),
    );
    out.extend(
        now.changed
            .iter()
            .filter(|c| {
                ids.contains(&Identity::of(&c.before)) || ids.contains(&Identity::of(&c.after))
            })
            .map(diff::line_changed),
    );
    out.extend(
        now.moved
            .iter()
            .filter(|m| {
                ids.contains(&Identity::of(&m.before)) || ids.contains(&Identity::of(&m.after))
            })
            .map(diff::line_moved),
    );
    out
}

fn has_elements(d: &Diff) -> bool {
    !(d.appeared.is_empty()
        && d.disappeared.is_empty()
        && d.changed.is_empty()
        && d.moved.is_empty())
}

impl Verifier {
    /// Undoes the wrong effect of attempt `a` of `step` and verifies the undo.
    pub(crate) async fn undo(&mut self, step: &Step, a: &Attempt) -> Result<Undo> {
        self.forget_seen();
        if a.noop
            || (!has_elements(&a.diff)
                && a.diff.texts_appeared.is_empty()
                && a.diff.texts_disappeared.is_empty())
        {
            return Ok(Undo::Nothing);
        }
        let timing = self.timing();
        let fp_after = fingerprint_now(self.engine()).await?;
        let mut applied = 0;

        let navigated = a.before.snapshot.context.epoch != a.after.snapshot.context.epoch;
        if navigated {
            let loader = self
                .engine()
                .main_frame()
                .await
                .map(|f| f.loader)
                .unwrap_or_default();
            if act::history_back(self.engine()).await? {
                self.wait_for_new_document(&loader).await?;
                applied += 1;
            }
        } else {
            match &step.action {
                Action::Upload { .. } | Action::Drag { .. } => {
                    for inverse in &step.inverse {
                        self.unverified(inverse, true).await?;
                        applied += 1;
                    }
                }
                _ => {
                    applied += self.rewrite_values(step, a).await?;
                    applied += self.toggle_back(a).await?;
                    applied += self.click_removals(a).await?;
                    if let (Action::Hover { .. }, Some(p)) = (&step.action, a.point) {
                        act::move_mouse(self.engine(), away_from(p)).await?;
                        applied += 1;
                    }
                }
            }
        }
        if applied == 0 {
            return Ok(Undo::NoInverse);
        }

        stabilise(self.engine(), timing, Some(&fp_after)).await?;
        let restored = self.engine().observe(self.sensitive()).await?;
        let now = diff::diff(&a.before.snapshot, &restored.snapshot, &self.diff_opts());
        let left = residue(&a.diff, &now);
        Ok(if left.is_empty() {
            Undo::Undone
        } else {
            Undo::Residue(left)
        })
    }

    /// Writes back the previous value of every field whose value changed.
    async fn rewrite_values(&mut self, step: &Step, a: &Attempt) -> Result<u32> {
        let mut n = 0;
        for c in &a.diff.changed {
            if !c.fields.iter().any(|f| f.field == Field::Value) {
                continue;
            }
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
            let Some(previous) = previous else { continue };
            let Some(ready) = self.prepare_by_identity(&c.after, false).await? else {
                continue;
            };
            if matches!(step.action, Action::Select { .. }) && is_target {
                act::restore_select(self.engine(), &ready, &previous).await?;
            } else {
                act::focus_and_select(self.engine(), &ready).await?;
                act::type_text(self.engine(), &previous).await?;
            }
            n += 1;
        }
        Ok(n)
    }

    /// Clicks again every control whose checked or pressed state flipped.
    async fn toggle_back(&mut self, a: &Attempt) -> Result<u32> {
        let mut n = 0;
        for c in &a.diff.changed {
            if !c
                .fields
                .iter()
                .any(|f| matches!(f.field, Field::Checked | Field::Pressed))
            {
                continue;
            }
            if self.click_identity(&c.after).await? {
                n += 1;
            }
        }
        Ok(n)
    }

    /// Clicks the removal controls that appeared with the wrong effect.
    async fn click_removals(&mut self, a: &Attempt) -> Result<u32> {
        let mut n = 0;
        for control in removal_controls(&a.diff) {
            let fp = fingerprint_now(self.engine()).await?;
            if self.click_identity(control).await? {
                n += 1;
                stabilise(self.engine(), self.timing(), Some(&fp)).await?;
            }
        }
        Ok(n)
    }

    /// Finds the element with `e`'s identity on the page now, and clicks it if it can take
    /// the click. `false` when it is gone or not actionable.
    async fn click_identity(&mut self, e: &Element) -> Result<bool> {
        match self.prepare_by_identity(e, true).await? {
            Some(ready) => {
                act::click(self.engine(), ready.point).await?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    async fn prepare_by_identity(
        &mut self,
        e: &Element,
        hit_test: bool,
    ) -> Result<Option<act::Actionable>> {
        for _ in 0..3 {
            let obs = self.engine().observe(self.sensitive()).await?;
            let Some(live) = obs
                .snapshot
                .elements
                .iter()
                .find(|x| x.visible && Identity::of(x) == Identity::of(e))
            else {
                return Ok(None);
            };
            let timeout = std::time::Duration::from_millis(self.timing().timeout_ms);
            match act::prepare(self.engine(), &obs.roots, live, hit_test, timeout).await {
                Ok(Prepared::Ready(r)) => return Ok(Some(r)),
                Ok(Prepared::Scrolled) => {
                    stabilise(self.engine(), self.timing(), None).await?;
                    continue;
                }
                Err(_) => return Ok(None),
            }
        }
        Ok(None)
    }

    pub(crate) async fn wait_for_new_document(&self, old_loader: &str) -> Result<()> {
        let deadline = std::time::Instant::now()
            + std::time::Duration::from_millis(self.timing().timeout_ms.max(1_000));
        loop {
            self.engine().alive()?;
            if let Ok(main) = self.engine().main_frame().await {
                if main.loader != old_loader {
                    return self.wait_for_document(Some(&main.loader)).await;
                }
            }
            if std::time::Instant::now() >= deadline {
                return Ok(());
            }
            tokio::time::sleep(std::time::Duration::from_millis(
                self.timing().poll_ms.max(10),
            ))
            .await;
        }
    }
}

/// A point away from `p`, near the top-left corner and off the hovered element.
fn away_from(p: Point) -> Point {
    if p.x < 40.0 && p.y < 40.0 {
        Point {
            x: p.x + 400.0,
            y: p.y + 400.0,
        }
    } else {
        Point { x: 1.0, y: 1.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prufe::core::diff::{Changed, FieldChange};
    use prufe::core::model::Role;

    fn el(role: Role, name: &str, region: &str) -> Element {
        Element {
            reference: format!("e-{name}"),
            role,
            name: name.into(),
            region: region.into(),
            visible: true,
            ..Default::default()
        }
    }

    fn item(text: &str, region: &str) -> Element {
        Element {
            role: Role::Listitem,
            text: Some(text.into()),
            region: region.into(),
            visible: true,
            ..Default::default()
        }
    }

    #[test]
    fn residue_is_limited_to_what_the_wrong_effect_touched() {
        let wrong = Diff {
            appeared: vec![
                item("Trousers L", "cart"),
                el(Role::Button, "Remove Trousers L", "cart"),
            ],
            ..Default::default()
        };
        let clean = Diff {
            appeared: vec![el(Role::Button, "Undo", "toast")],
            ..Default::default()
        };
        assert!(residue(&wrong, &clean).is_empty());
        let left = Diff {
            appeared: vec![item("Trousers L", "cart")],
            ..Default::default()
        };
        assert_eq!(
            residue(&wrong, &left),
            ["appeared listitem[Trousers L] in cart"]
        );

        let mut a = el(Role::Checkbox, "Gift wrap", "form[Checkout]");
        a.checked = Some(prufe::core::model::Tristate::False);
        let mut b = a.clone();
        b.checked = Some(prufe::core::model::Tristate::True);
        let flipped = Diff {
            changed: vec![Changed {
                before: a.clone(),
                after: b.clone(),
                fields: vec![FieldChange {
                    field: Field::Checked,
                    before: Some("false".into()),
                    after: Some("true".into()),
                }],
            }],
            ..Default::default()
        };
        assert_eq!(residue(&flipped, &flipped).len(), 1);
        assert!(residue(&flipped, &Diff::default()).is_empty());
    }

    #[test]
    fn moving_away_leaves_the_hovered_point() {
        let p = away_from(Point { x: 600.0, y: 20.0 });
        assert!(p.x < 10.0 && p.y < 10.0);
        let q = away_from(Point { x: 5.0, y: 5.0 });
        assert!(q.x > 100.0);
    }
}
