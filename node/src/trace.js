// @ts-check
// Trace records as `prufe run --trace-dir` writes them (harness/src/trace.rs): one JSON file
// per step, `NNNN-<action>-<verdict or error>.json`, and `traces.js` beside them for the
// viewer (www/viewer) opened from file://. Every record is scrubbed before it is written.

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { machine } from './machine.js';

/** @typedef {PrufeRun.Record} StepRecord */

// The entry of a step and its file's name are the machine's (`trace`: core
// `run::trace::entry`), so every surface writes the same trace.
const m = await machine();

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
    const { name, entry } = m.trace({ step, record });
    const stem = `${String(this.seq).padStart(4, '0')}-${name}`;
    const path = join(this.dir, `${stem}.json`);
    try {
      mkdirSync(this.dir, { recursive: true });
      /** @type {Record<string, unknown>} */
      const out = entry;
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
