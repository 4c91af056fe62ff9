//! The script format of `prufe run`: a JSON array of steps, read from untrusted text into
//! the machine's own [`Step`]s before any action runs.
//!
//! A step is read with serde into a wire struct that mirrors what a script writes (the
//! action's name beside its fields), then checked once: the fields the action takes, the
//! texts within their bounds, the target by the core's own rules ([`Target::check`], the
//! ones `prufe.resolve` applies in the page), the claims by `expect::validate`. Every error
//! names the step and the field at fault, so a script is rejected whole (exit code 2)
//! instead of failing half-way through on a typo. Reading never panics, whatever the input:
//! serde_json bounds nesting, and every list and string is capped.
//!
//! ```json
//! [ {"action":"click","target":{"role":"button","name":"Add Shirt M"},"intent":"..."},
//!   {"action":"fill","target":{"role":"textbox","name":"Password"},"value":"…","sensitive":true},
//!   {"action":"watch","intent":"the cart gains a shirt","steps":[ … ]} ]
//! ```

use crate::wire::{self, Object, OneOrMany, Seg};
use prufe::core::expect::{self, Claim};
use prufe::core::judge::ActionKind;
use prufe::core::resolve::Target;
use prufe::core::run::{chord, step};
pub use prufe::core::run::{Action, Step};
use serde::Deserialize;
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// Most steps one script may hold, inner steps included.
pub const MAX_STEPS: usize = 10_000;
/// Longest `value`, `option`, `intent` or `url` accepted, in characters.
pub const MAX_TEXT_CHARS: usize = 100_000;
/// Most files one upload may set.
pub const MAX_FILES: usize = 1_000;

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
    let items = script_items(value)?;
    let steps = items
        .iter()
        .enumerate()
        .map(|(i, item)| parse_step(item, i + 1, base_dir))
        .collect::<Parsed<Vec<_>>>()?;
    check_count(&steps)?;
    Ok(steps)
}

/// The steps of a script: its array, or why it is none.
pub fn script_items(value: &Value) -> Parsed<&[Value]> {
    value
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| ScriptError {
            at: String::new(),
            message: format!(
                "a script is a JSON array of steps, got {}; wrap the steps in [ … ]",
                kind(value)
            ),
        })
}

/// Parses step `n` (from 1) of a script.
pub fn parse_step(item: &Value, n: usize, base_dir: &Path) -> Parsed<Step> {
    let top = format!("step {n}");
    let read = wire::read::<Object<WireStep>>(item).map_err(|e| {
        let (at, field) = locate(&top, &e.path);
        if field.is_empty() {
            err(&at, e.message)
        } else {
            err(&at, format!("\"{field}\": {}", e.message))
        }
    })?;
    let unknown = read.ignored.iter().map(|path| locate(&top, path)).collect();
    Checker { base_dir, unknown }.step(read.value.0, &top, Nesting::Top)
}

/// No script holds more than [`MAX_STEPS`] steps, inner ones included.
pub fn check_count<'s>(steps: impl IntoIterator<Item = &'s Step>) -> Parsed<()> {
    fn count<'s>(steps: impl IntoIterator<Item = &'s Step>) -> usize {
        steps
            .into_iter()
            .map(|s| {
                let inner = match &s.action {
                    Action::Watch { steps } => count(steps),
                    _ => 0,
                };
                1 + inner + count(&s.inverse)
            })
            .sum()
    }
    if count(steps) > MAX_STEPS {
        return Err(err("", format!("a script holds at most {MAX_STEPS} steps")));
    }
    Ok(())
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
            check_step_files(step, &here)?;
        }
        Ok(())
    }
    walk(steps, "")
}

/// Checks that every file step `at` (and what it holds) uploads exists.
pub fn check_step_files(step: &Step, at: &str) -> Parsed<()> {
    if let Action::Upload { files, .. } = &step.action {
        for f in files {
            if !Path::new(f).is_file() {
                return Err(err(
                    at,
                    format!("upload file {f} does not exist or is not a file"),
                ));
            }
        }
    }
    if let Action::Watch { steps } = &step.action {
        for (i, s) in steps.iter().enumerate() {
            check_step_files(s, &format!("{at} > steps[{i}]"))?;
        }
    }
    for (i, s) in step.inverse.iter().enumerate() {
        check_step_files(s, &format!("{at} > inverse[{i}]"))?;
    }
    Ok(())
}

/// A step as a script writes it. `null` counts as absent; keys no field takes are collected
/// (see `wire`) and reported with what the step's action allows.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireStep {
    action: Option<Kind>,
    intent: Option<String>,
    expect: Option<Vec<Claim>>,
    target: Option<Object<Target>>,
    to: Option<Object<Target>>,
    value: Option<String>,
    sensitive: Option<bool>,
    option: Option<String>,
    key: Option<String>,
    files: Option<Vec<String>>,
    url: Option<String>,
    steps: Option<Vec<Object<WireStep>>>,
    inverse: Option<OneOrMany<Object<WireStep>>>,
}

/// The action a script's step names: the judge's kind, read from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
struct Kind(ActionKind);

const KIND_LIST: &str =
    "click, fill, check, uncheck, select, press, hover, upload, drag, goto or watch";

impl TryFrom<String> for Kind {
    type Error = String;
    fn try_from(name: String) -> Result<Kind, String> {
        serde_json::from_value(serde_json::Value::String(name.clone()))
            .map(Kind)
            .map_err(|_| format!("unknown action {:?}; use {KIND_LIST}", short(&name)))
    }
}

impl Kind {
    fn name(self) -> &'static str {
        self.0.as_str()
    }

    /// The keys this action takes besides `action`, `intent` and `expect`.
    fn allowed(self) -> &'static [&'static str] {
        match self {
            Kind(ActionKind::Click)
            | Kind(ActionKind::Check)
            | Kind(ActionKind::Uncheck)
            | Kind(ActionKind::Hover) => &["target"],
            Kind(ActionKind::Fill) => &["target", "value", "sensitive"],
            Kind(ActionKind::Select) => &["target", "option"],
            Kind(ActionKind::Press) => &["key", "target", "inverse"],
            Kind(ActionKind::Upload) => &["target", "files", "inverse"],
            Kind(ActionKind::Drag) => &["target", "to", "inverse"],
            Kind(ActionKind::Goto) => &["url"],
            Kind(ActionKind::Watch) => &["steps"],
        }
    }
}

/// `step 2 > inverse[0]` and `target.role` from a path into step `top`: the nested step the
/// path reaches, and the field within it.
fn locate(top: &str, path: &[Seg]) -> (String, String) {
    let mut at = top.to_owned();
    let mut rest = path;
    loop {
        match rest {
            [Seg::Key(k), Seg::Index(i), tail @ ..] if k == "steps" || k == "inverse" => {
                at = format!("{at} > {k}[{i}]");
                rest = tail;
            }
            [Seg::Key(k), tail @ ..]
                if k == "inverse" && matches!(tail.first(), Some(Seg::Key(_))) =>
            {
                at = format!("{at} > inverse");
                rest = tail;
            }
            _ => return (at, wire::field(rest)),
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Nesting {
    Top,
    InWatch,
    InInverse,
}

/// The one validation pass over a step read by serde.
struct Checker<'a> {
    base_dir: &'a Path,
    /// The keys no field took: the step they were given in, and the key.
    unknown: Vec<(String, String)>,
}

impl Checker<'_> {
    fn step(&self, w: WireStep, at: &str, nesting: Nesting) -> Parsed<Step> {
        let Some(kind) = w.action else {
            return Err(err(at, format!("missing \"action\" ({KIND_LIST})")));
        };
        let action = kind.name();
        let allowed = kind.allowed();
        let given = [
            ("target", w.target.is_some()),
            ("to", w.to.is_some()),
            ("value", w.value.is_some()),
            ("sensitive", w.sensitive.is_some()),
            ("option", w.option.is_some()),
            ("key", w.key.is_some()),
            ("files", w.files.is_some()),
            ("url", w.url.is_some()),
            ("steps", w.steps.is_some()),
            ("inverse", w.inverse.is_some()),
        ];
        let unknown = self
            .unknown
            .iter()
            .filter(|(here, _)| here == at)
            .map(|(_, key)| key.as_str());
        let stray = given
            .iter()
            .filter(|(key, present)| *present && !allowed.contains(key))
            .map(|(key, _)| *key)
            .chain(unknown)
            .next();
        if let Some(key) = stray {
            return Err(err(
                at,
                format!(
                    "unknown key {:?} for {action}; allowed: action, intent, expect, {}",
                    short(key),
                    allowed.join(", ")
                ),
            ));
        }
        let intent = match w.intent {
            Some(s) if s.trim().is_empty() => {
                return Err(err(
                    at,
                    "\"intent\" is blank; leave it out or say what the step should change",
                ))
            }
            Some(s) => Some(text(s, at, "intent")?),
            None => None,
        };
        let target = |t: Option<Object<Target>>, field: &str| -> Parsed<Target> {
            let Some(Object(t)) = t else {
                return Err(err(
                    at,
                    format!("{action} needs \"{field}\": {{\"role\":\"button\",\"name\":\"…\"}}"),
                ));
            };
            t.check()
                .map_err(|e| err(at, format!("\"{field}\": {}", e.message)))?;
            Ok(t)
        };
        let action = match kind {
            Kind(ActionKind::Click) => Action::Click {
                target: target(w.target, "target")?,
            },
            Kind(ActionKind::Check) => Action::Check {
                target: target(w.target, "target")?,
            },
            Kind(ActionKind::Uncheck) => Action::Uncheck {
                target: target(w.target, "target")?,
            },
            Kind(ActionKind::Hover) => Action::Hover {
                target: target(w.target, "target")?,
            },
            Kind(ActionKind::Fill) => Action::Fill {
                target: target(w.target, "target")?,
                value: required(w.value, "value", at, true)?,
                sensitive: w.sensitive.unwrap_or(false),
            },
            Kind(ActionKind::Select) => Action::Select {
                target: target(w.target, "target")?,
                option: required(w.option, "option", at, false)?,
            },
            Kind(ActionKind::Press) => {
                let name = required(w.key, "key", at, false)?;
                // The machine's key table, read before the first step runs.
                chord::canonical(&name).map_err(|e| err(at, format!("\"key\": {}", e.message)))?;
                Action::Press {
                    key: name,
                    target: match w.target {
                        Some(t) => Some(target(Some(t), "target")?),
                        None => None,
                    },
                }
            }
            Kind(ActionKind::Upload) => Action::Upload {
                target: target(w.target, "target")?,
                files: self.files(w.files, at)?,
            },
            Kind(ActionKind::Drag) => Action::Drag {
                target: target(w.target, "target")?,
                to: target(w.to, "to")?,
            },
            Kind(ActionKind::Goto) => {
                let url = required(w.url, "url", at, false)?;
                check_url(&url).map_err(|m| err(at, m))?;
                Action::Goto { url }
            }
            Kind(ActionKind::Watch) => {
                if nesting != Nesting::Top {
                    return Err(err(at, step::NESTED_WATCH));
                }
                let steps = w
                    .steps
                    .unwrap_or_default()
                    .into_iter()
                    .enumerate()
                    .map(|(i, s)| self.step(s.0, &format!("{at} > steps[{i}]"), Nesting::InWatch))
                    .collect::<Parsed<Vec<_>>>()?;
                Action::Watch { steps }
            }
        };
        let inverse = match w.inverse {
            None => Vec::new(),
            Some(_) if nesting == Nesting::InInverse => {
                return Err(err(at, step::INVERSE_OF_INVERSE))
            }
            Some(OneOrMany::One(s)) => {
                vec![self.step(s.0, &format!("{at} > inverse"), Nesting::InInverse)?]
            }
            Some(OneOrMany::Many(steps)) => steps
                .into_iter()
                .enumerate()
                .map(|(i, s)| self.step(s.0, &format!("{at} > inverse[{i}]"), Nesting::InInverse))
                .collect::<Parsed<Vec<_>>>()?,
        };
        let expect = match w.expect {
            None => Vec::new(),
            Some(_) if nesting != Nesting::Top => return Err(err(at, step::UNVERIFIED_EXPECT)),
            Some(claims) => {
                expect::validate(&claims).map_err(|e| err(at, e.message))?;
                claims
            }
        };
        Ok(Step {
            action,
            intent,
            expect,
            inverse,
        })
    }

    /// The files of an upload, each resolved against the script's directory.
    fn files(&self, files: Option<Vec<String>>, at: &str) -> Parsed<Vec<String>> {
        let Some(files) = files else {
            return Err(err(at, "upload needs \"files\": an array of file paths"));
        };
        if files.is_empty() {
            return Err(err(at, "\"files\" is empty; name at least one file"));
        }
        if files.len() > MAX_FILES {
            return Err(err(
                at,
                format!("\"files\" holds at most {MAX_FILES} paths"),
            ));
        }
        files
            .into_iter()
            .enumerate()
            .map(|(i, f)| {
                let field = format!("files[{i}]");
                if f.trim().is_empty() || f.contains('\0') {
                    return Err(err(at, format!("{field} must be a non-empty path")));
                }
                let p = PathBuf::from(text(f, at, &field)?);
                let p = if p.is_absolute() {
                    p
                } else {
                    self.base_dir.join(p)
                };
                Ok(p.to_string_lossy().into_owned())
            })
            .collect()
    }
}

/// A text the action needs; `may_be_empty` for a fill's value.
fn required(value: Option<String>, field: &str, at: &str, may_be_empty: bool) -> Parsed<String> {
    match value {
        Some(s) if !may_be_empty && s.trim().is_empty() => {
            Err(err(at, format!("\"{field}\" is blank")))
        }
        Some(s) => text(s, at, field),
        None => Err(err(at, format!("missing \"{field}\""))),
    }
}

fn text(s: String, at: &str, field: &str) -> Parsed<String> {
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
            {"action":"press","key":"alt+down","target":{"role":"listitem","name":"Olwen"},
             "inverse":{"action":"press","key":"Alt+ArrowUp","target":{"role":"listitem","name":"Olwen"}}},
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
        let kinds: Vec<_> = steps.iter().map(|s| s.action.name()).collect();
        assert_eq!(
            kinds,
            [
                "click", "fill", "fill", "check", "uncheck", "select", "press", "press", "hover",
                "press", "upload", "drag", "goto", "goto", "watch"
            ]
        );
        assert_eq!(steps[0].intent.as_deref(), Some("the cart gains a shirt"));
        assert!(matches!(
            steps[1].action,
            Action::Fill {
                sensitive: true,
                ..
            }
        ));
        assert!(matches!(
            steps[2].action,
            Action::Fill {
                sensitive: false,
                ..
            }
        ));
        match &steps[6].action {
            Action::Press { key, target } => {
                assert_eq!(key, "Enter");
                assert!(target.is_some());
            }
            other => panic!("not a press: {other:?}"),
        }
        // A key that reorders a list declares the key that takes it back.
        assert!(steps[6].inverse.is_empty());
        match &steps[9].inverse[..] {
            [Step {
                action: Action::Press { key, target },
                inverse,
                ..
            }] => {
                assert_eq!(key, "Alt+ArrowUp");
                assert!(target.is_some() && inverse.is_empty());
            }
            other => panic!("not one press: {other:?}"),
        }
        match &steps[10].action {
            Action::Upload { files, .. } => {
                assert_eq!(files, &["/scripts/r.pdf", "/tmp/x"]);
            }
            other => panic!("not an upload: {other:?}"),
        }
        assert_eq!(steps[10].inverse.len(), 1);
        assert_eq!(steps[11].inverse.len(), 1);
        match &steps[14].action {
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
            (
                "[1]",
                "step 1: invalid type: integer `1`, expected a JSON object",
            ),
            (
                r#"[{"target":{"role":"button","name":"x"}}]"#,
                "step 1: missing \"action\"",
            ),
            (r#"[{"action":"tap"}]"#, "unknown action \"tap\""),
            (
                r#"[{"action":7}]"#,
                "step 1: \"action\": invalid type: integer `7`, expected a string",
            ),
            (
                r#"[{"action":"click","target":["button","x"]}]"#,
                "\"target\": invalid type: sequence, expected a JSON object",
            ),
            (
                r#"[{"action":"click","target":{"role":"button","name":"x"},"colour":"red"}]"#,
                "step 1: unknown key \"colour\" for click; allowed: action, intent, expect, target",
            ),
            (r#"[{"action":"click"}]"#, "click needs \"target\""),
            (
                r#"[{"action":"click","target":{"role":"button"}}]"#,
                "\"target\"",
            ),
            (
                r#"[{"action":"click","target":{"role":"button","name":"x","colour":"red"}}]"#,
                "step 1: \"target.colour\": unknown field `colour`, expected one of `role`, `name`",
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
                "\"value\": invalid type: integer `3`, expected a string",
            ),
            (
                r#"[{"action":"fill","target":{"role":"textbox","name":"x"},"value":"v","sensitive":"yes"}]"#,
                "\"sensitive\": invalid type: string \"yes\", expected a boolean",
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
                "\"steps\": invalid type: map, expected a sequence",
            ),
            (
                r#"[{"action":"click","target":{"role":"button","name":"x"},"intent":""}]"#,
                "\"intent\" is blank",
            ),
            (
                r#"[{"action":"click","target":{"role":"button","name":"x"},"intent":5}]"#,
                "\"intent\": invalid type: integer `5`, expected a string",
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
                r#"[{"action":"press","key":"Alt+ArrowDown","target":{"role":"listitem","name":"x"},
                    "inverse":[{"action":"press","key":"Alt+ArrowUp","target":{"role":"listitem","name":"x"},
                                "inverse":{"action":"press","key":"Alt+ArrowDown"}}]}]"#,
                "step 1 > inverse[0]: an inverse step cannot declare its own inverse",
            ),
            (
                r#"[{"action":"press","key":"Alt+ArrowDown","inverse":{"action":"watch"}}]"#,
                "step 1 > inverse: watch cannot be nested",
            ),
            (
                r#"[{"action":"press","key":"Alt+ArrowDown","inverse":{"action":"press","key":"Alt+Upward"}}]"#,
                "step 1 > inverse: \"key\": unknown key \"Upward\"",
            ),
            (
                r#"[{"action":"click","target":{"role":"button","name":"ok"}},{"action":"nope"}]"#,
                "step 2: \"action\": unknown action",
            ),
            (
                r#"[{"action":"watch","steps":[{"action":"click","target":{"role":"button","name":"ok"}},
                    {"action":"click","target":{"role":"button","name":"x","colour":"red"}}]}]"#,
                "step 1 > steps[1]: \"target.colour\": unknown field `colour`",
            ),
            (
                r#"[{"action":"watch","steps":[{"action":"click","target":{"role":"button","name":"ok"},"to":{}}]}]"#,
                "step 1 > steps[0]: \"to\": missing field `name`",
            ),
            (
                r#"[{"action":"upload","target":{"role":"button","name":"x"},"files":["a"],
                    "inverse":{"action":"click","target":{"role":"button","name":"q"},"files":[]}}]"#,
                "step 1 > inverse: unknown key \"files\" for click",
            ),
            (
                r#"[{"action":"upload","target":{"role":"button","name":"x"},"files":["a"],
                    "inverse":[{"action":"press","key":"a"},{"action":"press","key":3}]}]"#,
                "step 1 > inverse[1]: \"key\": invalid type: integer `3`, expected a string",
            ),
            (
                r#"[{"action":"upload","target":{"role":"button","name":"x"},"files":["a", 7]}]"#,
                "step 1: \"files[1]\": invalid type: integer `7`",
            ),
            (
                r#"[{"action":"upload","target":{"role":"button","name":"x"},"files":["a"],"inverse":"undo"}]"#,
                "\"inverse\": invalid type: string \"undo\", expected a step or an array of steps",
            ),
            (
                r#"[{"action":"click","target":{"role":"button","name":"x"},"expect":[{"kind":"nope"}]}]"#,
                "step 1: \"expect[0].kind\": unknown variant `nope`",
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
    fn null_counts_as_absent_and_inverses_take_either_shape() {
        let steps = parse(
            r#"[
            {"action":"click","target":{"role":"button","name":"x","region":null},"intent":null,"expect":null},
            {"action":"press","key":"shift+tab","target":null},
            {"action":"drag","target":{"role":"listitem","name":"a"},"to":{"role":"list","name":"b"},"inverse":null},
            {"action":"upload","target":{"role":"button","name":"R"},"files":["a"],
             "inverse":[{"action":"click","target":{"role":"button","name":"Clear"}},
                        {"action":"press","key":"Escape"}]},
            {"action":"watch"}
        ]"#,
        )
        .unwrap();
        assert_eq!(
            steps[0],
            Step::new(Action::Click {
                target: Target::new("button", "x")
            })
        );
        match &steps[1].action {
            Action::Press { key, target: None } => assert_eq!(key, "shift+tab"),
            other => panic!("not a press: {other:?}"),
        }
        assert!(steps[2].inverse.is_empty());
        assert_eq!(steps[3].inverse.len(), 2);
        assert_eq!(steps[4].action, Action::watch());
    }

    #[test]
    fn sensitive_values_never_show_in_debug_output() {
        let steps =
            parse(r#"[{"action":"fill","target":{"role":"textbox","name":"Password"},"value":"hunter22","sensitive":true}]"#)
                .unwrap();
        let debug = format!("{:?}", steps);
        assert!(!debug.contains("hunter22"), "{debug}");
        assert!(debug.contains("fill on textbox[Password]"), "{debug}");
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
