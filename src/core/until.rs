//! What a `wait` waits for: a postcondition read on a snapshot (an element appears, a field
//! shows a value, a text appears or is gone). The machine's wait (`run::Run::wait`) polls
//! for it; the coordinate contract and the MCP server ask for it.

use super::model::{Element, Role, Snapshot, REDACTED};
use super::text::normalize_key;
use serde::{Deserialize, Serialize};

/// What a `wait` waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Postcondition {
    /// A visible element with this role and label appears (in `region`, when given).
    Appears {
        role: Role,
        name: String,
        region: Option<String>,
    },
    /// A visible element with this role and label shows `value`. A `sensitive` value is
    /// compared by the page's keyed hash and never printed.
    ValueEquals {
        role: Role,
        name: String,
        region: Option<String>,
        value: String,
        sensitive: bool,
    },
    /// A text (a status line, a paragraph, an element's label) containing `text` appears (in
    /// `region`, when given).
    TextAppears {
        text: String,
        region: Option<String>,
    },
    /// No text and no visible element's label containing `text` is left (in `region`, when
    /// given).
    TextGone {
        text: String,
        region: Option<String>,
    },
}

impl Postcondition {
    /// The visible elements the condition is about (none for a text condition).
    pub fn candidates<'s>(&self, snapshot: &'s Snapshot) -> Vec<&'s Element> {
        let (role, name, region) = match self {
            Postcondition::Appears { role, name, region }
            | Postcondition::ValueEquals {
                role, name, region, ..
            } => (*role, name, region),
            Postcondition::TextAppears { .. } | Postcondition::TextGone { .. } => {
                return Vec::new()
            }
        };
        let name = normalize_key(name);
        snapshot
            .elements
            .iter()
            .filter(|e| {
                e.visible
                    && e.role == role
                    && normalize_key(e.label()) == name
                    && in_region(&e.region, region.as_deref())
            })
            .collect()
    }

    /// Does the condition hold on `snapshot`? `expected_hash` gives, for an element whose value
    /// is redacted, the keyed hash of the expected value in that element's document.
    pub fn holds(
        &self,
        snapshot: &Snapshot,
        expected_hash: &dyn Fn(&Element) -> Option<String>,
    ) -> bool {
        match self {
            Postcondition::Appears { .. } => !self.candidates(snapshot).is_empty(),
            Postcondition::ValueEquals { value, .. } => {
                self.candidates(snapshot)
                    .iter()
                    .any(|e| match &e.value_hash {
                        Some(h) => expected_hash(e).is_some_and(|want| want == *h),
                        None => e.value.as_deref() == Some(value.as_str()),
                    })
            }
            Postcondition::TextAppears { text, region } => shows(snapshot, text, region),
            Postcondition::TextGone { text, region } => !shows(snapshot, text, region),
        }
    }

    /// `button[Save] appears in main`, for messages; a sensitive value shows as `[redacted]`.
    pub fn describe(&self) -> String {
        let place = |region: &Option<String>| {
            region
                .as_deref()
                .map(|r| format!(" in {r}"))
                .unwrap_or_default()
        };
        match self {
            Postcondition::Appears { role, name, region } => {
                format!("{}[{}] appears{}", role.as_str(), name, place(region))
            }
            Postcondition::ValueEquals {
                role,
                name,
                region,
                value,
                sensitive,
            } => {
                let shown = if *sensitive {
                    REDACTED.to_owned()
                } else {
                    format!("'{value}'")
                };
                format!(
                    "{}[{}]{} shows {}",
                    role.as_str(),
                    name,
                    place(region),
                    shown
                )
            }
            Postcondition::TextAppears { text, region } => {
                format!("text '{text}' appears{}", place(region))
            }
            Postcondition::TextGone { text, region } => {
                format!("text '{text}' is gone{}", place(region))
            }
        }
    }
}

/// Is `region` the region `want` or inside it (`cart` holds `cart/list:items`)? `None`
/// means anywhere.
pub fn in_region(region: &str, want: Option<&str>) -> bool {
    match want {
        None => true,
        Some(w) => {
            let (r, w) = (normalize_key(region), normalize_key(w));
            r == w || r.strip_prefix(&w).is_some_and(|rest| rest.starts_with('/'))
        }
    }
}

/// Does a text, or a visible element's label, in `region` contain `text`?
fn shows(snapshot: &Snapshot, text: &str, region: &Option<String>) -> bool {
    let want = normalize_key(text);
    snapshot
        .texts
        .iter()
        .any(|t| in_region(&t.region, region.as_deref()) && normalize_key(&t.text).contains(&want))
        || snapshot.elements.iter().any(|e| {
            e.visible
                && in_region(&e.region, region.as_deref())
                && normalize_key(e.label()).contains(&want)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postconditions_read_snapshots() {
        use crate::core::model::{Text, TextKind};
        let el = |role: Role, name: &str, region: &str, value: Option<&str>| Element {
            reference: format!("e-{name}"),
            role,
            name: name.into(),
            region: region.into(),
            value: value.map(Into::into),
            visible: true,
            ..Default::default()
        };
        let mut secret = el(Role::Textbox, "Password", "form[Login]", Some("[redacted]"));
        secret.value_hash = Some("h-right".into());
        let mut hidden = el(Role::Button, "Undo", "main", None);
        hidden.visible = false;
        let snap = Snapshot {
            elements: vec![
                el(Role::Heading, "BB-042", "main", None),
                el(
                    Role::Textbox,
                    "Title",
                    "main/list:notes",
                    Some("Jaipur Kites"),
                ),
                secret,
                hidden,
            ],
            texts: vec![Text {
                kind: TextKind::Status,
                text: "Note  saved".into(),
                region: "main".into(),
                frame: String::new(),
            }],
            ..Default::default()
        };
        let no_hash = |_: &Element| None;
        let appears = |role, name: &str, region: Option<&str>| Postcondition::Appears {
            role,
            name: name.into(),
            region: region.map(Into::into),
        };
        for (name, pc, want) in [
            ("heading", appears(Role::Heading, "bb-042", None), true),
            (
                "heading in main",
                appears(Role::Heading, "BB-042", Some("main")),
                true,
            ),
            (
                "heading elsewhere",
                appears(Role::Heading, "BB-042", Some("dialog[Save]")),
                false,
            ),
            (
                "region prefix is whole segments",
                appears(Role::Heading, "BB-042", Some("mai")),
                false,
            ),
            (
                "hidden never appears",
                appears(Role::Button, "Undo", None),
                false,
            ),
            ("other role", appears(Role::Button, "BB-042", None), false),
            (
                "text in region",
                Postcondition::TextAppears {
                    text: "note saved".into(),
                    region: Some("main".into()),
                },
                true,
            ),
            (
                "text via label",
                Postcondition::TextAppears {
                    text: "BB-0".into(),
                    region: None,
                },
                true,
            ),
            (
                "text elsewhere",
                Postcondition::TextAppears {
                    text: "saved".into(),
                    region: Some("footer".into()),
                },
                false,
            ),
            (
                "value equals",
                Postcondition::ValueEquals {
                    role: Role::Textbox,
                    name: "Title".into(),
                    region: Some("main".into()),
                    value: "Jaipur Kites".into(),
                    sensitive: false,
                },
                true,
            ),
            (
                "value differs",
                Postcondition::ValueEquals {
                    role: Role::Textbox,
                    name: "Title".into(),
                    region: None,
                    value: "Pune Lanterns".into(),
                    sensitive: false,
                },
                false,
            ),
            (
                "redacted value is never compared as text",
                Postcondition::ValueEquals {
                    role: Role::Textbox,
                    name: "Password".into(),
                    region: None,
                    value: "[redacted]".into(),
                    sensitive: true,
                },
                false,
            ),
        ] {
            assert_eq!(pc.holds(&snap, &no_hash), want, "{name}");
        }
        let secret_pc = Postcondition::ValueEquals {
            role: Role::Textbox,
            name: "Password".into(),
            region: None,
            value: "hunter22".into(),
            sensitive: true,
        };
        assert!(secret_pc.holds(&snap, &|_| Some("h-right".into())));
        assert!(!secret_pc.holds(&snap, &|_| Some("h-wrong".into())));
        assert!(
            !secret_pc.describe().contains("hunter22"),
            "{}",
            secret_pc.describe()
        );
        assert_eq!(
            appears(Role::Heading, "BB-042", Some("main")).describe(),
            "heading[BB-042] appears in main"
        );
    }
}
