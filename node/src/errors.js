// @ts-check
// Results and errors of verified steps. One error class, `PrufeError`, with the engine's
// `.code`; the three ways a step fails after input was sent have their own subclasses so a
// caller can `instanceof` them. Every one carries the step's record (the CLI's record) and
// explains itself the way `prufe run` prints a failed step.

/** @typedef {PrufeRun.Record} StepRecord */

/**
 * `click on button[Add Shirt M] in list with 'x'`.
 * @param {StepRecord} r
 */
function actionLine(r) {
  let s = r.action;
  if (r.target) s += ` on ${r.target}`;
  if (r.value !== null && r.value !== undefined) s += ` with '${r.value}'`;
  return s;
}

/**
 * One line: action, verdict and reason (core `Record::summary`).
 * @param {StepRecord} r
 */
export function summary(r) {
  return r.verdict ? `${actionLine(r)}: ${r.verdict} — ${r.reason}` : `${actionLine(r)}: ${r.reason}`;
}

/**
 * The full report of a record (core `Record::explain`, then the error's part as
 * harness/src/error.rs adds it).
 * @param {StepRecord} r
 */
export function explainRecord(r) {
  const out = [];
  out.push(`Action:    ${actionLine(r)}`);
  out.push(`Intent:    ${r.intent ?? '(not declared)'}`);
  out.push(r.verdict ? `Verdict:   ${r.verdict} — ${r.reason}` : `Verdict:   (none) — ${r.reason}`);
  const said = { held: 'held', broken: 'broken', absent: 'no evidence' };
  (r.expect ?? []).forEach((o, i) => {
    out.push(`${(i === 0 ? 'Expected:' : '').padEnd(11)}${o.claim} — ${said[o.status] ?? o.status}: ${o.evidence}`);
  });
  if (r.arbiter) out.push(`Arbiter:   ${r.arbiter}`);
  if (!r.stable) out.push('Page:      still changing at the deadline (unstable)');
  out.push(r.undone > 0 ? `Attempts:  ${r.attempts}, ${r.undone} undone` : `Attempts:  ${r.attempts}`);
  for (const d of r.dialogs ?? []) out.push(`Dialog:    ${d}`);
  if (r.lines.length === 0) out.push('Observed:  no change');
  else {
    out.push('Observed:');
    for (const l of r.lines) out.push(`  ${l}`);
  }
  const code = r.error?.code;
  if (code === 'UNDO_FAILED') {
    out.push('Undo:      failed, still there:');
    for (const l of r.residue ?? []) out.push(`  ${l}`);
  } else if (code === 'IRREVERSIBLE_ACTION') {
    out.push('Undo:      no inverse applies; stopped');
  } else if (r.error && code !== 'VERIFICATION_FAILED') {
    out.push(`Error:     ${r.error.message}`);
    for (const c of r.error.candidates ?? []) {
      out.push(`  candidate ${c.ref} ${c.role}[${c.name}]${c.region ? ` in ${c.region}` : ''}`);
    }
  }
  return `${out.join('\n')}\n`;
}

/** What every prufe function of this package throws. */
export class PrufeError extends Error {
  /**
   * @param {string} code the engine's SCREAMING_SNAKE_CASE code
   * @param {string} message
   * @param {{ record?: StepRecord | null, candidates?: Prufe.Candidate[] }} [more]
   */
  constructor(code, message, more = {}) {
    super(message);
    this.name = 'PrufeError';
    this.code = code;
    /** The step's record, when the step ran far enough to have one. */
    this.record = more.record ?? null;
    if (more.candidates) this.candidates = more.candidates;
  }

  /** The readable report: the record's, or the error and its candidates. */
  explain() {
    if (this.record) return explainRecord(this.record);
    const lines = [`Error:     ${this.message}`];
    for (const c of this.candidates ?? []) lines.push(`  candidate ${c.ref} ${c.role}[${c.name}]${c.region ? ` in ${c.region}` : ''}`);
    return `${lines.join('\n')}\n`;
  }
}

/**
 * The message of a failed step, as `prufe run` prints one: the summary, then the report.
 * @param {StepRecord} record
 */
function report(record) {
  const lines = explainRecord(record).trimEnd().split('\n').map((l) => `    ${l}`);
  return `${summary(record)}\n${lines.join('\n')}`;
}

/** The effect was not the intended one (or not proven to be), and it was undone. */
export class VerificationFailed extends PrufeError {
  /** @param {StepRecord} record */
  constructor(record) {
    super('VERIFICATION_FAILED', report(record), { record });
    this.name = 'VerificationFailed';
  }
}

/** The effect was wrong and undoing it left something behind (`residue`). */
export class UndoFailed extends PrufeError {
  /** @param {StepRecord} record */
  constructor(record) {
    super('UNDO_FAILED', report(record), { record });
    this.name = 'UndoFailed';
    this.residue = record.residue ?? [];
  }
}

/** The effect was not proven right and no inverse applies: the run stopped without undoing. */
export class IrreversibleAction extends PrufeError {
  /** @param {StepRecord} record */
  constructor(record) {
    super('IRREVERSIBLE_ACTION', report(record), { record });
    this.name = 'IrreversibleAction';
  }
}

/**
 * The error a finished record stands for, or null for a verified step.
 * @param {StepRecord} record
 */
export function errorOf(record) {
  const e = record.error;
  if (!e) return null;
  switch (e.code) {
    case 'VERIFICATION_FAILED':
      return new VerificationFailed(record);
    case 'UNDO_FAILED':
      return new UndoFailed(record);
    case 'IRREVERSIBLE_ACTION':
      return new IrreversibleAction(record);
    default:
      return new PrufeError(e.code, e.message, { record, candidates: e.candidates });
  }
}
