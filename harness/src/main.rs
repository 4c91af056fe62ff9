//! `prufe`: see `prufe --help` and the `cli` module.

#[tokio::main]
async fn main() {
    let code = prufe_harness::cli::main().await;
    std::process::exit(code);
}
