// The intercom event log on disk: the reader skips and counts what it cannot use (a torn last line,
// lines that are not JSON, events that break their schema, newer schema versions, unknown types,
// replay errors) and never fails on it; appends are whole lines — after a torn tail, from concurrent
// processes, and when the appender is SIGKILLed in the middle of a loop (real child processes).
// @lane cli
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readLogEvents } from '../core/intercom/log.ts';
import { projectThreads } from '../core/intercom/projection.ts';
import { nodeLogFile } from '../runtimes/node/intercom-log.ts';
import { openIntercom } from '../runtimes/node/index.ts';
import { added, fooLines, intercomWorkspace } from './helpers/intercom-fixture.ts';
import { createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';
import { REPO } from './helpers/deno.ts';

const CHILD = path.join(REPO, 'test/helpers/intercom-append-child.mjs');
const enc = (s: string) => new TextEncoder().encode(s);

const MIXED = [
  added('m1'),
  'this is not json',
  '["an", "array"]',
  JSON.stringify({ type: 'message_added', thread_id: 't1', message_id: 'x' }), // no schema_version
  JSON.stringify({ type: 'message_added', schema_version: 1, thread_id: 't1', role: 'user' }), // no message_id
  JSON.stringify({ type: 'message_added', schema_version: 1, thread_id: 't1', message_id: 'm9', role: 'user', attachments: [{ line_start: 3 }] }), // anchor without file
  JSON.stringify({ type: 'message_added', schema_version: 2, thread_id: 't1', message_id: 'm8', role: 'user' }),
  JSON.stringify({ type: 'tool_call', schema_version: 1, thread_id: 't1', name: 'x' }),
  '',
  added('m2', [{ file: 'src/Foo.cs', line_start: 10, line_end: 20, excerpt: fooLines(10, 11) }]),
  added('m2'), // a second message_added for m2
  JSON.stringify({ type: 'message_edited', schema_version: 1, thread_id: 't1', message_id: 'ghost', text: 'x' }),
  JSON.stringify({ type: 'message_range_related', schema_version: 1, thread_id: 't1', start_ordinal: 1, end_ordinal: 7, source: 'cli', code_ref: { file: 'src/Foo.cs' } }),
  JSON.stringify({ type: 'message_range_related', schema_version: 1, thread_id: 't1', start_ordinal: 2, end_ordinal: 1, source: 'cli', code_ref: { file: 'src/Foo.cs' } }),
  added('m3'),
  '{"type":"message_added","schema_version":1,"thread_id":"t1","message_id":"m4","ro',
].join('\n');

describe('reading a log', () => {
  it('skips and counts each kind of bad line, and keeps the good ones', () => {
    const { events, stats } = readLogEvents(enc(MIXED));
    expect(stats.skipped).toEqual({ torn_tail: 1, malformed: 6, unsupported_version: 1, unknown_type: 1 });
    expect(stats.lines).toBe(15); // the blank line is not counted
    expect(events.map((e) => e.line)).toEqual([1, 10, 11, 12, 13, 15]);
    expect(stats.problems.map((p) => [p.line, p.reason])).toEqual([
      [2, 'malformed'], [3, 'malformed'], [4, 'malformed'], [5, 'malformed'], [6, 'malformed'], [7, 'unsupported_version'], [8, 'unknown_type'], [14, 'malformed'], [16, 'torn_tail'],
    ]);
    // No problem text quotes the line's content.
    expect(JSON.stringify(stats.problems)).not.toMatch(/not json|an", "array|\bro\b/);
    const t1 = projectThreads(events).get('t1')!;
    expect(t1.messages.map((m) => [m.ordinal, m.message_id])).toEqual([[1, 'm1'], [2, 'm2'], [3, 'm3']]);
    expect(t1.skipped).toEqual({ duplicate_message: 1, orphan_edit: 1, invalid_relate: 1 });
  });

  it('a torn line in the middle (an append after it) is malformed, not torn; CRLF and a BOM are fine', () => {
    const { events, stats } = readLogEvents(enc(`\ufeff${added('m1')}\r\n{"type":"mess\n${added('m2')}\r\n`));
    expect(events).toHaveLength(2);
    expect(stats.skipped).toMatchObject({ torn_tail: 0, malformed: 1 });
    expect(readLogEvents(enc('')).stats.lines).toBe(0);
  });

  it('find answers over such a log and reports the counts', async () => {
    const ws = await intercomWorkspace(MIXED);
    const ic = await openIntercom(ws.root);
    try {
      const r = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L12' });
      expect(r.status).toBe('ok');
      expect(r.matches.map((m) => m.ordinal)).toEqual([2]);
      expect(r.log).toMatchObject({ events: 6, messages: 3, skipped: { torn_tail: 1, malformed: 6, unsupported_version: 1, unknown_type: 1, duplicate_message: 1, orphan_edit: 1, invalid_relate: 1 } });
      // relate on a log ending in a torn line: the new event starts a line of its own.
      const rel = await ic.relate({ log: ws.log, thread_id: 't1', range: '1:3', code_ref: 'src/Foo.cs:L22-25', source: 'cli' });
      expect(rel.status).toBe('ok');
      const { events, stats } = readLogEvents(fs.readFileSync(ws.log));
      expect(stats.skipped).toMatchObject({ torn_tail: 0, malformed: 7 });
      expect(events[events.length - 1].event).toMatchObject({ type: 'message_range_related', start_ordinal: 1, end_ordinal: 3 });
      const again = await ic.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Foo.cs:L23' });
      expect(again.matches.map((m) => [m.ordinal, m.match_kind])).toEqual([[1, 'explicit'], [2, 'explicit'], [3, 'explicit']]);
    } finally {
      ic.close();
      await ws.cleanup();
    }
  });
});

function run(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('appending', () => {
  let tmp: TmpWorkspace;
  beforeAll(async () => {
    tmp = await createTmpWorkspace({}, 'hci-intercom-log-');
  });
  afterAll(async () => {
    await tmp?.cleanup();
  });

  it('never creates a log and refuses lines holding a newline', async () => {
    const log = nodeLogFile(path.join(tmp.root, 'none.ndjson'));
    await expect(log.append(added('m1'))).rejects.toMatchObject({ code: 'log_missing' });
    expect(fs.existsSync(path.join(tmp.root, 'none.ndjson'))).toBe(false);
    fs.writeFileSync(path.join(tmp.root, 'nl.ndjson'), '');
    await expect(nodeLogFile(path.join(tmp.root, 'nl.ndjson')).append('{"a":1}\n{"b":2}')).rejects.toMatchObject({ code: 'internal' });
    expect(fs.readFileSync(path.join(tmp.root, 'nl.ndjson'), 'utf8')).toBe('');
  });

  it('concurrent appenders in three processes: every line whole, none lost', async () => {
    const file = path.join(tmp.root, 'concurrent.ndjson');
    fs.writeFileSync(file, '');
    const PER = 150;
    const outs = await Promise.all(['1', '2', '3'].map((w) => run([file, w, String(PER), '3000'])));
    for (const o of outs) expect(o.code, o.stderr).toBe(0);
    const { events, stats } = readLogEvents(fs.readFileSync(file));
    expect(stats.skipped).toEqual({ torn_tail: 0, malformed: 0, unsupported_version: 0, unknown_type: 0 });
    expect(events).toHaveLength(3 * PER);
    for (const w of ['1', '2', '3']) {
      const seq = events.filter((e) => e.event.thread_id === `w${w}`).map((e) => (e.event as { message_id: string }).message_id);
      expect(seq).toEqual(Array.from({ length: PER }, (_, i) => `w${w}-${i + 1}`));
    }
    expect(fs.readdirSync(tmp.root).filter((n) => n.startsWith('concurrent.ndjson.lock'))).toEqual([]);
  });

  it('an appender SIGKILLed in the middle of its loop leaves a readable log; the next appender recovers its lock', async () => {
    const file = path.join(tmp.root, 'killed.ndjson');
    fs.writeFileSync(file, `${added('m0', [], 'w9')}\n`);
    // A SIGKILL can cut a write short (the kernel checks for fatal signals between page-cache pages),
    // and the next append keeps that torn fragment a line of its own: from then on the reader counts it
    // as malformed, one per torn tail an earlier round left.
    let tornBefore = 0;
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, [CHILD, file, '9', 'forever', String(20_000 + round * 40_000)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let done = 0;
      await new Promise<void>((resolve, reject) => {
        child.on('error', reject);
        child.stdout.on('data', (d: Buffer) => {
          done = Number(d.toString().trim().split('\n').pop());
          // Kill at a moment that depends on the round, mid-loop (lock held or a write under way).
          if (done >= 20 + round * 7) {
            child.kill('SIGKILL');
            resolve();
          }
        });
      });
      await new Promise((r) => child.once('close', r));
      const { events, stats } = readLogEvents(fs.readFileSync(file));
      expect(stats.skipped.malformed, `round ${round}`).toBe(tornBefore);
      expect(stats.skipped.torn_tail, `round ${round}`).toBeLessThanOrEqual(1);
      tornBefore += stats.skipped.torn_tail;
      expect(events.length, `round ${round}`).toBeGreaterThanOrEqual(done);
      // The killed process may have died holding the lock: the next append breaks it (its pid is dead).
      await nodeLogFile(file, 10_000).append(added(`after-${round}`, [], 'w9'));
      const after = readLogEvents(fs.readFileSync(file));
      expect(after.events[after.events.length - 1].event).toMatchObject({ message_id: `after-${round}` });
      expect(after.stats.skipped.torn_tail).toBe(0);
      expect(after.stats.skipped.malformed).toBe(tornBefore);
    }
  });
});
