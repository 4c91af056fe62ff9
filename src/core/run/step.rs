//! The step a run verifies: a semantic action on a declared target, or a pointer gesture on
//! a point of an observation.

use super::need::{Button, Point};
use crate::core::error::{Error, ErrorCode};
use crate::core::expect::Claim;
use crate::core::identity::{describe_element, describe_parts};
use crate::core::judge::ActionKind;
use crate::core::model::{Element, REDACTED};
use crate::core::resolve::Target;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One step: an action, the intent it serves, the typed claims its effect must bear out
/// (`expect`, see `core::expect`), and the steps that undo it where no generic inverse
/// exists (`inverse`: a file chosen, a drop, a key that reorders a list; see
/// [`Step::check_inverse`] for what an inverse may be).
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Step {
    pub action: Action,
    #[serde(default)]
    pub intent: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expect: Vec<Claim>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inverse: Vec<Step>,
}

/// What a step does. Semantic actions name their target; `clickAt` and `dragAt` act on a
/// point and carry what the observation showed there.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Action {
    Click {
        target: Target,
    },
    /// A `sensitive` value is typed but never shown; the judge compares its keyed hash.
    Fill {
        target: Target,
        value: String,
        #[serde(default)]
        sensitive: bool,
    },
    Check {
        target: Target,
    },
    Uncheck {
        target: Target,
    },
    Select {
        target: Target,
        option: String,
    },
    Press {
        key: String,
        #[serde(default)]
        target: Option<Target>,
    },
    Hover {
        target: Target,
    },
    Upload {
        target: Target,
        files: Vec<String>,
    },
    Drag {
        target: Target,
        to: Target,
    },
    Goto {
        url: String,
    },
    /// A click on a point (CSS pixels of the top viewport). `expected` is the element the
    /// observation showed there (from its hit boxes), `None` when it showed none; `shown`
    /// is how the record names the point (`(120, 48) on obs-3`).
    ClickAt {
        at: Point,
        #[serde(default)]
        button: Button,
        #[serde(default)]
        expected: Option<Box<Element>>,
        #[serde(default)]
        shown: Option<String>,
    },
    /// Observe while something else acts: the driver's own unverified `steps` (a script's
    /// watch), or the caller's code (another client, an agent) when there are none. The
    /// machine settles and observes, asks the driver to let the watched actions happen
    /// ([`super::Need::Act`]), settles again and judges what changed against the intent
    /// alone. Nothing is undone. The machine never reads `steps`: the driver runs them.
    Watch {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        steps: Vec<Step>,
    },
    /// A pointer drag from one point to another, in `steps` moves.
    DragAt {
        from: Point,
        to: Point,
        #[serde(default = "default_steps")]
        steps: u32,
        #[serde(default)]
        expected: Option<Box<Element>>,
        #[serde(default)]
        expected_to: Option<Box<Element>>,
        #[serde(default)]
        shown: Option<String>,
    },
    /// A key chord (`Control+S`, `Tab`) on whatever has the focus, every key released in
    /// reverse order: sent, settled, and the focus read after (where typing goes next). Not
    /// judged: a wait states what should follow it.
    Key {
        chord: String,
    },
    /// A wheel turn of `dx`, `dy` CSS pixels at a point. `expected` is the element the
    /// observation showed there, `shown` how the record names the point. The run checks the
    /// point, finds the scroll container under it, and waits until it stops moving; the
    /// record says where it stands, and whether it moved.
    ScrollAt {
        at: Point,
        #[serde(default)]
        dx: f64,
        #[serde(default)]
        dy: f64,
        #[serde(default)]
        expected: Option<Box<Element>>,
        #[serde(default)]
        shown: Option<String>,
    },
    /// Text typed where the focus is, into `field` (the field the last click or key left
    /// focused; `None`: whatever field has the focus). Nothing is typed when the focus is
    /// elsewhere (`FOCUS_LOST`); the field is read back after. A `sensitive` text, or any text
    /// typed into a sensitive field, is compared by keyed hash and never shown.
    TypeText {
        text: String,
        #[serde(default)]
        sensitive: bool,
        #[serde(default)]
        field: Option<Box<Element>>,
    },
}

/// The longest text a typing step may carry, in characters.
pub const MAX_TYPE_CHARS: usize = 10_000;

/// The limits of what a typing step carries: `INVALID_ACTION` for an empty text or one of
/// more than [`MAX_TYPE_CHARS`] characters. The one check of every surface: the machine's at
/// the start of a run, and the CLI's as it reads a request.
pub fn check_type_text(text: &str) -> Result<(), Error> {
    if text.is_empty() || text.chars().count() > MAX_TYPE_CHARS {
        return Err(Error::new(
            ErrorCode::InvalidAction,
            format!("\"text\" must hold 1 to {MAX_TYPE_CHARS} characters"),
        ));
    }
    Ok(())
}

/// The most moves a drag may ask for.
pub const MAX_DRAG_STEPS: u32 = 200;

/// The moves of a drag: `INVALID_ACTION` unless an integer from 1 to [`MAX_DRAG_STEPS`]. The
/// one check of every surface: the machine's at the start of a run, the screenshot's aim
/// (`screen::aim`) and the CLI's as it reads a request.
pub fn check_drag_steps(steps: f64) -> Result<u32, Error> {
    if !(steps.fract() == 0.0 && (1.0..=f64::from(MAX_DRAG_STEPS)).contains(&steps)) {
        return Err(Error::new(
            ErrorCode::InvalidAction,
            format!("\"steps\" must be an integer from 1 to {MAX_DRAG_STEPS}"),
        ));
    }
    Ok(steps as u32)
}

fn default_steps() -> u32 {
    10
}

/// An inverse that declares an inverse of its own.
pub const INVERSE_OF_INVERSE: &str = "an inverse step cannot declare its own inverse";
/// A watch given as an inverse (or inside a watch).
pub const NESTED_WATCH: &str = "watch cannot be nested inside another watch or an inverse";
/// Claims on a step that runs unverified.
pub const UNVERIFIED_EXPECT: &str =
    "\"expect\" belongs to a verified step; an inverse or a watched step runs unverified";

impl Step {
    pub fn new(action: Action) -> Step {
        Step {
            action,
            intent: None,
            expect: Vec::new(),
            inverse: Vec::new(),
        }
    }

    pub fn with_intent(mut self, intent: impl Into<String>) -> Step {
        self.intent = Some(intent.into());
        self
    }

    pub fn with_expect(mut self, expect: Vec<Claim>) -> Step {
        self.expect = expect;
        self
    }

    pub fn with_inverse(mut self, inverse: Vec<Step>) -> Step {
        self.inverse = inverse;
        self
    }

    /// Checks the declared inverse before anything is sent, and reads its keys into their
    /// canonical names: each inverse step is an action run unverified, so it declares no
    /// inverse, is no watch, carries no `expect`, and names only keys the table knows.
    /// `INVALID_ACTION` otherwise, naming the inverse step (`inverse[1]: …`). The one check
    /// every surface's inverse meets (a script's parser gives the same texts, located).
    pub fn check_inverse(&mut self) -> Result<(), Error> {
        for (i, step) in self.inverse.iter_mut().enumerate() {
            let at = |message: &str| {
                Error::new(ErrorCode::InvalidAction, format!("inverse[{i}]: {message}"))
            };
            if !step.inverse.is_empty() {
                return Err(at(INVERSE_OF_INVERSE));
            }
            if matches!(step.action, Action::Watch { .. }) {
                return Err(at(NESTED_WATCH));
            }
            if !step.expect.is_empty() {
                return Err(at(UNVERIFIED_EXPECT));
            }
            step.action.name_keys().map_err(|e| at(&e.message))?;
            step.action.check_limits().map_err(|e| at(&e.message))?;
        }
        Ok(())
    }
}

impl Action {
    /// A watch of whatever acts next (no steps of the driver's own).
    pub fn watch() -> Action {
        Action::Watch { steps: Vec::new() }
    }

    /// The wire name, as the record shows it: `click`, `fill`, …, `click_at`, `drag_at`,
    /// `scroll_at`, `key`, `type`.
    pub fn name(&self) -> &'static str {
        match self {
            Action::ClickAt { .. } => "click_at",
            Action::DragAt { .. } => "drag_at",
            Action::ScrollAt { .. } => "scroll_at",
            Action::Key { .. } => "key",
            Action::TypeText { .. } => "type",
            other => other.judged().as_str(),
        }
    }

    /// The kind the judge reads. A key, a scroll and typing are never judged (their runs
    /// check what they did themselves); they read as a press, a watch and a fill.
    pub fn judged(&self) -> ActionKind {
        match self {
            Action::Key { .. } => ActionKind::Press,
            Action::ScrollAt { .. } => ActionKind::Watch,
            Action::TypeText { .. } => ActionKind::Fill,
            Action::Click { .. } | Action::ClickAt { .. } => ActionKind::Click,
            Action::Fill { .. } => ActionKind::Fill,
            Action::Check { .. } => ActionKind::Check,
            Action::Uncheck { .. } => ActionKind::Uncheck,
            Action::Select { .. } => ActionKind::Select,
            Action::Press { .. } => ActionKind::Press,
            Action::Hover { .. } => ActionKind::Hover,
            Action::Upload { .. } => ActionKind::Upload,
            Action::Drag { .. } | Action::DragAt { .. } => ActionKind::Drag,
            Action::Goto { .. } => ActionKind::Goto,
            Action::Watch { .. } => ActionKind::Watch,
        }
    }

    /// The declared target, if any.
    pub fn target(&self) -> Option<&Target> {
        match self {
            Action::Click { target }
            | Action::Fill { target, .. }
            | Action::Check { target }
            | Action::Uncheck { target }
            | Action::Select { target, .. }
            | Action::Hover { target }
            | Action::Upload { target, .. }
            | Action::Drag { target, .. } => Some(target),
            Action::Press { target, .. } => target.as_ref(),
            Action::Goto { .. }
            | Action::Watch { .. }
            | Action::ClickAt { .. }
            | Action::DragAt { .. }
            | Action::Key { .. }
            | Action::ScrollAt { .. }
            | Action::TypeText { .. } => None,
        }
    }

    /// Acts on a point rather than on a declared target.
    pub fn is_pointer(&self) -> bool {
        matches!(self, Action::ClickAt { .. } | Action::DragAt { .. })
    }

    /// A drag, semantic or on points: its input is driven move by move (`run::drag`).
    pub fn is_drag(&self) -> bool {
        matches!(self, Action::Drag { .. } | Action::DragAt { .. })
    }

    /// Does input need the page's hit test at the target's point? Fills, selects, presses
    /// and uploads reach their element without the pointer.
    pub(super) fn needs_hit_test(&self) -> bool {
        matches!(
            self,
            Action::Click { .. }
                | Action::Check { .. }
                | Action::Uncheck { .. }
                | Action::Hover { .. }
                | Action::Drag { .. }
        )
    }

    /// Is a fill's value (or typed text) a secret, declared or because the field is
    /// sensitive?
    pub(super) fn is_secret(&self, target: Option<&Element>) -> bool {
        matches!(
            self,
            Action::Fill {
                sensitive: true,
                ..
            } | Action::TypeText {
                sensitive: true,
                ..
            }
        ) || (matches!(self, Action::Fill { .. } | Action::TypeText { .. })
            && target.is_some_and(|t| t.sensitive))
    }

    /// Reads a key or a chord into its canonical names (`enter` → `Enter`, [`super::chord`]):
    /// the gesture, the judge and the record see only those. `INVALID_ACTION` for a key the
    /// table does not know.
    pub(super) fn name_keys(&mut self) -> Result<(), Error> {
        match self {
            Action::Key { chord } => *chord = super::chord::canonical(chord)?,
            Action::Press { key, .. } => *key = super::chord::canonical(key)?,
            _ => {}
        }
        Ok(())
    }

    /// The limits of what a coordinate step carries ([`check_type_text`],
    /// [`check_drag_steps`]), checked before anything is sent.
    pub(super) fn check_limits(&self) -> Result<(), Error> {
        match self {
            Action::TypeText { text, .. } => check_type_text(text),
            Action::DragAt { steps, .. } => check_drag_steps(f64::from(*steps)).map(|_| ()),
            _ => Ok(()),
        }
    }

    /// What the action carries, as records show it (a secret as `[redacted]`).
    pub(super) fn shown_value(&self, target: Option<&Element>) -> Option<String> {
        match self {
            Action::Fill { .. } | Action::TypeText { .. } if self.is_secret(target) => {
                Some(REDACTED.to_owned())
            }
            Action::Fill { value, .. } => Some(value.clone()),
            Action::TypeText { text, .. } => Some(text.clone()),
            Action::Key { chord } => Some(chord.clone()),
            Action::Select { option, .. } => Some(option.clone()),
            Action::Press { key, .. } => Some(key.clone()),
            Action::Goto { url } => Some(url.clone()),
            Action::Drag { to, .. } => Some(format!("to {}", declared(to))),
            // The page shows the names of files chosen in a sensitive part only as a secret.
            Action::Upload { .. } if target.is_some_and(|t| t.sensitive) => {
                Some(REDACTED.to_owned())
            }
            Action::Upload { files, .. } => Some(
                files
                    .iter()
                    .map(|f| f.rsplit(['/', '\\']).next().unwrap_or(f))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            Action::ClickAt { at, shown, .. }
            | Action::ScrollAt { at, shown, .. }
            | Action::DragAt {
                from: at, shown, ..
            } => Some(
                shown
                    .clone()
                    .unwrap_or_else(|| format!("({}, {})", at.x, at.y)),
            ),
            _ => None,
        }
    }

    /// How the record names the target: as resolved, else as declared; a target known by
    /// its place (`list 2 in region[Board]`) as declared, which says which one it is.
    pub(super) fn shown_target(&self, resolved: Option<&Element>) -> Option<String> {
        match (resolved, self.target()) {
            (_, Some(t)) if t.nth.is_some() => Some(declared(t)),
            (Some(e), _) => Some(describe_element(e)),
            (None, t) => t.map(declared),
        }
    }
}

/// `button[Add Shirt M] in list`, `list 2 in region[Board]`, from a declared target.
pub fn declared(t: &Target) -> String {
    if t.nth.is_some() || t.within.is_some() {
        return t.describe();
    }
    describe_parts(&t.role, &t.name, t.region.as_deref().unwrap_or(""))
}

/// A step's value is never printed: it may be a secret.
impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name())?;
        if let Some(t) = self.target() {
            write!(f, " on {}", declared(t))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Step")
            .field("action", &self.action)
            .field("intent", &self.intent)
            .field("expect", &self.expect.len())
            .field("inverse", &self.inverse.len())
            .finish()
    }
}
