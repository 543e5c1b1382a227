// vitest globalSetup: checks once, before any test file, that Deno and Chromium are there, and ends
// the run with one line saying which runtime suites were skipped and why (a skipped suite must be
// seen, not read as a pass). Where runtimes are required (see runtimes.ts) a missing one fails here.
import { CHROMIUM_MISSING, DENO_MISSING, DENO_RAN, denoAlreadyRan, findChromium, findDeno, runtimesRequired } from './runtimes.ts';

// Each test lane is a vitest project (test/lanes.ts), and each project runs its global setups: the
// check and the summary run once per process all the same.
const ONCE = Symbol.for('hci.runtime-summary');

export default function setup(): () => void {
  const g = globalThis as { [ONCE]?: true };
  if (g[ONCE]) return () => {};
  g[ONCE] = true;
  const ran = denoAlreadyRan();
  const gone = [!ran && !findDeno() && DENO_MISSING, !findChromium() && CHROMIUM_MISSING].filter((m): m is string => !!m);
  if (gone.length && runtimesRequired()) throw new Error(`${gone.join(' ')} (required here: HCI_REQUIRE_RUNTIMES or CI is set)`);
  return () => {
    if (gone.length) console.warn(`\nhci: runtime suites SKIPPED, not passed — ${gone.join(' ')}\n`);
    if (ran) console.warn(`\nhci: ${DENO_RAN}\n`);
  };
}
