// `hci intercom find|relate` as real child processes, under the Node CLI (bin/hci.js) and the Deno CLI
// (runtimes/deno/cli.ts: the documented narrow permissions plus write access to the log's folder), on
// a small C# workspace in a temp folder with a conversation log: the seed's acceptance criteria
// (an attachment on Foo.cs L10–20 → find Foo.cs:L10-20 includes it; find with no selection → an
// explicit error, exit 2; relate 3:5 → exactly one new NDJSON line, then find returns #3, #4, #5), the
// --json answers against the contract schemas (nothing undeclared), the human lines, paths read from
// the current folder, and every refusal with its exit code — leaving the log as it was.
// @lane cli
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { intercomFindAnswer, intercomRelateAnswer } from '../core/contract/index.ts';
import { ensureBuilt } from './helpers/mcp-harness.ts';
import { CLI_RUNTIMES, cliJson, expectContract, runHci, type CliRuntimeName } from './helpers/cli-json.ts';
import { ADD_KEY, SHIP_KEY, intercomWorkspace, logLines } from './helpers/intercom-fixture.ts';

type Ws = Awaited<ReturnType<typeof intercomWorkspace>>;
const ordinals = (r: Record<string, any>) => (r.matches as Array<{ ordinal: number }>).map((m) => m.ordinal); // eslint-disable-line @typescript-eslint/no-explicit-any

describe.each(CLI_RUNTIMES)('hci intercom under %s', (runtime: CliRuntimeName) => {
  let ws: Ws;
  let hci: (args: string[], cwd?: string) => ReturnType<typeof runHci>;
  let json: (args: string[], schema: Parameters<typeof expectContract>[0], code: number, cwd?: string) => Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  beforeAll(async () => {
    ensureBuilt();
    ws = await intercomWorkspace();
    // Deno: relate writes the log and its lock files beside it (the workspace root here).
    const denoExtra = [`--allow-write=${path.join(ws.root, '.hci')},${ws.root}`];
    hci = (args, cwd = ws.root) => runHci(runtime, ws.root, args, { cwd, denoExtra });
    json = (args, schema, code, cwd = ws.root) => {
      const r = cliJson(runtime, ws.root, [...args, '--json'], { cwd, denoExtra });
      expect(r.code, `hci ${args.join(' ')}: ${r.stderr}`).toBe(code);
      expectContract(schema, r.json, `hci ${args.join(' ')}`);
      return r.json;
    };
  });
  afterAll(async () => {
    await ws?.cleanup();
  });

  const log = ['--log', 'events.ndjson', '--thread', 't1'];

  it('find: an attachment on Foo.cs L10–20 is found by Foo.cs:L10-20 (JSON and human), from the root and from src/', () => {
    const r = json(['intercom', 'find', 'src/Foo.cs:L10-20', ...log], intercomFindAnswer, 0);
    expect(r.status).toBe('ok');
    expect(ordinals(r)).toContain(2);
    expect(r.matches[0]).toMatchObject({ ordinal: 2, message_id: 'm2', match_kind: 'inferred', match: 'member', stale: false, member_key: ADD_KEY });
    expect(r.log).toMatchObject({ location: path.join(ws.root, 'events.ndjson'), messages: 5 });
    expect(r.index.generation).toBe(r.index_generation);

    // In src/: the code ref's file and --log are read from the current folder.
    const inSrc = json(['intercom', 'find', 'Foo.cs:L10-20', '--log', '../events.ndjson', '--thread', 't1'], intercomFindAnswer, 0, path.join(ws.root, 'src'));
    expect(inSrc.matches).toEqual(r.matches);
    expect(inSrc.targets).toEqual(r.targets);

    const human = hci(['intercom', 'find', 'src/Foo.cs:L10-20', ...log]);
    expect(human.code, human.stderr).toBe(0);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^#2 {2}m2 {2}inferred {2}member {3}fresh {2}src\/Foo\.cs:10-20 {2}Demo\.Shop\.Foo\.Add\(int\)$/);
    expect(lines.at(-1)).toMatch(/^1 message \(ok\) · thread t1, 5 messages · src\/Foo\.cs:L10-20 \[M:Demo\.Shop\.Foo\.Add\(int\)\] · \d+ ms/);
  });

  it('find with no selection is an explicit error (exit 2), and nothing relating is empty with a hint (exit 1)', () => {
    for (const args of [[], ['selection'], ['']]) {
      const r = json(['intercom', 'find', ...args, ...log], intercomFindAnswer, 2);
      expect(r.error.code, JSON.stringify(args)).toBe('empty_selection');
      expect(r.hint).toBeTruthy();
    }
    const human = hci(['intercom', 'find', ...log]);
    expect(human.code).toBe(2);
    expect(human.stderr).toMatch(/^hci: no code ref and no selection: nothing to look up\nhint: pass a code ref/);
    expect(human.stdout).toBe('');

    const empty = json(['intercom', 'find', 'src/Foo.cs:L5', ...log], intercomFindAnswer, 1);
    expect(empty).toMatchObject({ status: 'empty', matches: [], total: 0 });
    expect(empty.hint).toMatch(/no message of thread t1 \(5 messages\) relates to src\/Foo\.cs:L5-5/);
    const emptyHuman = hci(['intercom', 'find', 'src/Foo.cs:L5', ...log]);
    expect(emptyHuman.code).toBe(1);
    expect(emptyHuman.stdout).toMatch(/^0 messages \(empty\) · thread t1, 5 messages · src\/Foo\.cs:L5/);
    expect(emptyHuman.stdout).toMatch(/\nhint: no message of thread t1/);
  });

  it('relate 3:5 appends exactly one message_range_related line (source cli); then find returns #3, #4 and #5', () => {
    const before = logLines(ws.log);
    const r = json(['intercom', 'relate', '3:5', 'src/Bar.cs:L6-8', ...log], intercomRelateAnswer, 0);
    expect(r).toMatchObject({ status: 'ok', start_ordinal: 3, end_ordinal: 5, ordinals: [3, 4, 5], code_ref: { file: 'src/Bar.cs', member_key: SHIP_KEY, line_start: 6, line_end: 8 } });
    const after = logLines(ws.log);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after).toHaveLength(before.length + 1);
    expect(JSON.parse(after.at(-1)!)).toMatchObject({
      type: 'message_range_related', schema_version: 1, thread_id: 't1', start_ordinal: 3, end_ordinal: 5, source: 'cli',
      code_ref: { file: 'src/Bar.cs', line_start: 6, line_end: 8, member_key: SHIP_KEY, syntax_scope: 'method', shape: 'lines' },
    });

    const found = json(['intercom', 'find', 'src/Bar.cs:L6-8', ...log], intercomFindAnswer, 0);
    expect(found.sidecar).toMatchObject({ rebuilt: true, reason: 'log_changed' });
    expect(ordinals(found)).toEqual([3, 4, 5]);
    expect(found.matches.map((m: { match_kind: string }) => m.match_kind)).toEqual(['explicit', 'explicit', 'explicit']);

    // The human rendering of a relate: the range, the anchor recorded, the log appended to.
    const human = hci(['intercom', 'relate', '1', `[M:${ADD_KEY}]`, ...log]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^related #1 of thread t1 to src\/Foo\.cs:9-20 {2}\(Demo\.Shop\.Foo\.Add\(int\), method, member\)\nappended one message_range_related line to .*events\.ndjson · \d+ ms\n$/);
    expect(logLines(ws.log)).toHaveLength(after.length + 1);
  });

  it('refuses with structured errors and the error table\'s exit codes, and writes nothing', () => {
    const bytes = fs.readFileSync(ws.log);
    const cases: Array<[string[], string, number]> = [
      [['find', 'src/Foo.cs:L10', '--log', 'events.ndjson', '--thread', 'nope'], 'unknown_thread', 2],
      [['find', 'src/Foo.cs:L10', '--log', 'missing.ndjson', '--thread', 't1'], 'log_missing', 2],
      [['find', 'src/Foo.cs:L10', '--log', 'src/Foo.cs', '--thread', 't1'], 'invalid_log_path', 2],
      [['find', '../outside.cs:L1-2', ...log], 'path_outside_workspace', 2],
      [['find', 'L:3', ...log], 'invalid_code_ref', 2],
      [['find', 'anchor:nope', ...log], 'unknown_anchor', 2],
      [['relate', '3,5', 'src/Foo.cs:L10', ...log], 'range_not_contiguous', 2],
      [['relate', '4:9', 'src/Foo.cs:L10', ...log], 'message_not_committed', 2],
      [['relate', '5:3', 'src/Foo.cs:L10', ...log], 'invalid_range', 2],
      [['relate', '1', ...log], 'empty_selection', 2],
      [['relate', '1', 'src/Gone.cs:L1', ...log], 'file_not_found', 2],
    ];
    for (const [args, code, exit] of cases) {
      const r = json(['intercom', ...args], args[0] === 'find' ? intercomFindAnswer : intercomRelateAnswer, exit);
      expect(r.error.code, args.join(' ')).toBe(code);
      expect(r.hint, args.join(' ')).toBeTruthy();
    }
    // L:10-20 with --file works (the open file), relative to the current folder.
    expect(ordinals(json(['intercom', 'find', 'L:10-20', '--file', 'Foo.cs', '--log', '../events.ndjson', '--thread', 't1'], intercomFindAnswer, 0, path.join(ws.root, 'src')))).toContain(2);
    // Missing options are the command line's usage errors (exit 2).
    const noLog = hci(['intercom', 'find', 'src/Foo.cs:L10', '--thread', 't1']);
    expect(noLog.code).toBe(2);
    expect(noLog.stderr).toMatch(/--log/);
    expect(fs.readFileSync(ws.log).equals(bytes)).toBe(true);
    expect(fs.existsSync(path.join(ws.root, 'missing.ndjson'))).toBe(false);
  });

  it("a workspace that cannot be opened is the verb's own answer with the error (exit 2)", () => {
    fs.writeFileSync(path.join(ws.root, '.hci', 'settings.toml'), 'max_files = -3\n');
    try {
      expect(json(['intercom', 'find', 'src/Foo.cs:L10', ...log], intercomFindAnswer, 2).error.code).toBe('invalid_settings');
    } finally {
      fs.rmSync(path.join(ws.root, '.hci', 'settings.toml'));
    }
  });
});

describe('hci intercom relate while another process holds the log (Node)', () => {
  let ws: Ws;
  beforeAll(async () => {
    ws = await intercomWorkspace();
  });
  afterAll(async () => {
    await ws?.cleanup();
  });

  it('an append lock held past the wait is log_busy (exit 4), and the log is untouched', () => {
    const lock = `${ws.log}.lock`;
    // A holder on another host cannot be checked, so it is taken as alive.
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: `not-${os.hostname()}`, token: 'held-by-the-test', acquired_at: Date.now() }));
    try {
      const bytes = fs.readFileSync(ws.log);
      const r = cliJson('node', ws.root, ['intercom', 'relate', '2', 'src/Foo.cs:L10', '--log', 'events.ndjson', '--thread', 't1', '--json'], { cwd: ws.root });
      expect(r.code, r.stderr).toBe(4);
      expectContract(intercomRelateAnswer, r.json, 'relate while locked');
      expect(r.json.error.code).toBe('log_busy');
      expect(r.json.hint).toMatch(/\.lock/);
      expect(fs.readFileSync(ws.log).equals(bytes)).toBe(true);
    } finally {
      fs.rmSync(lock, { force: true });
    }
  }, 30_000);
});
