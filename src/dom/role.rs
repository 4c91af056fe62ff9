//! Roles: the explicit `role` attribute, else the implicit role per html-aam.
//!
//! The walk reads an element's tag once and asks the attributes it needs through [`Attrs`],
//! so a `div` with a class costs no attribute probe at all. Context the implicit role depends
//! on (sectioning ancestors for `header`/`footer`/`aside`, the owning list and table) travels
//! down the walk in [`RoleCtx`] instead of being looked up per element.

use crate::core::model::Role;

/// The HTML elements whose semantics the engine knows; everything else is `Other` (or
/// `Custom` for autonomous custom elements, whose name contains a dash).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    A,
    Address,
    Area,
    Article,
    Aside,
    B,
    Blockquote,
    Body,
    Br,
    Button,
    Caption,
    Code,
    Datalist,
    Dd,
    Del,
    Details,
    Dfn,
    Dialog,
    Div,
    Dl,
    Dt,
    Em,
    Fieldset,
    Figcaption,
    Figure,
    Footer,
    Form,
    Frame,
    H(u8),
    Head,
    Header,
    Hgroup,
    Hr,
    Html,
    I,
    Iframe,
    Img,
    Input,
    Ins,
    Label,
    Legend,
    Li,
    Main,
    Mark,
    Math,
    Menu,
    Meter,
    Nav,
    Noscript,
    Object,
    Ol,
    Optgroup,
    Option,
    Output,
    P,
    Pre,
    Progress,
    Script,
    Search,
    Section,
    Select,
    Slot,
    Small,
    Span,
    Strong,
    Style,
    Sub,
    Summary,
    Sup,
    Svg,
    Table,
    Tbody,
    Td,
    Template,
    Textarea,
    Tfoot,
    Th,
    Thead,
    Time,
    Title,
    Tr,
    Ul,
    Custom,
    Other,
}

impl Tag {
    /// Maps a `localName` (HTML names are lowercase already).
    pub fn parse(local: &str) -> Tag {
        match local {
            "a" => Tag::A,
            "address" => Tag::Address,
            "area" => Tag::Area,
            "article" => Tag::Article,
            "aside" => Tag::Aside,
            "b" => Tag::B,
            "blockquote" => Tag::Blockquote,
            "body" => Tag::Body,
            "br" => Tag::Br,
            "button" => Tag::Button,
            "caption" => Tag::Caption,
            "code" => Tag::Code,
            "datalist" => Tag::Datalist,
            "dd" => Tag::Dd,
            "del" => Tag::Del,
            "details" => Tag::Details,
            "dfn" => Tag::Dfn,
            "dialog" => Tag::Dialog,
            "div" => Tag::Div,
            "dl" => Tag::Dl,
            "dt" => Tag::Dt,
            "em" => Tag::Em,
            "fieldset" => Tag::Fieldset,
            "figcaption" => Tag::Figcaption,
            "figure" => Tag::Figure,
            "footer" => Tag::Footer,
            "form" => Tag::Form,
            "frame" => Tag::Frame,
            "h1" => Tag::H(1),
            "h2" => Tag::H(2),
            "h3" => Tag::H(3),
            "h4" => Tag::H(4),
            "h5" => Tag::H(5),
            "h6" => Tag::H(6),
            "head" => Tag::Head,
            "header" => Tag::Header,
            "hgroup" => Tag::Hgroup,
            "hr" => Tag::Hr,
            "html" => Tag::Html,
            "i" => Tag::I,
            "iframe" => Tag::Iframe,
            "img" => Tag::Img,
            "input" => Tag::Input,
            "ins" => Tag::Ins,
            "label" => Tag::Label,
            "legend" => Tag::Legend,
            "li" => Tag::Li,
            "main" => Tag::Main,
            "mark" => Tag::Mark,
            "math" => Tag::Math,
            "menu" => Tag::Menu,
            "meter" => Tag::Meter,
            "nav" => Tag::Nav,
            "noscript" => Tag::Noscript,
            "object" => Tag::Object,
            "ol" => Tag::Ol,
            "optgroup" => Tag::Optgroup,
            "option" => Tag::Option,
            "output" => Tag::Output,
            "p" => Tag::P,
            "pre" => Tag::Pre,
            "progress" => Tag::Progress,
            "script" => Tag::Script,
            "search" => Tag::Search,
            "section" => Tag::Section,
            "select" => Tag::Select,
            "slot" => Tag::Slot,
            "small" => Tag::Small,
            "span" => Tag::Span,
            "strong" => Tag::Strong,
            "style" => Tag::Style,
            "sub" => Tag::Sub,
            "summary" => Tag::Summary,
            "sup" => Tag::Sup,
            "svg" => Tag::Svg,
            "table" => Tag::Table,
            "tbody" => Tag::Tbody,
            "td" => Tag::Td,
            "template" => Tag::Template,
            "textarea" => Tag::Textarea,
            "tfoot" => Tag::Tfoot,
            "th" => Tag::Th,
            "thead" => Tag::Thead,
            "time" => Tag::Time,
            "title" => Tag::Title,
            "tr" => Tag::Tr,
            "ul" => Tag::Ul,
            other if other.contains('-') => Tag::Custom,
            _ => Tag::Other,
        }
    }

    /// Never rendered, never walked (`<template>` content is inert, `<head>` holds no UI).
    pub fn is_skipped(self) -> bool {
        matches!(
            self,
            Tag::Script | Tag::Style | Tag::Template | Tag::Head | Tag::Noscript | Tag::Title
        )
    }

    /// Form controls whose disabled state `:disabled` reports (fieldset inheritance included).
    pub fn is_form_control(self) -> bool {
        matches!(
            self,
            Tag::Button
                | Tag::Input
                | Tag::Select
                | Tag::Textarea
                | Tag::Option
                | Tag::Optgroup
                | Tag::Fieldset
        )
    }

    /// Elements rendered as blocks by the user agent style sheet: name-from-content puts a
    /// space around their text. SPEC DIFFERENCE: Chromium reads the computed `display`;
    /// we use the tag so a name costs no style lookup per descendant.
    pub fn is_block(self) -> bool {
        matches!(
            self,
            Tag::Address
                | Tag::Article
                | Tag::Aside
                | Tag::Blockquote
                | Tag::Br
                | Tag::Caption
                | Tag::Dd
                | Tag::Details
                | Tag::Dialog
                | Tag::Div
                | Tag::Dl
                | Tag::Dt
                | Tag::Fieldset
                | Tag::Figcaption
                | Tag::Figure
                | Tag::Footer
                | Tag::Form
                | Tag::H(_)
                | Tag::Header
                | Tag::Hgroup
                | Tag::Hr
                | Tag::Li
                | Tag::Main
                | Tag::Menu
                | Tag::Nav
                | Tag::Ol
                | Tag::P
                | Tag::Pre
                | Tag::Section
                | Tag::Summary
                | Tag::Table
                | Tag::Td
                | Tag::Th
                | Tag::Tr
                | Tag::Ul
        )
    }

    /// May carry a shadow root (`attachShadow` is allowed on these only).
    pub fn can_host_shadow(self) -> bool {
        matches!(
            self,
            Tag::Custom
                | Tag::Other
                | Tag::Article
                | Tag::Aside
                | Tag::Blockquote
                | Tag::Body
                | Tag::Div
                | Tag::Footer
                | Tag::H(_)
                | Tag::Header
                | Tag::Main
                | Tag::Nav
                | Tag::P
                | Tag::Section
                | Tag::Span
        )
    }

    /// Never has child elements worth walking (void or replaced elements, raw text).
    pub fn is_leaf(self) -> bool {
        matches!(
            self,
            Tag::Input | Tag::Textarea | Tag::Img | Tag::Hr | Tag::Br | Tag::Area
        )
    }

    /// Tags with a role, a region, a walk rule or a name source of their own: the walk looks
    /// closer at these; other elements only matter for their attributes and children.
    pub fn is_semantic(self) -> bool {
        !matches!(
            self,
            Tag::Div
                | Tag::Span
                | Tag::Other
                | Tag::Custom
                | Tag::B
                | Tag::I
                | Tag::Small
                | Tag::Pre
                | Tag::Code
                | Tag::Em
                | Tag::Strong
                | Tag::Mark
                | Tag::Sub
                | Tag::Sup
                | Tag::Time
                | Tag::Del
                | Tag::Ins
                | Tag::Dfn
                | Tag::Br
                | Tag::Html
                | Tag::Body
                | Tag::Figcaption
                | Tag::Legend
                | Tag::Caption
                | Tag::Blockquote
        )
    }

    /// Inline tags that format words (`<strong>`, `<b>`, `<em>`, `<i>`, `<code>`, `<mark>`,
    /// `<sub>`, `<sup>`, `<del>`, `<ins>`): observed inside an editing host only.
    pub fn formats(self) -> bool {
        matches!(
            self,
            Tag::B
                | Tag::I
                | Tag::Code
                | Tag::Em
                | Tag::Strong
                | Tag::Mark
                | Tag::Sub
                | Tag::Sup
                | Tag::Del
                | Tag::Ins
        )
    }

    /// Natively focusable (the presentational role conflict rule needs it).
    pub fn is_natively_focusable(self) -> bool {
        matches!(
            self,
            Tag::Button | Tag::Input | Tag::Select | Tag::Textarea | Tag::Summary | Tag::Iframe
        )
    }
}

/// Every tag name [`Tag::parse`] knows, for the engine's name → tag look-up table.
pub const TAG_NAMES: &[&str] = &[
    "a",
    "address",
    "area",
    "article",
    "aside",
    "b",
    "blockquote",
    "body",
    "br",
    "button",
    "caption",
    "code",
    "datalist",
    "dd",
    "del",
    "details",
    "dfn",
    "dialog",
    "div",
    "dl",
    "dt",
    "em",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "i",
    "iframe",
    "img",
    "input",
    "ins",
    "label",
    "legend",
    "li",
    "main",
    "mark",
    "math",
    "menu",
    "meter",
    "nav",
    "noscript",
    "object",
    "ol",
    "optgroup",
    "option",
    "output",
    "p",
    "pre",
    "progress",
    "script",
    "search",
    "section",
    "select",
    "slot",
    "small",
    "span",
    "strong",
    "style",
    "sub",
    "summary",
    "sup",
    "svg",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "time",
    "title",
    "tr",
    "ul",
];

/// Attributes the engine reads. Each maps to an interned JS string (see `el::Strings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum A {
    Role,
    AriaLabel,
    AriaLabelledby,
    Title,
    Alt,
    Href,
    Type,
    List,
    Multiple,
    Size,
    Scope,
    Placeholder,
    Value,
    Id,
    DataApRegion,
    DataApWatch,
    AriaLive,
    AriaDisabled,
    AriaChecked,
    AriaPressed,
    AriaSelected,
    AriaExpanded,
    AriaLevel,
    AriaValuetext,
    AriaValuenow,
    Autocomplete,
    AriaBusy,
    AriaCurrent,
}

impl A {
    pub const ALL: [A; 28] = [
        A::Role,
        A::AriaLabel,
        A::AriaLabelledby,
        A::Title,
        A::Alt,
        A::Href,
        A::Type,
        A::List,
        A::Multiple,
        A::Size,
        A::Scope,
        A::Placeholder,
        A::Value,
        A::Id,
        A::DataApRegion,
        A::DataApWatch,
        A::AriaLive,
        A::AriaDisabled,
        A::AriaChecked,
        A::AriaPressed,
        A::AriaSelected,
        A::AriaExpanded,
        A::AriaLevel,
        A::AriaValuetext,
        A::AriaValuenow,
        A::Autocomplete,
        A::AriaBusy,
        A::AriaCurrent,
    ];

    pub fn bit(self) -> u64 {
        1 << (self as u64)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            A::Role => "role",
            A::AriaLabel => "aria-label",
            A::AriaLabelledby => "aria-labelledby",
            A::Title => "title",
            A::Alt => "alt",
            A::Href => "href",
            A::Type => "type",
            A::List => "list",
            A::Multiple => "multiple",
            A::Size => "size",
            A::Scope => "scope",
            A::Placeholder => "placeholder",
            A::Value => "value",
            A::Id => "id",
            A::DataApRegion => "data-ap-region",
            A::DataApWatch => "data-ap-watch",
            A::AriaLive => "aria-live",
            A::AriaDisabled => "aria-disabled",
            A::AriaChecked => "aria-checked",
            A::AriaPressed => "aria-pressed",
            A::AriaSelected => "aria-selected",
            A::AriaExpanded => "aria-expanded",
            A::AriaLevel => "aria-level",
            A::AriaValuetext => "aria-valuetext",
            A::AriaValuenow => "aria-valuenow",
            A::Autocomplete => "autocomplete",
            A::AriaBusy => "aria-busy",
            A::AriaCurrent => "aria-current",
        }
    }
}

/// Presence bits beyond [`A`]: attributes whose presence alone matters.
pub mod present {
    pub const ARIA_HIDDEN: u64 = 1 << 28;
    pub const INERT: u64 = 1 << 29;
    pub const DATA_AP_SENSITIVE: u64 = 1 << 30;
    /// `tabindex` or `contenteditable`: focusable.
    pub const FOCUSABLE: u64 = 1 << 31;
    /// Any other `aria-*` attribute (a global one, for the presentational conflict rule).
    pub const OTHER_ARIA: u64 = 1 << 32;
    /// `onclick`: the element says it acts on a click.
    pub const ONCLICK: u64 = 1 << 33;
    /// `contenteditable` (beside `FOCUSABLE`): the element may be an editing host.
    pub const EDITABLE: u64 = 1 << 34;
}

/// The presence bit of an attribute name, if the engine cares about it.
pub fn attribute_bit(name: &str) -> u64 {
    match name {
        "role" => A::Role.bit(),
        "aria-label" => A::AriaLabel.bit(),
        "aria-labelledby" => A::AriaLabelledby.bit(),
        "title" => A::Title.bit(),
        "alt" => A::Alt.bit(),
        "href" => A::Href.bit(),
        "type" => A::Type.bit(),
        "list" => A::List.bit(),
        "multiple" => A::Multiple.bit(),
        "size" => A::Size.bit(),
        "scope" => A::Scope.bit(),
        "placeholder" => A::Placeholder.bit(),
        "value" => A::Value.bit(),
        "id" => A::Id.bit(),
        "data-ap-region" => A::DataApRegion.bit(),
        "data-ap-watch" => A::DataApWatch.bit(),
        "aria-live" => A::AriaLive.bit(),
        "aria-disabled" => A::AriaDisabled.bit(),
        "aria-checked" => A::AriaChecked.bit(),
        "aria-pressed" => A::AriaPressed.bit(),
        "aria-selected" => A::AriaSelected.bit(),
        "aria-expanded" => A::AriaExpanded.bit(),
        "aria-level" => A::AriaLevel.bit(),
        "aria-valuetext" => A::AriaValuetext.bit(),
        "aria-valuenow" => A::AriaValuenow.bit(),
        "autocomplete" => A::Autocomplete.bit(),
        "aria-busy" => A::AriaBusy.bit(),
        "aria-current" => A::AriaCurrent.bit(),
        "onclick" => present::ONCLICK,
        "aria-hidden" => present::ARIA_HIDDEN,
        "inert" => present::INERT,
        "data-ap-sensitive" => present::DATA_AP_SENSITIVE,
        "tabindex" => present::FOCUSABLE,
        "contenteditable" => present::FOCUSABLE | present::EDITABLE,
        n if n.starts_with("aria-") => present::OTHER_ARIA,
        _ => 0,
    }
}

/// Attributes that make an element of a non-semantic tag (`div`, `span`...) worth a look.
pub const RELEVANT_BITS: u64 = (1 << (A::Role as u64))
    | (1 << (A::AriaBusy as u64))
    | (1 << (A::DataApRegion as u64))
    | (1 << (A::DataApWatch as u64))
    | (1 << (A::AriaLive as u64))
    | (1 << (A::AriaDisabled as u64))
    | present::ARIA_HIDDEN
    | present::INERT
    | present::DATA_AP_SENSITIVE;

/// Global ARIA attributes or focusability: `role=none` is then ignored.
pub const GLOBAL_BITS: u64 = (1 << (A::AriaLabel as u64))
    | (1 << (A::AriaLabelledby as u64))
    | (1 << (A::AriaLive as u64))
    | (1 << (A::AriaDisabled as u64))
    | (1 << (A::AriaCurrent as u64))
    | present::FOCUSABLE
    | present::OTHER_ARIA
    | present::ARIA_HIDDEN;

/// Reads attributes of one element.
pub trait Attrs {
    fn get(&self, a: A) -> Option<String>;
    fn has(&self, a: A) -> bool;
}

/// The table an element sits in, for cell and row roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TableKind {
    #[default]
    None,
    Table,
    Grid,
    /// `role=none|presentation` on the table: its rows and cells are presentational too.
    Presentational,
}

/// What the implicit role of an element depends on beyond the element itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct RoleCtx {
    /// Inside `article`, `aside`, `nav`, `section` (or their roles): scopes `header`/`footer`
    /// away from banner/contentinfo and an unnamed `aside` away from complementary.
    pub in_section: bool,
    /// Inside `main`: scopes `header`/`footer` too, but not `aside`.
    pub in_main: bool,
    pub table: TableKind,
    /// The parent element is a list (`ul`, `ol`, `menu`, or `role=list`) that is not
    /// presentational: an `li` is a listitem only there.
    pub parent_is_list: bool,
    /// The parent element is a list made presentational: its `li` children are too.
    pub parent_list_presentational: bool,
    /// Inside a `select` or `datalist`: `option` is an option there.
    pub in_select: bool,
}

// https://www.w3.org/TR/wai-aria-1.2/#document-handling_author-errors_roles
/// First valid token of a `role` attribute. `iframe` is our own pseudo-role, not ARIA.
pub fn explicit_role(attr: &str) -> Option<Role> {
    attr.split_ascii_whitespace()
        .filter_map(Role::parse)
        .find(|r| *r != Role::Iframe)
}

/// How an element's role was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decided {
    pub role: Role,
    /// Taken from the `role` attribute.
    pub explicit: bool,
}

/// The element's role. `named` is asked only for the tags whose role depends on having an
/// accessible name (`section`, `form`, `aside` in sectioning content), and `focusable_or_global`
/// only when a `role=none` needs the presentational conflict rule.
// https://www.w3.org/TR/html-aam-1.0/#html-element-role-mappings
pub fn compute_role(
    tag: Tag,
    attrs: &dyn Attrs,
    ctx: &RoleCtx,
    named: &mut dyn FnMut() -> bool,
    focusable_or_global: &mut dyn FnMut() -> bool,
) -> Decided {
    if let Some(value) = attrs.get(A::Role) {
        if let Some(role) = explicit_role(&value) {
            if role != Role::None {
                return Decided {
                    role,
                    explicit: true,
                };
            }
            // https://www.w3.org/TR/wai-aria-1.2/#conflict_resolution_presentation_none
            if !(tag.is_natively_focusable()
                || (tag == Tag::A && attrs.has(A::Href))
                || focusable_or_global())
            {
                return Decided {
                    role: Role::None,
                    explicit: true,
                };
            }
        }
    }
    Decided {
        role: implicit_role(tag, attrs, ctx, named),
        explicit: false,
    }
}

/// The implicit role per html-aam.
pub fn implicit_role(
    tag: Tag,
    attrs: &dyn Attrs,
    ctx: &RoleCtx,
    named: &mut dyn FnMut() -> bool,
) -> Role {
    match tag {
        Tag::A | Tag::Area => {
            if attrs.has(A::Href) {
                Role::Link
            } else {
                Role::Generic
            }
        }
        Tag::Address => Role::Group,
        Tag::Article => Role::Article,
        Tag::Aside => {
            // html-aam: complementary when scoped to body/main, or when named.
            if !ctx.in_section || named() {
                Role::Complementary
            } else {
                Role::Generic
            }
        }
        Tag::Blockquote => Role::Blockquote,
        Tag::Button => Role::Button,
        Tag::Caption => Role::Caption,
        Tag::Code => Role::Code,
        Tag::Datalist => Role::Listbox,
        Tag::Dd => Role::Definition,
        Tag::Del => Role::Deletion,
        Tag::Details => Role::Group,
        Tag::Dfn => Role::Term,
        Tag::Dialog => Role::Dialog,
        Tag::Dt => Role::Term,
        Tag::Em => Role::Emphasis,
        Tag::Fieldset => Role::Group,
        Tag::Figure => Role::Figure,
        Tag::Footer => {
            if ctx.in_section || ctx.in_main {
                Role::Generic
            } else {
                Role::Contentinfo
            }
        }
        Tag::Form => {
            if named() {
                Role::Form
            } else {
                Role::Generic
            }
        }
        Tag::H(_) => Role::Heading,
        Tag::Header => {
            if ctx.in_section || ctx.in_main {
                Role::Generic
            } else {
                Role::Banner
            }
        }
        Tag::Hgroup => Role::Group,
        Tag::Hr => Role::Separator,
        Tag::Iframe | Tag::Frame => Role::Iframe,
        Tag::Img => match attrs.get(A::Alt) {
            // https://www.w3.org/TR/html-aam-1.0/#el-img-empty-alt
            Some(alt) if alt.is_empty() => {
                if attrs.has(A::AriaLabel) || attrs.has(A::AriaLabelledby) || attrs.has(A::Title) {
                    Role::Img
                } else {
                    Role::None
                }
            }
            _ => Role::Img,
        },
        Tag::Input => input_role(attrs),
        Tag::Ins => Role::Insertion,
        Tag::Li => {
            if ctx.parent_list_presentational {
                Role::None
            } else if ctx.parent_is_list {
                Role::Listitem
            } else {
                Role::Generic
            }
        }
        Tag::Main => Role::Main,
        Tag::Mark => Role::Mark,
        Tag::Math => Role::Math,
        Tag::Menu | Tag::Ol | Tag::Ul => Role::List,
        Tag::Meter => Role::Meter,
        Tag::Nav => Role::Navigation,
        Tag::Optgroup => Role::Group,
        Tag::Option => {
            if ctx.in_select {
                Role::Option
            } else {
                Role::Generic
            }
        }
        Tag::Output => Role::Status,
        Tag::P => Role::Paragraph,
        Tag::Progress => Role::Progressbar,
        Tag::Search => Role::Search,
        Tag::Section => {
            if named() {
                Role::Region
            } else {
                Role::Generic
            }
        }
        Tag::Select => {
            let size = attrs
                .get(A::Size)
                .and_then(|s| s.trim().parse::<u32>().ok())
                .unwrap_or(0);
            if attrs.has(A::Multiple) || size > 1 {
                Role::Listbox
            } else {
                Role::Combobox
            }
        }
        Tag::Strong => Role::Strong,
        Tag::Sub => Role::Subscript,
        Tag::Summary => Role::Button,
        Tag::Sup => Role::Superscript,
        Tag::Table => Role::Table,
        Tag::Tbody | Tag::Thead | Tag::Tfoot => table_part(ctx, Role::Rowgroup),
        Tag::Td => match ctx.table {
            TableKind::Grid => Role::Gridcell,
            TableKind::Table => Role::Cell,
            TableKind::Presentational => Role::None,
            TableKind::None => Role::Generic,
        },
        Tag::Th => match ctx.table {
            TableKind::Presentational => Role::None,
            TableKind::None => Role::Generic,
            _ => header_cell_role(attrs),
        },
        Tag::Textarea => Role::Textbox,
        Tag::Time => Role::Time,
        Tag::Tr => table_part(ctx, Role::Row),
        Tag::Svg => Role::Img,
        _ => Role::Generic,
    }
}

fn table_part(ctx: &RoleCtx, role: Role) -> Role {
    match ctx.table {
        TableKind::Presentational => Role::None,
        TableKind::None => Role::Generic,
        _ => role,
    }
}

/// `th`: `scope` decides; without it, a header cell is a column header unless the walk
/// later finds it starts a body row (see `walk`, which refines `columnheader` to `rowheader`).
fn header_cell_role(attrs: &dyn Attrs) -> Role {
    match attrs.get(A::Scope).map(|s| s.trim().to_ascii_lowercase()) {
        Some(s) if s == "row" || s == "rowgroup" => Role::Rowheader,
        _ => Role::Columnheader,
    }
}

// https://www.w3.org/TR/html-aam-1.0/#el-input-text
fn input_role(attrs: &dyn Attrs) -> Role {
    let kind = attrs
        .get(A::Type)
        .map(|t| t.trim().to_ascii_lowercase())
        .unwrap_or_default();
    let has_list = || attrs.has(A::List);
    match kind.as_str() {
        "button" | "submit" | "reset" | "image" => Role::Button,
        "checkbox" => Role::Checkbox,
        "radio" => Role::Radio,
        "range" => Role::Slider,
        "number" => Role::Spinbutton,
        "hidden" => Role::None,
        "search" => {
            if has_list() {
                Role::Combobox
            } else {
                Role::Searchbox
            }
        }
        // Chromium: a file input is a button ("Choose File").
        "file" => Role::Button,
        // Chromium exposes these as date/time pickers or a colour well; to a person they
        // are fields, so they are textboxes here (SPEC DIFFERENCE, listed by the oracle).
        "color" | "date" | "datetime-local" | "month" | "time" | "week" => Role::Textbox,
        _ => {
            if has_list() {
                Role::Combobox
            } else {
                Role::Textbox
            }
        }
    }
}

/// Nameless containers identified by their text content (`Element::text`).
pub fn uses_text(role: Role) -> bool {
    matches!(
        role,
        Role::Listitem
            | Role::Row
            | Role::Article
            | Role::Group
            | Role::Figure
            | Role::Tabpanel
            | Role::Note
            | Role::Region
            | Role::Dialog
            | Role::Alertdialog
            | Role::Feed
            | Role::Document
            | Role::Tooltip
    )
}

/// Roles with a checked state (aria-checked).
pub fn has_checked(role: Role) -> bool {
    matches!(
        role,
        Role::Checkbox | Role::Radio | Role::Switch | Role::Menuitemcheckbox | Role::Menuitemradio
    )
}

/// Roles with a selected state that defaults to false (aria-selected).
pub fn has_selected(role: Role) -> bool {
    matches!(role, Role::Option | Role::Tab)
}

/// Roles with an optional selected state (only when aria-selected is set).
pub fn may_have_selected(role: Role) -> bool {
    matches!(
        role,
        Role::Gridcell | Role::Row | Role::Treeitem | Role::Columnheader | Role::Rowheader
    )
}

/// Range widgets whose value comes from aria-valuetext/aria-valuenow.
pub fn is_range(role: Role) -> bool {
    matches!(
        role,
        Role::Slider | Role::Spinbutton | Role::Progressbar | Role::Scrollbar | Role::Meter
    )
}

/// Roles whose text a user edits or chooses: the content of these is their value, and
/// accname's embedded-control rule (2E) uses it inside another element's name.
pub fn is_embedded_control(role: Role) -> bool {
    matches!(
        role,
        Role::Textbox | Role::Searchbox | Role::Combobox | Role::Listbox
    ) || is_range(role)
}
