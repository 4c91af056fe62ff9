//! The pure core: plain data in, plain data out. No web-sys here: the native build of
//! this module is the proof, since web-sys is a wasm32-only dependency.

pub mod api;
pub mod background;
pub mod busy;
pub mod claims;
pub mod classes;
pub mod css;
pub mod diff;
pub mod error;
pub mod expect;
pub mod fingerprint;
pub mod frames;
pub mod identity;
pub mod intent;
pub mod judge;
pub mod located;
pub mod model;
pub mod order;
pub mod ordered_json;
pub mod reading;
pub mod redact;
pub mod resolve;
pub mod run;
pub mod states;
pub mod text;
pub mod until;
pub mod wire;
pub mod wire_delta;

#[cfg(test)]
mod testing;

pub use error::{Error, ErrorCode, Result};
pub use model::{Context, Element, Role, Snapshot, Text, TextKind, Tristate};
