//! prufe checks that every browser action did what it was meant to do.
//!
//! - [`core`]: identity, fingerprint, diff, resolve, judge and redaction rules as pure Rust,
//!   tested natively and shared by the in-page engine and the native harness.
//! - `dom` (wasm32 only): the walk over the accessibility-relevant DOM, the only code that
//!   names web-sys.
//! - `bindings` (wasm32 only): the `#[wasm_bindgen]` exports behind `window.prufe`.

pub mod core;

#[cfg(target_arch = "wasm32")]
pub mod dom;

#[cfg(target_arch = "wasm32")]
pub mod bindings;

/// The engine version reported by `prufe.version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
