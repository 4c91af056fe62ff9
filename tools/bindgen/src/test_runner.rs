//! `wasm-bindgen-test-runner`, as the `wasm-bindgen-cli` crate of the pinned version builds
//! it: the in-browser wasm tests (`scripts/wasm-test.sh`) run each test binary through it.

fn main() -> std::process::ExitCode {
    match wasm_bindgen_cli::wasm_bindgen_test_runner::run_cli_with_args(std::env::args_os()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wasm-bindgen-test-runner: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
