//! `prufe.identify(path, options)`: which observed element a browser library's node is (a
//! Playwright or Puppeteer element, found in the page's own world and handed over as a path),
//! for the Node and Python packages alike. The node is walked to from this document by its
//! path (`core::located::PathStep`); then, on a snapshot taken with `options`, the observed
//! element is the node itself, else the only one inside it, else the nearest one holding it
//! on its way up (`core::located::choose`; slots followed into their shadow tree, shadow
//! roots to their host, a same-origin frame's document to its `<iframe>`), none holding a
//! hidden node; with the target that names it (`core::resolve::target_of`, none when
//! hidden). Otherwise a typed error (`core::located::unidentified`): gone, hidden, or
//! nothing observed there.

use super::{document, element_unwalked, js, snapshot, Options};
use crate::core::error::Result;
use crate::core::located::{choose, unidentified, Enter, Identified, PathStep};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, Node};

const DOCUMENT_NODE: u16 = 9;
const FRAGMENT_NODE: u16 = 11;

pub fn identify(path: &[PathStep], opts: &Options) -> Result<Identified> {
    let top = document()?;
    let top: &Node = top.unchecked_ref();
    let node = walk(top, path).ok_or_else(|| unidentified(true, false, ""))?;
    let observed = snapshot(opts)?;
    let live: Vec<Option<Element>> = observed
        .elements
        .iter()
        .map(|e| element_unwalked(&e.reference).ok())
        .collect();
    let index_of = |n: &Node| {
        live.iter()
            .position(|el| el.as_ref().is_some_and(|el| js::same(el, n)))
    };
    let itself = index_of(&node);
    let inside: Vec<usize> = match itself {
        Some(_) => Vec::new(),
        None => live
            .iter()
            .enumerate()
            .filter(|(_, el)| el.as_ref().is_some_and(|el| js::contains(&node, el)))
            .map(|(i, _)| i)
            .collect(),
    };
    // A hidden node names no element holding it (a span hidden inside a button): acting on
    // it is acting on nothing a person sees.
    let shown = itself.is_some() || inside.len() == 1 || !hidden(&node);
    let mut holding = None;
    let mut at = parent(&node, top).filter(|_| shown);
    while let (None, Some(n)) = (holding, at) {
        holding = index_of(&n);
        at = parent(&n, top);
    }
    let Some((i, exact)) = choose(itself, &inside, holding) else {
        return Err(unidentified(false, !shown, &shows(&node)));
    };
    let element = observed.elements[i].clone();
    let target = crate::core::resolve::target_of(&element, &observed).ok();
    Ok(Identified {
        element,
        exact,
        target,
    })
}

/// `prufe.nodeAt(path)`: the node at the end of `path` from this document, or none (the
/// `<iframe>` whose frame a driver must reach, an element a driver hands the library).
pub fn node_at(path: &[PathStep]) -> Result<Option<Node>> {
    let top = document()?;
    Ok(walk(top.unchecked_ref(), path))
}

/// The node at the end of `path` from `top`; none when a step finds nothing.
fn walk(top: &Node, path: &[PathStep]) -> Option<Node> {
    let mut node = top.clone();
    for step in path {
        node = match step {
            PathStep::Child(i) => js::child_node(&node, *i)?,
            PathStep::Enter(Enter::Shadow) => js::shadow_root(node.unchecked_ref())?,
            PathStep::Enter(Enter::Frame) => {
                js::content_document(node.unchecked_ref())?.unchecked_into()
            }
        };
    }
    Some(node)
}

/// One step up: a slotted node's slot, a shadow root's host, a frame document's `<iframe>`,
/// else the parent; none above this world's document.
fn parent(n: &Node, top: &Node) -> Option<Node> {
    match js::node_type(n) {
        DOCUMENT_NODE if js::same(n, top) => None,
        DOCUMENT_NODE => {
            let view = js::default_view(n.unchecked_ref())?;
            js::frame_element(&view).map(Node::from)
        }
        FRAGMENT_NODE => js::host(n).map(Node::from),
        _ => js::assigned_slot(n)
            .map(Node::from)
            .or_else(|| js::parent_node(n)),
    }
}

/// The element of a node (itself, or the element it is in), if any.
fn element_of(node: &Node) -> Option<Element> {
    match js::node_type(node) {
        js::ELEMENT_NODE => Some(node.clone().unchecked_into()),
        _ => js::parent_element(node),
    }
}

/// Whether the node is hidden: its element has no box, or `visibility` hides it.
fn hidden(node: &Node) -> bool {
    let Some(el) = element_of(node) else {
        return false;
    };
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"visibilityProperty".into(), &JsValue::TRUE);
    !js::check_visibility(&el, &options)
}

/// How the node shows in a message: `p#intro`, `li`.
fn shows(node: &Node) -> String {
    let Some(el) = element_of(node) else {
        return "a node outside any element".to_owned();
    };
    let id = js::id(&el);
    match id.is_empty() {
        true => js::local_name(&el),
        false => format!("{}#{id}", js::local_name(&el)),
    }
}
