//! Typed reading of untrusted JSON: serde into wire structs, with the place of every error
//! and every key no struct knows.
//!
//! The script format (`script`) and the coordinate contract (`executor`) are wire structs
//! read with serde, then one validation pass each. What serde alone would leave vague is
//! kept here: where in the value an error is (`serde_path_to_error`), and which keys were
//! given that no field takes (`serde_ignored`), so the validation pass can name the key and
//! what the action allows instead of serde's list of every field. Their wire structs do not
//! `deny_unknown_fields` for that reason; the core types inside them (a target, a claim) do.

use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use std::fmt;
use std::marker::PhantomData;

/// One step of a path into a value: a key of an object or an index of an array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// A value read into `T`, with the paths of the keys it ignored, in the order met.
#[derive(Debug)]
pub struct Read<T> {
    pub value: T,
    pub ignored: Vec<Vec<Seg>>,
}

/// Why a value is not a `T`: where, and serde's account of it.
#[derive(Debug)]
pub struct Misread {
    pub path: Vec<Seg>,
    pub message: String,
}

/// Reads `value` into `T`.
pub fn read<T: DeserializeOwned>(value: &Value) -> Result<Read<T>, Misread> {
    let mut ignored = Vec::new();
    let mut note = |path: serde_ignored::Path<'_>| ignored.push(ignored_path(&path));
    let tracked = serde_ignored::Deserializer::new(value, &mut note);
    match serde_path_to_error::deserialize(tracked) {
        Ok(value) => Ok(Read { value, ignored }),
        Err(e) => Err(Misread {
            path: e
                .path()
                .iter()
                .filter_map(|s| match s {
                    serde_path_to_error::Segment::Seq { index } => Some(Seg::Index(*index)),
                    serde_path_to_error::Segment::Map { key } => Some(Seg::Key(key.clone())),
                    _ => None,
                })
                .collect(),
            message: e.into_inner().to_string(),
        }),
    }
}

fn ignored_path(path: &serde_ignored::Path<'_>) -> Vec<Seg> {
    use serde_ignored::Path;
    let mut segs = Vec::new();
    let mut at = path;
    loop {
        at = match at {
            Path::Root => break,
            Path::Seq { parent, index } => {
                segs.push(Seg::Index(*index));
                parent
            }
            Path::Map { parent, key } => {
                segs.push(Seg::Key(key.clone()));
                parent
            }
            Path::Some { parent }
            | Path::NewtypeStruct { parent }
            | Path::NewtypeVariant { parent } => parent,
        };
    }
    segs.reverse();
    segs
}

/// `target.in.role`, `files[2]`: a path as a message names a field.
pub fn field(path: &[Seg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) if s.is_empty() => s.push_str(k),
            Seg::Key(k) => {
                s.push('.');
                s.push_str(k);
            }
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// A `T` that must be written as a JSON object. serde's derived structs also take an array
/// of their fields in order; a script's step or target never is one.
#[derive(Debug, Clone, PartialEq)]
pub struct Object<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Object<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Object<T>, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Object)
            }
        }
        d.deserialize_map(V(PhantomData))
    }
}

/// One object, or an array of them: the one field of the script format with two shapes
/// (`inverse`).
#[derive(Debug, Clone, PartialEq)]
pub enum OneOrMany<T> {
    One(Box<T>),
    Many(Vec<T>),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = OneOrMany<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a step or an array of steps")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<OneOrMany<T>, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(|one| OneOrMany::One(Box::new(one)))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<OneOrMany<T>, A::Error> {
                Vec::<T>::deserialize(de::value::SeqAccessDeserializer::new(seq))
                    .map(OneOrMany::Many)
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Inner {
        n: u32,
    }

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Outer {
        inner: Option<Object<Inner>>,
        list: Option<Vec<Object<Inner>>>,
        either: Option<OneOrMany<Object<Inner>>>,
    }

    #[test]
    fn errors_and_ignored_keys_carry_their_path() {
        let e = read::<Outer>(&json!({"list": [{"n": 1}, {"n": "two"}]})).unwrap_err();
        assert_eq!(field(&e.path), "list[1].n");
        assert!(e.message.contains("expected u32"), "{}", e.message);
        let e = read::<Outer>(&json!({"either": {"n": -1}})).unwrap_err();
        assert_eq!(field(&e.path), "either.n");
        let e = read::<Outer>(&json!({"either": [{"n": 1}, {}]})).unwrap_err();
        assert_eq!(field(&e.path), "either[1]");
        assert!(e.message.contains("missing field `n`"), "{}", e.message);
        let r = read::<Outer>(&json!({"inner": {"n": 1, "m": 2}, "colour": "red"})).unwrap();
        let ignored: Vec<_> = r.ignored.iter().map(|p| field(p)).collect();
        assert_eq!(ignored, ["colour", "inner.m"]);
    }

    #[test]
    fn an_object_is_never_read_from_an_array() {
        let e = read::<Outer>(&json!({"inner": [1]})).unwrap_err();
        assert_eq!(field(&e.path), "inner");
        assert!(
            e.message.contains("expected a JSON object"),
            "{}",
            e.message
        );
        let e = read::<Outer>(&json!({"either": 5})).unwrap_err();
        assert!(
            e.message.contains("a step or an array of steps"),
            "{}",
            e.message
        );
    }
}
