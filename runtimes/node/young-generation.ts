// Keeps the main thread's young generation (V8's new space) at its starting size, for the processes hci
// starts itself (bin/hci.js: the CLI and the MCP server; the bench's hci worker, to measure the same).
// Why: Node 24's V8 lets the new space grow to 2 x 32 MB under an allocation-heavy run such as a cold
// index, and that growth alone put the peak RSS of a 50k-chunk index at 398-424 MB (Node 20: ~300).
// A process cannot lower --max-semi-space-size once its heap exists, but V8 reads
// --semi-space-growth-factor each time it grows the space, so a factor of 1 set at start keeps it
// where it began: the same peak as starting Node with --max-semi-space-size=8, with no re-launch and
// no shebang flags. Node 22's V8 (12) does not hold the space with it (measured: 16 MB after indexing
// the sample 4 times over; test/cli-start.test.ts runs the check on V8 13+ only). The parse worker's heap
// is capped separately (parse-pool.ts, resourceLimits).
// A library embedding hci in its own process keeps its own heap settings: nothing calls this there.
import { setV8Flag } from './v8-flags.ts';

/** Stops the main thread's new space from growing past its initial size (idempotent). */
export function keepYoungGenerationSmall(): void {
  setV8Flag('--semi-space-growth-factor=1');
}
