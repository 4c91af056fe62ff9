//! The committed TypeScript declarations (`js/prufe-types.d.ts`, `js/prufe-run-types.d.ts`)
//! are what `prufe::types` generates from the Rust types. `make types` (this test with
//! `PRUFE_BLESS=1`) writes them.

use std::path::Path;

#[test]
fn the_committed_declarations_are_generated_from_the_rust_types() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bless = std::env::var_os("PRUFE_BLESS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for (path, text) in prufe::types::files() {
        let file = root.join(path);
        let committed = std::fs::read_to_string(&file).unwrap_or_default();
        if committed == text {
            continue;
        }
        if bless {
            std::fs::write(&file, &text).unwrap_or_else(|e| panic!("writing {path}: {e}"));
        } else {
            let line = committed
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| committed.lines().count().min(text.lines().count()));
            stale.push(format!(
                "{path} (first difference at line {}: {:?} is now {:?})",
                line + 1,
                committed.lines().nth(line).unwrap_or(""),
                text.lines().nth(line).unwrap_or("")
            ));
        }
    }
    assert!(
        stale.is_empty(),
        "the committed TypeScript declarations differ from the Rust types: {}; run `make types` \
         and commit them",
        stale.join(", ")
    );
}
