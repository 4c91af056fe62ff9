//! Which captured entries a class change may have restyled: those in the subtrees of the
//! elements its rules can now match (`cache::restyles`), found by document order.

use super::capture::Capture;
use std::cmp::Ordering;
use web_sys::{Element, Node};

/// Where `n` lies against the subtree of `root` in preorder: before it (`Less`, an ancestor
/// of `root` included), inside it (`Equal`, `root` itself included) or after it.
fn side(root: &Node, n: &Node) -> Ordering {
    if root.is_same_node(Some(n)) {
        return Ordering::Equal;
    }
    let p = root.compare_document_position(n);
    if p & Node::DOCUMENT_POSITION_CONTAINED_BY != 0 {
        Ordering::Equal
    } else if p & Node::DOCUMENT_POSITION_FOLLOWING != 0 {
        Ordering::Greater
    } else {
        Ordering::Less
    }
}

/// Per entry of `entries` (in document order), whether it lies in the subtree of one of
/// `roots`: a subtree is one run of entries in preorder, found by two binary searches.
fn inside<T>(entries: &[T], node: impl Fn(&T) -> &Element, roots: &[Element]) -> Vec<bool> {
    let mut mask = vec![false; entries.len()];
    for root in roots {
        let root: &Node = root.as_ref();
        let lo = entries.partition_point(|e| side(root, node(e).as_ref()) == Ordering::Less);
        let len =
            entries[lo..].partition_point(|e| side(root, node(e).as_ref()) == Ordering::Equal);
        mask[lo..lo + len].fill(true);
    }
    mask
}

/// What a replay reads again of a memo whose facts hold but for the subtrees of `roots`.
pub(super) struct Again {
    /// Per captured element: its visibility.
    pub(super) elements: Vec<bool>,
    /// Per captured text: its visibility and text.
    pub(super) texts: Vec<bool>,
    roots: Vec<Node>,
}

impl Again {
    /// `None` when the capture is not in document order (then everything is read again).
    pub(super) fn new(capture: &Capture, roots: &[Element]) -> Option<Again> {
        if !capture.sortable() || capture.unordered {
            return None;
        }
        Some(Again {
            elements: inside(&capture.elements, |e| &e.node, roots),
            texts: inside(&capture.texts, |t| &t.node, roots),
            roots: roots.iter().map(|r| r.clone().into()).collect(),
        })
    }

    /// Does a name or text read from `nodes` (their subtrees, and their visibility) depend
    /// on a restyled subtree: is one of them inside such a subtree, or holding one?
    pub(super) fn touches(&self, nodes: &[Node]) -> bool {
        nodes.iter().any(|n| {
            self.roots
                .iter()
                .any(|r| n.contains(Some(r)) || r.contains(Some(n)))
        })
    }
}
