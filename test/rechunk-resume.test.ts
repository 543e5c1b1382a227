// A re-chunk cut short finishes on the next run: after a chunking setting changes, an `hci index`
// killed (SIGKILL) or cancelled (SIGINT, what Ctrl-C sends) after a few committed batches leaves
// the files it had not reached on the old chunking; the next plain `hci index` must re-cut exactly
// those, so every file ends with the chunks a `--full` build of the same tree and settings gives.
// Real CLI processes, interrupted right after their k-th commit (test/helpers/signal-at-commit.mjs).
// @lane cli
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWorkspace } from './helpers/generate-workspace.ts';
import { ensureBuilt, HCI_BIN, indexCounts, REPO, runCli, shapeByPath, sqliteText, type CliResult, dbOf } from './helpers/hci-process.ts';
import { copyWorkspace } from './helpers/tmp-workspace.ts';

const PRELOAD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'helpers', 'signal-at-commit.mjs');
const FILES = 400;
const SETTINGS = 'chunk_lines = 24\nchunk_overlap_lines = 4\n';
const temp: string[] = [];

/** `hci index <root>` that sends itself `signal` right after its k-th commit. */
function interruptedIndex(root: string, signal: 'SIGKILL' | 'SIGINT', k: number): Promise<CliResult> {
  const t0 = Date.now();
  const child = spawn(process.execPath, ['--import', PRELOAD, HCI_BIN, 'index', root, '--quiet'], {
    cwd: REPO, env: { ...process.env, HCI_SIGNAL_AT_COMMIT: String(k), HCI_SIGNAL: signal, HCI_SIGNAL_ROOT: root }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, sig) => resolve({ code, signal: sig, stdout, stderr, ms: Date.now() - t0 }));
  });
}

let reference = '';
let base = '';

beforeAll(async () => {
  ensureBuilt();
  base = generateWorkspace({ files: FILES, seed: 17_002 }).root;
  temp.push(base);
  // What every file must end with: a --full build of the same tree under the new settings.
  reference = copyWorkspace(base);
  temp.push(reference);
  mkdirSync(path.join(reference, '.hci'), { recursive: true });
  writeFileSync(path.join(reference, '.hci', 'settings.toml'), SETTINGS);
  const r = await runCli(['index', reference, '--full', '--quiet']);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

afterAll(() => {
  for (const d of temp) rmSync(d, { recursive: true, force: true });
});

describe('a re-chunk cut short', () => {
  for (const signal of ['SIGKILL', 'SIGINT'] as const) {
    it(`is finished by the next run (${signal} after the 2nd commit)`, async () => {
      const root = copyWorkspace(base);
      temp.push(root);
      // Indexed with the default chunking first.
      expect((await runCli(['index', root, '--quiet'])).code).toBe(0);
      const before = indexCounts(dbOf(root));
      const want = shapeByPath(dbOf(reference));
      const wantChunks = indexCounts(dbOf(reference)).chunks;
      expect(before.chunks, 'the new settings must change the chunking').not.toBe(wantChunks);

      writeFileSync(path.join(root, '.hci', 'settings.toml'), SETTINGS);
      const cut = await interruptedIndex(root, signal, 2);
      if (signal === 'SIGKILL') expect(cut.signal, cut.stderr).toBe('SIGKILL');
      else expect(cut.code, cut.stderr).toBe(130);
      const mid = indexCounts(dbOf(root));
      expect(mid.build_state).toBe('partial');
      const midShapes = shapeByPath(dbOf(root));
      const stale = [...want].filter(([p, s]) => midShapes.get(p) !== s).length;
      expect(stale, 'the interrupted run must leave files on the old chunking').toBeGreaterThan(FILES / 4);

      const next = await runCli(['index', root, '--json']);
      expect(next.code, next.stderr).toBe(0);
      const summary = JSON.parse(next.stdout) as { files_indexed: number };
      expect(summary.files_indexed).toBeGreaterThanOrEqual(stale);
      const after = indexCounts(dbOf(root));
      expect(after.build_state).toBe('complete');
      expect(after.chunks).toBe(wantChunks);
      expect(Object.fromEntries(shapeByPath(dbOf(root)))).toEqual(Object.fromEntries(want));
      expect(sqliteText(dbOf(root), "SELECT count(*) FROM meta WHERE key = 'rechunk'")).toBe('0');
      // And it stays done: one more run changes nothing.
      const again = JSON.parse((await runCli(['index', root, '--json'])).stdout) as { files_indexed: number };
      expect(again.files_indexed).toBe(0);
    }, 180_000);
  }
});
