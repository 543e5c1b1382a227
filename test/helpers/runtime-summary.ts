// vitest globalSetup: checks once, before any test file, that Deno and Chromium are there, and ends
// the run with one line saying which runtime suites were skipped and why (a skipped suite must be
// seen, not read as a pass). Where runtimes are required (see runtimes.ts) a missing one fails here.
import { CHROMIUM_MISSING, DENO_MISSING, findChromium, findDeno, runtimesRequired } from './runtimes.ts';

export default function setup(): () => void {
  const gone = [!findDeno() && DENO_MISSING, !findChromium() && CHROMIUM_MISSING].filter((m): m is string => !!m);
  if (gone.length && runtimesRequired()) throw new Error(`${gone.join(' ')} (required here: HCI_REQUIRE_RUNTIMES or CI is set)`);
  return () => {
    if (gone.length) console.warn(`\nhci: runtime suites SKIPPED, not passed — ${gone.join(' ')}\n`);
  };
}
