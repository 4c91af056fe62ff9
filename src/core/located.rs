//! A browser library's element (a Playwright `Locator` or `ElementHandle`, a Puppeteer
//! `ElementHandle`) as a prufe target, decided once for the Node and Python packages
//! (`located` of the machine module): the package only counts the library's matches, finds
//! the engine's record of the one element and the target that names it (`prufe.targetOf`),
//! and hands them here. Which record a library's node is (`prufe.identify`, `dom::identify`)
//! is chosen here too ([`choose`], [`unidentified`]), on a path both packages build alike
//! ([`PathStep`]).
//!
//! - no match: `TARGET_NOT_FOUND`; several: `TARGET_AMBIGUOUS` with the candidates the
//!   package could name; nothing is done either way;
//! - the one element found and shown: the engine's target for it (its role and label, its row,
//!   or its place among unnamed twins: [`target_of`](super::resolve::target_of));
//! - hidden: `TARGET_NOT_VISIBLE`, unless it is the step's destination (`place`: a drop zone
//!   that shows only once a drag starts), which is then named by its record: its label, else
//!   the row it is in (`TARGET_NOT_VISIBLE` when it has neither).

use super::error::{Candidate, Error, ErrorCode};
use super::identity::describe_element;
use super::model::Element;
use super::resolve::{Container, Target};
use serde::{Deserialize, Serialize};

/// One step of a node's path from the top document of the engine's world (`prufe.identify`):
/// a child node's index (`childNodes`, text and comments counted), `"s"` into the host's open
/// shadow root, `"f"` into the `<iframe>`'s document. It survives shadow roots and
/// same-origin frames, and both worlds of a page (the library's and the engine's) read the
/// same DOM, so a path built in one is walked in the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum PathStep {
    Child(u32),
    Enter(Enter),
}

/// What a path step enters besides a child.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Enter {
    #[serde(rename = "s")]
    Shadow,
    #[serde(rename = "f")]
    Frame,
}

/// `prufe.identify`'s answer: the engine's record of the library's element, whether the node
/// itself is that element (else it is inside it, or holds it), and the target that names it
/// (none for a hidden one; [`target`] says why).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Identified {
    pub element: Element,
    pub exact: bool,
    pub target: Option<Target>,
}

/// Which observed element a library's node is, and whether it is the node itself: the node
/// itself when observed; else the only observed element inside it (a wrapper around one
/// button: what a person pointing at the wrapper means); else the nearest observed element
/// holding it (a span inside a button, a wrapper around several). `None` when none of these.
pub fn choose(
    itself: Option<usize>,
    inside: &[usize],
    holding: Option<usize>,
) -> Option<(usize, bool)> {
    match (itself, inside, holding) {
        (Some(i), _, _) => Some((i, true)),
        (None, [one], _) => Some((*one, false)),
        (None, _, Some(h)) => Some((h, false)),
        _ => None,
    }
}

/// Why a library's node names no observed element: gone from where the library found it,
/// hidden, or nothing observed at it (`what`: how the node shows, `button#save`).
pub fn unidentified(gone: bool, hidden: bool, what: &str) -> Error {
    match (gone, hidden) {
        (true, _) => Error::new(
            ErrorCode::TargetNotFound,
            "the element is no longer where the library found it",
        ),
        (false, true) => Error::new(
            ErrorCode::TargetNotVisible,
            "the element is hidden: prufe observes nothing there to act on",
        ),
        (false, false) => Error::new(
            ErrorCode::TargetNotFound,
            format!("prufe observes nothing at the element ({what}); target it by role and name"),
        ),
    }
}

/// What a package found for a library's element.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Located {
    /// How the library shows it (`locator('#save')`), for the messages.
    pub shown: String,
    /// How many elements it matches now.
    pub count: u32,
    /// The step's destination (a drag's `to`), which may be hidden until the drag starts.
    #[serde(default)]
    pub place: bool,
    /// The engine's record of the one element (with the frame path of its document).
    #[serde(default)]
    pub element: Option<Element>,
    /// The target that names it; none for a hidden one.
    #[serde(default)]
    pub target: Option<Target>,
    /// Why the element has no record (gone, out of reach, nothing observed there).
    #[serde(default)]
    pub error: Option<Error>,
    /// With several matches, what the package could name of them.
    #[serde(default)]
    pub candidates: Vec<Candidate>,
}

/// `located` of the machine module: the target, or the error that says why there is none.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Decided {
    Target(Target),
    Error(Error),
}

/// The target of the library's element (see the module docs).
pub fn target(l: Located) -> Result<Target, Error> {
    let shown = &l.shown;
    if l.count == 0 {
        return Err(Error::new(
            ErrorCode::TargetNotFound,
            format!("{shown} matches no element; nothing was done"),
        ));
    }
    if l.count > 1 {
        return Err(Error::new(
            ErrorCode::TargetAmbiguous,
            format!(
                "{shown} matches {} elements; narrow it down so that it matches one; nothing was done",
                l.count
            ),
        )
        .with_candidates(l.candidates));
    }
    if let Some(e) = l.error {
        return Err(Error::new(e.code, format!("{shown}: {}", e.message)));
    }
    let Some(e) = l.element else {
        return Err(Error::new(
            ErrorCode::TargetNotFound,
            format!("{shown} is no longer in the page (or in a frame it holds); nothing was done"),
        ));
    };
    if let (true, Some(t)) = (e.visible, l.target) {
        return Ok(t);
    }
    let label = e.label();
    let within = match label.is_empty() {
        true => e.within.as_deref().and_then(Container::parse),
        false => None,
    };
    let where_ = match e.region.is_empty() {
        true => String::new(),
        false => format!(" in {}", e.region),
    };
    if !l.place {
        return Err(Error::new(
            ErrorCode::TargetNotVisible,
            format!(
                "{shown} is hidden ({}); nothing was done",
                describe_element(&e)
            ),
        ));
    }
    if label.is_empty() && within.is_none() {
        return Err(Error::new(
            ErrorCode::TargetNotVisible,
            format!(
                "{shown} is hidden ({}{where_}) and has no name or named row to know it by; nothing was done",
                e.role.as_str()
            ),
        ));
    }
    Ok(Target {
        role: e.role.as_str().to_owned(),
        name: label.to_owned(),
        region: Some(e.region.clone()),
        frame: (!e.frame.is_empty()).then(|| e.frame.clone()),
        within,
        ..Default::default()
    })
}

/// [`target`] as the machine module answers it.
pub fn decide(l: Located) -> Decided {
    match target(l) {
        Ok(t) => Decided::Target(t),
        Err(e) => Decided::Error(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::Role;

    fn record(role: Role, name: &str, visible: bool) -> Element {
        Element {
            reference: "e4".into(),
            role,
            name: name.into(),
            region: "board".into(),
            visible,
            ..Default::default()
        }
    }

    fn located(count: u32, element: Option<Element>, target: Option<Target>) -> Located {
        Located {
            shown: "locator('#done')".into(),
            count,
            element,
            target,
            ..Default::default()
        }
    }

    fn named(name: &str) -> Target {
        Target {
            role: "region".into(),
            name: name.into(),
            region: Some("board".into()),
            ..Default::default()
        }
    }

    #[test]
    fn none_or_several_matches_do_nothing() {
        let e = target(located(0, None, None)).unwrap_err();
        assert_eq!(e.code, ErrorCode::TargetNotFound);
        assert_eq!(
            e.message,
            "locator('#done') matches no element; nothing was done"
        );
        let mut many = located(3, None, None);
        many.candidates = (0..12)
            .map(|i| Candidate {
                reference: format!("e{i}"),
                role: "button".into(),
                name: "Done".into(),
                region: String::new(),
            })
            .collect();
        let e = target(many).unwrap_err();
        assert_eq!(e.code, ErrorCode::TargetAmbiguous);
        assert!(e.message.contains("matches 3 elements"), "{}", e.message);
        assert_eq!(e.candidates.len(), 10);
    }

    #[test]
    fn the_one_element_shown_is_the_engines_target() {
        let t = named("Done");
        let got = target(located(
            1,
            Some(record(Role::Region, "Done", true)),
            Some(t.clone()),
        ));
        assert_eq!(got.unwrap(), t);
        let mut gone = located(1, None, None);
        gone.error = Some(Error::new(ErrorCode::TargetNotFound, "it is gone"));
        let e = target(gone).unwrap_err();
        assert_eq!(e.message, "locator('#done'): it is gone");
        let e = target(located(1, None, None)).unwrap_err();
        assert_eq!(e.code, ErrorCode::TargetNotFound);
    }

    #[test]
    fn hidden_is_refused_unless_it_is_the_destination() {
        let hidden = || Some(record(Role::Region, "Done", false));
        let e = target(located(1, hidden(), None)).unwrap_err();
        assert_eq!(e.code, ErrorCode::TargetNotVisible);
        assert_eq!(
            e.message,
            "locator('#done') is hidden (region[Done] in board); nothing was done"
        );
        let mut to = located(1, hidden(), None);
        to.place = true;
        assert_eq!(target(to).unwrap(), named("Done"));
        // Unnamed, in a named row: known by the row.
        let mut row = record(Role::Region, "", false);
        row.within = Some("listitem[Walk dog]".into());
        let mut to = located(1, Some(row), None);
        to.place = true;
        let t = target(to).unwrap();
        assert_eq!(
            t.within,
            Some(Container {
                role: "listitem".into(),
                name: "Walk dog".into()
            })
        );
        // Neither: nothing to know it by.
        let mut to = located(1, Some(record(Role::Region, "", false)), None);
        to.place = true;
        let e = target(to).unwrap_err();
        assert_eq!(e.code, ErrorCode::TargetNotVisible);
        assert!(e.message.contains("no name or named row"), "{}", e.message);
    }

    #[test]
    fn the_node_itself_wins_then_the_one_inside_then_the_one_holding_it() {
        assert_eq!(choose(Some(2), &[1], Some(3)), Some((2, true)));
        assert_eq!(choose(None, &[1], Some(3)), Some((1, false)));
        assert_eq!(choose(None, &[], Some(3)), Some((3, false)));
    }

    #[test]
    fn several_inside_are_no_choice_the_one_holding_them_is() {
        assert_eq!(choose(None, &[4, 5], Some(3)), Some((3, false)));
        assert_eq!(choose(None, &[4, 5], None), None);
        assert_eq!(choose(None, &[], None), None);
    }

    #[test]
    fn an_unidentified_node_says_gone_hidden_or_unobserved() {
        assert_eq!(
            unidentified(true, true, "li").code,
            ErrorCode::TargetNotFound
        );
        assert_eq!(
            unidentified(false, true, "li").code,
            ErrorCode::TargetNotVisible
        );
        let e = unidentified(false, false, "li#row");
        assert_eq!(e.code, ErrorCode::TargetNotFound);
        assert!(e.message.contains("li#row"), "{}", e.message);
    }

    #[test]
    fn a_path_reads_child_indices_and_the_two_entries() {
        let path: Vec<PathStep> = serde_json::from_str(r#"[1, "s", 0, "f", 2]"#).unwrap();
        assert_eq!(
            path,
            [
                PathStep::Child(1),
                PathStep::Enter(Enter::Shadow),
                PathStep::Child(0),
                PathStep::Enter(Enter::Frame),
                PathStep::Child(2)
            ]
        );
        assert!(serde_json::from_str::<Vec<PathStep>>(r#"["x"]"#).is_err());
        assert!(serde_json::from_str::<Vec<PathStep>>("[-1]").is_err());
    }
}
