//! What the engine counts as an observed control (a button, a link, a field, a widget a
//! person operates), by role for a record and by selector for a query of the page. Nothing
//! inside one is a clickable of its own (`walk::text`), and a control inside the content
//! of a name is a unit of its own there (`name`). A leaf, so that the element view, the
//! namer and the walk all read the same list without depending on each other.

use crate::core::model::Role;

/// Observed controls: an element holding one is not a clickable of its own.
pub const CONTROLS: &str = "a[href],button,input,select,textarea,summary,[role=button i],\
[role=link i],[role=checkbox i],[role=radio i],[role=switch i],[role=tab i],[role=menuitem i],\
[role=option i],[onclick],[tabindex]";

/// Roles of observed controls: nothing inside one is a clickable of its own.
pub fn is_control(role: Role) -> bool {
    matches!(
        role,
        Role::Button
            | Role::Link
            | Role::Checkbox
            | Role::Radio
            | Role::Switch
            | Role::Tab
            | Role::Menuitem
            | Role::Menuitemcheckbox
            | Role::Menuitemradio
            | Role::Option
            | Role::Treeitem
            | Role::Textbox
            | Role::Searchbox
            | Role::Combobox
            | Role::Listbox
            | Role::Slider
            | Role::Spinbutton
    )
}
