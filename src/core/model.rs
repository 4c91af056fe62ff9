//! The observation model: what the page engine reports and what diff, resolve and judge read.
//!
//! Compact inside, readable on the wire: `Role` is a one-byte enum serialised by its ARIA name;
//! states are `Option`s so a role without a state says `null`, not `false`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! roles {
    ($($variant:ident => $name:literal,)*) => {
        /// WAI-ARIA 1.2 roles, plus `Iframe` for frame elements (ARIA has no frame role;
        /// SPEC DIFFERENCE: we report frames so a cross-origin one is visible as opaque).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        #[repr(u8)]
        pub enum Role {
            #[default]
            Unknown,
            $($variant,)*
        }

        impl Role {
            /// Every role but `Unknown`, in declaration order.
            pub const ALL: &'static [Role] = &[$(Role::$variant,)*];

            /// The ARIA name, e.g. `"button"`.
            pub fn as_str(self) -> &'static str {
                match self {
                    Role::Unknown => "unknown",
                    $(Role::$variant => $name,)*
                }
            }

            /// Parses an ARIA role token (ASCII case-insensitive); `presentation` is `none`.
            pub fn parse(token: &str) -> Option<Role> {
                let t = token.trim();
                if t.eq_ignore_ascii_case("presentation") {
                    return Some(Role::None);
                }
                $(if t.eq_ignore_ascii_case($name) { return Some(Role::$variant); })*
                None
            }
        }
    };
}

// https://www.w3.org/TR/wai-aria-1.2/#role_definitions
roles! {
    Alert => "alert", Alertdialog => "alertdialog", Application => "application",
    Article => "article", Banner => "banner", Blockquote => "blockquote", Button => "button",
    Caption => "caption", Cell => "cell", Checkbox => "checkbox", Code => "code",
    Columnheader => "columnheader", Combobox => "combobox", Complementary => "complementary",
    Contentinfo => "contentinfo", Definition => "definition", Deletion => "deletion",
    Dialog => "dialog", Directory => "directory", Document => "document", Emphasis => "emphasis",
    Feed => "feed", Figure => "figure", Form => "form", Generic => "generic", Grid => "grid",
    Gridcell => "gridcell", Group => "group", Heading => "heading", Iframe => "iframe",
    Img => "img", Insertion => "insertion", Link => "link", List => "list", Listbox => "listbox",
    Listitem => "listitem", Log => "log", Main => "main", Mark => "mark", Marquee => "marquee",
    Math => "math", Menu => "menu", Menubar => "menubar", Menuitem => "menuitem",
    Menuitemcheckbox => "menuitemcheckbox", Menuitemradio => "menuitemradio", Meter => "meter",
    Navigation => "navigation", None => "none", Note => "note", Option => "option",
    Paragraph => "paragraph", Progressbar => "progressbar", Radio => "radio",
    Radiogroup => "radiogroup", Region => "region", Row => "row", Rowgroup => "rowgroup",
    Rowheader => "rowheader", Scrollbar => "scrollbar", Search => "search",
    Searchbox => "searchbox", Separator => "separator", Slider => "slider",
    Spinbutton => "spinbutton", Status => "status", Strong => "strong",
    Subscript => "subscript", Superscript => "superscript", Switch => "switch", Tab => "tab",
    Table => "table", Tablist => "tablist", Tabpanel => "tabpanel", Term => "term",
    Textbox => "textbox", Time => "time", Timer => "timer", Toolbar => "toolbar",
    Tooltip => "tooltip", Tree => "tree", Treegrid => "treegrid", Treeitem => "treeitem",
}

impl Role {
    /// Landmark roles: a region boundary when found among an element's ancestors.
    /// `form` and `region` count only with an accessible name (html-aam). Dialogs count too:
    /// SPEC DIFFERENCE, a confirmation dialog is where a person looks for its effect.
    pub fn is_landmark(self) -> bool {
        matches!(
            self,
            Role::Banner
                | Role::Complementary
                | Role::Contentinfo
                | Role::Form
                | Role::Main
                | Role::Navigation
                | Role::Region
                | Role::Search
                | Role::Dialog
                | Role::Alertdialog
        )
    }

    /// Lists and list-like widgets: one with an `id` (else an `aria-label`) adds `list:<id>`
    /// to the region of itself and everything it holds (docs/DESIGN.md, "Region"), so what
    /// lands in it can be told from what lands in its neighbour.
    pub fn is_list_like(self) -> bool {
        matches!(
            self,
            Role::List
                | Role::Listbox
                | Role::Grid
                | Role::Table
                | Role::Tree
                | Role::Treegrid
                | Role::Menu
                | Role::Menubar
        )
    }

    /// Roles whose name may come from their content (accname 1.2, "name from: contents").
    // https://www.w3.org/TR/wai-aria-1.2/#namefromcontent
    pub fn allows_name_from_content(self) -> bool {
        matches!(
            self,
            Role::Button
                | Role::Cell
                | Role::Checkbox
                | Role::Columnheader
                | Role::Gridcell
                | Role::Heading
                | Role::Link
                | Role::Menuitem
                | Role::Menuitemcheckbox
                | Role::Menuitemradio
                | Role::Option
                | Role::Radio
                | Role::Row
                | Role::Rowheader
                | Role::Switch
                | Role::Tab
                | Role::Tooltip
                | Role::Treeitem
                | Role::Caption
                | Role::Code
                | Role::Deletion
                | Role::Emphasis
                | Role::Insertion
                | Role::Mark
                | Role::Strong
                | Role::Subscript
                | Role::Superscript
                | Role::Term
                | Role::Time
                | Role::Definition
        )
    }

    /// Roles reported as elements. Paragraphs and live regions are reported as texts instead,
    /// `generic`/`none` have no identity of their own, and inline text semantics (`strong`,
    /// `code`, `time`...) or table row groups would only add noise to every diff (but for the
    /// formatting inside an editing host: `is_formatting`).
    pub fn is_observable(self) -> bool {
        !matches!(
            self,
            Role::Unknown
                | Role::Generic
                | Role::None
                | Role::Paragraph
                | Role::Status
                | Role::Alert
                | Role::Log
                | Role::Marquee
                | Role::Timer
                | Role::Rowgroup
                | Role::Caption
                | Role::Code
                | Role::Deletion
                | Role::Emphasis
                | Role::Insertion
                | Role::Mark
                | Role::Strong
                | Role::Subscript
                | Role::Superscript
                | Role::Time
                | Role::Term
                | Role::Definition
                | Role::Blockquote
        )
    }

    /// Inline text semantics that format words (ARIA 1.3 `strong`, `emphasis`, `deletion`,
    /// `insertion`, `code`, `mark`, `subscript`, `superscript`). Left out of every
    /// observation but inside an editing host (a rich-text editor's body), where how the
    /// words are formatted is what a formatting key or toolbar button changes.
    pub fn is_formatting(self) -> bool {
        matches!(
            self,
            Role::Strong
                | Role::Emphasis
                | Role::Deletion
                | Role::Insertion
                | Role::Code
                | Role::Mark
                | Role::Subscript
                | Role::Superscript
        )
    }

    /// Roles that carry a text value a user edits.
    pub fn has_value(self) -> bool {
        matches!(
            self,
            Role::Textbox | Role::Searchbox | Role::Combobox | Role::Spinbutton | Role::Slider
        )
    }
}

impl Serialize for Role {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Role {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Ok(Role::parse(&s).unwrap_or(Role::Unknown))
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Role {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Role".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = Role::ALL
            .iter()
            .map(|r| r.as_str())
            .chain(["unknown"])
            .collect();
        schemars::json_schema!({
            "description": "WAI-ARIA 1.2 roles, plus `iframe` for frame elements and `unknown`.",
            "type": "string",
            "enum": names,
        })
    }
}

/// `true`, `false` or `"mixed"` on the wire (aria-checked, aria-pressed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tristate {
    False,
    True,
    Mixed,
}

impl Tristate {
    pub fn as_str(self) -> &'static str {
        match self {
            Tristate::False => "false",
            Tristate::True => "true",
            Tristate::Mixed => "mixed",
        }
    }
}

impl From<bool> for Tristate {
    fn from(b: bool) -> Self {
        if b {
            Tristate::True
        } else {
            Tristate::False
        }
    }
}

impl Serialize for Tristate {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Tristate::False => s.serialize_bool(false),
            Tristate::True => s.serialize_bool(true),
            Tristate::Mixed => s.serialize_str("mixed"),
        }
    }
}

impl<'de> Deserialize<'de> for Tristate {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Wire {
            B(bool),
            S(String),
        }
        match Wire::deserialize(d)? {
            Wire::B(b) => Ok(b.into()),
            Wire::S(s) if s == "mixed" => Ok(Tristate::Mixed),
            Wire::S(s) => Err(serde::de::Error::custom(format!(
                "expected true, false or \"mixed\", got {s:?}"
            ))),
        }
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Tristate {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Tristate".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "`aria-checked` / `aria-pressed`: a boolean or `\"mixed\"`.",
            "anyOf": [{ "type": "boolean" }, { "const": "mixed" }],
        })
    }
}

/// Which document a snapshot came from and which snapshot it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Context {
    /// Set by the caller; stable per page by default.
    pub tab: String,
    /// Changes with every new document.
    pub epoch: u64,
    /// Unique per snapshot.
    pub snapshot: String,
}

/// Shown in place of a sensitive value everywhere.
pub const REDACTED: &str = "[redacted]";

/// One observable element. Its identity is `(role, label, region)`: see `identity`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Element {
    /// Stable while the live node keeps its identity; a new ref otherwise.
    #[serde(rename = "ref")]
    pub reference: String,
    pub role: Role,
    /// Accessible name per accname 1.2, whitespace-normalised, capped, redacted.
    pub name: String,
    /// Observed content of a nameless container (a `listitem`, `row`, `article`): SPEC
    /// DIFFERENCE, ARIA gives these no name, but a person tells cart lines apart by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// `main`, `form[Checkout]`, `cart/list:done`, `frame[1]/main`; empty outside landmarks.
    pub region: String,
    /// `listitem[Walk dog]`: the nearest row-like container around the element (a list item,
    /// row, tree item, article, cell or group) that a person names by its own words, given to
    /// an element without a label of its own and to one whose label its twins in other
    /// containers share (every row's `Delete` button). The container's words leave out the
    /// controls inside it, so a button that shows on hover does not rename the row. Part of
    /// the identity of an element without a label: the unnamed checkbox of one row is not
    /// the unnamed checkbox of the next (see `identity`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
    /// Frame position path: `""` for the top document, `"0"`, `"0.1"` for nested frames.
    pub frame: String,
    pub href: Option<String>,
    /// Current value; `[redacted]` when sensitive.
    pub value: Option<String>,
    /// Keyed hash of the value (key never leaves the page); set for sensitive values so a
    /// change stays observable without reading it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_hash: Option<String>,
    pub checked: Option<Tristate>,
    pub pressed: Option<Tristate>,
    pub selected: Option<bool>,
    pub expanded: Option<bool>,
    pub disabled: bool,
    pub visible: bool,
    pub in_viewport: bool,
    pub focused: bool,
    pub sensitive: bool,
    /// Heading level, where the role has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// A closed shadow root or cross-origin frame whose inside cannot be read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub opaque: bool,
    /// The element or one of its ancestors says it is being updated (`aria-busy="true"`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub busy: bool,
    /// SPEC DIFFERENCE: a role-less element that acts as a control (a click handler,
    /// `onclick`, `cursor: pointer` of its own, a `tabindex`), observed as a `generic` named
    /// from its content so it can be a target.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub clickable: bool,
}

impl Element {
    /// What identifies the element to a person: its name, else its observed text.
    pub fn label(&self) -> &str {
        if self.name.is_empty() {
            self.text.as_deref().unwrap_or("")
        } else {
            &self.name
        }
    }
}

/// Kinds of observable running text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum TextKind {
    Paragraph,
    Status,
    Alert,
    Log,
    Watch,
    Other,
    /// Any other visible text run (a `div`, `span` or table cell that shows a total, a score,
    /// "Saved").
    Plain,
}

/// Observable running text: paragraphs, live regions, `data-ap-watch` elements, and every
/// other visible text run (`TextKind::Plain`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Text {
    pub kind: TextKind,
    pub text: String,
    pub region: String,
    pub frame: String,
}

/// A full observation of one document (and its same-origin frames).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    pub context: Context,
    /// True when a cap or the time budget stopped the walk early.
    pub has_more: bool,
    pub elements: Vec<Element>,
    pub texts: Vec<Text>,
}

/// Caps that keep every output bounded whatever the page does.
pub mod limits {
    /// Longest name, text or value kept, in characters.
    pub const MAX_TEXT_CHARS: usize = 500;
    /// Most plain text runs (`TextKind::Plain`) one observation reports; `has_more` beyond.
    pub const MAX_PLAIN_TEXTS: usize = 2_000;
    /// Most elements one observation may hold (resolve rejects more with `INVALID_ELEMENTS`).
    pub const MAX_ELEMENTS: usize = 100_000;
    /// Default element cap of a snapshot.
    pub const DEFAULT_SNAPSHOT_ELEMENTS: usize = 50_000;
    /// Default time budget of a snapshot, in milliseconds.
    pub const DEFAULT_BUDGET_MS: f64 = 2_000.0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_round_trip_by_name() {
        for &role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Some(role), "{role:?}");
            let json = serde_json::to_string(&role).unwrap();
            assert_eq!(serde_json::from_str::<Role>(&json).unwrap(), role);
        }
        assert_eq!(Role::parse("PRESENTATION"), Some(Role::None));
        assert_eq!(Role::parse("nonsense"), None);
        assert_eq!(std::mem::size_of::<Role>(), 1);
    }

    #[test]
    fn tristate_wire_form() {
        assert_eq!(
            serde_json::to_string(&Tristate::Mixed).unwrap(),
            "\"mixed\""
        );
        assert_eq!(
            serde_json::from_str::<Tristate>("true").unwrap(),
            Tristate::True
        );
        assert!(serde_json::from_str::<Tristate>("1").is_err());
        assert!(serde_json::from_str::<Tristate>("\"yes\"").is_err());
    }

    #[test]
    fn element_serialises_camel_case_with_nulls_for_absent_states() {
        let e = Element {
            reference: "e1".into(),
            role: Role::Button,
            name: "Save".into(),
            visible: true,
            ..Default::default()
        };
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(v["ref"], "e1");
        assert_eq!(v["role"], "button");
        assert_eq!(v["inViewport"], false);
        assert!(v["checked"].is_null());
        assert!(v.get("valueHash").is_none());
    }

    #[test]
    fn observability_policy() {
        for (role, observable) in [
            (Role::Button, true),
            (Role::Listitem, true),
            (Role::Progressbar, true),
            (Role::Generic, false),
            (Role::Paragraph, false),
            (Role::Status, false),
            (Role::Strong, false),
            (Role::Unknown, false),
        ] {
            assert_eq!(role.is_observable(), observable, "{role:?}");
        }
    }

    #[test]
    fn label_falls_back_to_text() {
        let e = Element {
            role: Role::Listitem,
            text: Some("Shirt M".into()),
            ..Default::default()
        };
        assert_eq!(e.label(), "Shirt M");
    }
}
