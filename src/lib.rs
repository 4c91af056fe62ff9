//! prufe checks that every browser action did what it was meant to do.
//!
//! - [`core`]: identity, fingerprint, diff, resolve, judge and redaction rules as pure Rust,
//!   tested natively and shared by the in-page engine and the native harness.
//! - `dom` (wasm32, feature `dom`): the walk over the accessibility-relevant DOM, the only
//!   code that names web-sys.
//! - `bindings` (wasm32, feature `dom`): the `#[wasm_bindgen]` exports behind `window.prufe`.
//! - `machine` (wasm32, feature `machine`): the exports of the DOM-free machine module,
//!   `start` and `next` over [`core::api::run_start`] and [`core::api::run_next`].
//!
//! - [`types`] (feature `schema`): the TypeScript declarations of the wire types, generated
//!   from their JSON schemas.
//!
//! The in-page bundle is built with the default features, the machine module with
//! `--no-default-features --features machine`: the page does not carry the loop (it would
//! nearly double the bundle), and the driver's module carries no DOM code.

pub mod core;

#[cfg(feature = "schema")]
pub mod types;

#[cfg(all(target_arch = "wasm32", feature = "dom"))]
pub mod dom;

#[cfg(all(target_arch = "wasm32", feature = "dom"))]
pub mod bindings;

#[cfg(all(target_arch = "wasm32", feature = "machine"))]
pub mod machine;

/// The engine version reported by `prufe.version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
