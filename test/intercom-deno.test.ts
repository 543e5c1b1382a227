// Traceability under Deno, sharing files with Node: a real Deno process (the documented narrow
// permissions) answers find on a log and a sidecar written by Node — from Node's sidecar rows, not a
// rebuild — with Node's answers; a relate appended by Deno is read by Node, and a Node rebuild after a
// Deno one reproduces the same rows.
// @lane runtimes
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { openIntercom, type FindResponse } from '../runtimes/node/index.ts';
import { denoFlags, startDeno, REPO } from './helpers/deno.ts';
import { denoBinary, titled } from './helpers/runtimes.ts';

const deno = denoBinary();
import { ADD_KEY, intercomWorkspace, logLines } from './helpers/intercom-fixture.ts';

const SCRIPT = path.join(REPO, 'test/helpers/deno-intercom.ts');
const REFS = ['src/Foo.cs:L10-20', `[M:${ADD_KEY}]`, 'src/Bar.cs', 'anchor:m4#1', 'src/Foo.cs:L5'];
const stable = (r: FindResponse) => ({ status: r.status, targets: r.targets, matches: r.matches, total: r.total, log: r.log, index_generation: r.index_generation });

async function runDeno(deno: string, root: string, calls: unknown[], extra: string[] = []): Promise<any[]> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await startDeno(deno, denoFlags(root, extra), SCRIPT, [JSON.stringify({ root, calls })]).exited;
  if (r.code !== 0 || !Array.isArray(r.json)) throw new Error(`deno-intercom failed (${r.code}): ${r.stderr}\n${r.stdout}`);
  return r.json;
}

describe.skipIf(!deno)(titled('intercom under Deno', { Deno: deno }), () => {
  let ws: Awaited<ReturnType<typeof intercomWorkspace>>;
  beforeAll(async () => {
    ws = await intercomWorkspace();
  });
  afterAll(async () => {
    await ws?.cleanup();
  });

  it('finds on a log and sidecar written by Node, without rebuilding, with the same answers', async () => {
    const node = await openIntercom(ws.root);
    const nodeAnswers: FindResponse[] = [];
    try {
      await node.relate({ log: ws.log, thread_id: 't1', range: '3:5', code_ref: 'src/Foo.cs:L12-15', source: 'cli' });
      for (const code_ref of REFS) nodeAnswers.push(await node.find({ log: ws.log, thread_id: 't1', code_ref }));
    } finally {
      node.close();
    }
    expect(nodeAnswers[0].matches.map((m) => m.ordinal)).toEqual([3, 4, 5, 2]);
    const answers = (await runDeno(deno, ws.root, REFS.map((code_ref) => ({ op: 'find', req: { log: 'events.ndjson', thread_id: 't1', code_ref } })))) as FindResponse[];
    for (let i = 0; i < REFS.length; i++) {
      expect(answers[i].sidecar, REFS[i]).toMatchObject({ rebuilt: false });
      expect(stable(answers[i]), REFS[i]).toEqual(stable(nodeAnswers[i]));
    }
  });

  it('a relate appended by Deno is one whole line that Node reads; rebuilds agree across runtimes', async () => {
    const before = logLines(ws.log);
    const [rel, found] = await runDeno(
      deno, ws.root,
      [
        { op: 'relate', req: { log: 'events.ndjson', thread_id: 't1', range: '1 2', code_ref: 'src/Bar.cs:L5-8', source: 'agent' } },
        { op: 'find', req: { log: 'events.ndjson', thread_id: 't1', code_ref: 'src/Bar.cs:L6' } },
      ],
      [`--allow-write=${path.join(ws.root, '.hci')},${ws.root}`],
    );
    expect(rel).toMatchObject({ status: 'ok', ordinals: [1, 2] });
    expect(found).toMatchObject({ status: 'ok', sidecar: { rebuilt: true, reason: 'log_changed' } });
    expect(found.matches.map((m: { ordinal: number }) => m.ordinal)).toEqual([1, 2, 5]);
    const after = logLines(ws.log);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(JSON.parse(after[after.length - 1])).toMatchObject({ type: 'message_range_related', start_ordinal: 1, end_ordinal: 2, source: 'agent' });

    const sidecar = path.join(ws.root, '.hci', 'intercom-message-code.sqlite');
    const denoRows = execFileSync('sqlite3', [sidecar, '.dump'], { encoding: 'utf8' });
    const node = await openIntercom(ws.root);
    try {
      const r = await node.find({ log: ws.log, thread_id: 't1', code_ref: 'src/Bar.cs:L6' });
      expect(r.sidecar).toMatchObject({ rebuilt: false });
      expect(r.matches).toEqual(found.matches);
      await node.rebuild(ws.log);
    } finally {
      node.close();
    }
    expect(execFileSync('sqlite3', [sidecar, '.dump'], { encoding: 'utf8' })).toBe(denoRows);
  });

  it('without write access to the log\'s folder, relate fails with a structured error and writes nothing', async () => {
    const before = logLines(ws.log);
    const [rel] = await runDeno(deno, ws.root, [{ op: 'relate', req: { log: 'events.ndjson', thread_id: 't1', range: '1', code_ref: 'src/Bar.cs:L5', source: 'agent' } }]);
    expect(rel.status).toBe('error');
    expect(rel.error.code).toBe('permission_needed');
    expect(rel.hint).toMatch(/--allow-write/);
    expect(logLines(ws.log)).toEqual(before);
  });
});
