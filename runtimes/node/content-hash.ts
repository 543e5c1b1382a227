// Node's content hash of a file's bytes for the parse worker (parse-worker.ts): the same digest as
// core's sha256Hex(bytes, 16) — the first 16 bytes of SHA-256, in hex — from node:crypto's native
// SHA-256 instead of the plain TypeScript one every runtime can run (on AvaloniaUI/Avalonia's 26 MB:
// ~28 ms against ~140-190 ms of CPU, in the thread a cold pass waits for). Owns only that function.
import { createHash } from 'node:crypto';

/** sha256Hex(bytes, 16), natively. */
export function nodeContentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}
