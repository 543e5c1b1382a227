// The README's runnable commands, run. A fenced block whose info string is `sh doc-test` or
// `text doc-test` is marked runnable; every other block is prose.
//  - `sh doc-test`: each command (a line, with `\` continuations) runs in bash from the repository
//    root and must exit 0, or the code its trailing `# exit N` comment names. A `W=…` line names the
//    reader's workspace: the test sets W itself, to a fresh temp copy of the sample workspace.
//  - `text doc-test`: a `$ command` line, then the output it must print (stdout and stderr, in
//    order), compared after the few things that vary between runs are masked: the workspace path
//    (shown as `$W`), durations (`N ms`), the index age (`built … ago`) and generation (`gen N`).
// Blocks run in README order against one workspace, so a later block sees the index an earlier one
// built. Also: every repository file the README cites by path exists (a moved module shows up here).
import { describe, it, expect, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO, copyWorkspace } from './helpers/browser.ts';
import { denoBinary } from './helpers/runtimes.ts';

const README = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');

interface Command { line: number; cmd: string; expectCode: number; expectOutput?: string }
interface Block { kind: 'sh' | 'text'; line: number; commands: Command[] }

/** The marked blocks and their commands, in README order. */
function docTestBlocks(md: string): Block[] {
  const lines = md.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(sh|text) doc-test\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i + 1;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
    blocks.push({ kind: open[1] as 'sh' | 'text', line: start, commands: open[1] === 'sh' ? shellCommands(body, start) : transcript(body, start) });
  }
  return blocks;
}

const exitOf = (cmd: string) => Number(/#\s*exit (\d+)\s*$/.exec(cmd)?.[1] ?? 0);

function shellCommands(body: string[], start: number): Command[] {
  const out: Command[] = [];
  for (let i = 0; i < body.length; i++) {
    const line = start + i + 1;
    let cmd = body[i];
    while (cmd.endsWith('\\') && i + 1 < body.length) cmd = `${cmd.slice(0, -1)} ${body[++i].trim()}`;
    if (!cmd.trim() || cmd.trim().startsWith('#') || /^W=/.test(cmd.trim())) continue;
    out.push({ line, cmd, expectCode: exitOf(cmd) });
  }
  return out;
}

function transcript(body: string[], start: number): Command[] {
  const out: Command[] = [];
  body.forEach((l, i) => {
    if (l.startsWith('$ ')) out.push({ line: start + i + 1, cmd: l.slice(2), expectCode: exitOf(l), expectOutput: '' });
    else if (out.length) out[out.length - 1].expectOutput += `${l}\n`;
  });
  return out;
}

/** Masks what differs from run to run; applied to the README's text and to the real output alike. */
function normalise(s: string, ws: string): string {
  return s
    .split(ws).join('$W')
    .replace(/\d+(\.\d+)? ms\b/g, 'N ms')
    .replace(/built \S+ ago/g, 'built … ago')
    .replace(/\bgen \d+/g, 'gen N')
    .replace(/\s+$/, '');
}

describe('README doc test', () => {
  const ws = copyWorkspace(path.join(REPO, 'test/sample-workspace'), 'hci-readme-');
  const deno = denoBinary();
  afterAll(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('finds the marked blocks and parses their commands and expected outputs', () => {
    const blocks = docTestBlocks(README);
    expect(blocks.filter((b) => b.kind === 'sh').length).toBeGreaterThanOrEqual(2);
    expect(blocks.filter((b) => b.kind === 'text').length).toBeGreaterThanOrEqual(2);
    expect(blocks.flatMap((b) => b.commands).length).toBeGreaterThanOrEqual(10);
    // The parser itself, on a small sample.
    const sample = docTestBlocks('```sh doc-test\nW=~/x\nnpx hci a \\\n  --b $W   # exit 3\n# note\n```\n```text doc-test\n$ echo hi\nhi\n```\n');
    expect(sample.map((b) => b.commands)).toEqual([[{ line: 3, cmd: 'npx hci a  --b $W   # exit 3', expectCode: 3 }], [{ line: 8, cmd: 'echo hi', expectCode: 0, expectOutput: 'hi\n' }]]);
  });

  it('runs every marked command against a copy of the sample workspace', () => {
    let ran = 0;
    for (const block of docTestBlocks(README)) {
      for (const c of block.commands) {
        if (/\bnpx deno\b/.test(c.cmd) && !deno) continue;
        // The newline ends a trailing `# exit N` comment before the redirection.
        const r = spawnSync('bash', ['-c', `{ ${c.cmd}\n} 2>&1`], { cwd: REPO, env: { ...process.env, W: ws, NO_COLOR: '1' }, encoding: 'utf8', timeout: 120_000 });
        const where = `README.md:${c.line}: ${c.cmd}\n${r.stdout}`;
        expect(r.status, where).toBe(c.expectCode);
        if (c.expectOutput !== undefined) expect(normalise(r.stdout, ws), where).toBe(normalise(c.expectOutput, ws));
        ran++;
      }
    }
    console.log(`README doc test: ${ran} commands run`);
    expect(ran).toBeGreaterThanOrEqual(10);
  }, 300_000);

  it('cites only repository files that exist', () => {
    const cited = [...new Set(README.match(/\b(?:dist\/)?(?:core|runtimes|test|bench|bin|scripts|web-demo)\/[A-Za-z0-9_./-]+\.(?:ts|js|mjs|json|md|jsonl|sqlite)\b/g) ?? [])];
    expect(cited.length).toBeGreaterThan(15);
    expect(cited.filter((p) => !fs.existsSync(path.join(REPO, p)))).toEqual([]);
  });
});
