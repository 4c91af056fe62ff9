//! The candidates an effect may be attributed to by name: the target and its neighbours,
//! with the distinctiveness weight of each term of their names.

use super::*;

/// Who the name evidence points to.
pub(super) enum Named<'d, 's> {
    Target(Effect<'d>),
    Neighbour(&'s Element, Effect<'d>),
    Both {
        target: Effect<'d>,
        neighbour: &'s Element,
        effect: Effect<'d>,
    },
    Nobody,
}

/// The target and its neighbours, with distinctiveness weights for the terms of their names.
pub(super) struct Candidates<'s> {
    /// `members[0]` is the target.
    members: Vec<&'s Element>,
    identities: FxHashMap<Identity<'s>, usize>,
    terms: Vec<Vec<String>>,
    weights: Vec<Vec<f32>>,
    total: Vec<f32>,
    /// Whether each term is an action word (`claims::is_action`).
    actions: Vec<Vec<bool>>,
    /// The total weight of each member's terms that are not action words.
    object_total: Vec<f32>,
    /// `intent::bucket` of a term → (member, term index), for terms of positive weight.
    index: FxHashMap<String, Vec<(usize, usize)>>,
}

impl<'s> Candidates<'s> {
    pub(super) fn new(target: &'s Element, before: &'s Snapshot, after: &Snapshot) -> Self {
        // Present afterwards anywhere: a neighbour that moved is still a neighbour.
        let present: FxHashSet<(Role, &str)> =
            after.elements.iter().map(|e| (e.role, naming(e))).collect();
        let mut labels: FxHashSet<&str> = FxHashSet::default();
        labels.insert(naming(target));
        let mut pool: Vec<(usize, &'s Element)> = before
            .elements
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                e.role == target.role
                    && e.region == target.region
                    && !naming(e).is_empty()
                    && present.contains(&(e.role, naming(e)))
            })
            .filter(|(_, e)| labels.insert(naming(e)))
            .collect();
        if pool.len() > MAX_NEIGHBOURS {
            let at = before
                .elements
                .iter()
                .position(|e| same_ref(e, target))
                .or_else(|| {
                    before
                        .elements
                        .iter()
                        .position(|e| Identity::of(e) == Identity::of(target))
                })
                .unwrap_or(0);
            pool.sort_by_key(|&(i, _)| (i.abs_diff(at), i));
            pool.truncate(MAX_NEIGHBOURS);
            pool.sort_by_key(|&(i, _)| i);
        }
        let members: Vec<&'s Element> = std::iter::once(target)
            .chain(pool.into_iter().map(|(_, e)| e))
            .collect();
        let terms: Vec<Vec<String>> = members
            .iter()
            .map(|e| Terms::of(naming(e)).iter().map(str::to_owned).collect())
            .collect();
        let mut df: FxHashMap<&str, usize> = FxHashMap::default();
        for t in terms.iter().flatten() {
            *df.entry(t.as_str()).or_default() += 1;
        }
        let n = members.len();
        let weights: Vec<Vec<f32>> = terms
            .iter()
            .map(|ts| {
                ts.iter()
                    .map(|t| {
                        let d = df[t.as_str()];
                        if n >= 2 && d == n {
                            0.0
                        } else {
                            (1.0 + n as f32 / d as f32).ln()
                        }
                    })
                    .collect()
            })
            .collect();
        let total = weights.iter().map(|w| w.iter().sum()).collect();
        let actions: Vec<Vec<bool>> = terms
            .iter()
            .map(|ts| ts.iter().map(|t| claims::is_action(t)).collect())
            .collect();
        let object_total = weights
            .iter()
            .zip(&actions)
            .map(|(w, a)| w.iter().zip(a).filter(|(_, &a)| !a).map(|(w, _)| w).sum())
            .collect();
        let mut index: FxHashMap<String, Vec<(usize, usize)>> = FxHashMap::default();
        for (m, ts) in terms.iter().enumerate() {
            for (i, t) in ts.iter().enumerate() {
                if weights[m][i] > 0.0 {
                    index
                        .entry(intent::bucket(t).to_owned())
                        .or_default()
                        .push((m, i));
                }
            }
        }
        let mut identities = FxHashMap::default();
        for (m, e) in members.iter().enumerate() {
            identities.entry(Identity::of(e)).or_insert(m);
        }
        Candidates {
            members,
            identities,
            terms,
            weights,
            total,
            actions,
            object_total,
            index,
        }
    }

    /// The member whose name `label` carries best, if exactly one does; failing that, the
    /// one whose name without its action words it carries best.
    pub(super) fn carried_by(&self, label: &Terms) -> Option<usize> {
        self.carried_telling(label, true)
    }

    /// As [`Candidates::carried_by`]; `tell` asks that a neighbour be told from the target
    /// by a word of its own (see [`Candidates::carried`]).
    fn carried_telling(&self, label: &Terms, tell: bool) -> Option<usize> {
        self.carried(label, false, tell)
            .or_else(|| self.carried(label, true, tell))
    }

    /// Does `words` hold a term of member `m`'s name that tells it from the others?
    pub(super) fn tells(&self, m: usize, words: &Terms) -> bool {
        words.iter().any(|term| {
            self.index.get(intent::bucket(term)).is_some_and(|list| {
                list.iter()
                    .any(|&(n, i)| n == m && intent::same_term(term, &self.terms[m][i]))
            })
        })
    }

    /// The member an effect's words carry, as [`Candidates::carried_by`]; but not a member
    /// told only by numbers a replaced line kept: a number both lines show was there before
    /// the action too ("3" of "page 1 of 3" → "page 2 of 3" names no page 3), while a word
    /// both show names what changed ("points" of "3 points" → "4 points" names "Add a
    /// point").
    pub(super) fn carried_by_effect(&self, effect: &Effect, effects: &[Effect]) -> Option<usize> {
        let label = Terms::of(effect.label());
        let Some(other) = counterpart(effect, effects) else {
            return self.carried_by(&label);
        };
        // A line that named a neighbour before ("Front door: unlocked", of "Unlock") reports
        // the state the neighbours set: its new words are judged among them, even a word
        // the target's name says too ("locked" of "Notify me when locked").
        let states_line = self.carried_by(&Terms::of(other)).is_some_and(|n| n > 0);
        let m = self.carried_telling(&label, !states_line)?;
        // The words that changed, place by place when both lines have as many ("1 of 3" →
        // "3 of 3" changed its first word to "3").
        let (was, now) = (text::tokens(other), text::tokens(effect.label()));
        let changed: Vec<&String> = if was.len() == now.len() {
            now.iter()
                .zip(&was)
                .filter(|(a, b)| a != b)
                .map(|(a, _)| a)
                .collect()
        } else {
            now.iter().filter(|w| !was.contains(w)).collect()
        };
        let number = |w: &str| w.chars().all(|c| c.is_ascii_digit());
        let telling: Vec<&str> = label
            .iter()
            .filter(|w| self.tells(m, &Terms::of(w)))
            .collect();
        let by_kept_numbers = !telling.is_empty()
            && telling
                .iter()
                .all(|w| number(w) && !changed.iter().any(|c| c.as_str() == *w));
        (!by_kept_numbers).then_some(m)
    }

    /// The member whose name `label` carries best, if one does more than the others.
    pub(super) fn carried(&self, label: &Terms, objects_only: bool, tell: bool) -> Option<usize> {
        let mut seen: FxHashSet<(usize, usize)> = FxHashSet::default();
        let mut weight: FxHashMap<usize, f32> = FxHashMap::default();
        for term in label.iter() {
            let Some(list) = self.index.get(intent::bucket(term)) else {
                continue;
            };
            for &(m, i) in list {
                if objects_only && self.actions[m][i] {
                    continue;
                }
                if intent::same_term(term, &self.terms[m][i]) && seen.insert((m, i)) {
                    *weight.entry(m).or_default() += self.weights[m][i];
                }
            }
        }
        let totals = if objects_only {
            &self.object_total
        } else {
            &self.total
        };
        // A neighbour is told from the target only by a word of its name that the target's
        // lacks: "Front door locked" carries all of "Lock", but no word of it that "Notify
        // me when locked" does not say too.
        let told = |m: usize| {
            m == 0
                || !tell
                || label.iter().any(|term| {
                    let of = |m: usize| self.terms[m].iter().any(|t| intent::same_term(term, t));
                    of(m) && !of(0)
                })
        };
        let mut found: Vec<(usize, f32)> = weight
            .into_iter()
            .filter(|&(m, w)| totals[m] > 0.0 && w / totals[m] >= NAME_COVERAGE && told(m))
            .collect();
        found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        // A label that carries three names or more is a container named by its content (a
        // calendar's row of days, a toolbar): it names none of them.
        if found.len() >= MAX_NAMES_CARRIED {
            return None;
        }
        match found.as_slice() {
            [] => None,
            [(m, _)] => Some(*m),
            [(m, w), (_, w2), ..] => (w - w2 > 1e-4).then_some(*m),
        }
    }
}

impl<'a> Judge<'a> {
    /// Attributes `effects` by the names they carry (see the module docs), and collects the
    /// effects on a variant of the target's name ("Shirt L" for "Remove Shirt M"), which are
    /// nobody's by name.
    pub(super) fn named<'s>(
        &self,
        candidates: &Candidates<'s>,
        effects: &[Effect<'a>],
    ) -> (Named<'a, 's>, Vec<Effect<'a>>) {
        let target_element = candidates.members[0];
        let title = title_terms(&target_element.region);
        let target_stems = claims::stems(target_element.label());
        let target_terms = Terms::of(target_element.label());
        let mut variants: Vec<Effect<'a>> = Vec::new();
        let mut target: Option<Effect<'a>> = None;
        let mut neighbours: Vec<(usize, usize, Effect<'a>)> = Vec::new();
        let mut credit = |m: usize, effect: Effect<'a>| {
            if m == 0 {
                target.get_or_insert(effect);
            } else if let Some(slot) = neighbours.iter_mut().find(|(n, _, _)| *n == m) {
                slot.1 += 1;
            } else {
                neighbours.push((m, 1, effect));
            }
        };
        // A message line that now names the target replaced what it said before ("Added
        // Shirt M" → "Added Hat S"): the old message is no one's evidence.
        let replaced: FxHashSet<(&str, &str)> = effects
            .iter()
            .filter_map(|e| match *e {
                Effect::TextAppeared(t) if candidates.carried_by_effect(e, effects) == Some(0) => {
                    Some((t.frame.as_str(), t.region.as_str()))
                }
                _ => None,
            })
            .collect();
        // Likewise an element renamed to name the target (a select's button "Medium Size"
        // → "Large Size"): what it said before is no one's evidence.
        let renamed: FxHashSet<(&str, &str, Role)> = effects
            .iter()
            .filter_map(|e| match *e {
                Effect::Appeared(el)
                    if candidates.carried_by(&Terms::of(el.label())) == Some(0) =>
                {
                    Some((el.frame.as_str(), el.region.as_str(), el.role))
                }
                _ => None,
            })
            .collect();
        // A dialog closing is evidence that it closed, not of what its title names.
        let closed = closed_dialogs(effects);
        // A popup's grid, listbox, menu or tree hidden (a date picker's calendar closing)
        // hides what is in its place with it: those are the closing, named by nothing.
        let hidden_popups: Vec<(&str, &str)> = effects
            .iter()
            .filter_map(|e| match *e {
                Effect::Changed(c)
                    if hides(e)
                        && matches!(
                            c.after.role,
                            Role::Grid | Role::Listbox | Role::Menu | Role::Tree
                        ) =>
                {
                    Some((c.after.frame.as_str(), c.after.region.as_str()))
                }
                _ => None,
            })
            .collect();
        let hidden_with_popup = |e: &Effect| match *e {
            Effect::Changed(c) if hides(e) => hidden_popups
                .iter()
                .any(|(f, r)| c.after.frame == *f && diff::region_matches(&c.after.region, r)),
            _ => false,
        };
        // A dialog opening is one effect: what it shows (its title, its text, its buttons)
        // names whose it is, together, and none of its parts is an effect of its own.
        let opened = opened_dialogs(effects);
        for (dialog, opening) in &opened {
            let words: Vec<&str> = effects
                .iter()
                .filter(|e| is_inside(e, dialog))
                .map(|e| e.label())
                .collect();
            if let Some(m) = candidates.carried_by(&Terms::of(&words.join(" "))) {
                credit(m, *opening);
            }
        }
        for &effect in effects {
            if opened.iter().any(|(d, _)| is_inside(&effect, d)) {
                continue;
            }
            if let Effect::TextDisappeared(t) = effect {
                if replaced.contains(&(t.frame.as_str(), t.region.as_str())) {
                    continue;
                }
            }
            if let Effect::Disappeared(el) = effect {
                if renamed.contains(&(el.frame.as_str(), el.region.as_str(), el.role)) {
                    continue;
                }
            }
            if is_closing(&effect, &closed) || hidden_with_popup(&effect) {
                continue;
            }
            if is_deselected_sibling(&effect, Some(target_element), effects)
                || self.is_marker_moved(&effect, target_element)
            {
                continue;
            }
            // A field that took the name of the target, or of a neighbour (the option
            // beside it): that one was picked.
            if let Some(m) = candidates
                .members
                .iter()
                .position(|c| takes_name(&effect, c))
            {
                credit(m, effect);
                continue;
            }
            let member = effect
                .element()
                .and_then(|e| candidates.identities.get(&Identity::of(e)).copied());
            match member {
                Some(m) if effect.is_own_state() => credit(m, effect),
                Some(_) => {}
                None => {
                    let label = Terms::of(effect.label());
                    let variant =
                        || claims::is_variant(&target_stems, &effect.stems(), &target_terms);
                    match candidates.carried_by_effect(&effect, effects) {
                        // A word of the target's container (a dialog's title) names no
                        // neighbour: the evidence must name it more specifically.
                        Some(m)
                            if m > 0
                                && !title.is_empty()
                                && candidates.carried_by(&label.without(&title)) != Some(m) => {}
                        Some(0) | None if variant() => variants.push(effect),
                        Some(m) => credit(m, effect),
                        None => {}
                    }
                }
            }
        }
        // The neighbour with the most evidence; the first one seen among equals.
        let top = neighbours
            .iter()
            .enumerate()
            .max_by_key(|&(i, &(_, count, _))| (count, std::cmp::Reverse(i)));
        let named = match (target, top) {
            (None, None) => Named::Nobody,
            (Some(t), None) => Named::Target(t),
            (None, Some((_, &(m, _, e)))) => Named::Neighbour(candidates.members[m], e),
            (Some(t), Some((_, &(m, _, e)))) => Named::Both {
                target: t,
                neighbour: candidates.members[m],
                effect: e,
            },
        };
        (named, variants)
    }
}

/// Does the effect only hide an element (visible true -> false)?
fn hides(e: &Effect) -> bool {
    matches!(*e, Effect::Changed(c)
        if !c.after.visible && c.fields.iter().all(|f| f.field == Field::Visible))
}
