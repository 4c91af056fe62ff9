//! The tool declarations: Playwright MCP's names and parameters, so an agent's prompt and
//! configuration need no change, plus `intent` on every acting tool and `snapshot` to ask
//! for the page with the answer.
//!
//! Each tool's parameters are one serde type; its JSON schema is derived from that type, so
//! what is declared is exactly what is parsed. Unknown keys are ignored, as Playwright MCP
//! ignores them (an agent written for a newer Playwright MCP still works); a missing field,
//! a value of the wrong type or a string over [`MAX_ARGUMENT_CHARS`] is a JSON-RPC
//! "invalid params" error and nothing runs.

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

/// Longest string any argument may hold, in characters.
pub const MAX_ARGUMENT_CHARS: usize = crate::script::MAX_TEXT_CHARS;

/// The element of an acting tool: a ref from `browser_snapshot`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct Element {
    /// Human-readable description of the element, shown in logs; the ref decides.
    #[serde(default)]
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot (`e12`).
    #[serde(default)]
    pub target: Option<String>,
    /// The older name of `target`.
    #[serde(default, rename = "ref")]
    pub reference: Option<String>,
}

impl Element {
    /// `target`, else `ref`.
    pub fn reference(&self) -> Option<&str> {
        self.target.as_deref().or(self.reference.as_deref())
    }
}

/// What every acting tool takes besides its own parameters.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct Verified {
    /// What the action is meant to do, in a sentence ("the cart gains a shirt"). The effect
    /// is judged against it; without it, against the element's name.
    #[serde(default)]
    pub intent: Option<String>,
    /// Also return the page snapshot after the action (off by default: the answer names
    /// what changed).
    #[serde(default)]
    pub snapshot: Option<bool>,
    /// Typed claims the effect must bear out, each checked against what changed: MATCH
    /// needs every one held; a broken one, or one the settled page does not show, is
    /// MISMATCH and the action is undone. A malformed claim is INVALID_EXPECT, nothing sent.
    #[serde(default)]
    #[schemars(schema_with = "expect_schema")]
    pub expect: Option<Value>,
}

/// The JSON schema of `expect`: the core's claims (`prufe::core::expect::Claim`), whose
/// targets are role and name (not refs: a claim may name what is not on the page yet),
/// derived from the types the step reads, written out in full (no `$ref`) so that a client
/// shows every claim's fields, their doc links written as code.
fn expect_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let mut schema = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator()
        .into_root_schema_for::<Vec<prufe::core::expect::Claim>>();
    schema.remove("$schema");
    schema.remove("title");
    fn unlink(value: &mut Value) {
        match value {
            Value::Object(map) => map.iter_mut().for_each(|(key, v)| match v {
                Value::String(text) if key == "description" => {
                    *text = prufe::types::unlink(text);
                }
                v => unlink(v),
            }),
            Value::Array(items) => items.iter_mut().for_each(unlink),
            _ => {}
        }
    }
    if let Some(items) = schema.get_mut("items") {
        unlink(items);
    }
    schema.insert(
        "description".into(),
        "Typed claims about this action's own effect (appears, disappears, changes, moves, \
         stays, navigates, count, text)."
            .into(),
    );
    schema
}

/// The keys an `inverseKey` declares, pressed in order: one key (`Alt+ArrowUp`), or several
/// (`["Alt+ArrowUp", "Alt+ArrowUp"]`, a drop two places off taken back one place at a time).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "KeysGiven")]
pub struct Keys(Vec<String>);

impl Keys {
    pub fn keys(&self) -> &[String] {
        &self.0
    }
}

// `Keys` as a call writes it (its schema is the one a client is shown).
#[derive(Deserialize, JsonSchema)]
#[serde(
    untagged,
    expecting = "a key, or a non-empty list of keys pressed in order"
)]
enum KeysGiven {
    /// One key.
    One(String),
    /// Several keys, pressed in order.
    Many(#[schemars(length(min = 1))] Vec<String>),
}

impl TryFrom<KeysGiven> for Keys {
    type Error = &'static str;
    fn try_from(given: KeysGiven) -> Result<Keys, Self::Error> {
        match given {
            KeysGiven::One(key) => Ok(Keys(vec![key])),
            KeysGiven::Many(keys) if keys.is_empty() => {
                Err("an empty list of keys declares no inverse; leave the field out instead")
            }
            KeysGiven::Many(keys) => Ok(Keys(keys)),
        }
    }
}

impl JsonSchema for Keys {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Keys".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        KeysGiven::json_schema(generator)
    }
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct Navigate {
    /// The URL to navigate to.
    pub url: String,
    #[serde(flatten)]
    pub verified: Verified,
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct NavigateBack {
    /// Also return the page snapshot after going back.
    #[serde(default)]
    pub snapshot: Option<bool>,
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct Empty {}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MouseButton {
    Left,
    Right,
    Middle,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Click {
    #[serde(flatten)]
    pub element: Element,
    /// Whether to perform a double click (not verified by prufe: refused).
    #[serde(default)]
    pub double_click: Option<bool>,
    /// Button to click, defaults to left (only left clicks are verified).
    #[serde(default)]
    pub button: Option<MouseButton>,
    /// Modifier keys to press (not verified by prufe: refused).
    #[serde(default)]
    pub modifiers: Option<Vec<String>>,
    #[serde(flatten)]
    pub verified: Verified,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct Type {
    #[serde(flatten)]
    pub element: Element,
    /// Text to type into the element (replacing what it holds). `${NAME}` is replaced by the
    /// secret NAME of the server's secrets file, typed but never shown.
    pub text: String,
    /// Whether to submit entered text (press Enter after).
    #[serde(default)]
    pub submit: Option<bool>,
    /// Accepted for compatibility; prufe always types key by key.
    #[serde(default)]
    pub slowly: Option<bool>,
    #[serde(flatten)]
    pub verified: Verified,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FieldType {
    Textbox,
    Checkbox,
    Radio,
    Combobox,
    Slider,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct Field {
    /// Human-readable field name.
    #[serde(default)]
    pub name: Option<String>,
    /// Type of the field.
    #[serde(rename = "type")]
    pub kind: FieldType,
    /// Exact target field reference from the page snapshot.
    #[serde(default)]
    pub target: Option<String>,
    /// The older name of `target`.
    #[serde(default, rename = "ref")]
    pub reference: Option<String>,
    /// Value to fill: text for a textbox (`${NAME}` for a secret), "true" or "false" for a
    /// checkbox, the option's label for a combobox.
    pub value: String,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct FillForm {
    /// Fields to fill in, each verified in turn; the first that fails stops the form.
    pub fields: Vec<Field>,
    #[serde(flatten)]
    pub verified: Verified,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct SelectOption {
    #[serde(flatten)]
    pub element: Element,
    /// The option to select (one: prufe verifies one choice at a time).
    pub values: Vec<String>,
    #[serde(flatten)]
    pub verified: Verified,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct Hover {
    #[serde(flatten)]
    pub element: Element,
    #[serde(flatten)]
    pub verified: Verified,
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Drag {
    /// Human-readable source element description.
    #[serde(default)]
    pub start_element: Option<String>,
    /// Exact source element reference from the page snapshot.
    #[serde(default)]
    pub start_target: Option<String>,
    /// The older name of `startTarget`.
    #[serde(default)]
    pub start_ref: Option<String>,
    /// Human-readable target element description.
    #[serde(default)]
    pub end_element: Option<String>,
    /// Exact target element reference from the page snapshot.
    #[serde(default)]
    pub end_target: Option<String>,
    /// The older name of `endTarget`.
    #[serde(default)]
    pub end_ref: Option<String>,
    /// A key that takes a wrong drop back, pressed on the dragged element (`Alt+ArrowDown`
    /// where the list moves a row from the keyboard), or several pressed in order (a drop two
    /// places off: `["Alt+ArrowDown", "Alt+ArrowDown"]`). Without it, a wrong drop stops
    /// with IRREVERSIBLE_ACTION.
    #[serde(default)]
    pub inverse_key: Option<Keys>,
    #[serde(flatten)]
    pub verified: Verified,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PressKey {
    /// Name of the key to press or a character to generate, such as `ArrowLeft`, `a` or
    /// `Control+a`.
    pub key: String,
    /// The element to press the key on (its ref from the snapshot); without it, the key goes
    /// to whatever has the focus.
    #[serde(flatten)]
    pub element: Element,
    /// A key that takes a wrong effect back, pressed the same way (`Alt+ArrowUp` for an
    /// `Alt+ArrowDown` that moves a row of a list), or several pressed in order. Without it,
    /// a wrong effect nothing generic undoes (a reorder) stops with IRREVERSIBLE_ACTION.
    #[serde(default)]
    pub inverse_key: Option<Keys>,
    #[serde(flatten)]
    pub verified: Verified,
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct FileUpload {
    /// The absolute paths to the files to upload.
    #[serde(default)]
    pub paths: Option<Vec<String>>,
    /// The file input: a ref from the snapshot; without it, the element of the last click.
    #[serde(flatten)]
    pub element: Element,
    #[serde(flatten)]
    pub verified: Verified,
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WaitFor {
    /// The time to wait in seconds; with a text or an element, the longest to wait for it.
    #[serde(default)]
    pub time: Option<f64>,
    /// The text to wait for.
    #[serde(default)]
    pub text: Option<String>,
    /// The text to wait for to disappear.
    #[serde(default)]
    pub text_gone: Option<String>,
    /// The role of an element to wait for (`status`, `listitem`, …), with `name`: waits
    /// until a visible element of this role and accessible name appears (a ref cannot name
    /// what the page does not show yet).
    #[serde(default)]
    pub role: Option<String>,
    /// The accessible name of the element to wait for, with `role`.
    #[serde(default)]
    pub name: Option<String>,
    /// Where to look: a region path of the snapshot (`main`, `main/list:done`); the whole
    /// page without it.
    #[serde(default)]
    pub region: Option<String>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HandleDialog {
    /// Whether to accept the dialog.
    pub accept: bool,
    /// The text of the prompt in case of a prompt dialog.
    #[serde(default)]
    pub prompt_text: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ImageType {
    Png,
    Jpeg,
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Screenshot {
    /// Image format; prufe captures PNG.
    #[serde(default, rename = "type")]
    pub kind: Option<ImageType>,
    /// Accepted for compatibility; the image is returned in the answer.
    #[serde(default)]
    pub filename: Option<String>,
    #[serde(flatten)]
    pub element: Element,
    /// Accepted for compatibility; prufe captures the viewport.
    #[serde(default)]
    pub full_page: Option<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TabAction {
    List,
    New,
    Close,
    Select,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct Tabs {
    /// Operation to perform.
    pub action: TabAction,
    /// Tab index, used for close/select.
    #[serde(default)]
    pub index: Option<u32>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct ClickXy {
    /// Human-readable element description.
    #[serde(default)]
    pub element: Option<String>,
    /// X coordinate, in pixels of the last screenshot.
    pub x: f64,
    /// Y coordinate, in pixels of the last screenshot.
    pub y: f64,
    #[serde(flatten)]
    pub verified: Verified,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DragXy {
    /// Human-readable element description.
    #[serde(default)]
    pub element: Option<String>,
    /// Start X coordinate, in pixels of the last screenshot.
    pub start_x: f64,
    /// Start Y coordinate.
    pub start_y: f64,
    /// End X coordinate.
    pub end_x: f64,
    /// End Y coordinate.
    pub end_y: f64,
    #[serde(flatten)]
    pub verified: Verified,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WheelXy {
    /// Human-readable element description.
    #[serde(default)]
    pub element: Option<String>,
    /// X coordinate of the pointer, in pixels of the last screenshot.
    pub x: f64,
    /// Y coordinate of the pointer, in pixels of the last screenshot.
    pub y: f64,
    /// X delta, in pixels of the last screenshot (positive scrolls right).
    #[serde(default)]
    pub delta_x: f64,
    /// Y delta, in pixels of the last screenshot (positive scrolls down).
    #[serde(default)]
    pub delta_y: f64,
    /// Also return the page snapshot after the scroll.
    #[serde(default)]
    pub snapshot: Option<bool>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct KeyboardPress {
    /// The key or chord to press, such as `Tab`, `Enter` or `Control+a`.
    pub key: String,
    /// Also return the page snapshot after the key.
    #[serde(default)]
    pub snapshot: Option<bool>,
}

/// `browser_watch`: steps sent unverified, their one effect judged.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct Watch {
    /// The steps, written as a `prufe run` script writes them (`{"action": "click",
    /// "target": {"role": "button", "name": "Add Cap"}}`; click, fill, check, uncheck, select,
    /// press, hover, upload, drag, goto), sent one after the other, unverified. Targets are
    /// role and name, optionally region, as in a script (not refs: a step may name what an
    /// earlier one shows).
    pub steps: Vec<Value>,
    #[serde(flatten)]
    pub verified: Verified,
}

/// A parsed tool call.
#[derive(Debug, Clone)]
pub enum Call {
    Navigate(Navigate),
    NavigateBack(NavigateBack),
    Snapshot,
    Click(Click),
    Type(Type),
    FillForm(FillForm),
    SelectOption(SelectOption),
    Hover(Hover),
    Drag(Drag),
    PressKey(PressKey),
    FileUpload(FileUpload),
    WaitFor(WaitFor),
    HandleDialog(HandleDialog),
    Screenshot(Screenshot),
    Tabs(Tabs),
    Close,
    ClickXy(ClickXy),
    DragXy(DragXy),
    WheelXy(WheelXy),
    KeyboardPress(KeyboardPress),
    Watch(Watch),
}

/// What a tool does to the page, for its annotations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Reads the page only.
    ReadOnly,
    /// Changes the page; a wrong effect is undone.
    Acting,
    /// Sends input as given, recorded but not judged (a key chord, a wheel turn).
    Input,
    /// Loads another page (reaches the open world).
    Navigating,
    /// Ends the session's browser; not verified.
    Closing,
}

struct Declaration {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    kind: Kind,
    vision: bool,
    schema: fn() -> Arc<JsonObject>,
}

fn schema<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    rmcp::handler::server::common::schema_for_input::<T>()
        .unwrap_or_else(|_| rmcp::handler::server::common::schema_for_empty_input())
}

const VERIFIED: &str = " Verified: the answer gives the verdict (MATCH, MISMATCH, AMBIGUOUS), \
the reason, what changed on the page, and whether a wrong effect was undone.";

/// Every tool, in the order `tools/list` gives them.
const TOOLS: &[Declaration] = &[
    Declaration {
        name: "browser_navigate",
        title: "Navigate to a URL",
        description: "Navigate to a URL.",
        kind: Kind::Navigating,
        vision: false,
        schema: schema::<Navigate>,
    },
    Declaration {
        name: "browser_navigate_back",
        title: "Go back",
        description: "Go back to the previous page.",
        kind: Kind::Navigating,
        vision: false,
        schema: schema::<NavigateBack>,
    },
    Declaration {
        name: "browser_snapshot",
        title: "Page snapshot",
        description: "Capture the page as a compact tree of its elements (role, name, states, \
                      ref), secrets redacted. Use the refs with the other tools; a ref from an \
                      earlier page is refused with STALE_REFERENCE.",
        kind: Kind::ReadOnly,
        vision: false,
        schema: schema::<Empty>,
    },
    Declaration {
        name: "browser_click",
        title: "Click",
        description: "Perform click on a web page.",
        kind: Kind::Acting,
        vision: false,
        schema: schema::<Click>,
    },
    Declaration {
        name: "browser_type",
        title: "Type text",
        description: "Type text into editable element. ${NAME} types the secret NAME of the \
                      server's secrets file without showing it.",
        kind: Kind::Acting,
        vision: false,
        schema: schema::<Type>,
    },
    Declaration {
        name: "browser_fill_form",
        title: "Fill form",
        description: "Fill multiple form fields.",
        kind: Kind::Acting,
        vision: false,
        schema: schema::<FillForm>,
    },
    Declaration {
        name: "browser_select_option",
        title: "Select option",
        description: "Select an option in a dropdown.",
        kind: Kind::Acting,
        vision: false,
        schema: schema::<SelectOption>,
    },
    Declaration {
        name: "browser_hover",
        title: "Hover mouse",
        description: "Hover over element on page.",
        kind: Kind::Acting,
        vision: false,
        schema: schema::<Hover>,
    },
    Declaration {
        name: "browser_drag",
        title: "Drag mouse",
        description: "Perform drag and drop between two elements. A wrong drop is undone by \
                      `inverseKey` (a key, or keys pressed in order), pressed on the dragged \
                      element; without it, it has no known inverse and prufe stops with \
                      IRREVERSIBLE_ACTION.",
        kind: Kind::Acting,
        vision: false,
        schema: schema::<Drag>,
    },
    Declaration {
        name: "browser_press_key",
        title: "Press a key",
        description: "Press a key on the keyboard: on the element given (its ref), else on \
                      whatever has the focus. A wrong effect is undone; one nothing generic \
                      undoes (a key that reorders a list) is undone by `inverseKey` (a key, or \
                      keys pressed in order), pressed the same way, and without it prufe stops \
                      with IRREVERSIBLE_ACTION.",
        kind: Kind::Acting,
        vision: false,
        schema: schema::<PressKey>,
    },
    Declaration {
        name: "browser_file_upload",
        title: "Upload files",
        description: "Upload one or multiple files into a file input.",
        kind: Kind::Acting,
        vision: false,
        schema: schema::<FileUpload>,
    },
    Declaration {
        name: "browser_wait_for",
        title: "Wait for",
        description: "Wait for text to appear or disappear, for an element (role and name) to \
                      appear, or a specified time to pass.",
        kind: Kind::ReadOnly,
        vision: false,
        schema: schema::<WaitFor>,
    },
    Declaration {
        name: "browser_watch",
        title: "Watch steps",
        description: "Send steps unverified (a `prufe run` script's steps, targets by role and \
                      name) and judge their one combined effect against the intent, as a \
                      script's watch does: for a sequence whose states in between do not \
                      matter (open a menu, then pick its item). Never undone: a wrong effect is \
                      reported, not taken back.",
        kind: Kind::Acting,
        vision: false,
        schema: schema::<Watch>,
    },
    Declaration {
        name: "browser_handle_dialog",
        title: "Handle a dialog",
        description: "Say how to answer the next JavaScript dialog (alert, confirm, prompt). \
                      prufe answers every dialog at once, declining it unless told otherwise: \
                      call this before the action that opens the dialog.",
        kind: Kind::Acting,
        vision: false,
        schema: schema::<HandleDialog>,
    },
    Declaration {
        name: "browser_take_screenshot",
        title: "Take a screenshot",
        description: "Take a screenshot of the current page (the viewport, PNG).",
        kind: Kind::ReadOnly,
        vision: false,
        schema: schema::<Screenshot>,
    },
    Declaration {
        name: "browser_tabs",
        title: "Manage tabs",
        description: "List the browser tabs. prufe verifies actions in one tab: new, close and \
                      select are refused.",
        kind: Kind::ReadOnly,
        vision: false,
        schema: schema::<Tabs>,
    },
    Declaration {
        name: "browser_close",
        title: "Close browser",
        description: "Close the page and its browser; the next tool call opens a new one.",
        kind: Kind::Closing,
        vision: false,
        schema: schema::<Empty>,
    },
    Declaration {
        name: "browser_mouse_click_xy",
        title: "Click",
        description: "Click left mouse button at a given position of the last screenshot \
                      (browser_take_screenshot); a point of an older screenshot is refused with \
                      STALE_OBSERVATION.",
        kind: Kind::Acting,
        vision: true,
        schema: schema::<ClickXy>,
    },
    Declaration {
        name: "browser_mouse_drag_xy",
        title: "Drag mouse",
        description: "Drag left mouse button from one position of the last screenshot to \
                      another.",
        kind: Kind::Acting,
        vision: true,
        schema: schema::<DragXy>,
    },
    Declaration {
        name: "browser_mouse_wheel_xy",
        title: "Scroll mouse wheel",
        description: "Scroll the mouse wheel with the pointer at a given position of the last \
                      screenshot (browser_take_screenshot).",
        kind: Kind::Input,
        vision: true,
        schema: schema::<WheelXy>,
    },
    Declaration {
        name: "browser_keyboard_press",
        title: "Press a key chord",
        description: "Press a key or chord on whatever has the focus, as sent by a keyboard \
                      (browser_type without a ref then types where the focus went).",
        kind: Kind::Input,
        vision: true,
        schema: schema::<KeyboardPress>,
    },
];

/// What an input tool's answer says.
const INPUT: &str = " Not judged: the answer says what was sent and where the focus went or \
which container scrolled how far; state what should follow with browser_wait_for.";

/// The tools served: with `vision`, the coordinate tools too.
pub fn tools(vision: bool) -> Vec<Tool> {
    TOOLS
        .iter()
        .filter(|d| vision || !d.vision)
        .map(|d| {
            let description = match d.kind {
                Kind::Acting | Kind::Navigating => format!("{}{VERIFIED}", d.description),
                Kind::Input => format!("{}{INPUT}", d.description),
                _ => d.description.to_owned(),
            };
            let annotations = ToolAnnotations::with_title(d.title)
                .read_only(d.kind == Kind::ReadOnly)
                // A verified action can still be one that deletes or pays: only a wrong
                // effect is undone.
                .destructive(d.kind != Kind::ReadOnly)
                .idempotent(d.kind == Kind::ReadOnly)
                .open_world(d.kind == Kind::Navigating);
            Tool::new(d.name, description, (d.schema)()).annotate(annotations)
        })
        .collect()
}

/// Why a call could not be parsed: the JSON-RPC "invalid params" message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invalid {
    UnknownTool(String),
    Params(String),
}

/// Parses a `tools/call` into a [`Call`].
pub fn parse(name: &str, arguments: Option<&JsonObject>, vision: bool) -> Result<Call, Invalid> {
    let declared = TOOLS
        .iter()
        .find(|d| d.name == name && (vision || !d.vision))
        .ok_or_else(|| {
            Invalid::UnknownTool(format!(
                "unknown tool {:?}; tools/list names the tools{}",
                prufe::core::text::cap(name, 60),
                if TOOLS.iter().any(|d| d.name == name) {
                    " (the coordinate tools need --caps=vision)"
                } else {
                    ""
                }
            ))
        })?;
    let value = Value::Object(arguments.cloned().unwrap_or_default());
    check_lengths(&value, "")?;
    fn args<T: DeserializeOwned>(value: Value, tool: &str) -> Result<T, Invalid> {
        serde_json::from_value(value).map_err(|e| Invalid::Params(format!("{tool}: {e}")))
    }
    let tool = declared.name;
    Ok(match tool {
        "browser_navigate" => Call::Navigate(args(value, tool)?),
        "browser_navigate_back" => Call::NavigateBack(args(value, tool)?),
        "browser_snapshot" => Call::Snapshot,
        "browser_click" => Call::Click(args(value, tool)?),
        "browser_type" => Call::Type(args(value, tool)?),
        "browser_fill_form" => Call::FillForm(args(value, tool)?),
        "browser_select_option" => Call::SelectOption(args(value, tool)?),
        "browser_hover" => Call::Hover(args(value, tool)?),
        "browser_drag" => Call::Drag(args(value, tool)?),
        "browser_press_key" => Call::PressKey(args(value, tool)?),
        "browser_file_upload" => Call::FileUpload(args(value, tool)?),
        "browser_wait_for" => Call::WaitFor(args(value, tool)?),
        "browser_handle_dialog" => Call::HandleDialog(args(value, tool)?),
        "browser_take_screenshot" => Call::Screenshot(args(value, tool)?),
        "browser_tabs" => Call::Tabs(args(value, tool)?),
        "browser_close" => Call::Close,
        "browser_mouse_click_xy" => Call::ClickXy(args(value, tool)?),
        "browser_mouse_drag_xy" => Call::DragXy(args(value, tool)?),
        "browser_mouse_wheel_xy" => Call::WheelXy(args(value, tool)?),
        "browser_keyboard_press" => Call::KeyboardPress(args(value, tool)?),
        "browser_watch" => Call::Watch(args(value, tool)?),
        _ => return Err(Invalid::UnknownTool(format!("unknown tool {tool:?}"))),
    })
}

/// Refuses any string longer than [`MAX_ARGUMENT_CHARS`], naming where it is.
fn check_lengths(value: &Value, at: &str) -> Result<(), Invalid> {
    match value {
        Value::String(s)
            if s.len() > MAX_ARGUMENT_CHARS && s.chars().count() > MAX_ARGUMENT_CHARS =>
        {
            Err(Invalid::Params(format!(
                "argument {} holds {} characters; at most {MAX_ARGUMENT_CHARS} are accepted",
                if at.is_empty() { "value" } else { at },
                s.chars().count()
            )))
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| check_lengths(v, &format!("{at}[{i}]"))),
        Value::Object(map) => map.iter().try_for_each(|(k, v)| {
            let key = prufe::core::text::cap(k, 40);
            let here = if at.is_empty() {
                key.into_owned()
            } else {
                format!("{at}.{key}")
            };
            if k.chars().count() > MAX_ARGUMENT_CHARS {
                return Err(Invalid::Params("an argument name is too long".into()));
            }
            check_lengths(v, &here)
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(v: Value) -> JsonObject {
        match v {
            Value::Object(m) => m,
            _ => panic!("not an object"),
        }
    }

    #[test]
    fn every_tool_has_an_object_schema_and_annotations() {
        let tools = tools(true);
        assert_eq!(tools.len(), TOOLS.len());
        for t in &tools {
            assert_eq!(
                t.input_schema.get("type"),
                Some(&json!("object")),
                "{}",
                t.name
            );
            let a = t.annotations.as_ref().expect("annotations");
            assert!(
                a.read_only_hint.is_some() && a.destructive_hint.is_some(),
                "{}",
                t.name
            );
        }
        let names: Vec<_> = super::tools(false)
            .iter()
            .map(|t| t.name.to_string())
            .collect();
        assert!(!names.contains(&"browser_mouse_click_xy".to_owned()));
        assert!(names.contains(&"browser_click".to_owned()));
        let click = tools.iter().find(|t| t.name == "browser_click").unwrap();
        let props = click.input_schema["properties"].as_object().unwrap();
        for key in [
            "element",
            "target",
            "ref",
            "intent",
            "snapshot",
            "doubleClick",
            "button",
        ] {
            assert!(
                props.contains_key(key),
                "browser_click lacks {key}: {props:?}"
            );
        }
        let snapshot = tools.iter().find(|t| t.name == "browser_snapshot").unwrap();
        assert_eq!(
            snapshot.annotations.as_ref().unwrap().read_only_hint,
            Some(true)
        );
        assert_eq!(
            click.annotations.as_ref().unwrap().read_only_hint,
            Some(false)
        );
    }

    /// docs/mcp-tools.json is what `tools/list` answers with `--caps=vision` (every tool);
    /// `make types` (this test with `PRUFE_BLESS=1`) rewrites it.
    #[test]
    fn the_committed_tool_list_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/mcp-tools.json");
        let listed = serde_json::to_string_pretty(&json!({ "tools": tools(true) })).unwrap() + "\n";
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed == listed {
            return;
        }
        if std::env::var_os("PRUFE_BLESS").is_some_and(|v| v == "1") {
            std::fs::write(&path, &listed).unwrap();
            return;
        }
        let line = committed
            .lines()
            .zip(listed.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(listed.lines().count()));
        panic!(
            "docs/mcp-tools.json differs from the tools the server declares (first at line {}: \
             {:?} is now {:?}); run `make types` and commit it",
            line + 1,
            committed.lines().nth(line).unwrap_or(""),
            listed.lines().nth(line).unwrap_or("")
        );
    }

    #[test]
    fn calls_parse_with_target_or_the_older_ref() {
        let Call::Click(c) = parse(
            "browser_click",
            Some(&object(json!({"element": "Add", "ref": "e3"}))),
            false,
        )
        .unwrap() else {
            panic!("not a click")
        };
        assert_eq!(c.element.reference(), Some("e3"));
        let Call::Click(c) = parse(
            "browser_click",
            Some(&object(
                json!({"target": "e4", "ref": "e3", "intent": "adds", "extra": 1}),
            )),
            false,
        )
        .unwrap() else {
            panic!("not a click")
        };
        assert_eq!(c.element.reference(), Some("e4"));
        assert_eq!(c.verified.intent.as_deref(), Some("adds"));
    }

    /// The call a tool's arguments parse into (with `--caps=vision`).
    fn parsed(tool: &str, args: Value) -> Call {
        parse(tool, Some(&object(args)), true).unwrap()
    }

    #[test]
    fn keys_wheels_and_waits_parse() {
        let Call::PressKey(p) = parsed("browser_press_key", json!({"key": "Enter", "ref": "e2"}))
        else {
            panic!("not a press")
        };
        assert_eq!(
            (p.key.as_str(), p.element.reference()),
            ("Enter", Some("e2"))
        );
        let Call::PressKey(p) = parsed("browser_press_key", json!({"key": "Tab"})) else {
            panic!("not a press")
        };
        assert_eq!((p.element.reference(), p.inverse_key), (None, None));
        let press = json!({"key": "Alt+ArrowDown", "ref": "e4", "inverseKey": "Alt+ArrowUp"});
        let Call::PressKey(p) = parsed("browser_press_key", press) else {
            panic!("not a press")
        };
        assert_eq!(
            p.inverse_key.as_ref().map(Keys::keys),
            Some(&["Alt+ArrowUp".to_owned()][..])
        );
        let drop = json!({"startRef": "e4", "endRef": "e1", "inverseKey": ["Alt+ArrowDown", "Alt+ArrowDown"]});
        let Call::Drag(d) = parsed("browser_drag", drop) else {
            panic!("not a drag")
        };
        let twice = ["Alt+ArrowDown".to_owned(), "Alt+ArrowDown".to_owned()];
        assert_eq!(d.inverse_key.as_ref().map(Keys::keys), Some(&twice[..]));
        for wrong in [json!([]), json!(3), json!(["Alt+ArrowDown", 3])] {
            let drop = json!({"startRef": "e4", "endRef": "e1", "inverseKey": wrong});
            let Err(Invalid::Params(message)) = parse("browser_drag", Some(&object(drop)), false)
            else {
                panic!("{wrong} is no inverse")
            };
            assert!(message.contains("key"), "{message}");
        }
        let wheel = json!({"x": 185, "y": 285, "deltaY": 300});
        let Call::WheelXy(w) = parsed("browser_mouse_wheel_xy", wheel) else {
            panic!("not a wheel")
        };
        assert_eq!((w.x, w.y, w.delta_x, w.delta_y), (185.0, 285.0, 0.0, 300.0));
        let Call::KeyboardPress(k) = parsed("browser_keyboard_press", json!({"key": "Shift+Tab"}))
        else {
            panic!("not a key chord")
        };
        assert_eq!(k.key, "Shift+Tab");
        let row = json!({"role": "listitem", "name": "Row 20", "region": "main", "time": 3});
        let Call::WaitFor(w) = parsed("browser_wait_for", row) else {
            panic!("not a wait")
        };
        assert_eq!(
            (w.role.as_deref(), w.name.as_deref(), w.region.as_deref()),
            (Some("listitem"), Some("Row 20"), Some("main"))
        );
        // The input tools say they are not judged; they take no intent.
        let listed = tools(true);
        let wheel = listed
            .iter()
            .find(|t| t.name == "browser_mouse_wheel_xy")
            .unwrap();
        assert!(wheel.description.as_deref().unwrap().contains("Not judged"));
        assert!(!wheel.input_schema["properties"]
            .as_object()
            .unwrap()
            .contains_key("intent"));
        assert!(!tools(false)
            .iter()
            .any(|t| t.name == "browser_keyboard_press"));
    }

    #[test]
    fn malformed_calls_are_invalid_params() {
        let cases = [
            ("browser_fly", json!({}), "unknown tool"),
            (
                "browser_mouse_click_xy",
                json!({"x": 1, "y": 2}),
                "--caps=vision",
            ),
            ("browser_navigate", json!({}), "missing field `url`"),
            (
                "browser_type",
                json!({"ref": "e1", "text": 5}),
                "invalid type",
            ),
            ("browser_tabs", json!({"action": "fly"}), "unknown variant"),
            (
                "browser_keyboard_press",
                json!({"key": "Tab"}),
                "--caps=vision",
            ),
            (
                "browser_press_key",
                json!({"key": "Enter", "target": 2}),
                "invalid type",
            ),
            (
                "browser_type",
                json!({"ref": "e1", "text": "x".repeat(MAX_ARGUMENT_CHARS + 1)}),
                "argument text holds",
            ),
        ];
        for (tool, args, words) in cases {
            let e = parse(tool, Some(&object(args)), false).unwrap_err();
            let text = match e {
                Invalid::UnknownTool(m) | Invalid::Params(m) => m,
            };
            assert!(text.contains(words), "{tool}: {text}");
        }
    }
}
