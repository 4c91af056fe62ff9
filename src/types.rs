//! The TypeScript declarations of the wire types, generated from the Rust types themselves:
//! `js/prufe-types.d.ts` (namespace `Prufe`: what the in-page engine reads and writes) and
//! `js/prufe-run-types.d.ts` (namespace `PrufeRun`: the machine's steps, needs, answers and
//! records). `js/prufe.d.ts` and `js/prufe-run.d.ts` reference them and add, by hand, the
//! functions of `window.prufe` and of the machine module. `tests/types.rs` fails when a
//! committed file differs from what this module writes; `make types` rewrites them.
//!
//! Each type's JSON schema comes from `schemars` (feature `schema`, never in a wasm build),
//! which reads the serde attributes (tags, renames, defaults, skipped fields) the wire is
//! made of; [`render`] turns a schema into a TypeScript type. Chosen over deriving
//! TypeScript directly (`ts-rs`): one derive serves these declarations and the MCP server's
//! tool schemas, a variant's doc comment is kept, and a field is optional by the direction
//! the type travels in. That direction is [`Contract`]: a type drivers write (a step, a
//! policy, an answer) is declared as the machine reads it, so a field with a default may be
//! left out; a type prufe writes (a snapshot, a need, a record) as it is written, so a field
//! that is always there is never optional.
//!
//! A type is declared by name when [`ENGINE`] or [`MACHINE`] lists it; any other type it
//! holds is written out where it is used. A schema the renderer has no rendering for
//! panics, naming it: a new shape is added here, never guessed.

use crate::core::{background, diff, error, expect, frames, judge, model, resolve, run, until};
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Which way a type travels, so which of its fields may be absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Contract {
    /// Written by drivers, read by prufe: a field with a default is optional.
    Read,
    /// Written by prufe: only a field skipped when empty is optional.
    Written,
}

/// One declared type: its TypeScript name, its contract and its schema.
pub struct Declared {
    pub name: &'static str,
    pub contract: Contract,
    schema: fn(&mut SchemaGenerator) -> Schema,
}

const fn read<T: JsonSchema>(name: &'static str) -> Declared {
    Declared {
        name,
        contract: Contract::Read,
        schema: SchemaGenerator::subschema_for::<T>,
    }
}

const fn written<T: JsonSchema>(name: &'static str) -> Declared {
    Declared {
        name,
        contract: Contract::Written,
        schema: SchemaGenerator::subschema_for::<T>,
    }
}

/// The engine's types (namespace `Prufe`), in the order they are declared.
pub const ENGINE: &[Declared] = &[
    written::<model::Role>("Role"),
    written::<model::Tristate>("Tristate"),
    written::<error::ErrorCode>("ErrorCode"),
    written::<error::Candidate>("Candidate"),
    written::<model::Context>("Context"),
    written::<model::Element>("ElementRecord"),
    written::<model::TextKind>("TextKind"),
    written::<model::Text>("Text"),
    written::<model::Snapshot>("Snapshot"),
    read::<diff::DiffOptions>("RegionFilter"),
    written::<diff::Field>("Field"),
    written::<diff::FieldChange>("FieldChange"),
    written::<diff::Changed>("Changed"),
    written::<diff::Moved>("Moved"),
    written::<diff::Diff>("Diff"),
    read::<resolve::Target>("Target"),
    read::<resolve::Container>("Container"),
    written::<resolve::Resolution>("Resolution"),
    written::<judge::ActionKind>("ActionKind"),
    read::<judge::Action>("Action"),
    read::<background::Background>("Background"),
    read::<judge::JudgeOptions>("JudgeOptions"),
    written::<judge::VerdictKind>("VerdictKind"),
    written::<judge::Attribution>("Attribution"),
    written::<judge::Verdict>("Verdict"),
    written::<run::Point>("Point"),
    written::<run::Destination>("Destination"),
    written::<run::ready::Refusal>("Refusal"),
];

/// The machine's types (namespace `PrufeRun`), in the order they are declared.
pub const MACHINE: &[Declared] = &[
    read::<run::Button>("Button"),
    read::<run::Size>("Size"),
    read::<run::HitBox>("HitBox"),
    read::<run::Screen>("Screen"),
    read::<run::Pick>("Pick"),
    written::<error::Error>("ErrorData"),
    read::<run::Action>("Action"),
    read::<run::Step>("Step"),
    read::<expect::State>("ClaimState"),
    read::<expect::Claim>("Claim"),
    written::<expect::Outcome>("ClaimOutcome"),
    read::<run::Timing>("Timing"),
    read::<run::Ambiguous>("Ambiguous"),
    read::<run::Policy>("Policy"),
    read::<run::dialogs::Dialog>("Dialog"),
    read::<run::Seen>("Seen"),
    written::<run::Gesture>("Gesture"),
    written::<run::Read>("Read"),
    written::<run::Question>("Question"),
    written::<run::Record>("Record"),
    written::<run::Need>("Need"),
    read::<run::Answer>("Answer"),
    read::<until::Postcondition>("Postcondition"),
    read::<frames::Origin>("Origin"),
];

/// The committed files: their path in the repository and their text.
pub fn files() -> Vec<(&'static str, String)> {
    let schemas = Schemas::new();
    vec![
        (
            "js/prufe-types.d.ts",
            schemas.file(
                "the in-page engine's types, the data `window.prufe` takes and returns \
                 (js/prufe.d.ts declares its functions)",
                None,
                "Prufe",
                ENGINE,
            ),
        ),
        (
            "js/prufe-run-types.d.ts",
            schemas.file(
                "the machine's types: a step, its policy, the needs, the answers and the \
                 record (js/prufe-run.d.ts declares the module's functions)",
                Some("prufe-types.d.ts"),
                "PrufeRun",
                MACHINE,
            ),
        ),
    ]
}

/// Every declared type's schema under both contracts, and the names they are declared by.
struct Schemas {
    definitions: HashMap<Contract, Map<String, Value>>,
    /// The TypeScript name, qualified, of a definition under a contract.
    names: HashMap<(Contract, String), String>,
    /// The definition of a declared type (qualified name) under its own contract.
    keys: HashMap<String, String>,
}

impl Schemas {
    fn new() -> Schemas {
        let mut definitions = HashMap::new();
        let mut names = HashMap::new();
        let mut keys = HashMap::new();
        for contract in [Contract::Read, Contract::Written] {
            let settings = match contract {
                Contract::Read => SchemaSettings::draft2020_12().for_deserialize(),
                Contract::Written => SchemaSettings::draft2020_12().for_serialize(),
            };
            let mut generator = settings.into_generator();
            for (namespace, declared) in [("Prufe", ENGINE), ("PrufeRun", MACHINE)] {
                for d in declared {
                    let reference = (d.schema)(&mut generator);
                    let key = definition(reference.as_value()).unwrap_or_else(|| {
                        panic!("{} has no definition of its own", d.name);
                    });
                    let name = format!("{namespace}.{}", d.name);
                    if d.contract == contract {
                        keys.insert(name.clone(), key.clone());
                    }
                    names.insert((contract, key), name);
                }
            }
            definitions.insert(contract, generator.take_definitions(true));
        }
        Schemas {
            definitions,
            names,
            keys,
        }
    }

    fn file(
        &self,
        what: &str,
        reference: Option<&str>,
        namespace: &str,
        declared: &[Declared],
    ) -> String {
        let mut out = String::new();
        out.push_str(
            "// Generated from the Rust types by `make types` (src/types.rs): do not edit.\n",
        );
        out.push_str(&comment_lines(
            &format!("The wire shapes of {what}."),
            "// ",
        ));
        if let Some(path) = reference {
            out.push_str(&format!("\n/// <reference path=\"{path}\" />\n"));
        }
        out.push_str(&format!("\ndeclare namespace {namespace} {{\n"));
        for (i, d) in declared.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let key = &self.keys[&format!("{namespace}.{}", d.name)];
            let schema = &self.definitions[&d.contract][key];
            let renderer = Renderer {
                schemas: self,
                contract: d.contract,
                namespace,
            };
            out.push_str(&renderer.declaration(d.name, schema));
        }
        out.push_str("}\n");
        out
    }
}

/// The definition a `$ref` names.
fn definition(schema: &Value) -> Option<String> {
    schema
        .get("$ref")?
        .as_str()?
        .strip_prefix("#/$defs/")
        .map(str::to_owned)
}

/// Keywords that say nothing about a TypeScript type (bounds, formats, defaults, titles).
const IGNORED: &[&str] = &[
    "format",
    "minimum",
    "maximum",
    "default",
    "title",
    "additionalProperties",
    "$schema",
    "examples",
];

const INDENT: &str = "  ";
/// Longest line an object is written on before it is broken into one member per line.
const WIDTH: usize = 100;

struct Renderer<'a> {
    schemas: &'a Schemas,
    contract: Contract,
    namespace: &'a str,
}

impl Renderer<'_> {
    /// `interface Name { … }` for an object, `type Name = …;` for anything else, with the
    /// schema's description above it.
    fn declaration(&self, name: &str, schema: &Value) -> String {
        let mut out = doc(schema, INDENT);
        if schema.get("properties").is_some() && schema.get("type") == Some(&"object".into()) {
            out.push_str(&format!("{INDENT}interface {name} "));
            out.push_str(&self.object(schema, INDENT, true));
            out.push('\n');
        } else {
            out.push_str(&format!("{INDENT}type {name} ="));
            let alternatives = schema.get("oneOf").or_else(|| schema.get("anyOf"));
            let plain = |alternatives: &[Value]| {
                let one_line = self.expression(schema, INDENT);
                is_nullable(alternatives)
                    || alternatives.iter().all(|a| a.get("description").is_none())
                        && !one_line.contains('\n')
                        && INDENT.len() + name.len() + one_line.len() + 8 <= WIDTH
            };
            match alternatives.and_then(Value::as_array) {
                Some(alternatives) if alternatives.len() > 1 && !plain(alternatives) => {
                    for a in alternatives {
                        let inner = format!("{INDENT}{INDENT}");
                        out.push('\n');
                        out.push_str(&doc(a, &inner));
                        out.push_str(&format!("{inner}| {}", self.expression(a, &inner)));
                    }
                    out.push_str(";\n");
                }
                _ => {
                    let expression = self.expression(schema, INDENT);
                    out.push_str(&format!("{}{expression};\n", space(&expression)));
                }
            }
        }
        out
    }

    /// The TypeScript type of a schema, its continuation lines indented by `indent`.
    fn expression(&self, schema: &Value, indent: &str) -> String {
        let object = match schema {
            Value::Bool(true) => return "unknown".into(),
            Value::Object(object) => object,
            _ => panic!("no TypeScript for the schema {schema}"),
        };
        for key in object.keys() {
            let known = [
                "$ref",
                "type",
                "enum",
                "const",
                "oneOf",
                "anyOf",
                "items",
                "properties",
                "required",
                "description",
                "$defs",
            ];
            assert!(
                known.contains(&key.as_str()) || IGNORED.contains(&key.as_str()),
                "no TypeScript for the keyword {key:?} in {schema}"
            );
        }
        if let Some(key) = definition(schema) {
            return self.reference(&key, indent);
        }
        if let Some(value) = object.get("const") {
            return literal(value);
        }
        if let Some(values) = object.get("enum").and_then(Value::as_array) {
            return union(values.iter().map(literal).collect(), indent);
        }
        if let Some(alternatives) = object
            .get("oneOf")
            .or_else(|| object.get("anyOf"))
            .and_then(Value::as_array)
        {
            return alternatives
                .iter()
                .map(|a| self.expression(a, indent))
                .collect::<Vec<_>>()
                .join(" | ");
        }
        match object.get("type") {
            Some(Value::Array(types)) => types
                .iter()
                .map(|t| {
                    let mut one = object.clone();
                    one.insert("type".into(), t.clone());
                    self.expression(&Value::Object(one), indent)
                })
                .collect::<Vec<_>>()
                .join(" | "),
            Some(Value::String(t)) => match t.as_str() {
                "string" => "string".into(),
                "integer" | "number" => "number".into(),
                "boolean" => "boolean".into(),
                "null" => "null".into(),
                "array" => {
                    let items =
                        self.expression(object.get("items").unwrap_or(&Value::Bool(true)), indent);
                    if items.contains(' ') && !items.starts_with('{') {
                        format!("({items})[]")
                    } else {
                        format!("{items}[]")
                    }
                }
                "object" if object.contains_key("properties") => self.object(schema, indent, false),
                "object" => "{ [key: string]: unknown }".into(),
                _ => panic!("no TypeScript for the type {t:?} in {schema}"),
            },
            _ if object.is_empty()
                || object
                    .keys()
                    .all(|k| k == "description" || IGNORED.contains(&k.as_str())) =>
            {
                "unknown".into()
            }
            _ => panic!("no TypeScript for the schema {schema}"),
        }
    }

    /// A declared type by its name (qualified outside its namespace), any other written out.
    fn reference(&self, key: &str, indent: &str) -> String {
        match self.schemas.names.get(&(self.contract, key.to_owned())) {
            Some(name) => name
                .strip_prefix(&format!("{}.", self.namespace))
                .unwrap_or(name)
                .to_owned(),
            None => {
                let schema = &self.schemas.definitions[&self.contract][key];
                self.expression(schema, indent)
            }
        }
    }

    /// `{ a: string; b?: number }` on one line when it fits and no member has a
    /// description, else one member per line. The tag of a variant (a property whose value
    /// is a constant) comes first, then the required members in the order the type
    /// declares them, then the optional ones by name.
    fn object(&self, schema: &Value, indent: &str, broken: bool) -> String {
        let properties = schema["properties"].as_object().expect("properties");
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut order: Vec<&str> = Vec::new();
        order.extend(
            properties
                .iter()
                .filter(|(_, p)| p.get("const").is_some())
                .map(|(k, _)| k.as_str()),
        );
        for k in &required {
            if !order.contains(k) {
                order.push(k);
            }
        }
        let mut optional: Vec<&str> = properties
            .keys()
            .map(String::as_str)
            .filter(|k| !order.contains(k))
            .collect();
        optional.sort_unstable();
        order.extend(optional);

        let inner = format!("{indent}{INDENT}");
        let members: Vec<(String, String)> = order
            .iter()
            .map(|k| {
                let p = &properties[*k];
                let mark = if required.contains(k) { "" } else { "?" };
                let expression = self.expression(p, &inner);
                (
                    doc(p, &inner),
                    format!("{}{mark}:{}{expression}", property(k), space(&expression)),
                )
            })
            .collect();
        let one_line = format!(
            "{{ {} }}",
            members
                .iter()
                .map(|(_, m)| m.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        );
        if !broken
            && members
                .iter()
                .all(|(d, m)| d.is_empty() && !m.contains('\n'))
            && indent.len() + one_line.len() <= WIDTH
        {
            return one_line;
        }
        let mut out = String::from("{\n");
        for (d, m) in members {
            out.push_str(&d);
            out.push_str(&format!("{inner}{m};\n"));
        }
        out.push_str(&format!("{indent}}}"));
        out
    }
}

/// `a | b | c`, or when that is too long, lines of alternatives each starting with `|`
/// (the result then starts with a line break).
fn union(alternatives: Vec<String>, indent: &str) -> String {
    let one_line = alternatives.join(" | ");
    if indent.len() + one_line.len() + 16 <= WIDTH {
        return one_line;
    }
    let inner = format!("{indent}{INDENT}");
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for a in alternatives {
        let piece = format!("| {a}");
        if !line.is_empty() && inner.len() + line.len() + 1 + piece.len() > WIDTH {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    lines.push(line);
    lines.iter().map(|l| format!("\n{inner}{l}")).collect()
}

/// What follows a `:` or `=` before a type: a space, or nothing before a line break.
fn space(expression: &str) -> &'static str {
    if expression.starts_with('\n') {
        ""
    } else {
        " "
    }
}

/// `anyOf: [T, null]`: a value that may be null, written `T | null` in one piece.
fn is_nullable(alternatives: &[Value]) -> bool {
    alternatives.len() == 2
        && alternatives
            .iter()
            .any(|a| a.get("type") == Some(&"null".into()))
}

fn literal(value: &Value) -> String {
    match value {
        Value::String(s) => format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'")),
        other => other.to_string(),
    }
}

/// A property name, quoted unless it is an identifier.
fn property(name: &str) -> String {
    let identifier = name.chars().enumerate().all(|(i, c)| {
        c == '_' || c == '$' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit())
    });
    if identifier && !name.is_empty() {
        name.to_owned()
    } else {
        format!("'{name}'")
    }
}

/// The schema's description as a doc comment, each line indented; empty without one. Rust
/// links (``[`Answer::Settled`]``) are written as code.
fn doc(schema: &Value, indent: &str) -> String {
    let Some(text) = schema.get("description").and_then(Value::as_str) else {
        return String::new();
    };
    let text = unlink(text);
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() == 1 && indent.len() + text.len() + 7 <= WIDTH {
        return format!("{indent}/** {text} */\n");
    }
    let mut out = format!("{indent}/**\n");
    for line in lines {
        if line.is_empty() {
            out.push_str(&format!("{indent} *\n"));
        } else {
            out.push_str(&format!("{indent} * {line}\n"));
        }
    }
    out.push_str(&format!("{indent} */\n"));
    out
}

/// ``[`Answer::Settled`]`` (a Rust doc link) as ``Answer::Settled``; any other bracket
/// stays. Descriptions taken from doc comments read this way outside Rust.
pub fn unlink(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("[`") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let link = after.find("`]").filter(|&end| {
            end > 0
                && after[..end]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '(' | ')'))
        });
        match link {
            Some(end) => {
                out.push('`');
                out.push_str(&after[..end]);
                out.push('`');
                rest = &after[end + 2..];
            }
            None => {
                out.push_str("[`");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `text` as line comments starting with `prefix`, wrapped at [`WIDTH`].
fn comment_lines(text: &str, prefix: &str) -> String {
    let mut out = String::new();
    let mut line = String::from(prefix);
    for word in text.split_whitespace() {
        if line.len() > prefix.len() && line.len() + 1 + word.len() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(prefix);
        }
        if line.len() > prefix.len() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str) -> String {
        files()
            .into_iter()
            .find(|(p, _)| *p == path)
            .map(|(_, text)| text)
            .expect("a generated file")
    }

    #[test]
    fn a_field_is_optional_by_the_direction_its_type_travels_in() {
        let engine = file("js/prufe-types.d.ts");
        let machine = file("js/prufe-run-types.d.ts");
        // Written by prufe: an `Option` is always there (null), a skipped field optional.
        for line in ["    href: string | null;\n", "    text?: string | null;\n"] {
            assert!(engine.contains(line), "{line:?} in\n{engine}");
        }
        // Read by the machine: a field with a default may be left out.
        for line in [
            "    | { answer: 'acted'; steps?: number }\n",
            "    maxAttempts?: number;\n",
        ] {
            assert!(machine.contains(line), "{line:?} in\n{machine}");
        }
    }

    #[test]
    fn a_tagged_enum_is_a_union_with_its_tag_first() {
        let machine = file("js/prufe-run-types.d.ts");
        for line in [
            "    | { need: 'describe'; ref: string }\n",
            "    | { kind: 'press'; ref: string | null; keys: string[] }\n",
            "  type Button = 'left' | 'middle' | 'right';\n",
        ] {
            assert!(machine.contains(line), "{line:?} in\n{machine}");
        }
        assert!(machine.contains("/// <reference path=\"prufe-types.d.ts\" />"));
        // A type the engine's file declares is named there, not written out again.
        assert!(machine.contains("snapshot: Prufe.Snapshot;"));
        assert!(!machine.contains("interface ElementRecord"));
    }

    #[test]
    fn an_unknown_schema_is_refused_not_guessed() {
        let schemas = Schemas::new();
        let renderer = Renderer {
            schemas: &schemas,
            contract: Contract::Read,
            namespace: "Prufe",
        };
        let refused = std::panic::catch_unwind(|| {
            renderer.expression(&serde_json::json!({ "not": { "type": "string" } }), "")
        });
        assert!(refused.is_err());
        assert_eq!(
            renderer.expression(&serde_json::json!({ "type": ["integer", "null"] }), ""),
            "number | null"
        );
    }

    #[test]
    fn rust_links_become_code_and_other_brackets_stay() {
        assert_eq!(
            unlink("Answer: [`Answer::Settled`]; `/` or `[` stay"),
            "Answer: `Answer::Settled`; `/` or `[` stay"
        );
    }
}
