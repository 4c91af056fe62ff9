//! The compact wire form of a snapshot, for callers outside the page: the same snapshot in
//! about an eighth of the bytes of its JSON, because moving a megabyte out of the page
//! (protocol escaping, transport, parsing) costs more than taking the snapshot.
//!
//! It is JSON, so any JSON parser reads it safely; only the layout differs:
//!
//! ```text
//! { "wire": 2, "context": {...}, "hasMore": false, "tag": "h41r",
//!   "strings": ["", "button", "main", ...],
//!   "elements": [[ref, role, name, region, flags, text?, href?, value?, level?, within?, valueHash?, frame?], ...],
//!   "texts": [[kind, text, region, frame], ...] }
//! ```
//!
//! - `ref` of a ref spelled `e{n}-{tag}` is the number `n - (m + 1)`, where `m` is the `n` of
//!   the last such ref before it (0 before the first): refs mostly count up by one, so most
//!   rows write `0`. Any other ref is written as itself (a string) and leaves `m` as it was;
//! - `role`, `region` and `frame` are indexes into `strings` (`strings[0]` is `""`);
//! - `flags`: bit 0 disabled, 1 visible, 2 inViewport, 3 focused, 4 sensitive, 5 opaque;
//!   bits 6–7 checked and 8–9 pressed (0 null, 1 false, 2 true, 3 mixed); bits 10–11
//!   selected and 12–13 expanded (0 null, 1 false, 2 true); bit 14 busy, 15 clickable;
//! - the optional tail comes in the order its fields are most often there (a list item's
//!   text, a link's `href`, a field's value), cut after its last field that is there; a
//!   field before that which is not there is written `0` (`null` for `level`), and `frame`
//!   `""` is not there.
//!
//! Layout 1 put the tail in field order (frame first, text tenth): a list item wrote four
//! `null`s before its text, and every ref its whole number. Layout 2 is a quarter fewer bytes
//! on the bench's page of 3,000 elements (145,778 → 106,370; the JSON is 921,583), which is
//! less to move out of the page and less to parse on either side.
//!
//! [`decode`] gives back exactly the snapshot [`encode`] was given (`js/wire.mjs` does the
//! same for JavaScript callers). A reader that holds a snapshot of the same document gets a
//! delta against it instead (`core::wire_delta`): this layout with a `base`, its lists edit
//! scripts whose rows are these rows.

use super::error::{Error, ErrorCode, Result};
use super::model::{Context, Element, Role, Snapshot, Text, TextKind, Tristate};
use rustc_hash::FxHashMap;
use serde::Deserialize;
use serde_json::Value;

/// The layout version written in `wire`.
pub const VERSION: u64 = 2;

/// Where each optional field sits in an element row (see the module documentation).
const TEXT: usize = 5;
const HREF: usize = 6;
const VALUE: usize = 7;
const LEVEL: usize = 8;
const WITHIN: usize = 9;
const VALUE_HASH: usize = 10;
const FRAME: usize = 11;
/// `LEVEL` within the tail: the one field whose absence is written `null`.
const LEVEL_AT: usize = LEVEL - TEXT;

const DISABLED: u64 = 1;
const VISIBLE: u64 = 1 << 1;
const IN_VIEWPORT: u64 = 1 << 2;
const FOCUSED: u64 = 1 << 3;
const SENSITIVE: u64 = 1 << 4;
const OPAQUE: u64 = 1 << 5;
const CHECKED: u32 = 6;
const PRESSED: u32 = 8;
const SELECTED: u32 = 10;
const EXPANDED: u32 = 12;
const BUSY: u64 = 1 << 14;
const CLICKABLE: u64 = 1 << 15;

fn tristate_bits(t: Option<Tristate>) -> u64 {
    match t {
        None => 0,
        Some(Tristate::False) => 1,
        Some(Tristate::True) => 2,
        Some(Tristate::Mixed) => 3,
    }
}

fn bool_bits(b: Option<bool>) -> u64 {
    match b {
        None => 0,
        Some(false) => 1,
        Some(true) => 2,
    }
}

fn tristate_of(bits: u64) -> Option<Tristate> {
    match bits & 3 {
        1 => Some(Tristate::False),
        2 => Some(Tristate::True),
        3 => Some(Tristate::Mixed),
        _ => None,
    }
}

fn bool_of(bits: u64) -> Result<Option<bool>> {
    match bits & 3 {
        0 => Ok(None),
        1 => Ok(Some(false)),
        2 => Ok(Some(true)),
        _ => Err(invalid("a selected or expanded state of 3")),
    }
}

pub(super) fn invalid(what: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::InvalidSnapshot,
        format!("not a wire snapshot: {what}"),
    )
}

/// Interned strings, in order of first use.
pub(super) struct Strings<'a> {
    list: Vec<&'a str>,
    index: FxHashMap<&'a str, usize>,
    /// Index of each role's name once used (`usize::MAX` before): no hashing per element.
    roles: Vec<usize>,
    /// The last two regions asked for and their indexes, the latest first: neighbours mostly
    /// share their region, or go back to the one around a list they follow.
    region: [(&'a str, usize); 2],
}

impl<'a> Strings<'a> {
    pub(super) fn new() -> Self {
        let mut s = Strings {
            list: Vec::new(),
            index: FxHashMap::default(),
            roles: vec![usize::MAX; 256],
            region: [("", 0); 2],
        };
        s.of("");
        s
    }

    /// [`Strings::of`] a role's name.
    pub(super) fn role(&mut self, role: Role) -> usize {
        let at = role as u8 as usize;
        if self.roles[at] == usize::MAX {
            self.roles[at] = self.of(role.as_str());
        }
        self.roles[at]
    }

    /// [`Strings::of`] a region (the same index as `of`, remembered for the next element).
    pub(super) fn region(&mut self, v: &'a str) -> usize {
        if v == self.region[0].0 {
            return self.region[0].1;
        }
        let at = if v == self.region[1].0 {
            self.region[1].1
        } else {
            self.of(v)
        };
        self.region = [(v, at), self.region[0]];
        at
    }

    pub(super) fn of(&mut self, v: &'a str) -> usize {
        if let Some(i) = self.index.get(v) {
            return *i;
        }
        self.list.push(v);
        self.index.insert(v, self.list.len() - 1);
        self.list.len() - 1
    }
}

pub(super) fn push_json_str(out: &mut Vec<u8>, s: &str) {
    // What serde_json escapes: control characters, quotes and backslashes. Without them the
    // string is written as it is, as serde_json would write it.
    if !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.reserve(s.len() + 2);
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
        return;
    }
    // Writing a string into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
}

pub(super) fn push_num(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

fn push_int(out: &mut Vec<u8>, n: i64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// The ref's number when it is spelled `e{n}-{tag}`.
fn ref_number(reference: &str, tag: &str) -> Option<u64> {
    let rest = reference.strip_prefix('e')?;
    let (n, t) = rest.split_once('-')?;
    if t != tag || n.is_empty() || (n.len() > 1 && n.starts_with('0')) {
        return None;
    }
    if !n.bytes().all(|b| b.is_ascii_digit()) || n.len() > 15 {
        return None;
    }
    n.parse().ok()
}

/// The tag of a snapshot's refs: that of its first element's ref (`e{n}-{tag}`), or `""`.
pub(super) fn tag_of(s: &Snapshot) -> &str {
    s.elements
        .first()
        .and_then(|e| e.reference.split_once('-'))
        .map(|(_, t)| t)
        .unwrap_or("")
}

/// The wire form of `s` (see the module documentation).
pub fn encode(s: &Snapshot) -> String {
    let tag = tag_of(s);
    let mut strings = Strings::new();
    let mut rows: Vec<u8> = Vec::with_capacity(s.elements.len() * 40);
    rows.push(b'[');
    // The number of the last ref spelled `e{n}-{tag}`.
    let mut last: u64 = 0;
    for (i, e) in s.elements.iter().enumerate() {
        if i > 0 {
            rows.push(b',');
        }
        push_element(&mut rows, &mut strings, e, tag, &mut last);
    }
    rows.extend_from_slice(b"],\"texts\":[");
    for (i, t) in s.texts.iter().enumerate() {
        if i > 0 {
            rows.push(b',');
        }
        push_text(&mut rows, &mut strings, t);
    }
    rows.extend_from_slice(b"]}");
    envelope(None, s, tag, &strings, &rows)
}

/// `{"wire":2,("base":…,)"context":…,"hasMore":…,"tag":…,"strings":[…],"elements":` and
/// `rows`, which holds the rest (the elements' list, the texts and the closing brace).
pub(super) fn envelope(
    base: Option<&str>,
    s: &Snapshot,
    tag: &str,
    strings: &Strings,
    rows: &[u8],
) -> String {
    let mut out: Vec<u8> = Vec::with_capacity(rows.len() + 256);
    out.extend_from_slice(b"{\"wire\":");
    push_num(&mut out, VERSION);
    if let Some(base) = base {
        out.extend_from_slice(b",\"base\":");
        push_json_str(&mut out, base);
    }
    out.extend_from_slice(b",\"context\":");
    let _ = serde_json::to_writer(&mut out, &s.context);
    out.extend_from_slice(b",\"hasMore\":");
    out.extend_from_slice(if s.has_more { b"true" } else { b"false" });
    out.extend_from_slice(b",\"tag\":");
    push_json_str(&mut out, tag);
    out.extend_from_slice(b",\"strings\":[");
    for (i, v) in strings.list.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_json_str(&mut out, v);
    }
    out.extend_from_slice(b"],\"elements\":");
    out.extend_from_slice(rows);
    // Only valid UTF-8 was written: JSON punctuation and serde_json's string output.
    String::from_utf8(out).unwrap_or_default()
}

/// One element's row; `last` is the number of the last ref spelled `e{n}-{tag}` before it.
pub(super) fn push_element<'a>(
    rows: &mut Vec<u8>,
    strings: &mut Strings<'a>,
    e: &'a Element,
    tag: &str,
    last: &mut u64,
) {
    rows.push(b'[');
    match ref_number(&e.reference, tag) {
        Some(n) => {
            push_int(rows, n as i64 - *last as i64 - 1);
            *last = n;
        }
        None => push_json_str(rows, &e.reference),
    }
    rows.push(b',');
    push_num(rows, strings.role(e.role) as u64);
    rows.push(b',');
    push_json_str(rows, &e.name);
    rows.push(b',');
    push_num(rows, strings.region(&e.region) as u64);
    rows.push(b',');
    let flags = (e.disabled as u64 * DISABLED)
        | (e.visible as u64 * VISIBLE)
        | (e.in_viewport as u64 * IN_VIEWPORT)
        | (e.focused as u64 * FOCUSED)
        | (e.sensitive as u64 * SENSITIVE)
        | (e.opaque as u64 * OPAQUE)
        | (tristate_bits(e.checked) << CHECKED)
        | (tristate_bits(e.pressed) << PRESSED)
        | (bool_bits(e.selected) << SELECTED)
        | (bool_bits(e.expanded) << EXPANDED)
        | (e.busy as u64 * BUSY)
        | (e.clickable as u64 * CLICKABLE);
    push_num(rows, flags);
    // The optional tail, cut after its last field that is there.
    let frame = if e.frame.is_empty() {
        0
    } else {
        strings.of(&e.frame) as u64
    };
    let tail: [Option<Tail>; 7] = [
        e.text.as_deref().map(Tail::Str),
        e.href.as_deref().map(Tail::Str),
        e.value.as_deref().map(Tail::Str),
        e.level.map(|l| Tail::Num(l as u64)),
        e.within.as_deref().map(Tail::Str),
        e.value_hash.as_deref().map(Tail::Str),
        (frame != 0).then_some(Tail::Num(frame)),
    ];
    let used = tail.iter().rposition(Option::is_some).map_or(0, |p| p + 1);
    for (k, t) in tail[..used].iter().enumerate() {
        rows.push(b',');
        match t {
            Some(Tail::Num(n)) => push_num(rows, *n),
            Some(Tail::Str(v)) => push_json_str(rows, v),
            None if k == LEVEL_AT => rows.extend_from_slice(b"null"),
            None => rows.push(b'0'),
        }
    }
    rows.push(b']');
}

/// One text's row.
pub(super) fn push_text<'a>(rows: &mut Vec<u8>, strings: &mut Strings<'a>, t: &'a Text) {
    rows.push(b'[');
    push_json_str(rows, text_kind(t.kind));
    rows.push(b',');
    push_json_str(rows, &t.text);
    rows.push(b',');
    push_num(rows, strings.region(&t.region) as u64);
    rows.push(b',');
    push_num(rows, strings.of(&t.frame) as u64);
    rows.push(b']');
}

enum Tail<'a> {
    Num(u64),
    Str(&'a str),
}

fn text_kind(k: TextKind) -> &'static str {
    match k {
        TextKind::Paragraph => "paragraph",
        TextKind::Status => "status",
        TextKind::Alert => "alert",
        TextKind::Log => "log",
        TextKind::Watch => "watch",
        TextKind::Other => "other",
        TextKind::Plain => "plain",
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Wire {
    wire: u64,
    /// Only a delta has it (`core::wire_delta`).
    #[serde(default)]
    base: Option<String>,
    context: Context,
    has_more: bool,
    tag: String,
    strings: Vec<String>,
    elements: Vec<Vec<Value>>,
    texts: Vec<(TextKind, String, usize, usize)>,
}

/// The snapshot a wire string holds; `INVALID_SNAPSHOT` for anything else (a delta too:
/// `core::wire_delta::apply` reads that against its base).
pub fn decode(text: &str) -> Result<Snapshot> {
    let w: Wire = serde_json::from_str(text).map_err(invalid)?;
    check_version(w.wire)?;
    if let Some(base) = w.base {
        return Err(invalid(format!(
            "a delta against the snapshot {base}: apply it to that snapshot"
        )));
    }
    let rows = Rows::new(&w.strings, &w.tag);
    let mut elements = Vec::with_capacity(w.elements.len());
    for row in &w.elements {
        elements.push(rows.element(row)?);
    }
    let mut texts = Vec::with_capacity(w.texts.len());
    for (kind, text, region, frame) in &w.texts {
        texts.push(rows.text(*kind, text, *region, *frame)?);
    }
    Ok(Snapshot {
        context: w.context,
        has_more: w.has_more,
        elements,
        texts,
    })
}

pub(super) fn check_version(wire: u64) -> Result<()> {
    if wire != VERSION {
        return Err(invalid(format!(
            "layout version {wire}, expected {VERSION}"
        )));
    }
    Ok(())
}

/// Reads rows against one string table and tag; remembers the last numbered ref.
pub(super) struct Rows<'a> {
    strings: &'a [String],
    tag: &'a str,
    last: std::cell::Cell<u64>,
}

impl<'a> Rows<'a> {
    pub(super) fn new(strings: &'a [String], tag: &'a str) -> Self {
        Rows {
            strings,
            tag,
            last: std::cell::Cell::new(0),
        }
    }

    fn string(&self, i: usize) -> Result<&'a str> {
        self.strings
            .get(i)
            .map(String::as_str)
            .ok_or_else(|| invalid(format!("string index {i} out of range")))
    }

    /// An element row (see the module documentation).
    pub(super) fn element(&self, row: &[Value]) -> Result<Element> {
        let index = |v: &Value| -> Result<usize> {
            v.as_u64()
                .map(|n| n as usize)
                .ok_or_else(|| invalid(format!("expected a string index, got {v}")))
        };
        // A string field of the tail: not there when cut or written `0`.
        let opt_str = |v: Option<&Value>| -> Result<Option<String>> {
            match v {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(Value::Number(n)) if n.as_u64() == Some(0) => Ok(None),
                Some(other) => Err(invalid(format!("expected a string or 0, got {other}"))),
            }
        };
        if !(5..=12).contains(&row.len()) {
            return Err(invalid(format!("an element row of {} fields", row.len())));
        }
        let last = self.last.get();
        let reference = match &row[0] {
            Value::Number(d) => match d
                .as_i64()
                .and_then(|d| (last as i64).checked_add(1)?.checked_add(d))
                .filter(|n| *n >= 0)
            {
                Some(n) => {
                    self.last.set(n as u64);
                    format!("e{n}-{}", self.tag)
                }
                None => return Err(invalid(format!("ref {d}"))),
            },
            Value::String(s) => s.clone(),
            other => return Err(invalid(format!("ref {other}"))),
        };
        let role = Role::parse(self.string(index(&row[1])?)?).unwrap_or(Role::Unknown);
        let name = match &row[2] {
            Value::String(s) => s.clone(),
            other => return Err(invalid(format!("name {other}"))),
        };
        let region = self.string(index(&row[3])?)?.to_owned();
        let flags = row[4]
            .as_u64()
            .filter(|f| *f < 1 << 16)
            .ok_or_else(|| invalid(format!("flags {}", row[4])))?;
        let frame = match row.get(FRAME) {
            None => String::new(),
            Some(v) => self.string(index(v)?)?.to_owned(),
        };
        let level = match row.get(LEVEL) {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_u64()
                    .filter(|l| *l <= u8::MAX as u64)
                    .ok_or_else(|| invalid(format!("level {v}")))? as u8,
            ),
        };
        Ok(Element {
            reference,
            role,
            name,
            text: opt_str(row.get(TEXT))?,
            region,
            within: opt_str(row.get(WITHIN))?,
            frame,
            href: opt_str(row.get(HREF))?,
            value: opt_str(row.get(VALUE))?,
            value_hash: opt_str(row.get(VALUE_HASH))?,
            checked: tristate_of(flags >> CHECKED),
            pressed: tristate_of(flags >> PRESSED),
            selected: bool_of(flags >> SELECTED)?,
            expanded: bool_of(flags >> EXPANDED)?,
            disabled: flags & DISABLED != 0,
            visible: flags & VISIBLE != 0,
            in_viewport: flags & IN_VIEWPORT != 0,
            focused: flags & FOCUSED != 0,
            sensitive: flags & SENSITIVE != 0,
            level,
            opaque: flags & OPAQUE != 0,
            busy: flags & BUSY != 0,
            clickable: flags & CLICKABLE != 0,
        })
    }

    /// A text row's fields.
    pub(super) fn text(
        &self,
        kind: TextKind,
        text: &str,
        region: usize,
        frame: usize,
    ) -> Result<Text> {
        Ok(Text {
            kind,
            text: text.to_owned(),
            region: self.string(region)?.to_owned(),
            frame: self.string(frame)?.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::testing::el;

    fn snapshot(elements: Vec<Element>) -> Snapshot {
        Snapshot {
            elements,
            ..Default::default()
        }
    }

    fn every_field() -> Snapshot {
        let mut s = snapshot(vec![
            Element {
                text: Some("Shirt M – 1 × 20 €".into()),
                href: Some("/cart?x=\"1\"".into()),
                value: Some("[redacted]".into()),
                value_hash: Some("k:12ab".into()),
                checked: Some(Tristate::Mixed),
                pressed: Some(Tristate::False),
                selected: Some(true),
                expanded: Some(false),
                disabled: true,
                in_viewport: true,
                focused: true,
                sensitive: true,
                level: Some(3),
                opaque: true,
                frame: "0.1".into(),
                ..el(
                    "e1-abcd",
                    Role::Checkbox,
                    "Agree \"all\"\n",
                    "form[Checkout]",
                )
            },
            el("e007-abcd", Role::Button, "Add", "main"),
            el("custom ref", Role::Unknown, "", ""),
            el("e2-abcd", Role::Link, "Details", "main"),
        ]);
        s.texts.push(Text {
            kind: TextKind::Status,
            text: "Added \u{1F455}".into(),
            region: "cart".into(),
            frame: "0".into(),
        });
        s.has_more = true;
        s
    }

    #[test]
    fn decode_gives_back_what_encode_was_given() {
        let s = every_field();
        let wire = encode(&s);
        assert_eq!(decode(&wire).unwrap(), s);
        let json = serde_json::to_string(&s).unwrap();
        assert!(wire.len() < json.len(), "{wire}");
    }

    #[test]
    fn empty_and_default_tails_are_cut() {
        let s = snapshot(vec![el("e5-t", Role::Button, "Go", "")]);
        let wire = encode(&s);
        assert!(wire.contains("[[4,1,\"Go\",0,2]]"), "{wire}");
        assert_eq!(decode(&wire).unwrap(), s);
        assert_eq!(
            decode(&encode(&Snapshot::default())).unwrap(),
            Snapshot::default()
        );
    }

    #[test]
    fn refs_are_written_as_steps_from_the_last_one() {
        let s = snapshot(vec![
            el("e3-t", Role::Button, "A", ""),
            el("e4-t", Role::Button, "B", ""),
            el("other", Role::Button, "C", ""),
            el("e5-t", Role::Button, "D", ""),
            el("e90-t", Role::Button, "E", ""),
            el("e6-t", Role::Button, "F", ""),
            el("e0-t", Role::Button, "G", ""),
            el("e6-u", Role::Button, "H", ""),
        ]);
        let wire = encode(&s);
        let refs: Vec<Value> = serde_json::from_str::<Value>(&wire).unwrap()["elements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r[0].clone())
            .collect();
        assert_eq!(
            serde_json::to_string(&refs).unwrap(),
            r#"[2,0,"other",0,84,-85,-7,"e6-u"]"#
        );
        assert_eq!(decode(&wire).unwrap(), s);
    }

    #[test]
    fn a_tail_writes_what_is_missing_before_its_last_field_short() {
        let item = Element {
            text: Some("Item 1".into()),
            ..el("e1-t", Role::Listitem, "", "")
        };
        let heading = Element {
            level: Some(2),
            ..el("e2-t", Role::Heading, "Block", "")
        };
        let twin = Element {
            within: Some("Block".into()),
            ..el("e3-t", Role::Button, "Add", "")
        };
        let wire = encode(&snapshot(vec![item, heading, twin]));
        for row in [
            r#"[0,1,"",0,2,"Item 1"]"#,
            r#"[0,2,"Block",0,2,0,0,0,2]"#,
            r#"[0,3,"Add",0,2,0,0,0,null,"Block"]"#,
        ] {
            assert!(wire.contains(row), "{row} in {wire}");
        }
    }

    #[test]
    fn strings_are_written_as_serde_json_writes_them() {
        for v in [
            "",
            "plain words",
            "quote \" and \\ backslash",
            "tab\tnew\nline\r\u{0}\u{1f}\u{7f}",
            "Shirt M – 1 × 20 € \u{1F455} </script>",
        ] {
            let mut out = Vec::new();
            push_json_str(&mut out, v);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(v).unwrap()
            );
        }
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let good = encode(&every_field());
        for bad in [
            String::new(),
            "{}".into(),
            "[1,2]".into(),
            good.replace("\"wire\":2", "\"wire\":1"),
            good.replace("\"strings\":[", "\"strings\":[1,"),
            good.replacen("[[0,", "[[-2,", 1),
            good.replacen("[[0,", "[[0.5,", 1),
            good.replacen("[[0,", "[[0,999,", 1),
            good.replacen("[[0,", "[[null,", 1),
            good.replacen(",\"Shirt M", ",1,\"Shirt M", 1),
            good.replacen(",\"Shirt M", ",null,\"Shirt M", 1),
            good.replace("],\"texts\"", ",[1]],\"texts\""),
        ] {
            let e = decode(&bad).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidSnapshot, "{bad}");
        }
    }
}
