//! Quiet over what the judge looks at: how long the page has changed nothing but its
//! background.
//!
//! `quietFor` says how long the page has shown no sign of change, so that a settle over a
//! still page needs no window of polls. A page with a clock, a ticker or a carousel is never
//! quiet by that measure, and each settle there polls a whole window even once the
//! machine has learnt those slots and the fingerprint leaves them out. So the cache keeps a
//! short [`Log`] of what each sign of change touched, and after a fingerprint that left a
//! background out, `quietFor` counts from the last sign that touched anything else: a
//! mutation whose element did not hold content of a background slot's shape
//! (`Background::has_shape_of`) right after it, nor does one of its nearest ancestors now;
//! any input, a scroll or a window event. A running animation counts the same way, by its
//! target. The element's content is read when the mutation is reported, not when quiet is
//! asked: a ticker's row that showed a shape never learnt, then went back to a learnt one,
//! is a change, as the settle's fingerprint would have seen it had it polled then.
//!
//! What that read costs is bounded: a batch of records logs each element it touched once
//! (a re-render's hundreds of records on the same rows read each row once), only the
//! newest [`MAX_LOG`] of a batch are read (the others would leave the log with it), and a
//! read stops past [`MAX_CONTENT_CHARS`] characters (`js::text_within`): a page that
//! re-renders a container of thousands of elements costs the first few thousand characters
//! of its text, not all of it, for the same answer, since a longer content is never a
//! slot's.
//!
//! This is only the page's word on quiet; the settle's fingerprint, which places every
//! record, still decides what changed and when (`core::run::quiet`).

use super::js;
use crate::core::background::Background;
use std::collections::VecDeque;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Node;

/// Signs of change kept; past them the oldest go, and quiet cannot be longer than since the
/// newest that went.
pub const MAX_LOG: usize = 256;

/// How far up from a changed node its content is compared with the background's shapes.
const MAX_CLIMB: usize = 4;

/// An element holding more text than this is not compared (nor are its ancestors): it is
/// not one slot's content.
const MAX_CONTENT_CHARS: usize = 2_000;

/// A sign of change: when (`performance.now()`), the element it touched (`None` for input,
/// a scroll, a window event) and that element's content right after (`None` when too long).
type Entry = (f64, Option<Node>, Option<String>);

/// What the page's signs of change touched, newest last.
pub struct Log {
    entries: VecDeque<Entry>,
    /// Nothing is known before this (the cache's start, or the newest entry that went).
    floor: f64,
}

impl Log {
    pub fn new(now: f64) -> Log {
        Log {
            entries: VecDeque::new(),
            floor: now,
        }
    }

    /// Logs a sign of change that touched `node` (its element's content is read now), or
    /// none in particular. The same element again at the same time is one sign.
    pub fn push(&mut self, at: f64, node: Option<Node>) {
        let element = node.and_then(element_of);
        if self.repeats(at, element.as_ref()) {
            return;
        }
        self.make_room();
        let content = element.as_ref().and_then(content_of);
        self.entries.push_back((at, element, content));
    }

    /// Logs the signs of one batch of mutation records, each touching a node: each element
    /// once, its content read now.
    pub fn push_all(&mut self, at: f64, nodes: impl IntoIterator<Item = Option<Node>>) {
        let seen = js_sys::Set::new(&JsValue::UNDEFINED);
        let mut none = false;
        let mut batch: Vec<Option<Node>> = Vec::new();
        for node in nodes {
            match node.and_then(element_of) {
                Some(e) if !seen.has(&e) => {
                    seen.add(&e);
                    batch.push(Some(e));
                }
                None if !none => {
                    none = true;
                    batch.push(None);
                }
                _ => {}
            }
        }
        // What goes out of the log within this batch is never read: the floor moves past it.
        let skip = batch.len().saturating_sub(MAX_LOG);
        if skip > 0 {
            self.entries.clear();
            self.floor = self.floor.max(at);
        }
        for element in batch.into_iter().skip(skip) {
            if self.repeats(at, element.as_ref()) {
                continue;
            }
            self.make_room();
            let content = element.as_ref().and_then(content_of);
            self.entries.push_back((at, element, content));
        }
    }

    /// Is `element` at `at` the newest entry again?
    fn repeats(&self, at: f64, element: Option<&Node>) -> bool {
        matches!(
            (element, self.entries.back()),
            (Some(e), Some((t, Some(last), _))) if *t == at && last.is_same_node(Some(e))
        )
    }

    /// Drops the oldest entry when the log is full.
    fn make_room(&mut self) {
        if self.entries.len() >= MAX_LOG {
            if let Some((t, _, _)) = self.entries.pop_front() {
                self.floor = self.floor.max(t);
            }
        }
    }

    /// When the last sign that touched more than `background` came: the newest entry whose
    /// element is not background, else the floor.
    pub fn last_outside(&self, background: &Background) -> f64 {
        let mut above: Vec<(Node, bool)> = Vec::new();
        for (at, element, content) in self.entries.iter().rev() {
            let Some(element) = element else {
                return *at;
            };
            if content
                .as_deref()
                .is_some_and(|c| background.has_shape_of(c))
            {
                continue;
            }
            let known = above.iter().find(|(n, _)| n.is_same_node(Some(element)));
            let inside = match known {
                Some((_, inside)) => *inside,
                None => {
                    let inside = element
                        .parent_node()
                        .is_some_and(|p| holds(&p, background, MAX_CLIMB - 1));
                    above.push((element.clone(), inside));
                    inside
                }
            };
            if !inside {
                return *at;
            }
        }
        self.floor
    }
}

/// The element a node is or is in.
fn element_of(node: Node) -> Option<Node> {
    if node.node_type() == Node::ELEMENT_NODE {
        Some(node)
    } else {
        node.parent_node()
            .filter(|p| p.node_type() == Node::ELEMENT_NODE)
    }
}

/// An element's text, when not longer than [`MAX_CONTENT_CHARS`]. Read only that far: text
/// of more than twice as many UTF-16 code units has more characters than that.
fn content_of(element: &Node) -> Option<String> {
    let text = js::text_within(element, 2 * MAX_CONTENT_CHARS as u32)?;
    (text.chars().count() <= MAX_CONTENT_CHARS).then_some(text)
}

/// Is `node` part of the background: does its element, or one of its nearest ancestors (at
/// most `climb` in all), hold content of a background slot's shape, or a label of one?
pub fn holds(node: &Node, background: &Background, climb: usize) -> bool {
    let mut at = if node.node_type() == Node::ELEMENT_NODE {
        Some(node.clone())
    } else {
        node.parent_node()
    };
    for _ in 0..climb {
        let Some(n) = at else {
            return false;
        };
        if n.node_type() != Node::ELEMENT_NODE {
            return false;
        }
        let Some(text) = content_of(&n) else {
            return false;
        };
        if background.has_shape_of(&text) {
            return true;
        }
        let el: &web_sys::Element = n.unchecked_ref();
        let label = ["aria-label", "alt", "title"]
            .iter()
            .find_map(|a| el.get_attribute(a));
        if label.is_some_and(|l| background.has_shape_of(&l)) {
            return true;
        }
        at = n.parent_node();
    }
    false
}

/// Does an animation or a transition run under `root` whose target is not background?
pub fn animating_outside(root: &Node, background: &Background) -> bool {
    let Some(animations) = js::animations(root) else {
        return true;
    };
    animations.iter().any(|a| match js::animation_target(&a) {
        Some(target) => !holds(&target, background, MAX_CLIMB),
        None => true,
    })
}
