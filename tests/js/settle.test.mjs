// A settle whose document goes away under the Node driver (node/src/driver.js `settle`): the
// page's own loop ends with its document, and the machine's loop (`prufeRun.settling`,
// src/core/run/quiet.rs) decides the rest, whatever the wait for the next document. The port
// stands in for a page: its document is gone until `back` says it has returned.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { settle } from '../../node/src/driver.js';
import { machine } from '../../node/src/machine.js';

/** @param {number} timeoutMs @param {string | null} since */
const need = (timeoutMs, since = 'before') => ({
  need: /** @type {const} */ ('settle'), since, pollMs: 50, quietMs: 200, timeoutMs, stopOnChange: false,
});

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

test('a document that comes back after more than a second is a change, then quiet', async () => {
  const begun = Date.now();
  const port = leaving(() => Date.now() - begun >= 1500);
  const answer = await settle(/** @type {any} */ (port), need(5000));
  assert.equal(answer.answer, 'settled', JSON.stringify(answer));
  assert.deepEqual({ ...answer, waitedMs: 0 }, { answer: 'settled', fingerprint: 'after', stable: true, changed: true, waitedMs: 0 });
  assert.ok(answer.waitedMs >= 1500 + 200, `quiet in the new document: ${answer.waitedMs}`);
  assert.ok(port.reads > 20, 'polled past the old twenty tries');
});

test('a document that comes back looking the same is still a change, before the action too', async () => {
  for (const since of ['after', null]) {
    const answer = await settle(/** @type {any} */ (leaving(() => true)), need(5000, since));
    assert.deepEqual({ ...answer, waitedMs: 0 }, { answer: 'settled', fingerprint: 'after', stable: true, changed: true, waitedMs: 0 });
  }
});

test('a document that never comes back ends on the machine error at the need deadline', async () => {
  const begun = Date.now();
  const answer = await settle(/** @type {any} */ (leaving(() => false)), need(700));
  assert.deepEqual(answer, { answer: 'failed', error: (await machine()).lost() });
  assert.equal(answer.error.code, 'NOT_READY');
  assert.ok(Date.now() - begun >= 700, 'waited to the deadline');
});
