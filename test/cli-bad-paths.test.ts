// Every CLI verb answers a path it cannot use — a name longer than the system allows (ENAMETOOLONG),
// a symlink loop (ELOOP), a long path through a file — with its structured answer (the failure JSON
// with --json, one line and a hint without), never a stack trace and never the runtime's own crash
// exit (issue 39 defect 6: `outline`/`resolve` printed a Node stack and exited 1 with no JSON).
// @lane cli
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copySample, ensureBuilt } from './helpers/mcp-harness.ts';
import { CLI_RUNTIMES, runHci, type CliRuntimeName } from './helpers/cli-json.ts';

const STACK = /\n\s+at .+[:(]\d+|node:internal|node:fs|Error: E[A-Z]+:|Uncaught/;

describe.each(CLI_RUNTIMES)('the %s CLI given a path it cannot use', (runtime: CliRuntimeName) => {
  const ws = copySample(`hci-bad-paths-${runtime}-`);
  const long = 'a'.repeat(5000);
  const segLong = `src/${'b'.repeat(300)}.cs`;
  let loop: string;

  beforeAll(() => {
    ensureBuilt();
    expect(runHci('node', ws.root, ['index', ws.root, '-q']).code).toBe(0);
    loop = path.join(ws.root, 'loop1');
    fs.symlinkSync(path.join(ws.root, 'loop2'), loop);
    fs.symlinkSync(loop, path.join(ws.root, 'loop2'));
  }, 60_000);
  afterAll(() => ws.cleanup());

  const bad = () => [long, segLong, 'loop1/x.cs', `${path.join(ws.root, long)}/x`];
  const verbs = (p: string): string[][] => [
    ['outline', p, '--root', ws.root],
    ['resolve', `${p}:3`, '--root', ws.root],
    ['resolve', p, '--root', ws.root],
    ['index', '--path', p, ws.root],
    ['search', 'catalog', '--root', p],
    ['status', '--root', p],
    ['outline', 'src/A.cs', '--root', p],
    ['explain', '1.abc', '--root', p],
    ['similar', 'src/A.cs', '--root', p],
    ['index', p],
    ['tree', p, '--root', ws.root],
    ['tree', '--root', p],
  ];

  it('answers every verb with the failure or an answer, as JSON with --json', () => {
    const seen: string[] = [];
    for (const p of bad()) {
      for (const args of verbs(p)) {
        const r = runHci(runtime, ws.root, [...args, '--json'], { cwd: ws.root });
        const what = `hci ${args.map((a) => (a.length > 40 ? `${a.slice(0, 12)}…(${a.length})` : a)).join(' ')}`;
        expect(r.stderr, what).not.toMatch(STACK);
        expect(r.stdout, what).not.toMatch(STACK);
        let json: { status?: string; error?: { code: string; message: string } };
        try {
          json = JSON.parse(r.stdout);
        } catch {
          throw new Error(`${what} printed no JSON (exit ${r.code}): ${r.stdout.slice(0, 300)}${r.stderr.slice(0, 600)}`);
        }
        expect(json.status, what).toBeTruthy();
        expect([0, 1, 2, 3, 5], what).toContain(r.code);
        if (json.error) {
          expect(json.error.code, what).not.toBe('internal');
        }
        seen.push(`${json.status}:${json.error?.code ?? ''}`);
      }
    }
    expect(seen.length).toBe(bad().length * verbs('x').length);
  }, 300_000);

  it('says what is wrong in one line and a hint without --json', () => {
    for (const args of [['outline', long], ['outline', 'loop1'], ['resolve', 'loop1:3'], ['status', '--root', long]]) {
      const r = runHci(runtime, ws.root, args, { cwd: ws.root });
      const what = `hci ${args[0]} ${args[1].slice(0, 12)}`;
      expect(r.stderr, what).not.toMatch(STACK);
      expect(r.code, what).not.toBe(0);
      expect([1, 2, 3, 5], what).toContain(r.code);
      expect(r.stderr + r.stdout, what).toMatch(/hci: |not |no /);
    }
  }, 120_000);
});

