//! A snapshot in the wire form as a change to one its reader holds: what a driver outside the
//! page pays per observation once it has observed the page before.
//!
//! A verified step observes before and after its action, and the "before" of a step is mostly
//! the "after" of the last: between two observations a page changes a few elements, if any.
//! The full wire form (`core::wire`) still moves every row (about 106 KB at 3,000 elements,
//! ~1.5 ms through the protocol and ~1 ms to parse and build in Node); a delta moves the
//! rows that changed and two numbers for the rest.
//!
//! The reader names the snapshot it holds by its id ([`id_of`]: `{epoch}-{snapshot}` of its
//! context, unique per document and per snapshot) in `prufe.snapshot({ wire: true, base })`.
//! The engine keeps the last [`KEPT`] snapshots it sent ([`Sent`]) and answers with a delta
//! against the one named when it still holds it and it was taken with the same options;
//! otherwise (the first call, a new document, evicted, other options) with the full wire form.
//! A delta is layout 2 with a `base` and edit scripts in place of the rows:
//!
//! ```text
//! { "wire": 2, "base": "1733561234567-s7", "context": {...}, "hasMore": false, "tag": "h41r",
//!   "strings": ["", "button", ...],
//!   "elements": [41, -1, [0,1,"Added",0,2], 2958],
//!   "texts": [12] }
//! ```
//!
//! Read in order, against a cursor in the base's list: a positive number `n` copies the base's
//! next `n` rows, a negative `-n` drops them, and a row (an element row or a text row of layout
//! 2, its strings indexes into this `strings`, its refs steps from the last ref of a row in this
//! delta) is the next row of the new list. Every row of the base is copied or dropped once. A
//! changed element is a drop and its new row; an element that moved is dropped where it was and
//! written where it is. The elements kept in place are the longest run, in the new order, of
//! elements whose refs were in the base in the same order (a longest increasing subsequence:
//! one element moved from the end to the front costs its row, not the rows of all the others);
//! texts, which have no ref, keep their common head and tail.
//!
//! A delta carries no more than the full answer: its rows are the new snapshot's own, redacted
//! as the snapshot was, and what it copies the reader already holds. [`apply`] gives back exactly
//! the snapshot the full answer would give (`js/wire.mjs` does the same for JavaScript readers).

use super::error::Result;
use super::model::{Context, Snapshot, TextKind};
use super::wire::{self, invalid, Rows, Strings};
use rustc_hash::FxHashMap;
use serde::Deserialize;
use serde_json::Value;
use std::collections::VecDeque;

/// How many sent snapshots the engine keeps: the last one is the usual base (the last step's
/// "after"); two more leave room for a second reader of the same document.
pub const KEPT: usize = 3;

/// The id a reader names a snapshot by in `base`: its context's epoch (per document) and
/// snapshot (per call).
pub fn id_of(context: &Context) -> String {
    format!("{}-{}", context.epoch, context.snapshot)
}

/// The last snapshots sent in the wire form, the newest last.
#[derive(Debug, Default)]
pub struct Sent {
    kept: VecDeque<Kept>,
}

#[derive(Debug)]
struct Kept {
    id: String,
    /// The options the snapshot was taken with, as the engine compares them.
    asked: String,
    snapshot: Snapshot,
}

impl Sent {
    /// The wire form of `s` for a reader that holds the snapshot `base` (a delta against it
    /// when it is kept and was taken with the same options `asked`, else the full form); `s`
    /// is kept for the next call, and the oldest kept is forgotten beyond [`KEPT`].
    pub fn answer(&mut self, asked: String, base: Option<&str>, s: Snapshot) -> String {
        let held = base.and_then(|b| self.kept.iter().find(|k| k.id == b && k.asked == asked));
        let text = match held {
            Some(k) => encode(&k.snapshot, &k.id, &s),
            None => wire::encode(&s),
        };
        self.kept.push_back(Kept {
            id: id_of(&s.context),
            asked,
            snapshot: s,
        });
        while self.kept.len() > KEPT {
            self.kept.pop_front();
        }
        text
    }
}

/// The edit script being written: runs of copies and drops are merged, and the drops of a gap
/// are written before its rows.
struct Ops {
    out: Vec<u8>,
    copy: usize,
    drop: usize,
    rows: Vec<u8>,
}

impl Ops {
    fn new() -> Self {
        Ops {
            out: vec![b'['],
            copy: 0,
            drop: 0,
            rows: Vec::new(),
        }
    }

    fn item(&mut self) {
        if self.out.len() > 1 {
            self.out.push(b',');
        }
    }

    fn flush_copy(&mut self) {
        if self.copy > 0 {
            self.item();
            wire::push_num(&mut self.out, self.copy as u64);
            self.copy = 0;
        }
    }

    fn flush_gap(&mut self) {
        if self.drop > 0 {
            self.item();
            self.out.push(b'-');
            wire::push_num(&mut self.out, self.drop as u64);
            self.drop = 0;
        }
        if !self.rows.is_empty() {
            self.item();
            self.out.append(&mut self.rows);
        }
    }

    fn copy(&mut self, n: usize) {
        if n > 0 {
            self.flush_gap();
            self.copy += n;
        }
    }

    fn drop(&mut self, n: usize) {
        if n > 0 {
            self.flush_copy();
            self.drop += n;
        }
    }

    fn row(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        self.flush_copy();
        if !self.rows.is_empty() {
            self.rows.push(b',');
        }
        write(&mut self.rows);
    }

    fn finish(mut self) -> Vec<u8> {
        self.flush_copy();
        self.flush_gap();
        self.out.push(b']');
        self.out
    }
}

/// The length of the common head and, after it, of the common tail of `a` and `b`.
fn common<T: PartialEq>(a: &[T], b: &[T]) -> (usize, usize) {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (head, tail)
}

/// Marks a longest strictly increasing subsequence of the positions in `at` (patience
/// sorting, O(n log n)).
fn increasing(at: &[Option<usize>]) -> Vec<bool> {
    // `ends[l]`: the index in `at` of the least last position of an increasing run of l + 1.
    let mut ends: Vec<usize> = Vec::new();
    let mut before = vec![usize::MAX; at.len()];
    for (k, p) in at.iter().enumerate() {
        let Some(p) = *p else { continue };
        let l = ends.partition_point(|&e| at[e].is_some_and(|q| q < p));
        if l > 0 {
            before[k] = ends[l - 1];
        }
        if l == ends.len() {
            ends.push(k);
        } else {
            ends[l] = k;
        }
    }
    let mut keep = vec![false; at.len()];
    let mut k = ends.last().copied().unwrap_or(usize::MAX);
    while k != usize::MAX {
        keep[k] = true;
        k = before[k];
    }
    keep
}

/// The delta that turns `base` (whose id is `base_id`) into `s` (see the module documentation).
pub fn encode(base: &Snapshot, base_id: &str, s: &Snapshot) -> String {
    let tag = wire::tag_of(s);
    let mut strings = Strings::new();
    // The number of the last ref spelled `e{n}-{tag}` written in a row.
    let mut last: u64 = 0;

    let mut ops = Ops::new();
    let (was, now) = (&base.elements[..], &s.elements[..]);
    let (head, tail) = common(was, now);
    ops.copy(head);
    let (was, now) = (&was[head..was.len() - tail], &now[head..now.len() - tail]);
    let at: Vec<Option<usize>> = if was.is_empty() {
        vec![None; now.len()]
    } else {
        let mut index: FxHashMap<&str, usize> = FxHashMap::default();
        index.reserve(was.len());
        for (i, e) in was.iter().enumerate() {
            index.entry(&e.reference).or_insert(i);
        }
        now.iter()
            .map(|e| index.get(e.reference.as_str()).copied())
            .collect()
    };
    let keep = increasing(&at);
    let mut j = 0;
    for (k, e) in now.iter().enumerate() {
        match at[k] {
            Some(p) if keep[k] => {
                ops.drop(p - j);
                if was[p] == *e {
                    ops.copy(1);
                } else {
                    ops.drop(1);
                    ops.row(|out| wire::push_element(out, &mut strings, e, tag, &mut last));
                }
                j = p + 1;
            }
            _ => ops.row(|out| wire::push_element(out, &mut strings, e, tag, &mut last)),
        }
    }
    ops.drop(was.len() - j);
    ops.copy(tail);
    let mut body = ops.finish();

    let mut ops = Ops::new();
    let (was, now) = (&base.texts[..], &s.texts[..]);
    let (head, tail) = common(was, now);
    ops.copy(head);
    ops.drop(was.len() - head - tail);
    for t in &now[head..now.len() - tail] {
        ops.row(|out| wire::push_text(out, &mut strings, t));
    }
    ops.copy(tail);
    body.extend_from_slice(b",\"texts\":");
    body.append(&mut ops.finish());
    body.push(b'}');
    wire::envelope(Some(base_id), s, tag, &strings, &body)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Delta {
    wire: u64,
    base: String,
    context: Context,
    has_more: bool,
    tag: String,
    strings: Vec<String>,
    elements: Vec<Value>,
    texts: Vec<Value>,
}

/// The snapshot a delta against `base` gives; `INVALID_SNAPSHOT` for anything else (a delta
/// against another snapshot, a script that does not read `base` to its end).
pub fn apply(base: &Snapshot, text: &str) -> Result<Snapshot> {
    let d: Delta = serde_json::from_str(text).map_err(invalid)?;
    wire::check_version(d.wire)?;
    let held = id_of(&base.context);
    if d.base != held {
        return Err(invalid(format!(
            "a delta against the snapshot {}, not against {held}",
            d.base
        )));
    }
    let rows = Rows::new(&d.strings, &d.tag);
    let elements = replay(&base.elements, &d.elements, |row| rows.element(row))?;
    let texts = replay(&base.texts, &d.texts, |row| {
        let (kind, text, region, frame): (TextKind, String, usize, usize) =
            serde_json::from_value(Value::Array(row.to_vec())).map_err(invalid)?;
        rows.text(kind, &text, region, frame)
    })?;
    Ok(Snapshot {
        context: d.context,
        has_more: d.has_more,
        elements,
        texts,
    })
}

/// `base` edited by `ops`, each row read by `row`.
fn replay<T: Clone>(
    base: &[T],
    ops: &[Value],
    mut row: impl FnMut(&[Value]) -> Result<T>,
) -> Result<Vec<T>> {
    let mut out = Vec::with_capacity(base.len());
    let mut j: usize = 0;
    for op in ops {
        match op {
            Value::Array(r) => out.push(row(r)?),
            Value::Number(n) => {
                let n = n
                    .as_i64()
                    .filter(|n| *n != 0)
                    .ok_or_else(|| invalid(format!("an edit of {n}")))?;
                let count = n.unsigned_abs() as usize;
                let end = j
                    .checked_add(count)
                    .filter(|end| *end <= base.len())
                    .ok_or_else(|| invalid(format!("an edit of {n} past the base's end")))?;
                if n > 0 {
                    out.extend_from_slice(&base[j..end]);
                }
                j = end;
            }
            other => return Err(invalid(format!("an edit {other}"))),
        }
    }
    if j != base.len() {
        return Err(invalid(format!(
            "the delta leaves {} of its base's rows unread",
            base.len() - j
        )));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::ErrorCode;
    use crate::core::model::{Element, Role, Text};
    use crate::core::testing::el;

    fn page(n: usize) -> Snapshot {
        let mut s = Snapshot {
            context: Context {
                tab: "t".into(),
                epoch: 77,
                snapshot: "s1".into(),
            },
            ..Default::default()
        };
        for i in 1..=n {
            s.elements.push(Element {
                text: (i % 3 == 0).then(|| format!("Item {i}")),
                ..el(
                    &format!("e{i}-t"),
                    Role::Button,
                    &format!("Add {i}"),
                    "main",
                )
            });
        }
        for i in 0..5 {
            s.texts.push(Text {
                kind: TextKind::Plain,
                text: format!("Line {i}"),
                region: "main".into(),
                frame: String::new(),
            });
        }
        s
    }

    fn next(s: &Snapshot, k: u32) -> Snapshot {
        let mut s = s.clone();
        s.context.snapshot = format!("s{k}");
        s
    }

    /// The delta from `a` to `b`, applied to `a`, is `b`; returns the delta.
    fn round_trip(a: &Snapshot, b: &Snapshot) -> String {
        let delta = encode(a, &id_of(&a.context), b);
        assert_eq!(apply(a, &delta).unwrap(), *b, "{delta}");
        delta
    }

    fn ops(delta: &str, list: &str) -> String {
        let v: Value = serde_json::from_str(delta).unwrap();
        serde_json::to_string(&v[list]).unwrap()
    }

    #[test]
    fn an_unchanged_page_is_two_copies() {
        let a = page(3000);
        let b = next(&a, 2);
        let delta = round_trip(&a, &b);
        assert_eq!(ops(&delta, "elements"), "[3000]");
        assert_eq!(ops(&delta, "texts"), "[5]");
        assert!(delta.len() < 200, "{delta}");
    }

    #[test]
    fn changes_are_rows_between_copies() {
        let a = page(50);
        let mut b = next(&a, 2);
        b.elements[10].name = "Added".into();
        b.elements[11].pressed = Some(crate::core::model::Tristate::True);
        b.elements.remove(20);
        b.elements
            .insert(30, el("e51-t", Role::Link, "New", "main"));
        b.texts[2].text = "Changed".into();
        b.has_more = true;
        let delta = round_trip(&a, &b);
        assert_eq!(
            ops(&delta, "elements"),
            r#"[10,-2,[10,1,"Added",2,2],[0,1,"Add 12",2,514,"Item 12"],8,-1,10,[38,3,"New",2,2],19]"#
        );
        assert_eq!(ops(&delta, "texts"), r#"[2,-1,["plain","Changed",2,0],2]"#);
    }

    #[test]
    fn a_moved_element_costs_its_own_row() {
        let a = page(200);
        let mut b = next(&a, 2);
        let last = b.elements.pop().unwrap();
        b.elements.insert(0, last);
        let delta = round_trip(&a, &b);
        assert_eq!(ops(&delta, "elements"), r#"[[199,1,"Add 200",2,2],199,-1]"#);
        // Reversed, every element but one is a row: still exact.
        let mut c = next(&a, 3);
        c.elements.reverse();
        c.texts.reverse();
        round_trip(&a, &c);
    }

    #[test]
    fn other_lists_round_trip() {
        let a = page(30);
        let empty = Snapshot {
            context: a.context.clone(),
            ..Default::default()
        };
        round_trip(&a, &empty);
        round_trip(&empty, &a);
        let mut b = next(&a, 2);
        b.elements.retain(|e| !e.reference.ends_with("7-t"));
        b.elements.push(el("own ref", Role::Button, "Own", "aside"));
        b.elements[0].frame = "0.1".into();
        round_trip(&a, &b);
    }

    #[test]
    fn a_delta_carries_only_the_new_snapshots_rows() {
        // Held from before the field was marked sensitive: the delta carries its new row,
        // redacted, and nothing of the old one.
        let mut a = page(10);
        a.elements[4].value = Some("hunter2".into());
        let mut b = next(&a, 2);
        b.elements[4].value = Some(crate::core::model::REDACTED.into());
        b.elements[4].sensitive = true;
        let delta = round_trip(&a, &b);
        assert!(!delta.contains("hunter2"), "{delta}");
        assert!(delta.contains("[redacted]"), "{delta}");
    }

    #[test]
    fn the_engine_answers_a_delta_only_against_what_it_kept() {
        let mut sent = Sent::default();
        let a = page(40);
        let a_id = id_of(&a.context);
        let full = sent.answer("o".into(), Some("nothing"), a.clone());
        assert_eq!(wire::decode(&full).unwrap(), a);
        let b = next(&a, 2);
        let delta = sent.answer("o".into(), Some(&a_id), b.clone());
        assert_eq!(apply(&a, &delta).unwrap(), b);
        // Other options: the full form.
        let c = next(&a, 3);
        let other = sent.answer("p".into(), Some(&id_of(&b.context)), c.clone());
        assert_eq!(wire::decode(&other).unwrap(), c);
        // `a` is forgotten after KEPT more.
        for k in 4..4 + KEPT as u32 {
            sent.answer("o".into(), None, next(&a, k));
        }
        let late = next(&a, 99);
        assert_eq!(
            wire::decode(&sent.answer("o".into(), Some(&a_id), late.clone())).unwrap(),
            late
        );
        // A document's new engine has no base.
        let mut fresh = Sent::default();
        let d = next(&a, 100);
        assert_eq!(
            wire::decode(&fresh.answer("o".into(), Some(&a_id), d.clone())).unwrap(),
            d
        );
    }

    #[test]
    fn a_delta_is_read_against_its_own_base_only() {
        let a = page(10);
        let mut b = next(&a, 2);
        b.elements[3].name = "Other".into();
        let delta = encode(&a, &id_of(&a.context), &b);
        let e = wire::decode(&delta).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidSnapshot);
        for bad in [
            delta.replace("77-s1", "77-s0"),
            delta.replace("[3,-1,", "[4,-1,"),
            delta.replace("[3,-1,", "[2,-1,"),
            delta.replace("[3,-1,", "[0,3,-1,"),
            delta.replace("[3,-1,", "[3.5,-1,"),
            delta.replace("[3,-1,", "[\"3\",-1,"),
            delta.replace("\"texts\":[5]", "\"texts\":[6]"),
        ] {
            assert_ne!(bad, delta);
            let e = apply(&a, &bad).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidSnapshot, "{bad}");
        }
    }

    #[test]
    fn increasing_marks_a_longest_run() {
        let runs = |at: &[Option<usize>]| -> Vec<usize> {
            increasing(at)
                .iter()
                .enumerate()
                .filter(|(_, k)| **k)
                .map(|(i, _)| i)
                .collect()
        };
        assert_eq!(runs(&[Some(0), Some(1), Some(2)]), [0, 1, 2]);
        assert_eq!(runs(&[Some(2), Some(0), Some(1)]), [1, 2]);
        assert_eq!(runs(&[None, Some(3), None, Some(1), Some(2)]), [3, 4]);
        assert!(runs(&[None, None]).is_empty());
    }
}
