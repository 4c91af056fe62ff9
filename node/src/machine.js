// @ts-check
// The DOM-free machine module (dist/prufe-run.mjs, copied from js/dist by build.mjs), loaded
// once per process. Every layer of the package reads it: the driver's loop (driver.js), the
// answers across a page's roots (roots.js), the verifier and the world.

import { fileURLToPath } from 'node:url';

const MACHINE = new URL('../dist/prufe-run.mjs', import.meta.url);

/** @type {Promise<PrufeRun.Api> | null} */
let loading = null;

/** The machine module, loaded once per process. */
export function machine() {
  loading ??= import(MACHINE.href).then(
    (module) => /** @type {PrufeRun.Api} */ (module.default),
    (error) => {
      throw new Error(`${fileURLToPath(MACHINE)} could not be loaded (run \`make bundle\`): ${error.message}`);
    },
  );
  return loading;
}
