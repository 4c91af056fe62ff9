//! Session traces: one JSON file per action, numbered so a directory listing sorts itself.
//!
//! ```text
//! traces/0001-click-match.json
//! traces/0002-fill-match.json
//! traces/0003-click-mismatch.json   <- here
//! ```
//!
//! A record holds `{step, action, target, intent, verdict, ok, error, reason, attempts, undone,
//! diff, durationMs, startedAt}` with `diff` the core `Diff`. It passes through the same
//! redaction as every other output (a file on disk is as public as a log): page-sensitive
//! values arrive redacted from the engine, and every string is scrubbed of caller-declared
//! secrets before it is written. A record that cannot be written is lost with a warning on
//! stderr; the action it describes is not affected.
//!
//! With pictures (`--screenshots failures|all`, see [`crate::pictures`]) a record is written
//! with its `NNNN-….before.jpg` and `NNNN-….after.jpg` beside it, and its `pictures` field
//! names them: `{ before: { file, width, height, scale, target, effect, point, masked }, after }`
//! (boxes and points in image pixels). The pictures are attachments of the trace; the record
//! of the step is the same with or without them.

use prufe::core::redact::Redactor;
use prufe::core::run::trace::{entry, Traced};
use prufe::core::run::Record as Outcome;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Writes `dir/traces.js`, a script calling `window.loadTraces([{name, json}, …])` with every
/// `NNNN-*.json` record of the directory, in order, so the static viewer can show a run it
/// opens from `file://` (where a page cannot list a directory). Returns the script's path.
pub fn write_viewer_script(dir: &Path) -> std::io::Result<PathBuf> {
    let mut names: Vec<String> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") && n.as_bytes().first().is_some_and(u8::is_ascii_digit))
        .collect();
    names.sort();
    let mut traces = Vec::with_capacity(names.len());
    for name in names {
        let text = std::fs::read_to_string(dir.join(&name))?;
        let json: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        traces.push(json!({ "name": name, "json": json }));
    }
    let title = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // The records are JSON; `</` is escaped so nothing in them can close a script element.
    let body = serde_json::to_string(&traces)
        .unwrap_or_else(|_| "[]".into())
        .replace("</", "<\\/");
    let path = dir.join("traces.js");
    std::fs::write(
        &path,
        format!(
            "// Written by prufe run --trace-dir: the records of this directory for the viewer.\n\
             window.loadTraces({body}, {{ title: {} }});\n",
            serde_json::to_string(&title).unwrap_or_else(|_| "\"\"".into())
        ),
    )?;
    Ok(path)
}

/// Writes one record per action into a directory.
#[derive(Debug)]
pub struct TraceWriter {
    dir: PathBuf,
    seq: u32,
    warned: bool,
}

impl TraceWriter {
    /// The directory is created on the first write, not here: a bad path costs records only.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        TraceWriter {
            dir: dir.into(),
            seq: 0,
            warned: false,
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes the record of step `step` and returns its path, or `None` (with one warning
    /// on stderr per writer) when it could not be written.
    pub fn write(
        &mut self,
        step: usize,
        outcome: Option<&Outcome>,
        action: &str,
        error: Option<&crate::Error>,
        redactor: &Redactor,
        pictures: Option<&crate::pictures::Pictures>,
    ) -> Option<PathBuf> {
        self.seq += 1;
        let now = crate::clock::now_rfc3339();
        let said = error.map(|e| (e.code(), e.to_string()));
        let traced = match outcome {
            Some(o) => Traced::Record(o),
            None => Traced::Ended {
                action,
                error: said.as_ref().map(|(c, t)| (*c, t.as_str())),
                duration_ms: 0,
                started_at: &now,
            },
        };
        let (name, mut record) = entry(step, &traced);
        let stem = format!("{:04}-{name}", self.seq);
        let path = self.dir.join(format!("{stem}.json"));
        let written = std::fs::create_dir_all(&self.dir).and_then(|()| {
            if let Some(p) = pictures.filter(|p| !p.is_empty()) {
                record["pictures"] = p.write(&self.dir, &stem)?;
            }
            redactor.scrub_value(&mut record);
            let text = serde_json::to_string_pretty(&record).unwrap_or_default();
            std::fs::write(&path, text + "\n")
        });
        match written {
            Ok(()) => Some(path),
            Err(e) => {
                if !self.warned {
                    use std::io::Write;
                    let _ = writeln!(
                        std::io::stderr(),
                        "prufe: trace record not written to {} ({e}); continuing without it",
                        self.dir.display()
                    );
                    self.warned = true;
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prufe::core::judge::VerdictKind as Verdict;

    fn outcome(reason: &str) -> Outcome {
        Outcome {
            action: "fill".into(),
            target: Some("textbox[Password] in form[Login]".into()),
            value: Some("[redacted]".into()),
            verdict: Some(Verdict::Match),
            ok: true,
            reason: reason.into(),
            attempts: 1,
            ..Outcome::default()
        }
    }

    #[test]
    fn records_are_numbered_named_and_scrubbed() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = TraceWriter::new(dir.path().join("traces"));
        let mut r = Redactor::default();
        r.add_secret("hunter22");
        let o = outcome("typed hunter22 into the field");
        let p1 = w.write(1, Some(&o), "fill", None, &r, None).unwrap();
        assert_eq!(p1.file_name().unwrap(), "0001-fill-match.json");
        let e = crate::Error::Core(prufe::core::run::ready::covered(
            "button[Pay]",
            "div#veil",
            1.0,
            1.0,
        ));
        let p2 = w.write(2, None, "click", Some(&e), &r, None).unwrap();
        assert_eq!(p2.file_name().unwrap(), "0002-click-target-obscured.json");
        let wrong = Outcome {
            action: "click".into(),
            verdict: Some(Verdict::Mismatch),
            ok: false,
            ..Outcome::default()
        };
        let e3 = crate::Error::VerificationFailed(Box::new(wrong.clone()));
        let p3 = w
            .write(3, Some(&wrong), "click", Some(&e3), &r, None)
            .unwrap();
        assert_eq!(p3.file_name().unwrap(), "0003-click-mismatch.json");
        let v3: Value = serde_json::from_str(&std::fs::read_to_string(&p3).unwrap()).unwrap();
        assert_eq!(
            (v3["error"].as_str(), v3["ok"].as_bool()),
            (Some("VERIFICATION_FAILED"), Some(false))
        );
        let text = std::fs::read_to_string(&p1).unwrap();
        assert!(!text.contains("hunter22"), "{text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        for key in [
            "step",
            "action",
            "target",
            "intent",
            "verdict",
            "ok",
            "error",
            "reason",
            "attempts",
            "undone",
            "diff",
            "durationMs",
            "startedAt",
        ] {
            assert!(v.get(key).is_some(), "missing {key}");
        }
        assert_eq!(v["verdict"], "MATCH");
        let v2: Value = serde_json::from_str(&std::fs::read_to_string(&p2).unwrap()).unwrap();
        assert_eq!(v2["error"], "TARGET_OBSCURED");
        assert_eq!(v2["ok"], false);
    }

    #[test]
    fn pictures_are_written_beside_their_record_and_named_by_it() {
        use crate::pictures::{Pictures, Rect, Shot};
        let dir = tempfile::tempdir().unwrap();
        let mut w = TraceWriter::new(dir.path());
        let shot = Shot {
            jpeg: vec![0xff, 0xd8, 0xff, 0xd9],
            width: 4,
            height: 2,
            scale: 0.5,
            target: Some(Rect {
                x: 1.0,
                y: 0.0,
                width: 2.0,
                height: 1.0,
            }),
            effect: Vec::new(),
            point: None,
            masked: Vec::new(),
        };
        let pictures = Pictures {
            before: Some(shot),
            after: None,
        };
        let mut r = Redactor::default();
        r.add_secret("hunter22");
        let path = w
            .write(
                1,
                Some(&outcome("typed hunter22")),
                "fill",
                None,
                &r,
                Some(&pictures),
            )
            .unwrap();
        let jpeg = std::fs::read(dir.path().join("0001-fill-match.before.jpg")).unwrap();
        assert_eq!(jpeg, [0xff, 0xd8, 0xff, 0xd9]);
        assert!(!dir.path().join("0001-fill-match.after.jpg").exists());
        let text = std::fs::read_to_string(path).unwrap();
        assert!(!text.contains("hunter22"), "{text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v["pictures"]["before"]["file"],
            "0001-fill-match.before.jpg"
        );
        assert_eq!(v["pictures"]["before"]["target"]["x"], 1.0);
        assert!(v["pictures"].get("after").is_none());
        // Without pictures the record has no such field.
        let plain = w
            .write(2, Some(&outcome("ok")), "fill", None, &r, None)
            .unwrap();
        let v: Value = serde_json::from_str(&std::fs::read_to_string(plain).unwrap()).unwrap();
        assert!(v.get("pictures").is_none());
    }

    #[test]
    fn an_unwritable_directory_loses_the_record_only() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("file");
        std::fs::write(&blocker, "x").unwrap();
        let mut w = TraceWriter::new(blocker.join("traces"));
        assert!(w
            .write(
                1,
                Some(&outcome("ok")),
                "fill",
                None,
                &Redactor::default(),
                None
            )
            .is_none());
        assert!(w
            .write(
                2,
                Some(&outcome("ok")),
                "fill",
                None,
                &Redactor::default(),
                None
            )
            .is_none());
    }
}
