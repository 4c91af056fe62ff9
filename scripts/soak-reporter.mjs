// A reporter for `node --test` used by scripts/soak.mjs: one JSON line per finished test
// (file, name with the describe blocks around it, passed, milliseconds), for the soak's
// table. Suites and nested describe blocks are reported by their tests.
import { relative } from 'node:path';

export default async function* soakReporter(source) {
  // Per file, the names of the tests and blocks now running, by nesting: a test starts
  // reporting after the block around it, in the order they are defined.
  const running = new Map();
  for await (const event of source) {
    const { name, file, nesting = 0, details } = event.data ?? {};
    const stack = running.get(file) ?? [];
    running.set(file, stack);
    if (event.type === 'test:start') {
      stack.length = nesting;
      stack.push(name);
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    // A describe block reports as a test whose type is 'suite'.
    if (details?.type === 'suite') continue;
    yield `${JSON.stringify({
      file: file ? relative(process.cwd(), file) : '',
      name: [...stack.slice(0, nesting), name].join(' › '),
      passed: event.type === 'test:pass',
      ms: details?.duration_ms ?? 0,
    })}\n`;
  }
}
