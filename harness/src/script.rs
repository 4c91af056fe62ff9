//! The script format of `prufe run`: a JSON array of steps, parsed from untrusted text into
//! typed [`Step`]s before any action runs.
//!
//! The parser checks every key and type and names the step and field at fault, so a script
//! is rejected whole (exit code 2) instead of failing half-way through on a typo. It never
//! panics, whatever the input: serde_json bounds nesting, every list and string is capped,
//! and targets go through the core's own validation (`Target::from_value`), the same rules
//! `prufe.resolve` applies in the page.
//!
//! ```json
//! [ {"action":"click","target":{"role":"button","name":"Add Shirt M"},"intent":"..."},
//!   {"action":"fill","target":{"role":"textbox","name":"Password"},"value":"…","sensitive":true},
//!   {"action":"watch","intent":"the cart gains a shirt","steps":[ … ]} ]
//! ```

use crate::act::Key;
use prufe::core::expect::{self, Claim};
use prufe::core::resolve::Target;
use prufe::core::run;
use serde_json::{Map, Value};
use std::fmt;
use std::path::{Path, PathBuf};

/// Most steps one script may hold, inner steps included.
pub const MAX_STEPS: usize = 10_000;
/// Longest `value`, `option`, `intent` or `url` accepted, in characters.
pub const MAX_TEXT_CHARS: usize = 100_000;
/// Most files one upload may set.
pub const MAX_FILES: usize = 1_000;

/// What a step does.
#[derive(Clone, PartialEq)]
#[non_exhaustive]
pub enum Action {
    Click {
        target: Target,
    },
    /// Types `value` into the field after selecting its current text. A `sensitive` value is
    /// typed but never logged, traced or printed.
    Fill {
        target: Target,
        value: String,
        sensitive: bool,
    },
    Check {
        target: Target,
    },
    Uncheck {
        target: Target,
    },
    /// Chooses the option whose label (or value) is `option`.
    Select {
        target: Target,
        option: String,
    },
    /// Presses a key, on `target` (focused first) or on whatever has focus.
    Press {
        key: Key,
        target: Option<Target>,
    },
    Hover {
        target: Target,
    },
    Upload {
        target: Target,
        files: Vec<PathBuf>,
    },
    /// Drags `target` onto `to`.
    Drag {
        target: Target,
        to: Target,
    },
    Goto {
        url: String,
    },
    /// Observes while `steps` run unverified; the intent alone decides.
    Watch {
        steps: Vec<Step>,
    },
}

/// One step of a script: an action, the intent it serves, the typed claims its effect must
/// bear out (`expect`, see `prufe::core::expect`), and for upload and drag the
/// caller-declared inverse that undoes it.
#[derive(Clone, PartialEq, Debug)]
pub struct Step {
    pub action: Action,
    pub intent: Option<String>,
    pub expect: Vec<Claim>,
    pub inverse: Vec<Step>,
}

impl Action {
    /// The wire name: `click`, `fill`, …
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Click { .. } => "click",
            Action::Fill { .. } => "fill",
            Action::Check { .. } => "check",
            Action::Uncheck { .. } => "uncheck",
            Action::Select { .. } => "select",
            Action::Press { .. } => "press",
            Action::Hover { .. } => "hover",
            Action::Upload { .. } => "upload",
            Action::Drag { .. } => "drag",
            Action::Goto { .. } => "goto",
            Action::Watch { .. } => "watch",
        }
    }

    /// The element acted on, if any.
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
            Action::Goto { .. } | Action::Watch { .. } => None,
        }
    }

    /// Is the value this action carries a secret the caller declared?
    pub fn is_sensitive(&self) -> bool {
        matches!(
            self,
            Action::Fill {
                sensitive: true,
                ..
            }
        )
    }
}

impl Step {
    /// The step as the verification machine runs it; `None` for a watch (its inner steps
    /// run one by one).
    pub fn to_run(&self) -> Option<run::Step> {
        use run::Action as R;
        let action = match &self.action {
            Action::Click { target } => R::Click {
                target: target.clone(),
            },
            Action::Fill {
                target,
                value,
                sensitive,
            } => R::Fill {
                target: target.clone(),
                value: value.clone(),
                sensitive: *sensitive,
            },
            Action::Check { target } => R::Check {
                target: target.clone(),
            },
            Action::Uncheck { target } => R::Uncheck {
                target: target.clone(),
            },
            Action::Select { target, option } => R::Select {
                target: target.clone(),
                option: option.clone(),
            },
            Action::Press { key, target } => R::Press {
                key: key.name().to_owned(),
                target: target.clone(),
            },
            Action::Hover { target } => R::Hover {
                target: target.clone(),
            },
            Action::Upload { target, files } => R::Upload {
                target: target.clone(),
                files: files.iter().map(|f| f.display().to_string()).collect(),
            },
            Action::Drag { target, to } => R::Drag {
                target: target.clone(),
                to: to.clone(),
            },
            Action::Goto { url } => R::Goto { url: url.clone() },
            Action::Watch { .. } => return None,
        };
        let inverse = self
            .inverse
            .iter()
            .map(Step::to_run)
            .collect::<Option<Vec<_>>>()?;
        Some(run::Step {
            action,
            intent: self.intent.clone(),
            expect: self.expect.clone(),
            inverse,
        })
    }
}

/// Debug output never shows a sensitive fill value.
impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Fill {
                target,
                value,
                sensitive,
            } => f
                .debug_struct("Fill")
                .field("target", target)
                .field("value", if *sensitive { &"[redacted]" } else { value })
                .field("sensitive", sensitive)
                .finish(),
            Action::Click { target } => f.debug_struct("Click").field("target", target).finish(),
            Action::Check { target } => f.debug_struct("Check").field("target", target).finish(),
            Action::Uncheck { target } => {
                f.debug_struct("Uncheck").field("target", target).finish()
            }
            Action::Select { target, option } => f
                .debug_struct("Select")
                .field("target", target)
                .field("option", option)
                .finish(),
            Action::Press { key, target } => f
                .debug_struct("Press")
                .field("key", &key.name())
                .field("target", target)
                .finish(),
            Action::Hover { target } => f.debug_struct("Hover").field("target", target).finish(),
            Action::Upload { target, files } => f
                .debug_struct("Upload")
                .field("target", target)
                .field("files", files)
                .finish(),
            Action::Drag { target, to } => f
                .debug_struct("Drag")
                .field("target", target)
                .field("to", to)
                .finish(),
            Action::Goto { url } => f.debug_struct("Goto").field("url", url).finish(),
            Action::Watch { steps } => f.debug_struct("Watch").field("steps", steps).finish(),
        }
    }
}

impl Step {
    /// A step without intent or inverse.
    pub fn new(action: Action) -> Self {
        Step {
            action,
            intent: None,
            expect: Vec::new(),
            inverse: Vec::new(),
        }
    }

    /// Adds the intent sentence the effect is judged against.
    pub fn with_intent(mut self, intent: impl Into<String>) -> Self {
        self.intent = Some(intent.into());
        self
    }

    /// Adds the typed claims the step's effect must bear out.
    pub fn with_expect(mut self, expect: Vec<Claim>) -> Self {
        self.expect = expect;
        self
    }

    /// Adds the inverse that undoes this step (upload and drag).
    pub fn with_inverse(mut self, inverse: Vec<Step>) -> Self {
        self.inverse = inverse;
        self
    }

    pub fn kind(&self) -> &'static str {
        self.action.kind()
    }
}

/// Why a script was rejected: where, and what to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// `step 3`, `step 2 > steps[1]`, or empty for the document as a whole.
    pub at: String,
    pub message: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.at, self.message)
        }
    }
}

impl std::error::Error for ScriptError {}

impl From<ScriptError> for crate::Error {
    fn from(e: ScriptError) -> Self {
        crate::Error::Script(e.to_string())
    }
}

type Parsed<T> = std::result::Result<T, ScriptError>;

/// Parses a script's text. Relative upload paths are resolved against `base_dir`.
pub fn parse_script(text: &str, base_dir: &Path) -> Parsed<Vec<Step>> {
    let value: Value = serde_json::from_str(text).map_err(|e| ScriptError {
        at: String::new(),
        message: format!("not valid JSON ({e}); a script is a JSON array of steps"),
    })?;
    parse_steps(&value, base_dir)
}

/// Parses a script already read as JSON.
pub fn parse_steps(value: &Value, base_dir: &Path) -> Parsed<Vec<Step>> {
    let Value::Array(items) = value else {
        return Err(ScriptError {
            at: String::new(),
            message: format!(
                "a script is a JSON array of steps, got {}; wrap the steps in [ … ]",
                kind(value)
            ),
        });
    };
    let mut parser = Parser { base_dir, count: 0 };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| parser.step(item, &format!("step {}", i + 1), Nesting::Top))
        .collect()
}

/// Checks that every file an upload names exists, before any action runs.
pub fn check_files(steps: &[Step]) -> Parsed<()> {
    fn walk(steps: &[Step], at: &str) -> Parsed<()> {
        for (i, step) in steps.iter().enumerate() {
            let here = if at.is_empty() {
                format!("step {}", i + 1)
            } else {
                format!("{at} > steps[{i}]")
            };
            if let Action::Upload { files, .. } = &step.action {
                for f in files {
                    if !f.is_file() {
                        return Err(ScriptError {
                            at: here.clone(),
                            message: format!(
                                "upload file {} does not exist or is not a file",
                                f.display()
                            ),
                        });
                    }
                }
            }
            if let Action::Watch { steps } = &step.action {
                walk(steps, &here)?;
            }
            walk(&step.inverse, &format!("{here} > inverse"))?;
        }
        Ok(())
    }
    walk(steps, "")
}

#[derive(Clone, Copy, PartialEq)]
enum Nesting {
    Top,
    InWatch,
    InInverse,
}

struct Parser<'a> {
    base_dir: &'a Path,
    count: usize,
}

impl Parser<'_> {
    fn step(&mut self, value: &Value, at: &str, nesting: Nesting) -> Parsed<Step> {
        self.count += 1;
        if self.count > MAX_STEPS {
            return Err(err(at, format!("a script holds at most {MAX_STEPS} steps")));
        }
        let Value::Object(obj) = value else {
            return Err(err(
                at,
                format!(
                    "a step is an object like {{\"action\":\"click\",\"target\":{{…}}}}, got {}",
                    kind(value)
                ),
            ));
        };
        let action = match obj.get("action") {
            Some(Value::String(s)) => s.as_str(),
            Some(other) => return Err(err(at, format!("\"action\" must be a string, got {}", kind(other)))),
            None => return Err(err(at, "missing \"action\" (click, fill, check, uncheck, select, press, hover, upload, drag, goto or watch)")),
        };
        let allowed: &[&str] = match action {
            "click" | "check" | "uncheck" | "hover" => &["target"],
            "fill" => &["target", "value", "sensitive"],
            "select" => &["target", "option"],
            "press" => &["key", "target"],
            "upload" => &["target", "files", "inverse"],
            "drag" => &["target", "to", "inverse"],
            "goto" => &["url"],
            "watch" => &["steps"],
            other => {
                return Err(err(
                    at,
                    format!(
                        "unknown action {:?}; use click, fill, check, uncheck, select, press, hover, upload, drag, goto or watch",
                        short(other)
                    ),
                ))
            }
        };
        for key in obj.keys() {
            if key != "action"
                && key != "intent"
                && key != "expect"
                && !allowed.contains(&key.as_str())
            {
                return Err(err(
                    at,
                    format!(
                        "unknown key {:?} for {action}; allowed: action, intent, expect, {}",
                        short(key),
                        allowed.join(", ")
                    ),
                ));
            }
        }
        let intent = match obj.get("intent") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.trim().is_empty() => {
                return Err(err(
                    at,
                    "\"intent\" is blank; leave it out or say what the step should change",
                ))
            }
            Some(Value::String(s)) => Some(text(s, at, "intent")?.to_owned()),
            Some(other) => {
                return Err(err(
                    at,
                    format!("\"intent\" must be a string, got {}", kind(other)),
                ))
            }
        };
        let target = |field: &str| -> Parsed<Target> {
            match obj.get(field) {
                None | Some(Value::Null) => Err(err(
                    at,
                    format!("{action} needs \"{field}\": {{\"role\":\"button\",\"name\":\"…\"}}"),
                )),
                Some(v) => Target::from_value(v)
                    .map_err(|e| err(at, format!("\"{field}\": {}", e.message))),
            }
        };
        let action = match action {
            "click" => Action::Click {
                target: target("target")?,
            },
            "check" => Action::Check {
                target: target("target")?,
            },
            "uncheck" => Action::Uncheck {
                target: target("target")?,
            },
            "hover" => Action::Hover {
                target: target("target")?,
            },
            "fill" => Action::Fill {
                target: target("target")?,
                value: required_text(obj, "value", at, true)?,
                sensitive: match obj.get("sensitive") {
                    None | Some(Value::Null) => false,
                    Some(Value::Bool(b)) => *b,
                    Some(other) => {
                        return Err(err(
                            at,
                            format!("\"sensitive\" must be true or false, got {}", kind(other)),
                        ))
                    }
                },
            },
            "select" => Action::Select {
                target: target("target")?,
                option: required_text(obj, "option", at, false)?,
            },
            "press" => {
                let name = required_text(obj, "key", at, false)?;
                let key = Key::parse(&name).ok_or_else(|| {
                    err(
                        at,
                        format!(
                            "unknown key {:?}; use a single character or a name such as Enter, Tab, Escape, \
                             Backspace, ArrowDown, optionally with Shift+, Control+, Alt+ or Meta+",
                            short(&name)
                        ),
                    )
                })?;
                let target = match obj.get("target") {
                    None | Some(Value::Null) => None,
                    Some(_) => Some(target("target")?),
                };
                Action::Press { key, target }
            }
            "upload" => Action::Upload {
                target: target("target")?,
                files: self.files(obj, at)?,
            },
            "drag" => Action::Drag {
                target: target("target")?,
                to: target("to")?,
            },
            "goto" => {
                let url = required_text(obj, "url", at, false)?;
                check_url(&url).map_err(|m| err(at, m))?;
                Action::Goto { url }
            }
            "watch" => {
                if nesting != Nesting::Top {
                    return Err(err(
                        at,
                        "watch cannot be nested inside another watch or an inverse",
                    ));
                }
                let steps = match obj.get("steps") {
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::Array(items)) => items
                        .iter()
                        .enumerate()
                        .map(|(i, v)| self.step(v, &format!("{at} > steps[{i}]"), Nesting::InWatch))
                        .collect::<Parsed<Vec<_>>>()?,
                    Some(other) => {
                        return Err(err(
                            at,
                            format!("\"steps\" must be an array of steps, got {}", kind(other)),
                        ))
                    }
                };
                Action::Watch { steps }
            }
            _ => unreachable!("every action named in `allowed` is handled"),
        };
        let inverse = match obj.get("inverse") {
            None | Some(Value::Null) => Vec::new(),
            Some(_) if nesting == Nesting::InInverse => {
                return Err(err(at, "an inverse step cannot declare its own inverse"))
            }
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| self.inverse_step(v, &format!("{at} > inverse[{i}]")))
                .collect::<Parsed<Vec<_>>>()?,
            Some(v @ Value::Object(_)) => vec![self.inverse_step(v, &format!("{at} > inverse"))?],
            Some(other) => {
                return Err(err(
                    at,
                    format!(
                        "\"inverse\" must be a step or an array of steps, got {}",
                        kind(other)
                    ),
                ))
            }
        };
        let expect = match obj.get("expect") {
            None | Some(Value::Null) => Vec::new(),
            Some(_) if nesting != Nesting::Top => {
                return Err(err(
                    at,
                    "\"expect\" belongs to a verified step; an inverse or a watched step runs unverified",
                ))
            }
            Some(v) => expect::from_value(v).map_err(|e| err(at, e.message))?,
        };
        Ok(Step {
            action,
            intent,
            expect,
            inverse,
        })
    }

    fn inverse_step(&mut self, value: &Value, at: &str) -> Parsed<Step> {
        let step = self.step(value, at, Nesting::InInverse)?;
        if matches!(step.action, Action::Watch { .. }) {
            return Err(err(at, "an inverse cannot be a watch"));
        }
        Ok(step)
    }

    fn files(&self, obj: &Map<String, Value>, at: &str) -> Parsed<Vec<PathBuf>> {
        let Some(Value::Array(items)) = obj.get("files") else {
            return Err(err(at, "upload needs \"files\": an array of file paths"));
        };
        if items.is_empty() {
            return Err(err(at, "\"files\" is empty; name at least one file"));
        }
        if items.len() > MAX_FILES {
            return Err(err(
                at,
                format!("\"files\" holds at most {MAX_FILES} paths"),
            ));
        }
        items
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::String(s) if !s.trim().is_empty() && !s.contains('\0') => {
                    let field = format!("files[{i}]");
                    let p = PathBuf::from(text(s, at, &field)?);
                    Ok(if p.is_absolute() {
                        p
                    } else {
                        self.base_dir.join(p)
                    })
                }
                other => Err(err(
                    at,
                    format!("files[{i}] must be a non-empty path, got {}", kind(other)),
                )),
            })
            .collect()
    }
}

fn required_text(
    obj: &Map<String, Value>,
    field: &str,
    at: &str,
    may_be_empty: bool,
) -> Parsed<String> {
    match obj.get(field) {
        Some(Value::String(s)) if !may_be_empty && s.trim().is_empty() => {
            Err(err(at, format!("\"{field}\" is blank")))
        }
        Some(Value::String(s)) => Ok(text(s, at, field)?.to_owned()),
        Some(other) => Err(err(
            at,
            format!("\"{field}\" must be a string, got {}", kind(other)),
        )),
        None => Err(err(at, format!("missing \"{field}\""))),
    }
}

fn text<'s>(s: &'s str, at: &str, field: &str) -> Parsed<&'s str> {
    if s.chars().count() > MAX_TEXT_CHARS {
        Err(err(
            at,
            format!("\"{field}\" is longer than {MAX_TEXT_CHARS} characters"),
        ))
    } else {
        Ok(s)
    }
}

/// An absolute URL, or a reference relative to the current page (`/cart`, `?page=2`).
fn check_url(url: &str) -> std::result::Result<(), String> {
    if url.chars().any(char::is_control) {
        return Err("\"url\" contains control characters".into());
    }
    match url::Url::parse(url) {
        Ok(u) if matches!(u.scheme(), "http" | "https" | "file" | "about" | "data") => Ok(()),
        Ok(u) => Err(format!(
            "\"url\" scheme {:?} is not supported; use http, https, file, about or data",
            u.scheme()
        )),
        Err(url::ParseError::RelativeUrlWithoutBase) => {
            let base = url::Url::parse("http://base.invalid/").expect("constant base URL parses");
            base.join(url)
                .map(|_| ())
                .map_err(|e| format!("\"url\" is not a valid URL: {e}"))
        }
        Err(e) => Err(format!("\"url\" is not a valid URL: {e}")),
    }
}

fn err(at: &str, message: impl Into<String>) -> ScriptError {
    ScriptError {
        at: at.to_owned(),
        message: message.into(),
    }
}

fn short(s: &str) -> String {
    prufe::core::text::cap(s, 40).into_owned()
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(text: &str) -> Parsed<Vec<Step>> {
        parse_script(text, Path::new("/scripts"))
    }

    #[test]
    fn every_action_parses() {
        let steps = parse(
            r#"[
            {"action":"click","target":{"role":"button","name":"Add Shirt M"},"intent":"the cart gains a shirt"},
            {"action":"fill","target":{"role":"textbox","name":"Password"},"value":"s3cret!","sensitive":true},
            {"action":"fill","target":{"role":"textbox","name":"Coupon"},"value":""},
            {"action":"check","target":{"role":"checkbox","name":"Gift wrap"}},
            {"action":"uncheck","target":{"role":"checkbox","name":"Gift wrap"}},
            {"action":"select","target":{"role":"combobox","name":"Shipping"},"option":"Express"},
            {"action":"press","key":"Enter","target":{"role":"textbox","name":"Coupon"}},
            {"action":"press","key":"Shift+Tab"},
            {"action":"hover","target":{"role":"button","name":"Account","region":"navigation[Account]"}},
            {"action":"upload","target":{"role":"button","name":"Receipt"},"files":["r.pdf","/tmp/x"],
             "inverse":{"action":"click","target":{"role":"button","name":"Clear receipt"}}},
            {"action":"drag","target":{"role":"listitem","name":"Write invoice"},"to":{"role":"list","name":"Done"},
             "inverse":[{"action":"drag","target":{"role":"listitem","name":"Write invoice"},"to":{"role":"list","name":"To do"}}]},
            {"action":"goto","url":"http://127.0.0.1:8000/shop.html"},
            {"action":"goto","url":"/cart"},
            {"action":"watch","intent":"the cart gains a shirt","steps":[
              {"action":"click","target":{"role":"button","name":"Add Shirt M"}}]}
        ]"#,
        )
        .unwrap();
        let kinds: Vec<_> = steps.iter().map(Step::kind).collect();
        assert_eq!(
            kinds,
            [
                "click", "fill", "fill", "check", "uncheck", "select", "press", "press", "hover",
                "upload", "drag", "goto", "goto", "watch"
            ]
        );
        assert_eq!(steps[0].intent.as_deref(), Some("the cart gains a shirt"));
        assert!(steps[1].action.is_sensitive());
        assert!(!steps[2].action.is_sensitive());
        match &steps[9].action {
            Action::Upload { files, .. } => {
                assert_eq!(
                    files,
                    &[PathBuf::from("/scripts/r.pdf"), PathBuf::from("/tmp/x")]
                );
            }
            other => panic!("not an upload: {other:?}"),
        }
        assert_eq!(steps[9].inverse.len(), 1);
        assert_eq!(steps[10].inverse.len(), 1);
        match &steps[13].action {
            Action::Watch { steps } => assert_eq!(steps.len(), 1),
            other => panic!("not a watch: {other:?}"),
        }
        match &steps[8].action {
            Action::Hover { target } => {
                assert_eq!(target.region.as_deref(), Some("navigation[Account]"))
            }
            other => panic!("not a hover: {other:?}"),
        }
    }

    #[test]
    fn invalid_scripts_name_the_step_and_field() {
        for (script, want) in [
            ("", "not valid JSON"),
            ("{}", "JSON array of steps"),
            ("[1]", "step 1: a step is an object"),
            (r#"[{"target":{}}]"#, "step 1: missing \"action\""),
            (r#"[{"action":"tap"}]"#, "unknown action \"tap\""),
            (r#"[{"action":7}]"#, "\"action\" must be a string"),
            (r#"[{"action":"click"}]"#, "click needs \"target\""),
            (
                r#"[{"action":"click","target":{"role":"button"}}]"#,
                "\"target\"",
            ),
            (
                r#"[{"action":"click","target":{"role":"button","name":"x","colour":"red"}}]"#,
                "\"target\"",
            ),
            (
                r#"[{"action":"click","target":{"role":"bogus","name":"x"}}]"#,
                "not an ARIA role",
            ),
            (
                r#"[{"action":"click","target":{"role":"button","name":"x"},"value":"v"}]"#,
                "unknown key \"value\" for click",
            ),
            (
                r#"[{"action":"fill","target":{"role":"textbox","name":"x"}}]"#,
                "missing \"value\"",
            ),
            (
                r#"[{"action":"fill","target":{"role":"textbox","name":"x"},"value":3}]"#,
                "\"value\" must be a string",
            ),
            (
                r#"[{"action":"fill","target":{"role":"textbox","name":"x"},"value":"v","sensitive":"yes"}]"#,
                "\"sensitive\" must be true or false",
            ),
            (
                r#"[{"action":"select","target":{"role":"combobox","name":"x"},"option":" "}]"#,
                "\"option\" is blank",
            ),
            (r#"[{"action":"press","key":"Hyper+Q"}]"#, "unknown key"),
            (r#"[{"action":"press","key":"NotAKey"}]"#, "unknown key"),
            (
                r#"[{"action":"upload","target":{"role":"button","name":"x"},"files":[]}]"#,
                "\"files\" is empty",
            ),
            (
                r#"[{"action":"upload","target":{"role":"button","name":"x"},"files":[""]}]"#,
                "files[0]",
            ),
            (
                r#"[{"action":"drag","target":{"role":"listitem","name":"x"}}]"#,
                "drag needs \"to\"",
            ),
            (
                r#"[{"action":"goto","url":"javascript:alert(1)"}]"#,
                "not supported",
            ),
            (r#"[{"action":"goto","url":""}]"#, "\"url\" is blank"),
            (
                r#"[{"action":"watch","steps":[{"action":"watch"}]}]"#,
                "cannot be nested",
            ),
            (
                r#"[{"action":"watch","steps":{}}]"#,
                "\"steps\" must be an array",
            ),
            (
                r#"[{"action":"click","target":{"role":"button","name":"x"},"intent":""}]"#,
                "\"intent\" is blank",
            ),
            (
                r#"[{"action":"click","target":{"role":"button","name":"x"},"intent":5}]"#,
                "\"intent\" must be a string",
            ),
            (
                r#"[{"action":"click","target":{"role":"button","name":"x"},"inverse":[]}]"#,
                "unknown key \"inverse\"",
            ),
            (
                r#"[{"action":"drag","target":{"role":"listitem","name":"x"},"to":{"role":"list","name":"y"},
                    "inverse":{"action":"drag","target":{"role":"listitem","name":"x"},"to":{"role":"list","name":"z"},
                               "inverse":{"action":"click","target":{"role":"button","name":"q"}}}}]"#,
                "cannot declare its own inverse",
            ),
            (
                r#"[{"action":"upload","target":{"role":"button","name":"x"},"files":["a"],"inverse":{"action":"watch"}}]"#,
                "cannot be nested",
            ),
            (
                r#"[{"action":"click","target":{"role":"button","name":"ok"}},{"action":"nope"}]"#,
                "step 2: unknown action",
            ),
        ] {
            let e = parse(script).expect_err(script);
            assert!(
                e.to_string().contains(want),
                "{script}\n  got: {e}\n  want: {want}"
            );
        }
    }

    #[test]
    fn sensitive_values_never_show_in_debug_output() {
        let steps =
            parse(r#"[{"action":"fill","target":{"role":"textbox","name":"Password"},"value":"hunter22","sensitive":true}]"#)
                .unwrap();
        let debug = format!("{:?}", steps);
        assert!(!debug.contains("hunter22"), "{debug}");
        assert!(debug.contains("[redacted]"));
    }

    #[test]
    fn upload_files_must_exist_before_the_run() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("here.txt"), "x").unwrap();
        let ok = parse_script(
            r#"[{"action":"upload","target":{"role":"button","name":"R"},"files":["here.txt"]}]"#,
            dir.path(),
        )
        .unwrap();
        assert!(check_files(&ok).is_ok());
        let missing = parse_script(
            r#"[{"action":"watch","steps":[{"action":"upload","target":{"role":"button","name":"R"},"files":["gone.txt"]}]}]"#,
            dir.path(),
        )
        .unwrap();
        let e = check_files(&missing).unwrap_err();
        assert!(e.to_string().contains("gone.txt"), "{e}");
        assert!(e.at.starts_with("step 1 > steps[0]"), "{e}");
    }

    #[test]
    fn step_count_is_capped() {
        let one = r#"{"action":"press","key":"a"}"#;
        let script = format!("[{}]", vec![one; MAX_STEPS + 1].join(","));
        let e = parse(&script).unwrap_err();
        assert!(e.message.contains("at most"), "{e}");
        let script = format!("[{}]", [one; 10].join(","));
        assert_eq!(parse(&script).unwrap().len(), 10);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(parse(&deep).is_err());
    }

    fn arb_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            prop::sample::select(vec![
                "click",
                "fill",
                "watch",
                "press",
                "drag",
                "upload",
                "goto",
                "select",
                "button",
                "Enter",
                "target",
                "role",
                "name",
                "steps",
                "inverse",
                "files",
                "",
                " ",
                "Add Shirt M",
                "http://x/",
                "Shift+",
            ])
            .prop_map(|s| Value::String(s.to_owned())),
            ".*".prop_map(Value::String),
        ];
        leaf.prop_recursive(5, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec(
                    (
                        prop::sample::select(vec![
                            "action",
                            "target",
                            "to",
                            "intent",
                            "value",
                            "sensitive",
                            "option",
                            "key",
                            "files",
                            "url",
                            "steps",
                            "inverse",
                            "role",
                            "name",
                            "region",
                            "frame",
                            "href",
                            "inViewport",
                            "other",
                        ]),
                        inner
                    ),
                    0..7
                )
                .prop_map(|kv| Value::Object(
                    kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
                )),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn arbitrary_json_never_panics(value in arb_json()) {
            let _ = parse_steps(&value, Path::new("/"));
            let _ = parse_steps(&Value::Array(vec![value]), Path::new("/"));
        }

        #[test]
        fn arbitrary_text_never_panics(text in ".{0,200}") {
            let _ = parse(&text);
        }
    }
}
