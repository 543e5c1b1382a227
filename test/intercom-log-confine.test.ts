// Intercom logs confined to the workspace (the MCP server's policy) by real path, not only by the
// path as given: a log reached through a symlink inside the workspace that leads outside — a linked
// file, a linked folder, a link swapped in after the log was opened — is refused with
// `path_outside_workspace` and nothing of it is read or appended, under Node and Deno and through
// the MCP tools; links that stay inside, and a workspace reached through a symlink, still work.
// @lane cli
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createNodeLogOpener } from '../runtimes/node/intercom-log.ts';
import { added, fooLines, intercomWorkspace } from './helpers/intercom-fixture.ts';
import { REPO, startDeno } from './helpers/deno.ts';
import { denoBinary } from './helpers/runtimes.ts';
import { ensureBuilt, startStdio, type McpConn } from './helpers/mcp-harness.ts';
import { tmpDir } from './helpers/tmp-workspace.ts';

const LOG = `${added('m1', [{ file: 'src/Foo.cs', line_start: 10, line_end: 20, excerpt: fooLines(10, 11) }])}\n`;
const SECRET = `${added('outside-secret')}\n`;

/** A workspace with links: `linked.ndjson` and `out/` lead outside; `inner.ndjson` and `in/` stay inside. */
function layout(root: string, outside: string): void {
  fs.mkdirSync(path.join(root, 'logs'), { recursive: true });
  fs.writeFileSync(path.join(root, 'logs', 'events.ndjson'), LOG);
  fs.writeFileSync(path.join(outside, 'events.ndjson'), SECRET);
  fs.symlinkSync(path.join(outside, 'events.ndjson'), path.join(root, 'linked.ndjson'));
  fs.symlinkSync(outside, path.join(root, 'out'));
  fs.symlinkSync(path.join(root, 'logs', 'events.ndjson'), path.join(root, 'inner.ndjson'));
  fs.symlinkSync(path.join(root, 'logs'), path.join(root, 'in'));
}

const codeOf = async (p: Promise<unknown>): Promise<string | undefined> => p.then(() => undefined, (e) => (e as { code?: string }).code ?? String(e));

describe('intercom logs confined by real path', () => {
  let ws: Awaited<ReturnType<typeof intercomWorkspace>>;
  let outside: string;
  let rootLink: string;
  beforeAll(async () => {
    ws = await intercomWorkspace();
    outside = tmpDir('hci-log-outside-');
    rootLink = `${ws.root}-link`;
    fs.symlinkSync(ws.root, rootLink);
    layout(ws.root, outside);
  });
  afterAll(async () => {
    await ws?.cleanup();
    fs.rmSync(outside, { recursive: true, force: true });
    fs.rmSync(rootLink, { force: true });
  });

  it('Node: refuses links that lead outside, keeps links that stay inside', async () => {
    const open = createNodeLogOpener({ base: ws.root, roots: [ws.root] });
    for (const loc of ['linked.ndjson', 'out/events.ndjson', 'out/new.ndjson', path.join(ws.root, 'out', 'events.ndjson')]) {
      expect(await codeOf(Promise.resolve().then(() => open(loc).read())), loc).toBe('path_outside_workspace');
    }
    for (const loc of ['inner.ndjson', 'in/events.ndjson', 'logs/events.ndjson']) {
      expect(new TextDecoder().decode((await open(loc).read())!), loc).toBe(LOG);
    }
    // A path through a regular file is a missing log, not a refusal.
    expect(await open('logs/events.ndjson/x.ndjson').read()).toBeNull();
    // The workspace reached through a symlink: its logs are inside.
    const viaLink = createNodeLogOpener({ base: rootLink, roots: [rootLink] });
    expect(new TextDecoder().decode((await viaLink('logs/events.ndjson').read())!)).toBe(LOG);
    expect(await codeOf(Promise.resolve().then(() => viaLink('linked.ndjson').read()))).toBe('path_outside_workspace');
    // Unconfined (the CLI): the caller names any log, links included.
    expect(new TextDecoder().decode((await createNodeLogOpener({ base: ws.root })('linked.ndjson').read())!)).toBe(SECRET);
  });

  it('Node: a link swapped in after opening is refused at read and append, and nothing is written outside', async () => {
    const open = createNodeLogOpener({ base: ws.root, roots: [ws.root] });
    const file = path.join(ws.root, 'swap.ndjson');
    fs.writeFileSync(file, LOG);
    const log = open('swap.ndjson');
    expect((await log.stat())?.size).toBe(LOG.length);
    fs.rmSync(file);
    fs.symlinkSync(path.join(outside, 'events.ndjson'), file);
    expect(await codeOf(log.stat())).toBe('path_outside_workspace');
    expect(await codeOf(log.read())).toBe('path_outside_workspace');
    expect(await codeOf(log.append(added('m2')))).toBe('path_outside_workspace');
    expect(fs.readFileSync(path.join(outside, 'events.ndjson'), 'utf8')).toBe(SECRET);
    expect(fs.existsSync(path.join(outside, 'events.ndjson.lock'))).toBe(false);
  });

  const deno = denoBinary();
  it.skipIf(!deno)('Deno: the same refusals, even with read permission outside', async () => {
    const locations = ['linked.ndjson', 'out/events.ndjson', 'out/new.ndjson', 'inner.ndjson', 'in/events.ndjson'];
    const r = await startDeno(deno!, ['--no-prompt', `--allow-read=${ws.root},${outside},${path.join(REPO, 'node_modules')}`], path.join(REPO, 'test/helpers/deno-log-confine.ts'), [
      JSON.stringify({ base: ws.root, roots: [ws.root], locations }),
    ]).exited;
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toEqual([
      { location: 'linked.ndjson', code: 'path_outside_workspace' },
      { location: 'out/events.ndjson', code: 'path_outside_workspace' },
      { location: 'out/new.ndjson', code: 'path_outside_workspace' },
      { location: 'inner.ndjson', bytes: Buffer.byteLength(LOG) },
      { location: 'in/events.ndjson', bytes: Buffer.byteLength(LOG) },
    ]);
  });

  describe('through the MCP tools', () => {
    let mcp: McpConn;
    beforeAll(async () => {
      ensureBuilt();
      mcp = await startStdio(ws.root, ['--watch', 'off']);
    });
    afterAll(async () => {
      await mcp?.close();
    });

    it('refuses a log linked from outside in find and relate; a log inside answers', async () => {
      const found = await mcp.call('intercom_messages_for_code', { log: 'logs/events.ndjson', thread_id: 't1', code_ref: 'src/Foo.cs:L10-20' });
      expect(found.structured.status, found.text).toBe('ok');
      for (const log of ['linked.ndjson', 'out/events.ndjson']) {
        const f = await mcp.call('intercom_messages_for_code', { log, thread_id: 't1', code_ref: 'src/Foo.cs:L10-20' });
        expect(f.structured.error?.code, f.text).toBe('path_outside_workspace');
        expect(f.text).not.toMatch(/outside-secret/);
        const rel = await mcp.call('intercom_message_relate', { log, thread_id: 't1', range: '1', code_ref: 'src/Foo.cs:L10-20' });
        expect(rel.structured.error?.code, rel.text).toBe('path_outside_workspace');
      }
      expect(fs.readFileSync(path.join(outside, 'events.ndjson'), 'utf8')).toBe(SECRET);
    });
  });
});
