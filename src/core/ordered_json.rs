//! JSON whose objects keep their keys in the order they came in.
//!
//! `serde_json::Value` sorts an object's keys (the tree builds serde_json without
//! `preserve_order`, and digests, generated files and golden outputs rely on that). A value
//! the machine hands back to a caller as it came, only changed, keeps the caller's order in
//! [`OrderedJson`]: a package's record scrubbed of its secrets (`api::scrub_text`) reads as
//! the same record unscrubbed, field for field in its declared order.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Number, Value};
use std::fmt;

/// A JSON value; an object is its entries in their order, each key once.
#[derive(Debug, Clone, PartialEq)]
pub enum OrderedJson {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<OrderedJson>),
    Object(Vec<(String, OrderedJson)>),
}

/// Sets `key` to `value` among `entries`: in the place the key already has (the later value
/// kept, as a JSON parser keeps it), or last.
pub fn insert(entries: &mut Vec<(String, OrderedJson)>, key: String, value: OrderedJson) {
    match entries.iter_mut().find(|(k, _)| *k == key) {
        Some((_, v)) => *v = value,
        None => entries.push((key, value)),
    }
}

impl From<Value> for OrderedJson {
    fn from(v: Value) -> Self {
        match v {
            Value::Null => OrderedJson::Null,
            Value::Bool(b) => OrderedJson::Bool(b),
            Value::Number(n) => OrderedJson::Number(n),
            Value::String(s) => OrderedJson::String(s),
            Value::Array(items) => OrderedJson::Array(items.into_iter().map(Into::into).collect()),
            Value::Object(map) => {
                OrderedJson::Object(map.into_iter().map(|(k, v)| (k, v.into())).collect())
            }
        }
    }
}

impl From<OrderedJson> for Value {
    fn from(v: OrderedJson) -> Self {
        match v {
            OrderedJson::Null => Value::Null,
            OrderedJson::Bool(b) => Value::Bool(b),
            OrderedJson::Number(n) => Value::Number(n),
            OrderedJson::String(s) => Value::String(s),
            OrderedJson::Array(items) => Value::Array(items.into_iter().map(Into::into).collect()),
            OrderedJson::Object(entries) => {
                Value::Object(entries.into_iter().map(|(k, v)| (k, v.into())).collect())
            }
        }
    }
}

impl Serialize for OrderedJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            OrderedJson::Null => s.serialize_unit(),
            OrderedJson::Bool(b) => s.serialize_bool(*b),
            OrderedJson::Number(n) => n.serialize(s),
            OrderedJson::String(text) => s.serialize_str(text),
            OrderedJson::Array(items) => items.serialize(s),
            OrderedJson::Object(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for OrderedJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(OrderedVisitor)
    }
}

struct OrderedVisitor;

impl<'de> Visitor<'de> for OrderedVisitor {
    type Value = OrderedJson;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<OrderedJson, E> {
        Ok(OrderedJson::Null)
    }

    fn visit_none<E>(self) -> Result<OrderedJson, E> {
        Ok(OrderedJson::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<OrderedJson, D::Error> {
        OrderedJson::deserialize(d)
    }

    fn visit_bool<E>(self, b: bool) -> Result<OrderedJson, E> {
        Ok(OrderedJson::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<OrderedJson, E> {
        Ok(OrderedJson::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<OrderedJson, E> {
        Ok(OrderedJson::Number(n.into()))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<OrderedJson, E> {
        Number::from_f64(n)
            .map(OrderedJson::Number)
            .ok_or_else(|| E::custom("a number JSON cannot hold"))
    }

    fn visit_str<E>(self, s: &str) -> Result<OrderedJson, E> {
        Ok(OrderedJson::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<OrderedJson, E> {
        Ok(OrderedJson::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<OrderedJson, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(OrderedJson::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OrderedJson, A::Error> {
        let mut entries = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, OrderedJson>()? {
            insert(&mut entries, k, v);
        }
        Ok(OrderedJson::Object(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_keep_their_order_through_a_round_trip() {
        let text = r#"{"verdict":"MATCH","action":"fill","value":[1,-2,3.5,true,null,{"z":"","a":{}}],"b":"x"}"#;
        let v: OrderedJson = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), text);
        // `Value` sorts the same keys: the order kept is the one that came in.
        let sorted: Value = serde_json::from_str(text).unwrap();
        assert_ne!(serde_json::to_string(&sorted).unwrap(), text);
        assert_eq!(Value::from(v), sorted);
    }

    #[test]
    fn a_repeated_key_keeps_its_first_place_and_its_later_value() {
        let v: OrderedJson = serde_json::from_str(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"a":3,"b":2}"#);
    }
}
