// Anchors under drift, with real edits and real re-indexing: 30 lines inserted above a member (still
// found by its key, at its new lines), a renamed member (stale, with the old excerpt), a deleted file
// (stale), the sidecar rebuilt when the index generation moves and when a queried file changed on
// disk, and rebuilds that are deterministic — the sidecar's rows, dumped by Debian's sqlite3, are
// byte-identical after deleting the file or rebuilding in place. A damaged sidecar is recreated.
// @lane cli
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openIntercom, openWorkspace, createNodeLogOpener, Intercom } from '../runtimes/node/index.ts';
import { createNodeIndexStorage } from '../runtimes/node/node-storage.ts';
import { SIDECAR_FILE } from '../core/intercom/sidecar.ts';
import { ADD_KEY, FOO_CS, RESET_KEY, added, fooLines, indexWorkspace, intercomWorkspace } from './helpers/intercom-fixture.ts';

/** The default thread plus m6, whose attachment names Add(int) by key (lines 12–15 as a hint). */
function driftLog(): string {
  const m6 = added('m6', [{ file: 'src/Foo.cs', member_key: ADD_KEY, line_start: 12, line_end: 15, excerpt: fooLines(12, 12) }]);
  return [
    added('m1'),
    added('m2', [{ file: 'src/Foo.cs', line_start: 10, line_end: 20, member_key: null, excerpt: fooLines(10, 11) }]),
    added('m3'),
    added('m4', [{ file: 'src/Foo.cs', member_key: RESET_KEY, shape: 'member', excerpt: fooLines(22, 22) }]),
    added('m5', [{ file: 'src/Bar.cs', line_start: 5, line_end: 8 }]),
    m6,
  ].join('\n') + '\n';
}

async function withIntercom<T>(fn: (ic: Intercom, ws: Awaited<ReturnType<typeof intercomWorkspace>>) => Promise<T>): Promise<T> {
  const ws = await intercomWorkspace(driftLog());
  const ic = await openIntercom(ws.root);
  try {
    return await fn(ic, ws);
  } finally {
    ic.close();
    await ws.cleanup();
  }
}

const sidecarFile = (root: string) => path.join(root, '.hci', 'intercom-message-code.sqlite');
/** Every row of the sidecar as Debian's sqlite3 dumps it (an independent reader). */
const dump = (root: string) => execFileSync('sqlite3', [sidecarFile(root), '.dump'], { encoding: 'utf8' });

describe('drift', () => {
  it('30 lines inserted above a member: still found by member key, at its new lines', async () => {
    await withIntercom(async (ic, ws) => {
      await ic.relate({ log: ws.log, thread_id: 't1', range: '3', code_ref: 'src/Foo.cs:L12-15', source: 'cli' });
      const before = await ic.find({ log: ws.log, thread_id: 't1', code_ref: `[M:${ADD_KEY}]` });
      expect(before.matches.map((m) => m.ordinal)).toEqual([3, 2, 6]);

      const lines = FOO_CS.split('\n');
      // A new 29-line method and a blank line right above Add's doc comment (line 9).
      const filler = ['    private void Helper()', '    {', ...Array.from({ length: 26 }, () => '        _count++;'), '    }', ''];
      await ws.write({ 'src/Foo.cs': [...lines.slice(0, 8), ...filler, ...lines.slice(8)].join('\n') });
      await indexWorkspace(ws.root);

      const after = await ic.find({ log: ws.log, thread_id: 't1', code_ref: `[M:${ADD_KEY}]` });
      expect(after.sidecar).toMatchObject({ rebuilt: true, reason: 'index_changed' });
      expect(after.targets).toEqual([expect.objectContaining({ line_start: 39, line_end: 50 })]);
      expect(after.matches.map((m) => [m.ordinal, m.match, m.stale, m.line_start, m.line_end])).toEqual([
        [3, 'member', false, 42, 45], // the explicit relate, recorded at L12-15
        [2, 'member', false, 40, 50], // key inferred from L10-20, relocated by its excerpt
        [6, 'member', false, 42, 45], // keyed attachment, relocated inside its member
      ]);
      // The new lines find them; the old lines (now inside Helper) do not.
      const byLines = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L40-50' });
      expect(byLines.matches.map((m) => m.ordinal)).toEqual([3, 2, 6]);
      const old = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L12-15' });
      expect(old.status).toBe('empty');
      const reset = await ic.find({ log: ws.log, thread_id: 't1', code_ref: `[M:${RESET_KEY}]` });
      expect(reset.matches).toEqual([expect.objectContaining({ ordinal: 4, line_start: 52, line_end: 55, stale: false })]);
    });
  });

  it('a renamed member: its anchors are stale and carry the old excerpt', async () => {
    await withIntercom(async (ic, ws) => {
      await ws.write({ 'src/Foo.cs': FOO_CS.replace('public void Add(int amount)', 'public void Append(int amount)') });
      await indexWorkspace(ws.root);
      const r = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L10-20' });
      expect(r.status).toBe('ok');
      const m2 = r.matches.find((m) => m.ordinal === 2)!;
      const m6 = r.matches.find((m) => m.ordinal === 6)!;
      expect(m2).toMatchObject({ stale: true, stale_reason: 'excerpt_mismatch', excerpt: fooLines(10, 11), line_start: 10, line_end: 20 });
      expect(m6).toMatchObject({ stale: true, stale_reason: 'member_missing', excerpt: fooLines(12, 12), member_key: ADD_KEY });
      expect(r.hint).toMatch(/stale/);
      // The old key, defined nowhere now, still finds what was recorded with it.
      const byOldKey = await ic.find({ log: ws.log, thread_id: 't1', code_ref: `[M:${ADD_KEY}]` });
      expect(byOldKey.targets).toEqual([expect.objectContaining({ file: null, member_key: ADD_KEY })]);
      expect(byOldKey.matches).toEqual([expect.objectContaining({ ordinal: 6, stale: true, stale_reason: 'member_missing' })]);
    });
  });

  it('a deleted file: its anchors are stale (file_missing)', async () => {
    await withIntercom(async (ic, ws) => {
      fs.rmSync(ws.abs('src/Bar.cs'));
      await indexWorkspace(ws.root);
      const r = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Bar.cs:L5-8' });
      expect(r.matches).toEqual([expect.objectContaining({ ordinal: 5, stale: true, stale_reason: 'file_missing', line_start: 5, line_end: 8 })]);
    });
  });

  it('a queried file changed on disk since the last rebuild: rebuilt (drift)', async () => {
    await withIntercom(async (ic, ws) => {
      expect((await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L10' })).sidecar?.reason).toBe('missing');
      expect((await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L10' })).sidecar?.rebuilt).toBe(false);
      await ws.write({ 'src/Foo.cs': `${FOO_CS}// trailing comment\n` });
      const r = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L10' });
      expect(r.sidecar).toMatchObject({ rebuilt: true, reason: 'drift' });
      // Another file's fingerprint did not change: no rebuild for it.
      expect((await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Bar.cs:L5' })).sidecar?.rebuilt).toBe(false);
    });
  });
});

describe('the sidecar is derived', () => {
  it('rebuilds deterministically: byte-identical rows after deleting it and after an in-place rebuild', async () => {
    await withIntercom(async (ic, ws) => {
      await ic.relate({ log: ws.log, thread_id: 't1', range: '2:4', code_ref: 'src/Bar.cs:L5-8', source: 'agent' });
      const first = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Bar.cs:L5-8' });
      expect(first.matches.map((m) => m.ordinal)).toEqual([2, 3, 4, 5]);
      ic.close();
      const a = dump(ws.root);
      expect(a).toMatch(/INSERT INTO anchors/);

      for (const f of fs.readdirSync(path.join(ws.root, '.hci')).filter((n) => n.startsWith('intercom-'))) fs.rmSync(path.join(ws.root, '.hci', f));
      const again = await openIntercom(ws.root);
      try {
        const r = await again.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Bar.cs:L5-8' });
        expect(r.sidecar).toMatchObject({ rebuilt: true, reason: 'missing' });
        expect(r.matches).toEqual(first.matches);
        expect(dump(ws.root)).toBe(a);
        const summary = await again.rebuild(ws.log);
        expect(summary.log).toMatchObject({ threads: 1, anchors: 5 });
        expect(dump(ws.root)).toBe(a);
      } finally {
        again.close();
      }
      expect(execFileSync('sqlite3', [sidecarFile(ws.root), 'PRAGMA integrity_check'], { encoding: 'utf8' }).trim()).toBe('ok');
    });
  });

  it('a damaged sidecar is recreated from the log', async () => {
    await withIntercom(async (ic, ws) => {
      await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L10' });
      ic.close();
      fs.writeFileSync(sidecarFile(ws.root), Buffer.alloc(8192, 7));
      const again = await openIntercom(ws.root);
      try {
        const r = await again.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L10' });
        expect(r).toMatchObject({ status: 'ok', sidecar: { rebuilt: true, reason: 'missing' } });
        expect(r.matches.map((m) => m.ordinal)).toEqual([2, 6]);
      } finally {
        again.close();
      }
    });
  });

  it('calls that find the rows stale at once share one rebuild (the log is read once)', async () => {
    await withIntercom(async (_ic, ws) => {
      const workspace = await openWorkspace(ws.root);
      let reads = 0;
      const opener = createNodeLogOpener({ base: ws.root });
      const counted = new Intercom({
        workspace,
        sidecar: createNodeIndexStorage(ws.root, SIDECAR_FILE),
        openLog: (location) => {
          const log = opener(location);
          return { ...log, location: log.location, read: () => (reads++, log.read()) };
        },
      }, { ownsWorkspace: true });
      try {
        const answers = await Promise.all(['src/Foo.cs:L10', 'src/Foo.cs:L23', 'src/Bar.cs:L6', `[M:${ADD_KEY}]`].map((code_ref) => counted.find({ log: ws.log, thread_id: 't1', code_ref })));
        expect(answers.map((a) => a.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
        expect(answers.every((a) => a.sidecar?.rebuilt)).toBe(true);
        expect(reads).toBe(1);
      } finally {
        counted.close();
      }
    });
  });
});
