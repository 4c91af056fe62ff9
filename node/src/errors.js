// @ts-check
// Results and errors of verified steps. One error class, `PrufeError`, with the engine's
// `.code`; the three ways a step fails after input was sent have their own subclasses so a
// caller can `instanceof` them. Every one carries the step's record (the CLI's record) and
// explains itself the way `prufe run` prints a failed step.

import { machine } from './machine.js';

/** @typedef {PrufeRun.Record} StepRecord */

// The words are the machine's (`explain`, `summary`: core `Record::report`), so a failed step
// reads the same from the CLI, MCP, Node and Python. The machine module is loaded once, here.
const texts = await machine();

/**
 * One line: action, verdict and reason.
 * @param {StepRecord} r
 */
export function summary(r) {
  return texts.summary(r);
}

/**
 * The full report of a record, then what its error adds.
 * @param {StepRecord} r
 */
export function explainRecord(r) {
  return texts.explain({ record: r });
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
    return texts.explain({ error: { code: this.code, message: this.message, candidates: this.candidates ?? [] } });
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
