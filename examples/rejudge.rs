//! Judges again the machine states kept by the honest corpus's runs
//! (`CORPUS_TAP=DIR node scripts/corpus.mjs …` writes `DIR/<run id>.json`), with the judge
//! of this checkout, and prints what changed against the verdicts of the live runs and the
//! pass rates: an honest run passes when MATCH, a fault when anything else.
//!
//! `cargo run --release --example rejudge -- DIR [--all] [--only PREFIX] [--prune-known]`
//! (`--all` prints every run that does not pass, not only the changed ones; `--prune-known`
//! removes from fixtures/corpus/known-refusals.json the honest runs that pass now).

use prufe::core::judge::VerdictKind;
use prufe::core::run::Run;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
struct Tapped {
    id: String,
    kind: String,
    outcome: serde_json::Value,
    states: Vec<Run>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args
        .first()
        .expect("usage: rejudge DIR [--all] [--only PREFIX]");
    let all = args.iter().any(|a| a == "--all");
    let prune = args.iter().any(|a| a == "--prune-known");
    let mut passing_now: Vec<String> = Vec::new();
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_default();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("a directory of tapped runs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut tally: BTreeMap<(String, &'static str), (u32, u32)> = BTreeMap::new();
    let (mut was, mut now, mut judged) = (0u32, 0u32, 0u32);
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let t: Tapped = match serde_json::from_str(&text) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                continue;
            }
        };
        if !t.id.starts_with(&only) {
            continue;
        }
        let honest = t.kind == "honest";
        let live = t.outcome["verdict"].as_str().unwrap_or("").to_owned();
        let live_pass = if honest {
            live == "MATCH" && t.outcome["code"].is_null()
        } else {
            live != "MATCH"
        };
        let library = t.id.split('.').next().unwrap_or("").to_owned();
        let kind = if honest { "honest" } else { "fault" };
        let slot = tally.entry((library, kind)).or_default();
        slot.0 += 1;
        was += live_pass as u32;
        let Some(first) = t.states.first() else {
            // Refused before any judgement: counted as it went live.
            slot.1 += live_pass as u32;
            now += live_pass as u32;
            if all && !live_pass {
                println!(
                    "  {:<44} {live}: {}",
                    t.id,
                    t.outcome["reason"].as_str().unwrap_or("")
                );
            }
            continue;
        };
        judged += 1;
        let v = match first.judge_again() {
            Ok(v) => v,
            Err(e) => {
                println!("! {:<44} {e}", t.id);
                continue;
            }
        };
        let pass = if honest {
            v.verdict == VerdictKind::Match
        } else {
            v.verdict != VerdictKind::Match
        };
        slot.1 += pass as u32;
        now += pass as u32;
        if pass && honest {
            passing_now.push(t.id.clone());
        }
        let mark = match (live_pass, pass) {
            (false, true) => "+",
            (true, false) => "-",
            _ => " ",
        };
        if mark != " " || (all && !pass) {
            println!("{mark} {:<44} {:?}: {}", t.id, v.verdict, v.reason);
        }
    }
    println!();
    for ((library, kind), (runs, passed)) in &tally {
        println!("{library:<10} {kind:<7} {passed:>4}/{runs:<4}");
    }
    println!("passing: live {was}, now {now} ({judged} judged offline)");
    if prune {
        let path = "fixtures/corpus/known-refusals.json";
        let text = std::fs::read_to_string(path).expect("fixtures/corpus/known-refusals.json");
        let mut known: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&text).expect("a JSON object of run ids");
        let before = known.len();
        known.retain(|id, _| !passing_now.contains(id));
        let mut out = serde_json::to_string_pretty(&known).expect("JSON");
        out.push('\n');
        std::fs::write(path, out).expect("writable");
        println!("{path}: {before} -> {} runs", known.len());
    }
}
