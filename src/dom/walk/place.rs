//! Places: the nearest row-like container a person names around an element (see
//! `Element::within`), found after the walk for the records that need one.
//!
//! Why after the walk and not in its context: a container's words can change without any
//! change to the elements inside it (a title edited in place), and a cache replay or patch
//! keeps the context an element was walked in. Looking the container up from the live node
//! each time costs one `closest` call per placed element and one content read per
//! container (memoised per observation), and only records that need a place pay it:
//! those without a label, and those whose label a twin elsewhere in their region shares.
//!
//! Trade-off: `closest` does not leave the element's tree scope, so a control inside a
//! shadow root is placed only by containers inside that root.

use super::Walk;
use crate::core::model::{limits, Role};
use crate::core::text::cap;
use crate::dom::el::El;
use crate::dom::js;
use crate::dom::role::Attrs as _;
use rustc_hash::FxHashMap;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// The containers a place can be: rows of lists, tables, trees and feeds.
// https://www.w3.org/TR/html-aam-1.0/#html-element-role-mappings (li, tr, article)
const CONTAINERS: &str = "li,tr,article,[role=listitem],[role=row],[role=treeitem],[role=article]";

/// The places [`Walk::place_records`] gave: index into `found`, and the place (scrubbed).
pub type Places = Rc<[(u32, String)]>;

/// What [`Walk::place_records`] found for each record that needed a place, by its captured
/// element's uid: the place (scrubbed), or none. It holds for an element as long as no
/// container's words changed (see `Visual::place_words`), wherever the element moved.
pub type PlaceWords = Rc<FxHashMap<u32, Option<String>>>;

/// At most this many containers are climbed past because they show no words of their own
/// (a cell-less row inside a named one).
const MAX_CLIMB: usize = 4;

impl Walk<'_> {
    /// Gives each found record that needs one its place. In `Find` mode (a few nodes looked
    /// up by ref) only records without a label are placed: that is what their identity
    /// holds, and what a re-check at dispatch compares. Returns the places given, by index
    /// into `found`, for [`Walk::keep_places`].
    ///
    /// With `uids` (each found record's captured element, in order), also what each record
    /// that needed a place found, by uid; one in `known` is not looked up again.
    pub fn place_records(
        &mut self,
        all_twins: bool,
        uids: Option<&[u32]>,
        known: Option<&PlaceWords>,
    ) -> (Places, Option<PlaceWords>) {
        let uids = uids.filter(|u| u.len() == self.found.len());
        let mut twins: FxHashMap<(Role, &str, &str), u32> = FxHashMap::default();
        if all_twins {
            for f in &self.found {
                let r = &f.record;
                let label = r.label();
                if !label.is_empty() {
                    *twins.entry((r.role, label, &r.region)).or_default() += 1;
                }
            }
        }
        let needs: Vec<bool> = self
            .found
            .iter()
            .map(|f| {
                let r = &f.record;
                f.node.is_some()
                    && !r.opaque
                    && (r.label().is_empty()
                        || twins
                            .get(&(r.role, r.label(), r.region.as_str()))
                            .is_some_and(|n| *n > 1))
            })
            .collect();
        drop(twins);
        if !needs.iter().any(|n| *n) {
            return (Rc::from([]), uids.map(|_| Rc::default()));
        }
        let memo = js_sys::Map::new();
        let mut places: Vec<(usize, String)> = Vec::new();
        // Known already, and scrubbed then.
        let mut reused: Vec<(u32, String)> = Vec::new();
        // Looked up now.
        let mut looked_up: Vec<usize> = Vec::new();
        for (i, need) in needs.iter().enumerate() {
            if !need {
                continue;
            }
            let uid = uids.map(|u| u[i]);
            if let Some(found) = uid.and_then(|u| known?.get(&u)) {
                if let Some(place) = found {
                    reused.push((i as u32, place.clone()));
                }
                continue;
            }
            looked_up.push(i);
            self.place_reads += 1;
            let Some(node) = self.found[i].node.clone() else {
                continue;
            };
            let mut from = js::parent_element(&node);
            for _ in 0..MAX_CLIMB {
                let Some(start) = from else { break };
                let Some(container) = start.closest(CONTAINERS).ok().flatten() else {
                    break;
                };
                let known = memo.get(&container);
                let place = match known.as_string() {
                    Some(p) => p,
                    None => {
                        let p = self.place_of(&container);
                        memo.set(&container, &JsValue::from_str(&p));
                        p
                    }
                };
                if !place.is_empty() {
                    places.push((i, place));
                    break;
                }
                from = js::parent_element(&container);
            }
        }
        let mut places = places
            .into_iter()
            .map(|(i, place)| {
                let place = match self.redactor.scrub(&place) {
                    std::borrow::Cow::Owned(o) => o,
                    std::borrow::Cow::Borrowed(_) => place,
                };
                (i as u32, place)
            })
            .collect::<Vec<_>>();
        // What each element found, by uid: the known entries as they were (an element gone
        // keeps its entry: a uid is never given twice), with those looked up now.
        let words = uids.map(|u| match known {
            Some(k) if looked_up.is_empty() => k.clone(),
            _ => {
                // Entries of elements long gone are let go once they outnumber the records.
                let mut w: FxHashMap<u32, Option<String>> = known
                    .filter(|k| k.len() <= 2 * u.len())
                    .map(|k| (**k).clone())
                    .unwrap_or_default();
                for &i in &looked_up {
                    w.insert(u[i], None);
                }
                for (i, place) in places.iter() {
                    w.insert(u[*i as usize], Some(place.clone()));
                }
                Rc::new(w)
            }
        });
        places.append(&mut reused);
        let places: Places = places.into();
        self.keep_places(&places);
        (places, words)
    }

    /// Gives the found records the places of an earlier [`Walk::place_records`] over the
    /// same records (the caller vouches for that: see `Visual::places`).
    pub fn keep_places(&mut self, places: &Places) {
        for (i, place) in places.iter() {
            if let Some(f) = self.found.get_mut(*i as usize) {
                f.record.within = Some(place.clone());
            }
        }
    }

    /// `listitem[Walk dog]`, or `""` when the container shows no words of its own (or its
    /// role is not a row-like one: `<li role="none">`).
    fn place_of(&mut self, container: &web_sys::Element) -> String {
        let el = El::new(self.s, container);
        let role = match el.get(crate::dom::role::A::Role) {
            Some(r) => r
                .split_ascii_whitespace()
                .next()
                .and_then(Role::parse)
                .unwrap_or(Role::Unknown),
            None => match container.local_name().as_str() {
                "li" => Role::Listitem,
                "tr" => Role::Row,
                "article" => Role::Article,
                _ => Role::Unknown,
            },
        };
        if !matches!(
            role,
            Role::Listitem | Role::Row | Role::Treeitem | Role::Article
        ) {
            return String::new();
        }
        let author = self.namer.author_name(&el);
        let words = if author.is_empty() {
            self.namer.own_words(&el)
        } else {
            author
        };
        if words.is_empty() {
            return String::new();
        }
        format!("{}[{}]", role.as_str(), cap(&words, limits::MAX_TEXT_CHARS))
    }
}
