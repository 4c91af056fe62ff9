// A reporter for `node --test` used by scripts/soak.mjs: one JSON line per finished test
// (file and line, name, passed, milliseconds), for the soak's table; the line tells apart
// tests of one name in several describe blocks. Suites and nested describe blocks
// are reported by their tests.
import { relative } from 'node:path';

export default async function* soakReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, file, line, details } = event.data;
    // A describe block reports as a test whose type is 'suite'.
    if (details?.type === 'suite') continue;
    yield `${JSON.stringify({
      file: file ? `${relative(process.cwd(), file)}${line ? `:${line}` : ''}` : '',
      name,
      passed: event.type === 'test:pass',
      ms: details?.duration_ms ?? 0,
    })}\n`;
  }
}
