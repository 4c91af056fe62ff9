//! Builders shared by the core's unit tests.

use super::model::{Element, Role, Text, TextKind};

/// A visible element.
pub fn el(reference: &str, role: Role, name: &str, region: &str) -> Element {
    Element {
        reference: reference.into(),
        role,
        name: name.into(),
        region: region.into(),
        visible: true,
        ..Default::default()
    }
}

/// A nameless list item known by its text.
pub fn item(reference: &str, text: &str, region: &str) -> Element {
    Element {
        text: Some(text.into()),
        ..el(reference, Role::Listitem, "", region)
    }
}

/// A status text.
pub fn text(t: &str, region: &str) -> Text {
    Text {
        kind: TextKind::Status,
        text: t.into(),
        region: region.into(),
        frame: String::new(),
    }
}
