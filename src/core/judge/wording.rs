//! The wording of reasons that no single rule owns: a role as words, no effect, an
//! effect nothing explains.

use super::*;

/// A role as the words a person would use for it in a sentence of intent.
pub(super) fn role_words(role: Role) -> &'static str {
    match role {
        Role::Alertdialog => "alert dialog",
        Role::Columnheader => "column header",
        Role::Combobox => "combo box",
        Role::Contentinfo => "footer",
        Role::Gridcell => "grid cell",
        Role::Img => "image",
        Role::Listitem => "list item",
        Role::Menubar => "menu bar",
        Role::Menuitem => "menu item",
        Role::Menuitemcheckbox => "menu item checkbox",
        Role::Menuitemradio => "menu item radio",
        Role::Progressbar => "progress bar",
        Role::Radiogroup => "radio group",
        Role::Rowheader => "row header",
        Role::Searchbox => "search box",
        Role::Spinbutton => "spin button",
        Role::Tablist => "tab list",
        Role::Tabpanel => "tab panel",
        Role::Textbox => "text box",
        Role::Treeitem => "tree item",
        // The words' formatting in a rich-text editor's body, as a person names it.
        Role::Strong => "bold",
        Role::Emphasis => "italic",
        Role::Deletion => "strikethrough",
        Role::Generic | Role::None | Role::Unknown => "",
        other => other.as_str(),
    }
}

impl<'a> Judge<'a> {
    /// Nothing (relevant) changed: proof of failure on a settled page, nothing on a busy one.
    pub(super) fn no_effect(&self, what: &str) -> Finding {
        if self.background_only {
            return ambiguous(format!(
                "no effect yet: {what} outside the slots it was already changing by itself, where the action's effect may also land"
            ));
        }
        if self.stable {
            mismatch(format!("no effect: {what}"), None)
        } else {
            ambiguous(format!(
                "no effect yet: {what}, but the page was still changing, so it may be late"
            ))
        }
    }

    pub(super) fn unexplained(&self, effects: &[Effect<'a>], why: &str) -> Finding {
        if self.intent.is_none() {
            if let Some(e) = effects.iter().find(|e| e.is_failure_message()) {
                return mismatch(
                    format!(
                        "the page reports a failure: {} (declare an intent if that is what was meant)",
                        e.line()
                    ),
                    None,
                );
            }
        }
        let first = effects.first().map(Effect::line).unwrap_or_default();
        let intent = match self.intent {
            None => "; declare an intent to decide",
            Some(i) if i.is_usable() => ", nor does the intent",
            Some(_) => "; the intent is empty or negated, so it cannot be checked",
        };
        ambiguous(format!("{why}{intent} ({first})"))
    }
}
