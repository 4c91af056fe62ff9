//! A verified click from your own tokio program.
//!
//! ```text
//! cargo run -p prufe-harness --example verify_click            # the honest shop: MATCH
//! cargo run -p prufe-harness --example verify_click -- recycled-list.html   # MISMATCH, undone
//! ```
//!
//! It serves `fixtures/` on 127.0.0.1, launches headless Chromium with a fresh profile,
//! clicks "Add Shirt M" with an intent, and prints the outcome (or the failure's report).

use prufe::core::resolve::Target;
use prufe_harness::serve::StaticServer;
use prufe_harness::{Options, Verifier};

#[tokio::main]
async fn main() -> prufe_harness::Result<()> {
    let page = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "shop.html".to_owned());
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let server = StaticServer::start(fixtures, Vec::new())
        .await
        .map_err(|e| prufe_harness::Error::Launch(e.to_string()))?;

    let mut verifier = Verifier::launch(Options::default()).await?;
    verifier.open(&server.url(&page)).await?;

    let result = verifier
        .click(
            Target::new("button", "Add Shirt M"),
            Some("the cart gains a shirt in size M"),
        )
        .await;
    match &result {
        Ok(outcome) => print!("✓ {}\n{}", outcome.summary(), outcome.explain()),
        Err(error) => print!("✗ {error}\n{}", error.explain()),
    }
    verifier.close().await?;
    if result.is_err() {
        std::process::exit(1);
    }
    Ok(())
}
