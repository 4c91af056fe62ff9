//! A number an intent gives ("the quantity becomes 12", "go to page 3", "add 2 shirts") is a
//! word the judge can read: an effect the intent explains must show it. It is shown by what
//! came or changed (its words, the new values of its fields), by the target's own name or row
//! ("Select order 1003"), or as the step between the numbers one thing showed before and after
//! ("add 2 shirts": a cart's 1 → 3, one field's value or one region's text). A number that is
//! nowhere leaves the intent open: a quantity typed 13 is no "becomes 12".

use super::*;

/// At most this many numbers are weighed per side (a long table's texts hold many).
const MAX_NUMBERS: usize = 256;

impl<'a> Judge<'a> {
    /// The first number of the intent that nothing shows, if any; `count`, the intent's
    /// count of like effects, is held by them.
    pub(super) fn number_unshown(
        &self,
        effects: &[Effect<'a>],
        target: Option<&'a Element>,
        count: Option<u32>,
    ) -> Option<u64> {
        let mut wanted = numbers(self.action.intent.as_deref()?);
        wanted.retain(|n| count.is_none_or(|c| u64::from(c) != *n));
        if wanted.is_empty() {
            return None;
        }
        let mut now: Vec<u64> = Vec::new();
        if let Some(t) = target {
            now.extend(numbers(t.label()));
            now.extend(t.within.as_deref().map(numbers).unwrap_or_default());
        }
        // The steps one thing took: within a changed element, and between what went and what
        // came of one kind in one region.
        let mut steps: Vec<u64> = Vec::new();
        let step = |steps: &mut Vec<u64>, was: &[u64], is: &[u64]| {
            for a in is.iter().take(MAX_NUMBERS) {
                for b in was.iter().take(MAX_NUMBERS) {
                    steps.push(a.abs_diff(*b));
                }
            }
        };
        for e in effects {
            match *e {
                Effect::Disappeared(_) | Effect::TextDisappeared(_) => {
                    let was = numbers(e.label());
                    let key = e.kind_key();
                    for came in effects.iter().filter(|c| {
                        matches!(c, Effect::Appeared(_) | Effect::TextAppeared(_))
                            && c.region() == e.region()
                            && c.kind_key().1 == key.1
                    }) {
                        step(&mut steps, &was, &numbers(came.label()));
                    }
                }
                Effect::Changed(c) => {
                    let mut was = numbers(c.before.label());
                    let mut is = numbers(c.after.label());
                    for f in &c.fields {
                        was.extend(f.before.as_deref().map(numbers).unwrap_or_default());
                        is.extend(f.after.as_deref().map(numbers).unwrap_or_default());
                    }
                    step(&mut steps, &was, &is);
                    now.extend(is);
                }
                _ => {
                    now.extend(numbers(e.label()));
                    now.extend(numbers(&e.context()));
                }
            }
        }
        wanted
            .into_iter()
            .find(|n| !now.contains(n) && !steps.contains(n))
    }
}

/// The numbers written in `s` in digits, each a run of digits standing on its own (not part
/// of a word: "2nd", "v2" and "H2O" give none).
pub(super) fn numbers(s: &str) -> Vec<u64> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let alone = (start == 0 || !chars[start - 1].is_alphabetic())
            && (i == chars.len() || !chars[i].is_alphabetic());
        let run: String = chars[start..i].iter().collect();
        if let (true, Ok(n)) = (alone, run.parse::<u64>()) {
            out.push(n);
        }
    }
    out
}
