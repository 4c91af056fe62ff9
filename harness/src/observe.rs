//! One observation of a whole page, across frames.
//!
//! The engine in a document walks that document and its same-origin frames itself; a frame
//! of another origin is reported as an opaque `iframe` element, since its DOM is out of reach
//! from the parent. The harness therefore calls the engine once per *root*: the top document
//! and every frame whose origin differs from its parent's (those the parent's engine cannot
//! walk), and merges the results:
//!
//! - a root's `frame` path is its position path per docs/DESIGN.md ("Region"): the index of
//!   its `<iframe>` among the iframes of the parent document, dotted for nesting, found from
//!   `DOM.getFrameOwner` in the parent's world (never the frame's `name`, which the page
//!   controls);
//! - an element of a root at path `P` gets `frame` `P` (or `P.<its own path>` when the root's
//!   engine walked a same-origin child), and region `frame[P]/<region>` (`frame[P]` at the
//!   document level), exactly the prefix the engine gives same-origin frames;
//! - its ref becomes `f<P>:<ref>`, so refs stay unique across roots and route back to the
//!   root's world ([`route`]).
//!
//! How the roots' snapshots merge and their fingerprints join (so that the page's changes
//! exactly when one of them does) is the machine's composition (`crate::whole`); this module
//! finds the roots and reads each one alone.

use crate::error::{Error, Result};
use crate::inject::{Engine, Filters, FrameInfo};
use prufe::core::background::Background;
use prufe::core::frames::{self, Origin};
use prufe::core::model::{Element, Snapshot};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};

/// A document the engine is called in: the top one (`path` `""`) or a cross-origin frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// DevTools frame id.
    pub frame: String,
    /// Frame position path; `""` for the top document.
    pub path: String,
}

/// A merged snapshot and the roots it was taken from.
#[derive(Debug, Clone)]
pub struct Observation {
    pub snapshot: Snapshot,
    pub roots: Vec<Root>,
}

/// Caller-declared sensitive elements, by merged ref; passed to the engine on every snapshot.
#[derive(Debug, Clone, Default)]
pub struct Sensitive {
    refs: BTreeMap<String, Vec<String>>,
}

impl Sensitive {
    pub fn add(&mut self, merged_ref: &str) {
        let (path, local) = route(merged_ref);
        let list = self.refs.entry(path.to_owned()).or_default();
        if !list.iter().any(|r| r == local) {
            list.push(local.to_owned());
        }
    }

    /// Every ref, in merged terms.
    pub fn merged(&self) -> Vec<String> {
        self.refs
            .iter()
            .flat_map(|(path, refs)| refs.iter().map(|r| merged_ref(path, r)))
            .collect()
    }

    pub fn for_root(&self, path: &str) -> &[String] {
        self.refs.get(path).map(Vec::as_slice).unwrap_or(&[])
    }
}

pub use prufe::core::frames::{adopt, merged_frame, merged_ref, merged_region, route};

/// Do two frames share an origin, so the parent's engine walks the child? (`core::frames`)
fn same_origin(child: &FrameInfo, parent: &FrameInfo) -> bool {
    let origin = |f: &FrameInfo| Origin {
        origin: f.origin.clone(),
        url: f.url.clone(),
    };
    frames::same_origin(&origin(child), &origin(parent))
}

/// The `<iframe>`'s position among the frames of its document (`prufe.frameIndex`).
const FRAME_INDEX: &str = "function () { return globalThis.prufe.frameIndex(this); }";

impl Engine {
    /// The documents to call the engine in, top first.
    pub async fn roots(&self) -> Result<Vec<Root>> {
        let frames = self.frames().await?;
        let Some(top) = frames.first() else {
            return Err(Error::core(
                prufe::core::ErrorCode::BrowserError,
                "the page has no frames",
            ));
        };
        let by_id: HashMap<&str, &FrameInfo> = frames.iter().map(|f| (f.id.as_str(), f)).collect();
        let mut roots = vec![Root {
            frame: top.id.clone(),
            path: String::new(),
        }];
        let mut paths: HashMap<String, String> = HashMap::from([(top.id.clone(), String::new())]);
        for f in frames.iter().skip(1) {
            let Some(parent) = f.parent.as_deref().and_then(|p| by_id.get(p)) else {
                continue;
            };
            if same_origin(f, parent) {
                continue;
            }
            // A cross-origin frame: its own root. Its path needs every ancestor's index.
            match self.frame_path(f, &by_id, &mut paths).await {
                Ok(path) => roots.push(Root {
                    frame: f.id.clone(),
                    path,
                }),
                // A frame that vanished meanwhile, or one not attached yet: left opaque.
                Err(_) => continue,
            }
        }
        Ok(roots)
    }

    async fn frame_path(
        &self,
        frame: &FrameInfo,
        by_id: &HashMap<&str, &FrameInfo>,
        memo: &mut HashMap<String, String>,
    ) -> Result<String> {
        // Walk up to the nearest frame with a known path, then come back down.
        let mut chain = vec![frame];
        let mut cur = frame;
        while !memo.contains_key(&cur.id) {
            let parent = cur
                .parent
                .as_deref()
                .and_then(|p| by_id.get(p))
                .ok_or_else(|| {
                    Error::core(
                        prufe::core::ErrorCode::BrowserError,
                        "frame without a parent",
                    )
                })?;
            if memo.contains_key(&parent.id) {
                break;
            }
            chain.push(parent);
            cur = parent;
        }
        for f in chain.into_iter().rev() {
            let parent = f.parent.as_deref().unwrap_or_default();
            let parent_path = memo.get(parent).cloned().unwrap_or_default();
            let owner = self
                .cmd_to(
                    &self.owner_session(&f.id),
                    "DOM.getFrameOwner",
                    json!({ "frameId": f.id }),
                )
                .await?;
            let backend = owner["backendNodeId"].as_i64().ok_or_else(|| {
                Error::core(
                    prufe::core::ErrorCode::BrowserError,
                    "frame has no owner element",
                )
            })?;
            let handle = self.resolve_node(parent, backend).await?;
            let index = self
                .call_on(&handle, FRAME_INDEX, &[])
                .await?
                .as_i64()
                .unwrap_or(-1);
            if index < 0 {
                return Err(Error::core(
                    prufe::core::ErrorCode::BrowserError,
                    "frame owner not found in its document",
                ));
            }
            let path = if parent_path.is_empty() {
                index.to_string()
            } else {
                format!("{parent_path}.{index}")
            };
            memo.insert(f.id.clone(), path);
        }
        Ok(memo.get(&frame.id).cloned().unwrap_or_default())
    }

    /// How long nothing that can change an observation happened in any root
    /// (`prufe.stillFor`), in ms: the least of them; 0 when any root cannot tell.
    pub async fn still_for(&self, roots: &[Root]) -> f64 {
        self.least(roots, "(P) => P.stillFor()").await
    }

    async fn least(&self, roots: &[Root], function: &str) -> f64 {
        let mut least = f64::INFINITY;
        for root in roots {
            let q = self
                .call_value(&root.frame, function, &Value::Null)
                .await
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0);
            least = least.min(q);
        }
        if least.is_finite() {
            least
        } else {
            0.0
        }
    }

    /// The snapshot of one root alone, in its own terms, with its refs in `sensitive` (its
    /// own) declared sensitive.
    pub async fn root_snapshot(&self, root: &Root, sensitive: &[String]) -> Result<Snapshot> {
        // The compact wire form: an eighth of the bytes through the protocol.
        let mut options = json!({ "sensitive": sensitive, "wire": true });
        if let Some(budget) = self.filters().budget_ms {
            options["budgetMs"] = json!(budget);
        }
        self.call::<String>(&root.frame, "(P, a) => P.snapshot(a)", &options)
            .await
            .and_then(|w| prufe::core::wire::decode(&w).map_err(Error::Core))
    }

    /// One root's fingerprint leaving out `background` as seen from it, then its
    /// `quietFor`.
    pub async fn pulse(&self, root: &Root, background: &Background) -> Result<(String, f64)> {
        let mut options = root_filters(self.filters(), &root.path).unwrap_or_else(|| json!({}));
        if !background.is_empty() {
            options["background"] = json!(background);
            options["root"] = json!(root.path);
        }
        let pulse = self
            .call_value(
                &root.frame,
                "(P, o) => [P.fingerprint(o), P.quietFor()]",
                &options,
            )
            .await?;
        Ok((
            pulse[0].as_str().unwrap_or_default().to_owned(),
            pulse[1].as_f64().unwrap_or(0.0),
        ))
    }

    /// The live record of a merged ref (`prufe.describe`), in merged terms; `None` when the
    /// node is gone.
    pub async fn describe(&self, roots: &[Root], merged: &str) -> Result<Option<Element>> {
        let (path, local) = route(merged);
        let root = root_of(roots, path)?;
        let e: Option<Element> = self
            .call(&root.frame, "(P, r) => P.describe(r)", &json!(local))
            .await?;
        Ok(e.map(|e| adopt(path, e)))
    }

    /// `prufe.hash(value)` in the world of the root that owns `merged` (keys are per document).
    pub async fn hash(&self, roots: &[Root], merged: &str, value: &str) -> Result<String> {
        let (path, _) = route(merged);
        let root = root_of(roots, path)?;
        let v: Value = self
            .call_value(&root.frame, "(P, v) => P.hash(v)", &json!(value))
            .await?;
        v.as_str().map(str::to_owned).ok_or_else(|| {
            Error::core(
                prufe::core::ErrorCode::Internal,
                "prufe.hash returned no string",
            )
        })
    }
}

/// The region filters as the engine of the root at `path` sees them (its regions lack the
/// `frame[path]/` prefix, `core::frames::local_filters`), or `None` when the filters leave
/// nothing of that root.
pub fn root_filters(f: &Filters, path: &str) -> Option<Value> {
    let local = frames::local_filters(
        &frames::Filters {
            regions: f.regions.clone(),
            ignore_regions: f.ignore_regions.clone(),
        },
        path,
    )?;
    let mut options = json!({ "regions": local.regions, "ignoreRegions": local.ignore_regions });
    if let Some(budget) = f.budget_ms {
        options["budgetMs"] = json!(budget);
    }
    Some(options)
}

/// The root a merged ref belongs to.
pub fn root_of<'r>(roots: &'r [Root], path: &str) -> Result<&'r Root> {
    roots.iter().find(|r| r.path == path).ok_or_else(|| {
        Error::core(
            prufe::core::ErrorCode::StaleReference,
            format!("frame {path:?} is no longer on the page"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_translate_per_root() {
        let f = Filters {
            regions: vec!["main".into(), "frame[0]/form[Card]".into()],
            ignore_regions: vec!["frame[1]".into()],
            budget_ms: None,
        };
        assert_eq!(
            root_filters(&f, "").unwrap()["regions"],
            json!(["main", "frame[0]/form[Card]"])
        );
        assert_eq!(
            root_filters(&f, "0").unwrap(),
            json!({ "regions": ["form[Card]"], "ignoreRegions": [] })
        );
        assert!(root_filters(&f, "1").is_none(), "frame 1 is ignored whole");
        assert!(
            root_filters(&f, "2").is_none(),
            "frame 2 is outside the kept regions"
        );
        let none = Filters::default();
        assert_eq!(
            root_filters(&none, "3").unwrap(),
            json!({ "regions": [], "ignoreRegions": [] })
        );
    }

    #[test]
    fn sensitive_refs_are_kept_per_root() {
        let mut s = Sensitive::default();
        s.add("e1");
        s.add("f0:e2");
        s.add("f0:e2");
        assert_eq!(s.for_root(""), ["e1".to_owned()]);
        assert_eq!(s.for_root("0"), ["e2".to_owned()]);
        assert!(s.for_root("1").is_empty());
    }
}
