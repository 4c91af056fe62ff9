//! The honest corpus's recorded evidence, judged by this checkout's judge.
//!
//! `fixtures/corpus/recorded.json.gz` holds, for every run of the honest corpus
//! (`scripts/corpus.mjs`: actions on widgets of thirteen component libraries on ten pages, each
//! with and without an intent in three languages, and the injected faults), the machine's state at
//! its first judgement, as the live run kept it (`CORPUS_TAP`, packed by
//! `scripts/corpus-record.mjs`). Judging them all again takes seconds, so every change of a
//! judge rule meets the whole corpus in `make test`: an honest run must be MATCH unless
//! `fixtures/corpus/known-refusals.json` lists it, and no fault may be MATCH. The live corpus
//! (`make corpus-test`) also checks what the engine sees; this checks what the judge makes of
//! it.

use flate2::read::GzDecoder;
use prufe::core::judge::VerdictKind;
use prufe::core::run::Run;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

#[derive(Deserialize)]
struct Recorded {
    id: String,
    kind: String,
    state: Run,
}

fn recorded() -> Vec<Recorded> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/corpus/recorded.json.gz");
    let file = std::fs::File::open(&path).expect("fixtures/corpus/recorded.json.gz");
    let mut json = String::new();
    GzDecoder::new(file)
        .read_to_string(&mut json)
        .expect("a gzipped JSON list");
    serde_json::from_str(&json).expect("recorded runs in the machine's state shape")
}

fn known_refusals() -> BTreeMap<String, serde_json::Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/corpus/known-refusals.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("known-refusals.json"))
        .expect("a JSON object of run ids")
}

#[test]
fn every_recorded_honest_run_is_match_and_every_fault_refused() {
    let runs = recorded();
    let known = known_refusals();
    let libraries: std::collections::BTreeSet<&str> =
        runs.iter().filter_map(|r| r.id.split('.').next()).collect();
    let honest = runs.iter().filter(|r| r.kind == "honest").count();
    assert!(
        honest >= 900 && libraries.len() >= 5,
        "the recording holds {honest} honest runs of {} libraries",
        libraries.len()
    );
    let mut problems = Vec::new();
    let mut matched = 0;
    let mut caught = 0;
    for r in &runs {
        let v = match r.state.judge_again() {
            Ok(v) => v,
            Err(e) => {
                problems.push(format!("{}: {e}", r.id));
                continue;
            }
        };
        let is_match = v.verdict == VerdictKind::Match;
        match r.kind.as_str() {
            "honest" if is_match => matched += 1,
            "honest" if known.contains_key(&r.id) => {}
            "honest" => problems.push(format!(
                "{}: {:?}: {} (not in fixtures/corpus/known-refusals.json)",
                r.id, v.verdict, v.reason
            )),
            _ if is_match => problems.push(format!("{}: the fault was MATCH: {}", r.id, v.reason)),
            _ => caught += 1,
        }
    }
    let faults = runs.len() - honest;
    println!(
        "recorded corpus: {matched}/{honest} honest runs MATCH, {caught}/{faults} faults refused"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
