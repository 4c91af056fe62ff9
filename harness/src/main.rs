//! `prufe`: see `prufe --help` and the `cli` module.

/// The stack of each runtime worker. An MCP session's tool call runs on a worker (spawned per
/// connection), and the futures of one verified step nest deep (the tool, the coordinate
/// step, the machine's drive, one need, its input): in a debug build their polls overflow the
/// runtime's 2 MiB default. The main thread's is 8 MiB; so is theirs.
const WORKER_STACK: usize = 8 * 1024 * 1024;

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(WORKER_STACK)
        .build();
    let code = match runtime {
        Ok(rt) => rt.block_on(prufe_harness::cli::main()),
        Err(e) => {
            eprintln!("prufe: cannot start the async runtime: {e}");
            prufe_harness::args::EXIT_FAILED
        }
    };
    std::process::exit(code);
}
