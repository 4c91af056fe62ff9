//! What the tools answer: a few lines an agent reads, and the same facts as JSON.
//!
//! An acting tool answers with the step's record, cut to what decides the agent's next move:
//! the verdict, the reason, the semantic changes (at most [`MAX_CHANGES`] lines), attempts
//! and undone, and for a failure what state the page was left in. The page itself is not in
//! the answer (a full snapshot of a real page is tens of thousands of tokens); the caller asks
//! for it with `snapshot: true` or calls `browser_snapshot`.
//!
//! `browser_snapshot` answers with a compact text tree in the style of aria snapshots:
//! elements grouped under their region, each `- role "label" [states] [ref=eN]: value`,
//! then the texts of the region. Hidden elements are left out.

use super::refs::{Assigned, Refs};
use crate::error::Error;
use crate::verify::{Outcome, Verdict};
use prufe::core::error::{Candidate, ErrorCode};
use prufe::core::model::{Element, Snapshot, TextKind, Tristate};
use serde::Serialize;
use std::collections::HashSet;
use std::fmt::Write as _;

/// Most change lines an answer lists; the rest are counted.
pub const MAX_CHANGES: usize = 8;

/// The answer of a tool call, as JSON (`structuredContent`) and as text.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    /// The step did what was meant (MATCH, or AMBIGUOUS let pass by the policy).
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// `click on button[Add Shirt M] in list`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub action: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// What changed on the page, as the diff names it (of the last attempt; undone when
    /// `undone` counts it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
    /// Change lines left out of `changes`.
    #[serde(skip_serializing_if = "is_zero")]
    pub more_changes: usize,
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub attempts: u32,
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub undone: u32,
    /// What of a wrong effect the undo could not remove.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub still_there: Vec<String>,
    /// JavaScript dialogs answered during the step.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dialogs: Vec<String>,
    /// The one error shape: a typed code, a message saying what to do next, candidates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<prufe::core::Error>,
    /// Lines of tools that report rather than act (`browser_tabs`, `browser_wait_for`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn is_zero_u32(n: &u32) -> bool {
    *n == 0
}

impl Answer {
    /// A plain success with notes.
    pub fn note(lines: impl IntoIterator<Item = String>) -> Answer {
        Answer {
            ok: true,
            notes: lines.into_iter().collect(),
            ..Answer::default()
        }
    }

    /// The answer of a verified step. `refs` turns the candidates of an ambiguity into refs
    /// the agent can use.
    pub fn of_step(result: &Result<Outcome, Error>, refs: &Refs) -> Answer {
        match result {
            Ok(o) => Self::of_record(o, None),
            Err(e) => {
                let mut a = match e.outcome() {
                    Some(o) => Self::of_record(o, Some(e)),
                    None => Answer::default(),
                };
                a.ok = false;
                a.error = Some(shape(e, refs));
                if let Error::UndoFailed { residue, .. } = e {
                    a.still_there = residue.clone();
                }
                a
            }
        }
    }

    /// The answer of an error that is not a step's (a ref that is stale, a bad argument).
    pub fn of_error(e: prufe::core::Error) -> Answer {
        Answer {
            error: Some(e),
            ..Answer::default()
        }
    }

    fn of_record(o: &Outcome, error: Option<&Error>) -> Answer {
        let more = o.lines.len().saturating_sub(MAX_CHANGES);
        Answer {
            ok: error.is_none() && o.ok,
            verdict: o.verdict,
            action: o.action_line(),
            reason: o.reason.clone(),
            changes: o.lines.iter().take(MAX_CHANGES).cloned().collect(),
            more_changes: more,
            attempts: o.attempts,
            undone: o.undone,
            still_there: Vec::new(),
            dialogs: o.dialogs.clone(),
            error: None,
            notes: Vec::new(),
        }
    }

    /// The answer as the agent reads it.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let code = self.error.as_ref().map(|e| e.code);
        match (self.verdict, code) {
            (Some(v), _) => {
                let _ = write!(out, "{}: {}", v.as_str(), self.action);
                let _ = writeln!(out, "{}", self.outcome_phrase(v));
                if !self.reason.is_empty() {
                    let label = if v == Verdict::Ambiguous {
                        "Unknown"
                    } else {
                        "Reason"
                    };
                    let _ = writeln!(out, "{label}: {}", self.reason);
                }
            }
            (None, Some(_)) => {}
            // A step sent and not judged (a key chord, a scroll): the reason says where the
            // focus or the container went.
            (None, None) => {
                if !self.action.is_empty() {
                    let _ = writeln!(out, "Done: {}", self.action);
                }
                if !self.reason.is_empty() {
                    let _ = writeln!(out, "Reason: {}", self.reason);
                }
            }
        }
        if !self.changes.is_empty() {
            let undone = self.undone > 0 && !self.ok;
            let _ = writeln!(out, "Changes{}:", if undone { " (undone)" } else { "" });
            for line in &self.changes {
                let _ = writeln!(out, "- {line}");
            }
            if self.more_changes > 0 {
                let _ = writeln!(out, "- … and {} more", self.more_changes);
            }
        } else if self.verdict.is_some() {
            let _ = writeln!(out, "Changes: none observed");
        }
        if !self.still_there.is_empty() {
            let _ = writeln!(out, "Still there:");
            for line in &self.still_there {
                let _ = writeln!(out, "- {line}");
            }
        }
        for d in &self.dialogs {
            let _ = writeln!(out, "Dialog: {d}");
        }
        if self.attempts > 0 {
            let _ = writeln!(out, "Attempts: {}, undone: {}", self.attempts, self.undone);
        }
        if let Some(e) = &self.error {
            if self.verdict.is_none() {
                let _ = writeln!(out, "{}: {}", e.code, e.message);
                for c in &e.candidates {
                    let place = if c.region.is_empty() {
                        String::new()
                    } else {
                        format!(" in {}", c.region)
                    };
                    let r = if c.reference.is_empty() {
                        String::new()
                    } else {
                        format!(" [ref={}]", c.reference)
                    };
                    let _ = writeln!(out, "- candidate {} {:?}{place}{r}", c.role, c.name);
                }
            } else {
                let _ = writeln!(out, "Error: {}", e.code);
            }
        }
        for note in &self.notes {
            let _ = writeln!(out, "{note}");
        }
        out
    }

    /// What the verdict left the page as, after the action line.
    fn outcome_phrase(&self, v: Verdict) -> String {
        let code = self.error.as_ref().map(|e| e.code);
        match code {
            None if v == Verdict::Ambiguous => {
                " — let pass by the policy (--ambiguous accept); it was not proved".into()
            }
            None => String::new(),
            Some(ErrorCode::UndoFailed) => {
                " — undone, but part of the wrong effect is still on the page".into()
            }
            Some(ErrorCode::IrreversibleAction) => {
                " — no inverse applies: the effect is still on the page and prufe stopped".into()
            }
            Some(_) if v == Verdict::Ambiguous => format!(
                " — not approved: {}",
                if self.undone > 0 {
                    "undone, the page is back as before the action"
                } else {
                    "nothing to undo"
                }
            ),
            Some(_) if self.undone > 0 => " — undone, the page is back as before the action".into(),
            Some(_) => String::new(),
        }
    }
}

/// A harness error in the one error shape, its candidates named by refs where known.
pub fn shape(e: &Error, refs: &Refs) -> prufe::core::Error {
    let code = e.code();
    let message = match e {
        Error::Core(c) => c.message.clone(),
        other => {
            let text = other.to_string();
            let prefix = format!("{code}: ");
            text.strip_prefix(&prefix)
                .map(str::to_owned)
                .unwrap_or(text)
        }
    };
    let candidates: Vec<Candidate> = e
        .candidates()
        .iter()
        .map(|c| Candidate {
            reference: refs.find(&c.role, &c.name, &c.region).unwrap_or_default(),
            ..c.clone()
        })
        .collect();
    prufe::core::Error::new(code, message).with_candidates(candidates)
}

/// The page as a compact text tree (see the module docs): one node per region path segment,
/// each region listed once, its elements and texts in document order, then its sub-regions.
pub fn snapshot_tree(s: &Snapshot, assigned: &Assigned) -> String {
    let shared: HashSet<&str> = assigned.shared.iter().map(String::as_str).collect();
    let mut tree = Tree::default();
    for (i, e) in s.elements.iter().enumerate() {
        if !e.visible {
            continue;
        }
        let reference = assigned.refs.get(i).cloned().flatten();
        tree.push(&e.region, element_line(e, reference.as_deref(), &shared));
    }
    for t in &s.texts {
        let kind = match t.kind {
            TextKind::Status => "status",
            TextKind::Alert => "alert",
            TextKind::Log => "log",
            _ => "text",
        };
        tree.push(&t.region, format!("- {kind}: {}", one_line(&t.text)));
    }
    let mut out = String::new();
    tree.render(0, 0, &mut out);
    if s.has_more {
        out.push_str("- (cut short: the page has more than one observation holds)\n");
    }
    out
}

/// Regions as a tree of their path segments; node 0 is the document level.
struct Tree<'s> {
    nodes: Vec<Node<'s>>,
}

struct Node<'s> {
    segment: &'s str,
    lines: Vec<String>,
    children: Vec<usize>,
}

impl Default for Tree<'_> {
    fn default() -> Self {
        Tree {
            nodes: vec![Node {
                segment: "",
                lines: Vec::new(),
                children: Vec::new(),
            }],
        }
    }
}

impl<'s> Tree<'s> {
    fn push(&mut self, region: &'s str, line: String) {
        let mut at = 0;
        for segment in split_region(region) {
            let found = self.nodes[at]
                .children
                .iter()
                .copied()
                .find(|&c| self.nodes[c].segment == segment);
            at = match found {
                Some(c) => c,
                None => {
                    self.nodes.push(Node {
                        segment,
                        lines: Vec::new(),
                        children: Vec::new(),
                    });
                    let c = self.nodes.len() - 1;
                    self.nodes[at].children.push(c);
                    c
                }
            };
        }
        self.nodes[at].lines.push(line);
    }

    fn render(&self, at: usize, depth: usize, out: &mut String) {
        let node = &self.nodes[at];
        let indent = "  ".repeat(depth);
        for line in &node.lines {
            out.push_str(&indent);
            out.push_str(line);
            out.push('\n');
        }
        for &c in &node.children {
            let _ = writeln!(out, "{indent}- {}:", self.nodes[c].segment);
            self.render(c, depth + 1, out);
        }
    }
}

/// `button "Add Shirt M" [disabled] [ref=e3]: value`.
fn element_line(e: &Element, reference: Option<&str>, shared: &HashSet<&str>) -> String {
    let mut line = format!("- {}", e.role.as_str());
    let label = e.label();
    if !label.is_empty() {
        let _ = write!(line, " {:?}", one_line(label));
    }
    let tri = |name: &str, t: Tristate| match t {
        Tristate::True => format!(" [{name}]"),
        Tristate::False => format!(" [{name}=false]"),
        Tristate::Mixed => format!(" [{name}=mixed]"),
    };
    if let Some(c) = e.checked {
        line.push_str(&tri("checked", c));
    }
    if let Some(p) = e.pressed {
        line.push_str(&tri("pressed", p));
    }
    if e.selected == Some(true) {
        line.push_str(" [selected]");
    }
    match e.expanded {
        Some(true) => line.push_str(" [expanded]"),
        Some(false) => line.push_str(" [expanded=false]"),
        None => {}
    }
    if let Some(level) = e.level {
        let _ = write!(line, " [level={level}]");
    }
    if e.disabled {
        line.push_str(" [disabled]");
    }
    if e.focused {
        line.push_str(" [focused]");
    }
    if e.busy {
        line.push_str(" [busy]");
    }
    if e.opaque {
        line.push_str(" [opaque]");
    }
    if let Some(r) = reference {
        let _ = write!(line, " [ref={r}]");
        if shared.contains(r) {
            line.push_str(" [not unique]");
        }
    }
    if let Some(href) = e.href.as_deref().filter(|h| !h.is_empty()) {
        let _ = write!(line, " [url={}]", one_line(href));
    }
    if let Some(v) = e.value.as_deref().filter(|v| !v.is_empty()) {
        let _ = write!(line, ": {}", one_line(v));
    }
    line
}

fn one_line(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains(['\n', '\r']) {
        s.replace(['\n', '\r'], " ").into()
    } else {
        s.into()
    }
}

/// `cart/list:items` → `["cart", "list:items"]`; a `/` inside `[…]` does not split.
fn split_region(region: &str) -> Vec<&str> {
    if region.is_empty() {
        return Vec::new();
    }
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in region.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '/' if depth == 0 => {
                parts.push(&region[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&region[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use prufe::core::model::{Role, Text};

    fn element(role: Role, name: &str, region: &str) -> Element {
        Element {
            role,
            name: name.into(),
            region: region.into(),
            visible: true,
            ..Element::default()
        }
    }

    #[test]
    fn the_tree_lists_each_region_once_with_refs_and_states() {
        let s = Snapshot {
            elements: vec![
                element(Role::Heading, "Shop", ""),
                Element {
                    level: Some(2),
                    ..element(Role::Heading, "Catalogue", "main")
                },
                element(Role::Button, "Add Shirt M", "main/list:catalogue"),
                Element {
                    disabled: true,
                    ..element(Role::Button, "Pay", "form[Checkout]")
                },
                Element {
                    checked: Some(Tristate::False),
                    ..element(Role::Checkbox, "Gift wrap", "form[Checkout]")
                },
                Element {
                    value: Some("[redacted]".into()),
                    ..element(Role::Textbox, "Password", "form[Checkout]")
                },
                Element {
                    value: Some(String::new()),
                    ..element(Role::Textbox, "Name", "form[Checkout]")
                },
                element(Role::Button, "Remove", "main/list:cart"),
                element(Role::Button, "Remove", "main/list:cart"),
                Element {
                    visible: false,
                    ..element(Role::Button, "Hidden", "main")
                },
                element(Role::Heading, "Tasks", "main"),
            ],
            texts: vec![Text {
                kind: TextKind::Status,
                text: "Added\nShirt M".into(),
                region: "main".into(),
                frame: String::new(),
            }],
            has_more: true,
            ..Snapshot::default()
        };
        let mut refs = Refs::default();
        let assigned = refs.assign("doc", &s);
        let tree = snapshot_tree(&s, &assigned);
        let want = [
            "- heading \"Shop\" [ref=e1]",
            "- main:",
            "  - heading \"Catalogue\" [level=2] [ref=e2]",
            "  - heading \"Tasks\" [ref=e9]",
            "  - status: Added Shirt M",
            "  - list:catalogue:",
            "    - button \"Add Shirt M\" [ref=e3]",
            "  - list:cart:",
            "    - button \"Remove\" [ref=e8] [not unique]",
            "    - button \"Remove\" [ref=e8] [not unique]",
            "- form[Checkout]:",
            "  - button \"Pay\" [disabled] [ref=e4]",
            "  - checkbox \"Gift wrap\" [checked=false] [ref=e5]",
            "  - textbox \"Password\" [ref=e6]: [redacted]",
            "  - textbox \"Name\" [ref=e7]",
            "- (cut short: the page has more than one observation holds)",
        ];
        assert_eq!(tree.lines().collect::<Vec<_>>(), want, "{tree}");
        assert_eq!(split_region("frame[a/b]/main"), ["frame[a/b]", "main"]);
    }

    fn record() -> Outcome {
        Outcome {
            action: "click".into(),
            target: Some("button[Add Shirt M] in list".into()),
            verdict: Some(Verdict::Match),
            ok: true,
            reason: "the effect carries the target's name".into(),
            lines: (1..=10)
                .map(|i| format!("appeared listitem[Line {i}] in cart"))
                .collect(),
            attempts: 1,
            ..Outcome::default()
        }
    }

    #[test]
    fn a_match_names_the_changes_capped() {
        let a = Answer::of_step(&Ok(record()), &Refs::default());
        assert!(a.ok);
        assert_eq!(a.changes.len(), MAX_CHANGES);
        assert_eq!(a.more_changes, 2);
        let text = a.text();
        assert!(
            text.starts_with("MATCH: click on button[Add Shirt M] in list\nReason: "),
            "{text}"
        );
        assert!(
            text.contains("- appeared listitem[Line 1] in cart\n"),
            "{text}"
        );
        assert!(text.contains("- … and 2 more\n"), "{text}");
        assert!(text.ends_with("Attempts: 1, undone: 0\n"), "{text}");
        let json = serde_json::to_value(&a).unwrap();
        assert_eq!(json["verdict"], "MATCH");
        assert_eq!(json.get("error"), None);
    }

    #[test]
    fn a_step_sent_unjudged_says_where_it_went() {
        let o = Outcome {
            action: "key".into(),
            value: Some("Tab".into()),
            ok: true,
            reason: "sent; every key released in reverse order; the focus is on button[Target] \
                     in main"
                .into(),
            attempts: 1,
            ..Outcome::default()
        };
        let text = Answer::of_step(&Ok(o), &Refs::default()).text();
        assert_eq!(
            text.lines().collect::<Vec<_>>(),
            [
                "Done: key with 'Tab'",
                "Reason: sent; every key released in reverse order; the focus is on \
                 button[Target] in main",
                "Attempts: 1, undone: 0",
            ],
            "{text}"
        );
    }

    #[test]
    fn a_mismatch_says_it_was_undone() {
        let o = Outcome {
            verdict: Some(Verdict::Mismatch),
            ok: false,
            reason: "the effect belongs to button[Add Trousers L] in list".into(),
            lines: vec!["appeared listitem[Trousers L] in cart".into()],
            attempts: 2,
            undone: 2,
            ..record()
        };
        let a = Answer::of_step(
            &Err(Error::VerificationFailed(Box::new(o))),
            &Refs::default(),
        );
        assert!(!a.ok);
        assert_eq!(
            a.error.as_ref().unwrap().code,
            ErrorCode::VerificationFailed
        );
        let text = a.text();
        assert!(
            text.starts_with("MISMATCH: click on button[Add Shirt M] in list — undone, the page is back as before the action\n"),
            "{text}"
        );
        assert!(
            text.contains("Changes (undone):\n- appeared listitem[Trousers L] in cart\n"),
            "{text}"
        );
        assert!(
            text.contains("Attempts: 2, undone: 2\nError: VERIFICATION_FAILED\n"),
            "{text}"
        );
    }

    #[test]
    fn failures_of_the_undo_and_unknowns_are_said() {
        let o = Outcome {
            verdict: Some(Verdict::Mismatch),
            ok: false,
            undone: 1,
            ..record()
        };
        let e = Error::UndoFailed {
            outcome: Box::new(o),
            residue: vec!["listitem[Trousers L] in cart".into()],
        };
        let text = Answer::of_step(&Err(e), &Refs::default()).text();
        assert!(
            text.contains("part of the wrong effect is still on the page"),
            "{text}"
        );
        assert!(
            text.contains("Still there:\n- listitem[Trousers L] in cart\n"),
            "{text}"
        );

        let ambiguous = Outcome {
            verdict: Some(Verdict::Ambiguous),
            reason: "no element's name explains the effect".into(),
            ..record()
        };
        let text = Answer::of_step(&Ok(ambiguous), &Refs::default()).text();
        assert!(text.contains("let pass by the policy"), "{text}");
        assert!(
            text.contains("\nUnknown: no element's name explains the effect\n"),
            "{text}"
        );
    }

    #[test]
    fn errors_before_input_list_candidates_by_ref() {
        let mut refs = Refs::default();
        refs.assign(
            "doc",
            &Snapshot {
                elements: vec![element(Role::Button, "Remove", "cart")],
                ..Snapshot::default()
            },
        );
        let e = Error::Core(
            prufe::core::Error::new(ErrorCode::TargetAmbiguous, "2 elements match")
                .with_candidates(vec![Candidate {
                    reference: "n17".into(),
                    role: "button".into(),
                    name: "Remove".into(),
                    region: "cart".into(),
                }]),
        );
        let a = Answer::of_step(&Err(e), &refs);
        assert_eq!(a.verdict, None);
        let text = a.text();
        assert_eq!(
            text,
            "TARGET_AMBIGUOUS: 2 elements match\n- candidate button \"Remove\" in cart [ref=e1]\n"
        );
        let obscured = Error::Core(prufe::core::run::ready::covered(
            "button[Pay]",
            "div#veil",
            1.0,
            2.0,
        ));
        let shaped = shape(&obscured, &refs);
        assert_eq!(shaped.code, ErrorCode::TargetObscured);
        assert!(
            shaped
                .message
                .starts_with("button[Pay] is covered by div#veil"),
            "{}",
            shaped.message
        );
    }
}
