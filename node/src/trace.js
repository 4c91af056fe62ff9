// @ts-check
// Trace records as `prufe run --trace-dir` writes them (harness/src/trace.rs): one JSON file
// per step, `NNNN-<action>-<verdict or error>.json`, and `traces.js` beside them for the
// viewer (www/viewer) opened from file://. Every record is scrubbed before it is written.

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** @typedef {PrufeRun.Record} StepRecord */

/** The errors whose record keeps the step's outcome (harness/src/error.rs `Error::outcome`). */
const WITH_OUTCOME = new Set(['VERIFICATION_FAILED', 'UNDO_FAILED', 'IRREVERSIBLE_ACTION']);

/**
 * The record of one step in the trace's shape (harness/src/trace.rs `record`).
 * @param {number} step
 * @param {StepRecord} o
 */
export function traceRecord(step, o) {
  const code = o.error?.code;
  if (code && !WITH_OUTCOME.has(code)) {
    // A step refused or broken off before a verdict: the CLI's record carries its error alone.
    return {
      step, action: o.action, target: null, intent: null, verdict: null, ok: false, error: code,
      reason: o.reason, attempts: 0, undone: 0, diff: null, durationMs: o.durationMs, startedAt: o.startedAt,
    };
  }
  /** @type {Record<string, unknown>} */
  const record = {
    step,
    action: o.action,
    target: o.target,
    intent: o.intent,
    value: o.value,
    verdict: o.verdict,
    ok: o.ok,
    error: o.error?.code ?? (o.ok ? null : 'VERIFICATION_FAILED'),
    reason: o.reason,
    attributedTo: o.attributedTo,
    stable: o.stable,
    attempts: o.attempts,
    undone: o.undone,
    arbiter: o.arbiter,
    dialogs: o.dialogs ?? [],
    diff: o.diff,
    durationMs: o.durationMs,
    startedAt: o.startedAt,
  };
  // The step's typed claims and how each came out, only for a step that had some (as the CLI).
  if (o.expect?.length) record.expect = o.expect;
  return record;
}

export class TraceWriter {
  /** @param {string} dir created on the first write */
  constructor(dir) {
    this.dir = dir;
    this.seq = 0;
    this.warned = false;
  }

  /**
   * Writes the record of step `step`; returns its path, or null (one warning on stderr per
   * writer) when it could not be written.
   * @param {number} step
   * @param {StepRecord} record already scrubbed
   * @param {import('./pictures.js').Pictures} [pictures] written beside it as
   *   `NNNN-….before.jpg` and `….after.jpg`, and named by its `pictures` field
   */
  write(step, record, pictures) {
    this.seq += 1;
    const status = record.verdict
      ? record.verdict.toLowerCase()
      : record.error ? record.error.code.toLowerCase().replaceAll('_', '-') : 'done';
    const action = record.action.replace(/[^A-Za-z0-9_]/g, '').slice(0, 24);
    const stem = `${String(this.seq).padStart(4, '0')}-${action}-${status}`;
    const path = join(this.dir, `${stem}.json`);
    try {
      mkdirSync(this.dir, { recursive: true });
      /** @type {Record<string, unknown>} */
      const out = traceRecord(step, record);
      /** @type {Record<string, unknown>} */
      const named = {};
      for (const which of /** @type {const} */ (['before', 'after'])) {
        const shot = pictures?.[which];
        if (!shot) continue;
        const file = `${stem}.${which}.jpg`;
        writeFileSync(join(this.dir, file), shot.jpeg);
        const { jpeg, ...boxes } = shot;
        named[which] = { file, ...boxes };
      }
      if (Object.keys(named).length) out.pictures = named;
      writeFileSync(path, `${JSON.stringify(out, null, 2)}\n`);
      writeViewerScript(this.dir);
      return path;
    } catch (error) {
      if (!this.warned) {
        process.stderr.write(`prufe: trace record not written to ${this.dir} (${error instanceof Error ? error.message : error}); continuing without it\n`);
        this.warned = true;
      }
      return null;
    }
  }
}

/**
 * `dir/traces.js`: `window.loadTraces([{name, json}, …], {title})` with every record of the
 * directory, in order, for the static viewer.
 * @param {string} dir
 */
export function writeViewerScript(dir) {
  const names = readdirSync(dir).filter((n) => n.endsWith('.json') && /^[0-9]/.test(n)).sort();
  const traces = names.map((name) => {
    let json = null;
    try {
      json = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    } catch {
      json = null;
    }
    return { name, json };
  });
  const body = JSON.stringify(traces).replaceAll('</', '<\\/');
  const path = join(dir, 'traces.js');
  writeFileSync(path, `// Written by prufe (Node): the records of this directory for the viewer.\nwindow.loadTraces(${body}, { title: ${JSON.stringify(basename(dir))} });\n`);
  return path;
}
