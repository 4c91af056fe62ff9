// The Node driver presses a chord as the machine sends it (`Gesture::Press`'s `keys`, already
// split, modifiers first): every key down in order, then up in reverse. It reads no chord
// itself, so `Shift++` reaches it as Shift and `+`.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { send } from '../../node/src/page.js';

/** A port that only records the keys it is told to press and release. */
function keyboard({ failOn } = {}) {
  const log = [];
  return {
    log,
    keyDown: async (key) => {
      if (key === failOn) throw new Error(`${key} could not be pressed`);
      log.push(`down ${key}`);
    },
    keyUp: async (key) => { log.push(`up ${key}`); },
  };
}

test('the keys are pressed in their order and released in reverse', async () => {
  for (const [keys, want] of [
    [['Shift', '+'], ['down Shift', 'down +', 'up +', 'up Shift']],
    [['Control', 'Shift', 'k'], ['down Control', 'down Shift', 'down k', 'up k', 'up Shift', 'up Control']],
    [['Enter'], ['down Enter', 'up Enter']],
  ]) {
    const port = keyboard();
    await send(/** @type {any} */ (port), { kind: 'press', ref: null, keys });
    assert.deepEqual(port.log, want, keys.join(' '));
  }
});

test('a key that cannot be pressed leaves none of the others held', async () => {
  const port = keyboard({ failOn: 'k' });
  await assert.rejects(send(/** @type {any} */ (port), { kind: 'press', ref: null, keys: ['Control', 'Shift', 'k'] }), /k could not be pressed/);
  assert.deepEqual(port.log, ['down Control', 'down Shift', 'up Shift', 'up Control']);
});
