// The intercom `messages` call (a conversation panel's source, core/intercom/intercom.ts over
// projection.ts threadMessages): a thread's committed messages in ordinal order with their text as
// last edited, paging, the log's threads, the first thread by default; an unknown thread and a
// missing log are structured errors; every answer fits the contract's schema.
// @lane unit
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import { openIntercom, type Intercom } from '../runtimes/node/index.ts';
import { messagesResponseSchema } from '../core/contract/intercom.ts';
import { added, intercomWorkspace, threadLog } from './helpers/intercom-fixture.ts';
import type { TmpWorkspace } from './helpers/tmp-workspace.ts';

let ws: TmpWorkspace & { log: string };
let ic: Intercom;

beforeAll(async () => {
  const edit = JSON.stringify({ type: 'message_edited', schema_version: 1, thread_id: 't1', message_id: 'm3', text: 'm3, as edited', attachments: [{ file: 'src/Bar.cs', line_start: 5, line_end: 6 }] });
  ws = await intercomWorkspace(`${threadLog()}${edit}\n${added('m1')}\n${added('z1', [], 't2', 'assistant')}\n{"torn`);
  ic = await openIntercom(ws.root);
});

afterAll(async () => {
  ic?.close();
  await ws?.cleanup();
});

describe('intercom messages', () => {
  it('a thread\'s messages in ordinal order, text as last edited, a duplicate id skipped, the log\'s threads and skips', async () => {
    const r = await ic.messages({ log: ws.log, thread_id: 't1' });
    expect(messagesResponseSchema.parse(r)).toBeTruthy();
    expect(r.status).toBe('ok');
    expect(r.threads).toEqual(['t1', 't2']);
    expect(r.total).toBe(5);
    expect(r.messages.map((m) => [m.ordinal, m.message_id, m.role])).toEqual([[1, 'm1', 'user'], [2, 'm2', 'assistant'], [3, 'm3', 'user'], [4, 'm4', 'tool'], [5, 'm5', 'user']]);
    expect(r.messages[2]).toMatchObject({ text: 'm3, as edited', edited: true, attachments: 1 });
    expect(r.messages[1]).toMatchObject({ text: 'text of m2', edited: false, attachments: 1 });
    expect(r.log).toMatchObject({ location: ws.log, messages: 5 });
    expect(r.log!.skipped.torn_tail).toBe(1);
  });

  it('pages with offset and limit; without a thread it answers the log\'s first', async () => {
    const page = await ic.messages({ log: ws.log, thread_id: 't1', offset: 3, limit: 1 });
    expect(page.messages.map((m) => m.ordinal)).toEqual([4]);
    expect(page.total).toBe(5);
    const first = await ic.messages({ log: ws.log });
    expect(first).toMatchObject({ status: 'ok', thread_id: 't1', total: 5 });
    const t2 = await ic.messages({ log: ws.log, thread_id: 't2' });
    expect(t2.messages).toEqual([{ ordinal: 1, message_id: 'z1', role: 'assistant', text: 'text of z1', edited: false, attachments: 0 }]);
  });

  it('an unknown thread, a missing log, a log with no events: structured answers, never a throw', async () => {
    const unknown = await ic.messages({ log: ws.log, thread_id: 'nope' });
    expect(messagesResponseSchema.parse(unknown)).toBeTruthy();
    expect(unknown).toMatchObject({ status: 'error', error: { code: 'unknown_thread' }, hint: 'threads in this log: t1, t2', messages: [] });
    const missing = await ic.messages({ log: `${ws.root}/none.ndjson`, thread_id: 't1' });
    expect(missing).toMatchObject({ status: 'error', error: { code: 'log_missing' } });
    fs.writeFileSync(`${ws.root}/empty.ndjson`, '');
    const empty = await ic.messages({ log: `${ws.root}/empty.ndjson` });
    expect(empty).toMatchObject({ status: 'empty', hint: 'the log holds no events yet', messages: [], total: 0 });
  });
});
