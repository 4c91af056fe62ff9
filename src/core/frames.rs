//! One observation of a whole page, across documents the engine cannot walk itself.
//!
//! The engine in a document walks that document and its same-origin frames; a frame of
//! another origin is an opaque `iframe` element to it, since its DOM is out of reach from the
//! parent. A driver therefore runs an engine in every *root* (the top document, and every
//! frame whose origin differs from its parent's), and these rules merge what the roots say
//! into one page, the same for every driver:
//!
//! - a root's path is its frame position path per docs/DESIGN.md ("Region"): the index of its
//!   `<iframe>` among the frames of the parent document (`prufe.frameIndex`), dotted for
//!   nesting; never the frame's `name`, which the page controls;
//! - an element of the root at path `P` gets `frame` `P` (or `P.<its own path>` when the
//!   root's engine walked a same-origin child of it), and region `frame[P]/<region>`
//!   (`frame[P]` at the document level): the prefix the engine gives same-origin frames;
//! - its ref becomes `f<P>:<ref>`, so refs stay unique across roots and route back ([`route`]);
//! - the page's fingerprint is the roots' fingerprints joined, so it changes exactly when one
//!   of them does; a root that cannot answer is `?` there, and left opaque in the snapshot.
//!
//! Points are the driver's: an engine answers in its own document's viewport, and the driver
//! adds the `<iframe>` content box's origin of each frame on the way up.

use super::error::{Error, ErrorCode, Result};
use super::model::{Element, Snapshot};
use super::resolve::Target;
use serde::{Deserialize, Serialize};

/// Splits a merged ref into (root path, the root engine's own ref).
pub fn route(merged: &str) -> (&str, &str) {
    if let Some(rest) = merged.strip_prefix('f') {
        if let Some((path, local)) = rest.split_once(':') {
            if !path.is_empty() && path.chars().all(|c| c.is_ascii_digit() || c == '.') {
                return (path, local);
            }
        }
    }
    ("", merged)
}

/// The merged ref of `local` from the root at `path`.
pub fn merged_ref(path: &str, local: &str) -> String {
    if path.is_empty() {
        local.to_owned()
    } else {
        format!("f{path}:{local}")
    }
}

/// The region of an element of the root at `path` whose engine reported `region` in its
/// own frame `frame`.
pub fn merged_region(path: &str, frame: &str, region: &str) -> String {
    if path.is_empty() {
        return region.to_owned();
    }
    if !frame.is_empty() {
        // The root's engine already prefixed `frame[<frame>]`; make the path absolute.
        let own = format!("frame[{frame}]");
        if let Some(rest) = region.strip_prefix(&own) {
            return format!("frame[{path}.{frame}]{rest}");
        }
    }
    if region.is_empty() {
        format!("frame[{path}]")
    } else {
        format!("frame[{path}]/{region}")
    }
}

/// The frame path of an element of the root at `path` whose engine reported `frame`.
pub fn merged_frame(path: &str, frame: &str) -> String {
    match (path.is_empty(), frame.is_empty()) {
        (true, _) => frame.to_owned(),
        (false, true) => path.to_owned(),
        (false, false) => format!("{path}.{frame}"),
    }
}

/// Rewrites an element record of the root at `path` into the page's merged terms.
pub fn adopt(path: &str, mut e: Element) -> Element {
    if path.is_empty() {
        return e;
    }
    e.region = merged_region(path, &e.frame, &e.region);
    e.frame = merged_frame(path, &e.frame);
    e.reference = merged_ref(path, &e.reference);
    e
}

/// Rewrites a target taken in the root at `path` (`resolve::target_of` there) into the
/// page's merged terms: its region and frame as [`adopt`] gives them to its element.
pub fn adopt_target(path: &str, mut t: Target) -> Target {
    if path.is_empty() {
        return t;
    }
    let frame = t.frame.take().unwrap_or_default();
    t.region = Some(merged_region(
        path,
        &frame,
        t.region.as_deref().unwrap_or_default(),
    ));
    t.frame = Some(merged_frame(path, &frame));
    t
}

/// What a driver knows of a frame: its security origin and its address.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Origin {
    /// The security origin (`null`, empty or `://` when opaque).
    #[serde(default)]
    pub origin: String,
    #[serde(default)]
    pub url: String,
}

/// Does a frame share its parent's origin, so the parent's engine walks it? A frame that
/// does not is a root of its own.
///
/// Chromium: every `file://` document has an opaque origin of its own (a parent cannot read
/// its frame's document), though DevTools reports `file://` for all of them; a `file://`
/// frame is therefore a root of its own, observed through an engine in its own world.
pub fn same_origin(child: &Origin, parent: &Origin) -> bool {
    let file = |o: &str| o.starts_with("file:");
    let opaque = |o: &str| o.is_empty() || o == "null" || o == "://" || file(o);
    if child.url.starts_with("about:") && (!opaque(&parent.origin) || file(&parent.origin)) {
        // about:blank and srcdoc documents inherit their creator's origin.
        return child.origin == parent.origin || opaque(&child.origin);
    }
    !opaque(&child.origin) && child.origin == parent.origin
}

/// The root nearest above the root at `path` among `paths` (the top, `""`, when no other
/// encloses it); `None` for the top itself. A point in that root is the parent's point
/// minus the `<iframe>`'s content box origin.
pub fn parent<'p>(paths: &[&'p str], path: &str) -> Option<&'p str> {
    if path.is_empty() {
        return None;
    }
    paths
        .iter()
        .copied()
        .filter(|p| {
            p.is_empty()
                || (p.len() < path.len()
                    && path.starts_with(*p)
                    && path[p.len()..].starts_with('.'))
        })
        .max_by_key(|p| p.len())
}

/// The roots from just below the top down to the root at `path`, each the [`parent`] of the
/// next among `paths`: the frames a point of that root passes on its way to the top
/// viewport. Empty for the top, or for a path that is not among `paths`.
pub fn chain(paths: &[String], path: &str) -> Vec<String> {
    let all: Vec<&str> = paths.iter().map(String::as_str).collect();
    if path.is_empty() || !all.contains(&path) {
        return Vec::new();
    }
    let mut out = vec![path.to_owned()];
    let mut here = path;
    while let Some(up) = parent(&all, here).filter(|p| !p.is_empty()) {
        out.insert(0, up.to_owned());
        here = up;
    }
    out
}

/// One root's share of an observation: its snapshot, or `None` when it could not answer
/// (a frame navigating away mid-walk stays an opaque `iframe` of its parent).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    pub path: String,
    pub snapshot: Option<Snapshot>,
}

/// The page's snapshot from its roots' (the top first): every element and text in merged
/// terms, `has_more` when any root stopped early. The top must have answered.
pub fn merge(parts: Vec<Part>) -> Result<Snapshot> {
    let mut parts = parts.into_iter();
    let top = parts.next().ok_or_else(|| {
        Error::new(
            ErrorCode::InvalidArgument,
            "no root to merge: the top document comes first",
        )
    })?;
    if !top.path.is_empty() {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            format!(
                "the first root must be the top document (path \"\"), not {:?}",
                top.path
            ),
        ));
    }
    let mut merged = top.snapshot.ok_or_else(|| {
        Error::new(
            ErrorCode::NotReady,
            "the top document could not be observed",
        )
    })?;
    for part in parts {
        if part.path.is_empty() || route(&merged_ref(&part.path, "x")).0 != part.path {
            return Err(Error::new(
                ErrorCode::InvalidArgument,
                format!("{:?} is not a frame position path", part.path),
            ));
        }
        let Some(snap) = part.snapshot else { continue };
        let path = part.path.as_str();
        merged.has_more |= snap.has_more;
        merged
            .elements
            .extend(snap.elements.into_iter().map(|e| adopt(path, e)));
        merged.texts.extend(snap.texts.into_iter().map(|mut t| {
            t.region = merged_region(path, &t.frame, &t.region);
            t.frame = merged_frame(path, &t.frame);
            t
        }));
    }
    Ok(merged)
}

/// The page's fingerprint from its roots' (the top first); `None` is a root that could not
/// answer, written `?` so that its coming back is a change.
pub fn join(parts: &[(String, Option<String>)]) -> String {
    let mut out = String::new();
    for (path, fp) in parts {
        out.push_str(path);
        out.push('=');
        out.push_str(fp.as_deref().unwrap_or("?"));
        out.push(';');
    }
    out
}

/// Region filters, as a step's policy gives them (in the page's merged terms).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Filters {
    #[serde(default)]
    pub regions: Vec<String>,
    #[serde(default)]
    pub ignore_regions: Vec<String>,
}

/// The filters as the engine of the root at `path` sees them (its regions lack the
/// `frame[path]/` prefix), or `None` when they leave nothing of that root.
pub fn local_filters(f: &Filters, path: &str) -> Option<Filters> {
    if path.is_empty() {
        return Some(f.clone());
    }
    let prefix = format!("frame[{path}]");
    let local = |r: &String| -> Option<String> {
        if *r == prefix {
            Some(String::new())
        } else {
            r.strip_prefix(&prefix)
                .and_then(|rest| rest.strip_prefix('/'))
                .map(str::to_owned)
        }
    };
    let regions: Vec<String> = f.regions.iter().filter_map(local).collect();
    if !f.regions.is_empty() && regions.is_empty() {
        return None;
    }
    let ignore_regions: Vec<String> = f.ignore_regions.iter().filter_map(local).collect();
    if ignore_regions.iter().any(String::is_empty) {
        return None;
    }
    let regions = if regions.iter().any(String::is_empty) {
        Vec::new()
    } else {
        regions
    };
    Some(Filters {
        regions,
        ignore_regions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{Role, Text, TextKind};

    #[test]
    fn refs_route_back_to_their_root() {
        assert_eq!(route("e3-k2"), ("", "e3-k2"));
        assert_eq!(route("f0:e3"), ("0", "e3"));
        assert_eq!(route("f0.1:e3:x"), ("0.1", "e3:x"));
        assert_eq!(route("fx:e3"), ("", "fx:e3"));
        assert_eq!(route("f:e3"), ("", "f:e3"));
        assert_eq!(merged_ref("", "e1"), "e1");
        assert_eq!(merged_ref("1.0", "e1"), "f1.0:e1");
        assert_eq!(route(&merged_ref("2.3", "e9")), ("2.3", "e9"));
    }

    #[test]
    fn regions_and_frames_get_the_root_prefix() {
        for (path, frame, region, want_region, want_frame) in [
            ("", "", "main", "main", ""),
            ("", "0", "frame[0]/main", "frame[0]/main", "0"),
            ("0", "", "form[Payment]", "frame[0]/form[Payment]", "0"),
            ("0", "", "", "frame[0]", "0"),
            ("1", "0", "frame[0]/main", "frame[1.0]/main", "1.0"),
            ("1", "0", "frame[0]", "frame[1.0]", "1.0"),
        ] {
            assert_eq!(
                merged_region(path, frame, region),
                want_region,
                "{path} {frame} {region}"
            );
            assert_eq!(merged_frame(path, frame), want_frame);
        }
        let e = card("e4");
        let a = adopt("0", e.clone());
        assert_eq!(
            (a.reference.as_str(), a.region.as_str(), a.frame.as_str()),
            ("f0:e4", "frame[0]/form[Payment]", "0")
        );
        assert_eq!(adopt("", e.clone()), e);
    }

    fn card(reference: &str) -> Element {
        Element {
            reference: reference.into(),
            role: Role::Textbox,
            name: "Card number".into(),
            region: "form[Payment]".into(),
            ..Default::default()
        }
    }

    fn snap(elements: Vec<Element>, has_more: bool) -> Snapshot {
        Snapshot {
            has_more,
            elements,
            texts: vec![Text {
                kind: TextKind::Plain,
                text: "Total".into(),
                region: "main".into(),
                frame: String::new(),
            }],
            ..Default::default()
        }
    }

    #[test]
    fn merge_adopts_every_root_after_the_top() {
        let top = snap(vec![card("e1")], false);
        let got = merge(vec![
            Part {
                path: String::new(),
                snapshot: Some(top.clone()),
            },
            Part {
                path: "0".into(),
                snapshot: Some(snap(vec![card("e1")], true)),
            },
            Part {
                path: "1".into(),
                snapshot: None,
            },
        ])
        .unwrap();
        let refs: Vec<&str> = got.elements.iter().map(|e| e.reference.as_str()).collect();
        assert_eq!(refs, ["e1", "f0:e1"]);
        assert!(got.has_more, "the frame stopped early");
        assert_eq!(got.texts[1].region, "frame[0]/main");
        assert_eq!(got.texts[1].frame, "0");
        let alone = merge(vec![Part {
            path: String::new(),
            snapshot: Some(top.clone()),
        }])
        .unwrap();
        assert_eq!(alone, top);
    }

    #[test]
    fn merge_refuses_a_missing_top_and_bad_paths() {
        let code = |parts: Vec<Part>| merge(parts).unwrap_err().code;
        assert_eq!(code(vec![]), ErrorCode::InvalidArgument);
        let frame = |path: &str| Part {
            path: path.into(),
            snapshot: Some(snap(vec![], false)),
        };
        assert_eq!(code(vec![frame("0")]), ErrorCode::InvalidArgument);
        assert_eq!(
            code(vec![Part {
                path: String::new(),
                snapshot: None
            }]),
            ErrorCode::NotReady
        );
        assert_eq!(
            code(vec![frame(""), frame("x")]),
            ErrorCode::InvalidArgument
        );
        assert_eq!(code(vec![frame(""), frame("")]), ErrorCode::InvalidArgument);
        assert!(merge(vec![frame(""), frame("0.2")]).is_ok());
    }

    #[test]
    fn fingerprints_join_and_a_silent_root_is_a_change() {
        let a = join(&[
            (String::new(), Some("A".into())),
            ("0".into(), Some("B".into())),
        ]);
        assert_eq!(a, "=A;0=B;");
        let b = join(&[(String::new(), Some("A".into())), ("0".into(), None)]);
        assert_ne!(a, b);
    }

    #[test]
    fn a_target_taken_in_a_frame_names_it_in_the_page() {
        let mut t = Target::new("list", "");
        t.region = Some("region[Pago]".into());
        t.nth = Some(2);
        let adopted = adopt_target("0", t.clone());
        assert_eq!(adopted.region.as_deref(), Some("frame[0]/region[Pago]"));
        assert_eq!(adopted.frame.as_deref(), Some("0"));
        assert_eq!(adopted.nth, Some(2));
        t.frame = Some("1".into());
        t.region = Some("frame[1]".into());
        let nested = adopt_target("0", t.clone());
        assert_eq!(
            (nested.region.as_deref(), nested.frame.as_deref()),
            (Some("frame[0.1]"), Some("0.1"))
        );
        assert_eq!(adopt_target("", t.clone()), t);
    }

    #[test]
    fn origin_rule() {
        let f = |origin: &str, url: &str| Origin {
            origin: origin.into(),
            url: url.into(),
        };
        let top = f("http://127.0.0.1:1", "http://127.0.0.1:1/");
        assert!(same_origin(
            &f("http://127.0.0.1:1", "http://127.0.0.1:1/a"),
            &top
        ));
        assert!(!same_origin(
            &f("http://127.0.0.1:2", "http://127.0.0.1:2/a"),
            &top
        ));
        assert!(!same_origin(
            &f("null", "http://127.0.0.1:1/sandboxed"),
            &top
        ));
        assert!(same_origin(&f("://", "about:blank"), &top));
        assert!(same_origin(&f("http://127.0.0.1:1", "about:srcdoc"), &top));
        // Chromium reports `file://` for every document opened from disk, each of which
        // has an opaque origin of its own.
        let disk = f("file://", "file:///tmp/pago.html");
        assert!(!same_origin(
            &f("file://", "file:///tmp/pago-interior.html"),
            &disk
        ));
        assert!(
            same_origin(&f("://", "about:blank"), &disk),
            "about:blank is its creator's"
        );
    }

    #[test]
    fn parents_are_the_longest_enclosing_root() {
        let paths = ["", "0", "0.1", "1"];
        assert_eq!(parent(&paths, ""), None);
        assert_eq!(parent(&paths, "0"), Some(""));
        assert_eq!(parent(&paths, "0.1"), Some("0"));
        assert_eq!(parent(&paths, "0.1.2"), Some("0.1"));
        assert_eq!(parent(&paths, "10"), Some(""), "1 is not a parent of 10");
    }

    #[test]
    fn a_chain_runs_from_the_top_down_through_roots_only() {
        let paths: Vec<String> = ["", "0", "0.1.2", "1"].map(String::from).to_vec();
        assert_eq!(
            chain(&paths, "0.1.2"),
            ["0", "0.1.2"],
            "0.1 is of 0's origin"
        );
        assert_eq!(chain(&paths, "1"), ["1"]);
        assert!(chain(&paths, "").is_empty());
        assert!(chain(&paths, "2").is_empty(), "not a root");
    }

    #[test]
    fn filters_translate_per_root() {
        let f = Filters {
            regions: vec!["main".into(), "frame[0]/form[Card]".into()],
            ignore_regions: vec!["frame[1]".into()],
        };
        assert_eq!(local_filters(&f, ""), Some(f.clone()));
        assert_eq!(
            local_filters(&f, "0"),
            Some(Filters {
                regions: vec!["form[Card]".into()],
                ignore_regions: vec![],
            })
        );
        assert!(local_filters(&f, "1").is_none(), "frame 1 is ignored whole");
        assert!(
            local_filters(&f, "2").is_none(),
            "frame 2 is outside the kept regions"
        );
        assert_eq!(
            local_filters(&Filters::default(), "3"),
            Some(Filters::default())
        );
    }
}
