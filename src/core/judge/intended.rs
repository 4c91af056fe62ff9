//! The claims of an intent against the effects: what was read of the sentence, what
//! supports each claim and what contradicts it.

use super::*;

/// What the claims of an intent come to against the effects.
pub(super) enum Check<'d> {
    /// Every claim holds; the best explained effect.
    Holds(Effect<'d>),
    /// The diff proves a claim wrong.
    Contradicted(Finding),
    /// The object is there but a claim is neither supported nor contradicted.
    Open(String),
    /// No effect carries the object.
    NoObject,
}

impl<'a> Judge<'a> {
    /// The intent's verdict on `effects`: MATCH when every claim holds, MISMATCH when the
    /// diff contradicts one, AMBIGUOUS when one is open; `None` when no effect carries the
    /// object (or there is no usable intent).
    pub(super) fn by_intent(
        &self,
        effects: &[Effect<'a>],
        target: Option<&'a Element>,
    ) -> Option<Finding> {
        match self.check_claims(effects, target) {
            Check::Holds(e) => Some(matched(
                format!("the intent explains the effect: {}", e.line()),
                target,
            )),
            Check::Contradicted(f) => Some(f),
            Check::Open(why) => Some(ambiguous(why)),
            Check::NoObject => None,
        }
    }

    /// Does `before` or `after` show `phrase` (stems in order) in a label or text? Only a
    /// phrase the page shows names a thing that can have variants.
    pub(super) fn page_shows(&self, phrase: &[String]) -> bool {
        [self.before, self.after].iter().any(|s| {
            s.elements
                .iter()
                .any(|e| claims::holds(&claims::stems(e.label()), phrase))
                || s.texts
                    .iter()
                    .any(|t| claims::holds(&claims::stems(&t.text), phrase))
        })
    }

    /// A clause says a thing stays ("the order is kept"), but an effect removes it: a
    /// message carrying it with a removal word appeared ("Order 1042 deleted"), or an
    /// element carrying it went (not a popup closing, nor anything inside one).
    pub(super) fn kept_removed(
        &self,
        effects: &[Effect<'a>],
        target: Option<&'a Element>,
    ) -> Option<Finding> {
        let in_popup = |region: &str| {
            region
                .split('/')
                .any(|s| s.starts_with("dialog") || s.starts_with("alertdialog"))
        };
        self.claims.kept.iter().find_map(|object| {
            let carries = |label: &str| {
                let label = Terms::of(label);
                object.iter().all(|t| label.matches(t))
            };
            let removes = |e: &Effect| match *e {
                Effect::TextAppeared(_) | Effect::Appeared(_) | Effect::Changed(_)
                    if e.is_appearance() || matches!(e, Effect::Changed(_)) =>
                {
                    claims::is_removal(e.label()) && carries(e.label())
                }
                Effect::Disappeared(el) => {
                    !is_popup(el.role) && !in_popup(&el.region) && carries(el.label())
                }
                _ => false,
            };
            effects.iter().find(|e| removes(e)).map(|e| {
                mismatch(
                    format!(
                        "the intent says the {} stays, but the effect removes it: {}",
                        object.iter().collect::<Vec<_>>().join(" "),
                        e.line()
                    ),
                    target,
                )
            })
        })
    }

    /// An intent that says its object is removed ("the account is deleted"), on a settled
    /// page where no effect supports it and the object is still shown, unchanged, outside
    /// any dialog the action closed: the removal did not happen.
    pub(super) fn still_shown(&self, effects: &[Effect<'a>]) -> Option<Finding> {
        let sentence = self.action.intent.as_deref()?;
        let object = &self.claims.object;
        if !self.stable || object.is_empty() || !claims::is_removal(sentence) {
            return None;
        }
        let closed = closed_dialogs(effects);
        let outside = |region: &str| !closed.iter().any(|d| diff::region_matches(region, d));
        let carries = |label: &str| {
            let label = Terms::of(label);
            object.iter().all(|t| label.matches(t))
        };
        let before_texts: FxHashSet<(&str, &str)> = self
            .before
            .texts
            .iter()
            .map(|t| (t.text.as_str(), t.region.as_str()))
            .collect();
        let kept = |e: &&Element| {
            e.visible
                && outside(&e.region)
                && carries(&format!("{} {}", e.label(), e.region))
                && self
                    .before
                    .elements
                    .iter()
                    .any(|b| b.reference == e.reference)
        };
        // The thing itself before a control that names it ("Shirt M" before "Add Shirt M").
        let elements = &self.after.elements;
        let element = elements
            .iter()
            .filter(kept)
            .find(|e| !matches!(e.role, Role::Button | Role::Link))
            .or_else(|| elements.iter().find(kept));
        let shown = element.map(describe_element).or_else(|| {
            self.after
                .texts
                .iter()
                .find(|t| {
                    outside(&t.region)
                        && carries(&format!("{} {}", t.text, t.region))
                        && before_texts.contains(&(t.text.as_str(), t.region.as_str()))
                })
                .map(crate::core::identity::describe_text)
        })?;
        Some(mismatch(
            format!(
                "the intent says the {} is removed, but no effect supports it and it is still shown: {shown}",
                object.iter().collect::<Vec<_>>().join(" ")
            ),
            None,
        ))
    }

    /// Holds the intent's claims (`claims` module) against `effects`.
    pub(super) fn check_claims(
        &self,
        effects: &[Effect<'a>],
        target: Option<&'a Element>,
    ) -> Check<'a> {
        let Some(intent) = self.intent.filter(|i| i.is_usable()) else {
            return Check::NoObject;
        };
        let claims = self.claims;
        if claims.positive {
            if let Some(e) = effects.iter().find(|e| e.is_failure_message()) {
                return Check::Contradicted(mismatch(
                    format!(
                        "the intent expects success, but a failure message appeared: {}",
                        e.line()
                    ),
                    target,
                ));
            }
        }
        if let Some(f) = self.kept_removed(effects, target) {
            return Check::Contradicted(f);
        }
        // The target's form names what it acts on: its title and its fields' names ("Card
        // number" in form[Payment] for "the card is paid").
        let own = target
            .and_then(|t| form_region(&t.region))
            .map(|form| {
                let mut words = form.clone();
                for e in self
                    .before
                    .elements
                    .iter()
                    .filter(|e| e.region.starts_with(&form) && e.role != Role::Button)
                {
                    words.push(' ');
                    words.push_str(e.label());
                }
                Terms::of(&words)
            })
            .unwrap_or_default();
        // A target whose name holds no known action word ("Archive", "Publish") names its
        // action with a word of its own; when the intent says it too ("the order is
        // archived"), an effect that supports the intent must show it ("Order paid" does
        // not). A name with an action word ("Add task") says the rest is the thing.
        let target_terms = target.map(|t| Terms::of(t.label())).unwrap_or_default();
        let named_action = target_terms.iter().any(claims::is_action);
        let shared: Vec<&str> = if named_action {
            Vec::new()
        } else {
            intent
                .terms()
                .iter()
                .filter(|t| target_terms.matches(t))
                .collect()
        };
        let mut support: Vec<(f32, Effect<'a>)> = Vec::new();
        let mut variants: Vec<Effect<'a>> = Vec::new();
        // A dialog closing says only that it closed (see `is_closing`).
        let closed = closed_dialogs(effects);
        let evidence = |e: &Effect| -> (Terms, Terms) {
            if is_closing(e, &closed) {
                let role = e.element().map_or(Role::Dialog, |el| el.role);
                let role = if matches!(role, Role::Dialog | Role::Alertdialog) {
                    role
                } else {
                    Role::Dialog
                };
                (Terms::of(role_words(role)), Terms::of(CLOSED_WORDS))
            } else {
                // An element without a label is named by its place ("Walk dog" for the
                // checkbox of that row).
                let place = e
                    .element()
                    .filter(|el| el.label().is_empty())
                    .and_then(|el| el.within.as_deref())
                    .and_then(|w| w.strip_suffix(']')?.split_once('[').map(|(_, key)| key));
                (
                    Terms::of(place.unwrap_or(e.label())),
                    Terms::of(&e.context()),
                )
            }
        };
        // Whether the page shows each phrase, computed once and only when needed.
        let mut shown: Vec<Option<bool>> = vec![None; claims.phrases.len()];
        for &e in effects {
            let stems = e.stems();
            let mut is_variant = false;
            for (i, p) in claims.phrases.iter().enumerate() {
                if claims::is_variant(p, &stems, intent.terms())
                    && *shown[i].get_or_insert_with(|| self.page_shows(p))
                {
                    is_variant = true;
                    break;
                }
            }
            if is_deselected_sibling(&e, target, effects)
                || target.is_some_and(|t| self.is_marker_moved(&e, t))
            {
                continue;
            }
            // A grid's row is named by all its cells: no thing whose variant it could be.
            let is_row = e.element().is_some_and(|el| el.role == Role::Row);
            if is_variant && !is_closing(&e, &closed) && !is_row {
                variants.push(e);
                continue;
            }
            let (label, context) = evidence(&e);
            let mut score = intent.score(&label, &context);
            // A closing is weighed against each clause too: "the dialog closes and the order
            // is kept" says two things, and the closing shows the first.
            if is_closing(&e, &closed) {
                for (clause, _) in &claims.clauses {
                    score = score.max(clause.score(&label, &context));
                }
            }
            // The whole object, or an explained effect that names part of it.
            let object = &claims.object;
            let carries = !object.is_empty() && object.iter().all(|t| label.matches(t));
            // A closing names its dialog by its role only, which the object never holds.
            // The region an effect is seen in names what it is about ("Status: deleted" in
            // region[Account]).
            let region = Terms::of(e.region());
            let names_part = object.is_empty()
                || is_closing(&e, &closed)
                || object
                    .iter()
                    .any(|t| label.matches(t) || own.matches(t) || region.matches(t));
            if carries || (score > 0.0 && names_part) {
                support.push((score, e));
            }
        }
        let Some(&(_, best)) = support.iter().reduce(|a, b| if b.0 > a.0 { b } else { a }) else {
            return match variants.first() {
                Some(v) => Check::Contradicted(mismatch(
                    format!(
                        "the effect is on a variant of what the intent names, not on it: {}",
                        v.line()
                    ),
                    v.element().or(target),
                )),
                None => match self.still_shown(effects) {
                    Some(f) => Check::Contradicted(f),
                    None => Check::NoObject,
                },
            };
        };
        // The target itself going (its menu closing) shows nothing of what it did.
        let is_target = |e: &Effect| match (e.element(), target) {
            (Some(el), Some(t)) => same_ref(el, t) || Identity::of(el) == Identity::of(t),
            _ => false,
        };
        let says_shared = |e: &Effect| {
            let (label, context) = evidence(e);
            !is_target(e)
                && shared
                    .iter()
                    .all(|t| label.matches(t) || context.matches(t))
        };
        // Evidence from the target itself says them too: its own state changing (a switch
        // "Dark mode" turned on), its own move ("Write invoice" dropped in Done), or what was
        // typed into it carried by what appeared ("2 results for mug" after a search).
        let typed = target
            .filter(|t| !t.sensitive && t.value_hash.is_none())
            .and_then(|t| t.value.as_deref())
            .map(text::fold)
            .filter(|v| v.trim().chars().count() >= 2 && v != REDACTED);
        let from_target = |e: &Effect| {
            (is_target(e) && e.is_own_state())
                || target.is_some_and(|t| self.opened_after(e, t))
                || target.is_some_and(|t| takes_name(e, t))
                || typed
                    .as_deref()
                    .is_some_and(|v| e.is_appearance() && text::fold(e.label()).contains(v.trim()))
        };
        // What appeared saying them shows the choice too, though it names nothing of the
        // object: MUI's select shows the option it took as text beside the field
        // ("Deutsch" for "Switch the language to Deutsch"), not as the field's value.
        let shows_shared = |e: &Effect| e.is_appearance() && says_shared(e);
        if !shared.is_empty()
            && !support.iter().any(|(_, e)| says_shared(e))
            && !effects.iter().any(shows_shared)
            && !effects.iter().any(from_target)
        {
            return Check::Open(format!(
                "the intent and the target's name both say '{}', but no effect does ({})",
                shared.join(" "),
                best.line()
            ));
        }
        // A name given word for word must be shown so ("Call supplier" is not "renamed Call
        // the supplier").
        if let Some(literal) = &claims.literal {
            // What went away (the editing row holding the typed title) shows nothing.
            let shows = |e: &Effect| {
                !matches!(e, Effect::Disappeared(_) | Effect::TextDisappeared(_))
                    && claims::shows_literal(e.label(), literal)
            };
            if !effects.iter().any(shows) {
                return Check::Open(format!(
                    "the intent names '{}' word for word, but no effect shows it ({})",
                    literal.join(" "),
                    best.line()
                ));
            }
        }
        // Each clause of "… and …" needs an effect of its own.
        // (A clause may name the effect by its role: "the dialog closes".)
        let explains = |clause: &Intent, object: &Terms, e: &Effect| {
            let (label, context) = evidence(e);
            let seen = |t: &str| label.matches(t) || context.matches(t);
            let carries = !object.is_empty() && object.iter().all(seen);
            let names_part = object.is_empty() || object.iter().any(|t| label.matches(t));
            carries || (names_part && clause.score(&label, &context) > 0.0)
        };
        // A clause that says its object stays ("and the account is kept") is shown by nothing
        // happening to it: `kept_removed` holds it against every effect.
        let says_kept = |clause: &Intent| {
            clause.terms().iter().any(|t| {
                claims::KEEP_WORDS
                    .iter()
                    .any(|k| intent::stem(k).as_ref() == t)
            })
        };
        let unshown = claims.clauses.iter().position(|(clause, object)| {
            clause.is_usable()
                && !says_kept(clause)
                && !support.iter().any(|(_, e)| explains(clause, object, e))
        });
        if let Some(i) = unshown {
            return Check::Open(format!(
                "clause {} of the intent is not shown by any effect ({})",
                i + 1,
                best.line()
            ));
        }
        let same_kind = |a: &Effect, b: &Effect| {
            let (ka, kb) = (a.kind_key(), b.kind_key());
            (ka.0, ka.1) == (kb.0, kb.1)
        };
        if let Some(v) = variants
            .iter()
            .find(|v| v.element().is_some() && support.iter().any(|(_, s)| same_kind(s, v)))
        {
            return Check::Contradicted(mismatch(
                format!(
                    "the effect is on what the intent names and also on a variant of it: {}",
                    v.line()
                ),
                v.element(),
            ));
        }
        if !claims.containers.is_empty() {
            let named_in =
                |e: &Effect| claims::containers_in(&format!("{} {}", e.region(), e.label()));
            let wanted = |c: &&str| claims.containers.contains(c);
            let want = claims.containers.join(" or ");
            if !support.iter().any(|(_, e)| named_in(e).iter().any(wanted)) {
                let elsewhere = support.iter().find_map(|(_, e)| {
                    named_in(e).into_iter().find(|c| !wanted(c)).map(|c| (e, c))
                });
                return match elsewhere {
                    Some((e, other)) => Check::Contradicted(mismatch(
                        format!(
                            "the intent names the {want}, but the effect is in the {other}: {}",
                            e.line()
                        ),
                        target,
                    )),
                    None => Check::Open(format!(
                        "the intent names the {want}, but no effect it explains is in one ({})",
                        best.line()
                    )),
                };
            }
        }
        if let Some(count) = &claims.count {
            // The effects that name what is counted ("shirt"), else all supporting ones.
            let naming: Vec<&Effect> = support
                .iter()
                .map(|(_, e)| e)
                .filter(|e| Terms::of(e.label()).matches(&count.of))
                .collect();
            let counted: Vec<&Effect> = if naming.is_empty() {
                support.iter().map(|(_, e)| e).collect()
            } else {
                naming
            };
            let mut groups: FxHashMap<_, u32> = FxHashMap::default();
            for e in &counted {
                *groups.entry(e.kind_key()).or_default() += 1;
            }
            let most = groups.values().copied().max().unwrap_or(0);
            // A field named for what is counted that now holds the number ("There are 2
            // passengers": the spin button Passengers at 2) shows the count.
            let holds_count = |e: &Effect| match *e {
                Effect::Changed(c) => {
                    Terms::of(c.after.label()).matches(&count.of)
                        && c.fields.iter().any(|f| {
                            f.field == Field::Value
                                && f.after.as_deref().map(str::trim)
                                    == Some(count.n.to_string().as_str())
                        })
                }
                _ => false,
            };
            let shown = support
                .iter()
                .any(|(_, e)| claims::shows_count(e.label(), count) || holds_count(e));
            if most != count.n && !shown {
                let e = counted
                    .iter()
                    .find(|e| groups[&e.kind_key()] == most)
                    .copied()
                    .unwrap_or(&best);
                return Check::Contradicted(mismatch(
                    format!(
                        "the intent claims {} ('{}'), but {most} like effects are seen: {}",
                        count.n,
                        count.word,
                        e.line()
                    ),
                    target,
                ));
            }
        }
        // A number the intent gives must be shown ("becomes 12" is not a quantity of 13); a
        // count ("2 shirts") is held above, by the effects counted.
        if let Some(n) = self.number_unshown(effects, target, claims.count.as_ref().map(|c| c.n)) {
            return Check::Open(format!(
                "the intent says {n}, but no effect shows it ({})",
                best.line()
            ));
        }
        Check::Holds(best)
    }

    /// A MATCH found by the target's own state or name also needs the intent, when one is
    /// declared: both must hold.
    pub(super) fn with_intent(
        &self,
        found: Finding,
        effects: &[Effect<'a>],
        t: &'a Element,
    ) -> Finding {
        let Some(intent) = self.intent else {
            // An action without a declared intent is meant to succeed: a failure message
            // that appeared with the effect says it did not.
            if let Some(e) = effects.iter().find(|e| e.is_failure_message()) {
                return mismatch(
                    format!(
                        "{}, but the page reports a failure: {} (declare an intent if that is what was meant)",
                        found.reason,
                        e.line()
                    ),
                    Some(t),
                );
            }
            return found;
        };
        if !intent.is_usable() {
            return ambiguous(format!(
                "{}, but the intent is empty or negated, so it cannot be checked",
                found.reason
            ));
        }
        if let Some(f) = self.against_own_state(t) {
            return f;
        }
        match self.check_claims(effects, Some(t)) {
            Check::Holds(_) => matched(format!("{}, and the intent holds", found.reason), Some(t)),
            Check::Contradicted(f) => f,
            Check::Open(why) => ambiguous(format!("{}; yet {why}", found.reason)),
            Check::NoObject => self.as_read(found, effects, t),
        }
    }

    /// An intent that names the target, and nothing else the page shows, of a MATCH found by
    /// the target's own evidence (its own state, its name carried by the effect): the
    /// sentence is about the target, whose evidence stands ("Show the sent mail" for the tab
    /// Sent that was selected). Its other words count neither for nor against, unless one
    /// names another control of the target's role (the switch "Notifications" when "Dark
    /// mode" turned on): then the action may have been meant for that one, and it is left
    /// unexplained. Of an intent in another language than the page, only the
    /// words read count (`reading`), and read words that name no thing (its verb) are about
    /// the target too.
    pub(super) fn names_the_target(&self, found: &Finding, t: &Element) -> Option<Finding> {
        if found.verdict != VerdictKind::Match {
            return None;
        }
        let (sentence, note) = match self.reading {
            Some(r) => (r.read.as_str(), r.note()),
            None => (self.action.intent.as_deref()?, String::new()),
        };
        let intent = Intent::parse(sentence);
        if !intent.is_usable() && !intent.terms().is_empty() {
            return None;
        }
        let name = Terms::of(naming(t));
        let mut own = format!("{} {} {}", naming(t), t.region, role_words(t.role));
        if let Some(c) = self.target_change(t) {
            for f in &c.fields {
                own.push(' ');
                own.push_str(&states::vocabulary(f.field));
            }
        }
        let own = Terms::of(&own);
        // A removal word names no thing either when something went or a message of removal
        // appeared ("descartada" when the notice disappeared).
        let removed = !self.diff.disappeared.is_empty()
            || self
                .diff
                .changed
                .iter()
                .any(|c| c.has(Field::Visible) && !c.after.visible)
            || self
                .diff
                .texts_appeared
                .iter()
                .any(|x| claims::is_removal(&x.text));
        let things: Vec<&str> = intent
            .terms()
            .iter()
            .filter(|w| {
                let names_no_thing = intent::is_action(w)
                    || w.chars().all(|c| c.is_ascii_digit())
                    || (removed && claims::is_removal_stem(w));
                !names_no_thing
            })
            .collect();
        // The words of the group the target is one of ("Text alignment" of "Align center").
        let group = self.group_of(t).map(|g| Terms::of(g.label()));
        // An ordinal names the target by its place ("the third offer" of "Go to slide 3").
        let numbers: Vec<u32> = text::tokens(naming(t))
            .iter()
            .filter_map(|w| w.parse().ok())
            .collect();
        let by_place = text::tokens(sentence)
            .iter()
            .any(|w| intent::ordinal(w).is_some_and(|n| numbers.contains(&n)));
        // A collection is named in any of the four languages ("Favoriten" of "Save to
        // favourites").
        let collections = claims::containers_in(naming(t));
        let refers = by_place
            || intent.terms().iter().any(|w| {
                name.matches(w)
                    || group.as_ref().is_some_and(|g| g.matches(w))
                    || claims::container_of(w).is_some_and(|c| collections.contains(&c))
            });
        // The sentence says the way the target's own state went ("se enciende", "öffnet
        // sich", "one more"), in any language the judge knows state words of.
        let whole = self.action.intent.as_deref().unwrap_or(sentence);
        let steps = states::steps(t.label());
        let agrees = (steps.is_some() && states::steps(whole) == steps)
            || self.target_change(t).is_some_and(|c| {
                c.fields.iter().any(|f| {
                    let went = states::went(f.field, f.before.as_deref(), f.after.as_deref());
                    went.is_some() && states::said(whole, f.field) == went
                })
            });
        let about =
            refers || agrees || (self.reading.is_some() && things.iter().all(|w| own.matches(w)));
        if !about {
            return None;
        }
        // Another control of the target's role that the word names is one the action may
        // have been meant for; a container, a heading or a text that shares the word is not.
        let elsewhere = |w: &str| {
            [self.before, self.after].iter().any(|s| {
                s.elements.iter().any(|e| {
                    e.role == t.role
                        && !same_ref(e, t)
                        && Identity::of(e) != Identity::of(t)
                        && Terms::of(e.label()).matches(w)
                })
            })
        };
        let of_group = |w: &str| group.as_ref().is_some_and(|g| g.matches(w));
        if things
            .iter()
            .any(|w| !own.matches(w) && !of_group(w) && elsewhere(w))
        {
            return None;
        }
        let how = if refers || !agrees {
            "names the target"
        } else {
            "says the way its state went"
        };
        Some(matched(
            format!("{}, and the intent {how}{note}", found.reason),
            Some(t),
        ))
    }

    /// The composite widget the target is one of (a toolbar, a radio group, a tab list, a
    /// listbox, a menu, a group of toggle buttons): the nearest element of such a role before
    /// it, with only the target's siblings (and their icons and separators) between.
    pub(super) fn group_of(&self, t: &Element) -> Option<&'a Element> {
        let elements = &self.before.elements;
        let at = elements.iter().position(|e| same_ref(e, t)).or_else(|| {
            elements
                .iter()
                .position(|e| Identity::of(e) == Identity::of(t))
        })?;
        for e in elements[..at].iter().rev() {
            if e.frame != t.frame {
                return None;
            }
            match e.role {
                Role::Toolbar
                | Role::Group
                | Role::Radiogroup
                | Role::Tablist
                | Role::Listbox
                | Role::Menu
                | Role::Menubar
                | Role::Tree
                | Role::Grid => return (!e.label().trim().is_empty()).then_some(e),
                Role::Img | Role::Generic | Role::None | Role::Separator => {}
                r if r == t.role => {}
                _ => return None,
            }
        }
        None
    }

    /// A dialog dismissed and nothing else done (its dismissing button, Escape), held against
    /// the intent: one that says nothing is done ("the invoice is not deleted"), that its
    /// object stays ("the booking is kept") or that the dialog closes holds; one that says a
    /// thing is removed is contradicted, since nothing but the dialog went; any other claim
    /// is judged as claims are.
    pub(super) fn dismissed(
        &self,
        found: Finding,
        effects: &[Effect<'a>],
        t: Option<&'a Element>,
    ) -> Finding {
        let Some(sentence) = self.action.intent.as_deref() else {
            return found;
        };
        let intent = Intent::parse(sentence);
        let tokens = text::tokens(sentence);
        let says = |words: &str| tokens.iter().any(|w| words.split(' ').any(|c| c == w));
        let keeps = tokens.iter().any(|w| {
            claims::KEEP_WORDS.contains(&w.as_str())
                || claims::KEEP_WORDS
                    .iter()
                    .any(|k| intent::stem(k) == intent::stem(w))
        });
        let negated = !intent.is_usable() && !intent.terms().is_empty();
        let closes = says(CLOSED_WORDS) || states::said(sentence, Field::Expanded) == Some(false);
        // "the dialog is closed", "the confirmation is dismissed": the object is the dialog.
        let mut dialog = DIALOG_WORDS.to_owned();
        for d in closed_dialog_elements(effects) {
            dialog.push(' ');
            dialog.push_str(d.label());
        }
        // The control that opened it names it too ("the share popover" of "Share").
        for e in effects {
            if let Effect::Changed(c) = *e {
                if c.has(Field::Expanded) && c.after.expanded == Some(false) {
                    dialog.push(' ');
                    dialog.push_str(c.after.label());
                }
            }
        }
        let dialog = Terms::of(&dialog);
        // Of a sentence in another language, the words read ("das ist geschlossen" of "Das
        // Teilen-Fenster ist geschlossen") say what it is about.
        let read = self.reading.map_or(sentence, |r| r.read.as_str());
        let about_dialog = claims::Claims::parse(read)
            .object
            .iter()
            .all(|w| dialog.matches(w) || intent::is_action(w));
        // "Cancel the deletion", "Se cancela el borrado": the removal is what is called off.
        let keeps = keeps || claims::calls_off_removal(sentence);
        if claims::is_removal(sentence) && !negated && !keeps && !about_dialog && closes {
            // "The profile editor is closed" of a dialog with no name: closing is what the
            // dialog did, and removing what an account's closing does; which one the intent
            // means cannot be read.
            return ambiguous(format!(
                "{}, and the intent says a thing is closed, but not that it is this dialog",
                found.reason
            ));
        }
        if claims::is_removal(sentence) && !negated && !keeps && !about_dialog {
            return mismatch(
                format!(
                    "{}, but the intent says a thing is removed, and nothing but the dialog went",
                    found.reason
                ),
                t,
            );
        }
        if negated || keeps || closes {
            return matched(
                format!(
                    "{}, and nothing else was done, as the intent says",
                    found.reason
                ),
                t,
            );
        }
        match t {
            Some(t) => self.with_intent(found, effects, t),
            None => match self.check_claims(effects, None) {
                Check::Holds(_) => matched(format!("{}, and the intent holds", found.reason), None),
                Check::Contradicted(f) => f,
                Check::Open(why) => ambiguous(format!("{}; yet {why}", found.reason)),
                Check::NoObject => ambiguous(format!(
                    "{}, but the intent explains none of the effects",
                    found.reason
                )),
            },
        }
    }

    /// The intent says the target's own state went the other way than it did ("Autosave is
    /// turned on" when its switch went off, "the menu closes" when it opened).
    pub(super) fn against_own_state(&self, t: &Element) -> Option<Finding> {
        let sentence = self.action.intent.as_deref()?;
        let c = self.target_change(t)?;
        c.fields
            .iter()
            .filter(|f| is_own_field(f.field))
            .find_map(|f| {
                let went = states::went(f.field, f.before.as_deref(), f.after.as_deref())?;
                (states::said(sentence, f.field)? != went).then(|| {
                    mismatch(
                        format!(
                            "the intent says the target's {} went the other way: {}",
                            f.field.as_str(),
                            diff::line_changed(c)
                        ),
                        Some(t),
                    )
                })
            })
    }

    /// An intent none of whose words reach any effect, written in another language than the
    /// page: what was read of it decides, and the words not read count neither for nor
    /// against ("Der Warenkorb enthält jetzt ein Hemd in Größe M" reads as a cart, one, M).
    pub(super) fn as_read(
        &self,
        found: Finding,
        effects: &[Effect<'a>],
        t: &'a Element,
    ) -> Finding {
        let refused = |found: &Finding| {
            ambiguous(format!(
                "{}, but the intent explains none of the effects",
                found.reason
            ))
        };
        if let Some(f) = self.names_the_target(&found, t) {
            return f;
        }
        let Some(reading) = self.reading else {
            return refused(&found);
        };
        let intent = Intent::parse(&reading.read);
        let claims = Claims::parse(&reading.read);
        let read = Judge {
            intent: Some(&intent),
            claims: &claims,
            reading: None,
            ..*self
        };
        let note = reading.note();
        if !intent.is_usable() {
            return matched(format!("{}{note}", found.reason), Some(t));
        }
        match read.check_claims(effects, Some(t)) {
            Check::Holds(_) => matched(
                format!("{}, and the intent holds as read{note}", found.reason),
                Some(t),
            ),
            Check::Contradicted(f) => f,
            Check::Open(why) => ambiguous(format!("{}; yet {why}{note}", found.reason)),
            Check::NoObject => refused(&found),
        }
    }
}
