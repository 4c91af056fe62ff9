//! Sets `PRUFE_WASM_BINDGEN_VERSION` to the `wasm-bindgen-cli-support` version of the
//! workspace's Cargo.lock, which `--version` reports (the setup compares it with the pin).

fn main() {
    let lock = concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.lock");
    println!("cargo:rerun-if-changed={lock}");
    let text = std::fs::read_to_string(lock).unwrap_or_default();
    let version = text
        .split("[[package]]")
        .find(|p| p.contains("\nname = \"wasm-bindgen-cli-support\"\n"))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = ")))
        .map(|v| v.trim_matches('"').to_owned())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=PRUFE_WASM_BINDGEN_VERSION={version}");
}
