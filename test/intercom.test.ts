// Message ↔ code traceability through the library, against real parts: a C# workspace in a temp
// folder indexed by the real indexer, a real NDJSON log, the sidecar in real WASM SQLite beside the
// index. The seed's acceptance criteria (find by lines, an empty selection, relate 3:5), cross-file
// and member-key finds, anchors by id, the gutter's markers, and every structured error.
// @lane unit
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openIntercom, type Intercom } from '../runtimes/node/index.ts';
import { findResponseSchema, markersResponseSchema, relateResponseSchema } from '../core/contract/intercom.ts';
import { ADD_KEY, RESET_KEY, SHIP_KEY, added, fooLines, intercomWorkspace, logLines } from './helpers/intercom-fixture.ts';
import type { TmpWorkspace } from './helpers/tmp-workspace.ts';

let ws: TmpWorkspace & { log: string };
let ic: Intercom;
const ordinals = (r: { matches: Array<{ ordinal: number }> }) => r.matches.map((m) => m.ordinal);

beforeAll(async () => {
  ws = await intercomWorkspace();
  ic = await openIntercom(ws.root);
});

afterAll(async () => {
  ic?.close();
  await ws?.cleanup();
});

describe('find', () => {
  it('an attachment on Foo.cs L10–20: find Foo.cs:L10-20 returns its message (the seed\'s acceptance criterion)', async () => {
    const r = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L10-20' });
    expect(findResponseSchema.parse(r)).toBeTruthy();
    expect(r.status).toBe('ok');
    expect(ordinals(r)).toContain(2);
    expect(r.matches[0]).toMatchObject({ ordinal: 2, message_id: 'm2', match_kind: 'inferred', match: 'member', stale: false, member_key: ADD_KEY, line_start: 10, line_end: 20 });
    expect(r.targets).toEqual([{ file: 'src/Foo.cs', member_key: ADD_KEY, syntax_scope: 'method', line_start: 10, line_end: 20 }]);
    expect(r.log).toMatchObject({ location: ws.log, events: 5, messages: 5 });
  });

  it('takes the other code-ref forms: L:10-20 with a file, a selection, #L, an absolute path inside the root', async () => {
    for (const req of [
      { code_ref: 'L:10-20', file: 'src/Foo.cs' },
      { code_ref: 'L:12', file: 'src/Foo.cs' },
      { selection: { file: 'src/Foo.cs', line_start: 12, line_end: 14 } },
      { code_ref: 'selection', selection: { file: 'src/Foo.cs', line_start: 16 } },
      { code_ref: 'src/Foo.cs#L11-L12' },
      { code_ref: `${ws.root}/src/Foo.cs:L15` },
    ]) {
      const r = await ic.find({ log: ws.log, thread_id: 't1', ...req });
      expect(r.status, JSON.stringify(req)).toBe('ok');
      expect(ordinals(r), JSON.stringify(req)).toEqual([2]);
    }
  });

  it('matches by member key before line overlap, across files, and by anchor id', async () => {
    const byKey = await ic.find({ log: ws.log, thread_id: 't1', code_ref: `[M:${RESET_KEY}]` });
    expect(byKey.matches).toEqual([expect.objectContaining({ ordinal: 4, match: 'member', line_start: 22, line_end: 25, anchor_id: 'm4#1' })]);
    const ship = await ic.find({ log: ws.log, thread_id: 't1', code_ref: `[M:${SHIP_KEY}]` });
    expect(ship.matches).toEqual([expect.objectContaining({ ordinal: 5, file: 'src/Bar.cs', match: 'member' })]);
    // Lines inside Reset(): m4 (keyed on Reset) by key; nothing of Add overlaps.
    const inReset = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L24' });
    expect(ordinals(inReset)).toEqual([4]);
    // The whole class overlaps both anchors of Foo.cs.
    const cls = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L3-30' });
    expect(ordinals(cls)).toEqual([2, 4]);
    expect(cls.matches.every((m) => m.match === 'overlap')).toBe(true);
    const file = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Bar.cs' });
    expect(file.matches).toEqual([expect.objectContaining({ ordinal: 5, match: 'file' })]);
    const byAnchor = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'anchor:m2#1' });
    expect(ordinals(byAnchor)).toEqual([2]);
  });

  it('answers empty with a hint when nothing relates, and the sidecar is not rebuilt when nothing changed', async () => {
    const r = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L5' });
    expect(r).toMatchObject({ status: 'empty', matches: [], sidecar: { rebuilt: false } });
    expect(r.hint).toMatch(/no message of thread t1 \(5 messages\) relates to src\/Foo\.cs:L5-5/);
  });
});

describe('relate', () => {
  it('relate 3:5 appends one message_range_related line, and find on that code returns #3, #4 and #5', async () => {
    const before = logLines(ws.log);
    const r = await ic.relate({ log: ws.log, thread_id: 't1', range: '3:5', code_ref: 'src/Bar.cs:L6-8', source: 'cli' });
    expect(relateResponseSchema.parse(r)).toBeTruthy();
    expect(r).toMatchObject({ status: 'ok', start_ordinal: 3, end_ordinal: 5, ordinals: [3, 4, 5] });
    const after = logLines(ws.log);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after).toHaveLength(before.length + 1);
    const event = JSON.parse(after[after.length - 1]);
    expect(event).toMatchObject({
      type: 'message_range_related', schema_version: 1, thread_id: 't1', start_ordinal: 3, end_ordinal: 5, source: 'cli',
      code_ref: { file: 'src/Bar.cs', line_start: 6, line_end: 8, member_key: SHIP_KEY, syntax_scope: 'method', shape: 'lines' },
    });
    expect(event.code_ref.excerpt).toContain('var box = new Foo();');
    expect(event).not.toHaveProperty('line_range');

    const found = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Bar.cs:L6-8' });
    expect(found.sidecar).toMatchObject({ rebuilt: true, reason: 'log_changed' });
    expect(ordinals(found)).toEqual([3, 4, 5]);
    expect(found.matches.map((m) => m.match_kind)).toEqual(['explicit', 'explicit', 'explicit']);
    // #5 also has its own attachment there: one match per message, the explicit one first.
    expect(found.matches[2]).toMatchObject({ ordinal: 5, anchors: 2 });
  });

  it('takes n and "n m", by member key and by anchor id', async () => {
    const one = await ic.relate({ log: ws.log, thread_id: 't1', range: '1', code_ref: `[M:${RESET_KEY}]`, source: 'mcp' });
    expect(one).toMatchObject({ status: 'ok', ordinals: [1], code_ref: { member_key: RESET_KEY, shape: 'member', line_start: 22, line_end: 25 } });
    const two = await ic.relate({ log: ws.log, thread_id: 't1', range: '1 2', code_ref: 'anchor:m5#1', source: 'agent' });
    expect(two).toMatchObject({ status: 'ok', ordinals: [1, 2], code_ref: { file: 'src/Bar.cs', member_key: SHIP_KEY } });
    const reset = await ic.find({ log: ws.log, thread_id: 't1', code_ref: `[M:${RESET_KEY}]` });
    expect(ordinals(reset)).toEqual([1, 4]);
    expect(reset.matches[0]).toMatchObject({ ordinal: 1, match_kind: 'explicit' });
  });

  it('refuses scattered ranges, uncommitted messages and bad ranges, and writes nothing', async () => {
    const bytes = fs.readFileSync(ws.log);
    const cases: Array<[unknown, string]> = [
      ['3,7', 'range_not_contiguous'],
      ['3 5 7', 'range_not_contiguous'],
      ['3+7', 'range_not_contiguous'],
      ['4:9', 'message_not_committed'],
      ['6', 'message_not_committed'],
      ['5:3', 'invalid_range'],
      ['0', 'invalid_range'],
      ['x', 'invalid_range'],
    ];
    for (const [range, code] of cases) {
      const r = await ic.relate({ log: ws.log, thread_id: 't1', range: range as string, code_ref: 'src/Foo.cs:L10-12' });
      expect(r.status, String(range)).toBe('error');
      expect(r.error?.code, String(range)).toBe(code);
      expect(r.hint, String(range)).toBeTruthy();
    }
    expect(fs.readFileSync(ws.log).equals(bytes)).toBe(true);
  });
});

describe('markers (the gutter)', () => {
  it('gives one marker per related range of a file, with its ordinals, explicit over inferred', async () => {
    const r = await ic.markers({ log: ws.log, thread_id: 't1', file: 'src/Bar.cs' });
    expect(markersResponseSchema.parse(r)).toBeTruthy();
    expect(r.status).toBe('ok');
    const byLines = Object.fromEntries(r.markers.map((m) => [`${m.line_start}-${m.line_end}`, m]));
    expect(byLines['5-8']).toMatchObject({ ordinals: [1, 2, 5], match_kind: 'explicit' });
    expect(byLines['6-8']).toMatchObject({ ordinals: [3, 4, 5], match_kind: 'explicit' });
  });
});

describe('errors are structured, with codes and hints', () => {
  it('an empty selection is an explicit error', async () => {
    for (const req of [{}, { code_ref: '' }, { code_ref: 'selection' }, { selection: { file: '', line_start: 3 } }, { selection: { file: 'src/Foo.cs', line_start: 5, line_end: 2 } }]) {
      const r = await ic.find({ log: ws.log, thread_id: 't1', ...req });
      expect(findResponseSchema.parse(r)).toBeTruthy();
      expect(r.status, JSON.stringify(req)).toBe('error');
      expect(r.error?.code, JSON.stringify(req)).toBe('empty_selection');
      expect(r.hint).toBeTruthy();
    }
  });

  it('unknown thread, missing log, a log that is not .ndjson, a path outside the workspace, an unknown anchor', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp?]> = [
      [{ thread_id: 'nope' }, 'unknown_thread', /threads in this log: t1/],
      [{ log: path.join(ws.root, 'missing.ndjson') }, 'log_missing'],
      [{ log: path.join(ws.root, 'src/Foo.cs') }, 'invalid_log_path'],
      [{ code_ref: '../outside.cs:L1-2' }, 'path_outside_workspace'],
      [{ code_ref: '/etc/passwd:L1' }, 'path_outside_workspace'],
      [{ code_ref: 'anchor:nope' }, 'unknown_anchor'],
      [{ code_ref: 'L:3' }, 'invalid_code_ref'],
      [{ code_ref: 'src/Foo.cs:L0-3' }, 'invalid_code_ref'],
      [{ thread_id: 42 }, 'invalid_request'],
    ];
    for (const [over, code, hint] of cases) {
      const r = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L10', ...over } as never);
      expect(r.status, JSON.stringify(over)).toBe('error');
      expect(r.error?.code, JSON.stringify(over)).toBe(code);
      expect(r.hint, JSON.stringify(over)).toBeTruthy();
      if (hint) expect(r.hint).toMatch(hint);
      const rel = await ic.relate({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L10', range: '1', ...over } as never);
      expect(rel.error?.code, `relate ${JSON.stringify(over)}`).toBe(code);
    }
    expect(fs.existsSync(path.join(ws.root, 'missing.ndjson'))).toBe(false);
  });

  it('relate refuses a file that does not exist', async () => {
    const r = await ic.relate({ log: ws.log, thread_id: 't1', range: '1', code_ref: 'src/Gone.cs:L1-2' });
    expect(r.error?.code).toBe('file_not_found');
  });

  it('without an index: no_index with a hint', async () => {
    const { createTmpWorkspace } = await import('./helpers/tmp-workspace.ts');
    const bare = await createTmpWorkspace({ 'a.cs': 'class A {}\n', 'e.ndjson': `${added('m1')}\n` });
    const other = await openIntercom(bare.root);
    try {
      const r = await other.find({ log: 'e.ndjson', thread_id: 't1', code_ref: 'a.cs:L1' });
      expect(r.error?.code).toBe('no_index');
      expect(r.hint).toMatch(/hci index/);
    } finally {
      other.close();
      await bare.cleanup();
    }
  });
});
