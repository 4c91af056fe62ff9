//! `prufe-bindgen`: what `wasm-bindgen --target no-modules --no-typescript
//! --omit-default-module-path --out-name NAME --out-dir DIR INPUT` does, and nothing else.
//!
//! The bundle build (`js/build.mjs`) needs only the bindgen step. The `wasm-bindgen-cli`
//! crate also carries the test runner, its HTTP server and client and a TLS stack: about 180
//! crates against about 50 here, so that a first `make demo` compiles a third of the code.
//! The tests also need `wasm-bindgen-test-runner`: with the feature `test-runner` this crate
//! builds it too (src/test_runner.rs), from the `wasm-bindgen-cli` of the same pinned version,
//! so that the two share one compile of `wasm-bindgen-cli-support`.

use std::path::PathBuf;
use std::process::ExitCode;

use wasm_bindgen_cli_support::Bindgen;

const USAGE: &str = "usage: prufe-bindgen --out-name NAME --out-dir DIR INPUT.wasm";

struct Args {
    input: PathBuf,
    out_name: String,
    out_dir: PathBuf,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut input, mut out_name, mut out_dir) = (None, None, None);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out-name" => out_name = args.next(),
            "--out-dir" => out_dir = args.next().map(PathBuf::from),
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            _ if input.is_none() => input = Some(PathBuf::from(arg)),
            _ => return Err(format!("a second input: {arg}")),
        }
    }
    match (input, out_name, out_dir) {
        (Some(input), Some(out_name), Some(out_dir)) => Ok(Args {
            input,
            out_name,
            out_dir,
        }),
        _ => Err("the input, --out-name and --out-dir are required".into()),
    }
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("--version") {
        // The version of the glue it writes, as `wasm-bindgen --version` says it.
        println!("wasm-bindgen {}", wasm_bindgen_version());
        return ExitCode::SUCCESS;
    }
    let args = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("prufe-bindgen: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let generated = Bindgen::new()
        .input_path(&args.input)
        .no_modules(true)
        .map(|b| {
            b.typescript(false)
                .omit_default_module_path(true)
                .out_name(&args.out_name)
                .generate(&args.out_dir)
        });
    match generated {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) | Err(e) => {
            eprintln!("prufe-bindgen: {}: {e:#}", args.input.display());
            ExitCode::FAILURE
        }
    }
}

/// The pinned `wasm-bindgen-cli-support` version, set at build time from Cargo.lock.
fn wasm_bindgen_version() -> &'static str {
    env!("PRUFE_WASM_BINDGEN_VERSION")
}
