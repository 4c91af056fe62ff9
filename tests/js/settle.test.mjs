// A settle whose document goes away under the Node driver (node/src/driver.js `settle`): the
// page's own loop ends with its document, the driver hands that failure to the machine, and
// the machine's loop decides the rest (src/core/run/whole.rs), over the driver's waits and
// reads, whatever the wait for the next document. The port stands in for a page: its
// document is gone until `back` says it has returned.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerNeed } from '../../node/src/driver.js';
import { machine } from '../../node/src/machine.js';

/** A page whose in-page settle dies with its document, read again once `back()` is true. */
function leaving(back) {
  return {
    reads: 0,
    /** @param {Function} fn */
    async evaluate(fn) {
      if (fn.name === 'settleInPage') throw new Error('Execution context was destroyed, most likely because of a navigation');
      this.reads += 1;
      if (!back()) throw new Error('Cannot find context with specified id');
      return { fingerprint: 'after', quiet: 0 };
    },
  };
}

/**
 * The settle that begins an observation for coordinate steps (`prufeRun.shot`), answered by
 * the driver until the machine asks for something else: what it asked, what it asked next.
 * @param {object} port @param {number} timeoutMs
 */
async function settling(port, timeoutMs) {
  const m = await machine();
  let { run, need } = m.shot({ timing: { timeoutMs } }, true);
  assert.equal(need.need, 'settle');
  /** @type {string[]} */
  const asked = [];
  const begun = Date.now();
  for (;;) {
    const kind = need.need === 'read' ? need.read.kind : need.need;
    if (!['settle', 'wait', 'roots', 'pulse'].includes(kind)) break;
    asked.push(kind);
    ({ run, need } = m.next(run, await answerNeed(/** @type {any} */ (port), need, {})));
  }
  return { asked, next: need, ms: Date.now() - begun };
}

test('a document that comes back after more than a second is polled until then, then quiet', async () => {
  const begun = Date.now();
  const port = leaving(() => Date.now() - begun >= 1500);
  const { asked, next, ms } = await settling(port, 5000);
  // The observation goes on with its fingerprint: the settle ended well.
  assert.equal(next.need, 'fingerprint', JSON.stringify(next));
  assert.ok(ms >= 1500, `waited for the document: ${ms} ms`);
  assert.ok(port.reads > 20, `polled every pollMs: ${port.reads} reads`);
  assert.deepEqual(asked.slice(0, 4), ['settle', 'wait', 'roots', 'pulse']);
});

test('a document that never comes back ends on the machine error at the need deadline', async () => {
  const begun = Date.now();
  const { next } = await settling(leaving(() => false), 700);
  assert.equal(next.need, 'done');
  const error = /** @type {any} */ (next).record.error;
  assert.deepEqual({ code: error.code, message: error.message }, (await machine()).lost());
  assert.ok(Date.now() - begun >= 700, 'waited to the deadline');
});
