// The documentation, checked against the product: the README, docs/*.md, ARCHITECTURE.md and
// bench/README.md (the files the README's text moved to) are read as one.
//  - Runnable blocks. A fenced block whose info string is `sh doc-test` or `text doc-test` runs;
//    every other block is prose.
//    `sh doc-test`: each command (a line, with `\` continuations) runs in bash from the repository
//    root and must exit 0, or the code its trailing `# exit N` comment names. A `W=…` line names the
//    reader's workspace: the test sets W itself, to a fresh temp copy of the sample workspace.
//    `text doc-test`: a `$ command` line, then the output it must print (stdout and stderr, in
//    order), compared after the few things that vary between runs are masked: the workspace path
//    (shown as `$W`), durations (`N ms`), the index age (`built … ago`) and generation (`gen N`).
//    Blocks run in reading order (the README first) against one workspace, so a later block sees
//    the index an earlier one built.
//  - Paths. Every repository file and folder a page cites by path exists (a test file may be named
//    without its extension: `test/vector-parity`), and every relative link (with its #anchor) points
//    at a file and heading that exist.
//  - Commands. Every `hci <command>` a page shows is a real command and every option written after
//    it is one of that command's options (from `hci <command> --help`); every `npm run <script>` is a
//    script of package.json; every `node dist/<file>.js` has its source.
//  - Size. The README stays at most 25 KB.
//  - Tables. The README's CLI and MCP tables and docs/cli.md's and docs/mcp.md's list every command
//    (from `hci --help`) and every tool (from the MCP server's listTools); docs/cli.md's row of a
//    command names each of its options, docs/mcp.md's row of a tool each of its arguments.
// @lane cli
import { describe, it, expect, afterAll, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO } from './helpers/browser.ts';
import { denoBinary } from './helpers/runtimes.ts';
import { SAMPLE, copySample, ensureBuilt, startStdio } from './helpers/mcp-harness.ts';
import { copyWorkspace } from './helpers/tmp-workspace.ts';

/** Scripts of the create-vite app docs/runtimes.md builds, not of hci's package.json. */
const APP_SCRIPTS = ['dev'];

/** The pages, in reading order: the README first (its blocks build the index later blocks use). */
const PAGES = [
  'README.md',
  ...fs.readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`),
  'ARCHITECTURE.md',
  'bench/README.md',
];
const text = (page: string) => fs.readFileSync(path.join(REPO, page), 'utf8');

interface Command { line: number; cmd: string; expectCode: number; expectOutput?: string }
interface Block { kind: 'sh' | 'text'; line: number; commands: Command[] }

/** The marked blocks and their commands, in page order. */
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

/** Masks what differs from run to run; applied to the page's text and to the real output alike. */
function normalise(s: string, ws: string): string {
  return s
    .split(ws).join('$W')
    .replace(/\d+(\.\d+)? ms\b/g, 'N ms')
    .replace(/built \S+ ago/g, 'built … ago')
    .replace(/\bgen \d+/g, 'gen N')
    .replace(/\s+$/, '');
}

/** Code as a page shows it: fenced blocks' lines and inline code spans, each with its line number. */
function codeOf(md: string): { line: number; code: string }[] {
  const out: { line: number; code: string }[] = [];
  const lines = md.split('\n');
  let fenced = false;
  lines.forEach((l, i) => {
    if (l.startsWith('```')) { fenced = !fenced; return; }
    if (fenced) out.push({ line: i + 1, code: l });
    else for (const m of l.matchAll(/`([^`]+)`/g)) out.push({ line: i + 1, code: m[1] });
  });
  return out;
}

/** GitHub's anchor of a heading. */
const slug = (h: string) => h.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
function anchorsOf(md: string): Set<string> {
  let fenced = false;
  const out = new Set<string>();
  for (const l of md.split('\n')) {
    if (l.startsWith('```')) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(l)) out.add(slug(l.replace(/^#+ /, '')));
  }
  return out;
}

/** Commander's help: the commands it lists, or a command's long and short options. */
function help(args: string[]): string {
  const r = spawnSync(process.execPath, [path.join(REPO, 'bin', 'hci.js'), ...args, '--help'], { encoding: 'utf8' });
  expect(r.status, `hci ${args.join(' ')} --help`).toBe(0);
  return r.stdout;
}
const section = (h: string, title: string) => (h.split(`\n${title}:\n`)[1] ?? '').split(/\n\n/)[0];
const commandsIn = (h: string) => [...section(h, 'Commands').matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]).filter((c) => c !== 'help');
/** The other names commander lists beside a command (`resolve|def`): alias → command. */
const aliasesIn = (h: string) => new Map([...section(h, 'Commands').matchAll(/^ {2}([a-z][\w-]*)((?:\|[a-z][\w-]*)+)/gm)].flatMap((m) => m[2].slice(1).split('|').map((a) => [a, m[1]] as const)));
/** A command's options as [long, short?] pairs, --help left out. */
const optionPairs = (h: string) => [...section(h, 'Options').matchAll(/^ {2}(?:(-\w), )?(--[\w-]+)/gm)].map((m) => [m[2], m[1]] as const).filter(([long]) => long !== '--help');

/** The rows of the first table under a heading: first cell → the whole row. */
function tableRows(md: string, heading: RegExp): Map<string, string> {
  const lines = md.split('\n');
  const at = lines.findIndex((l) => heading.test(l));
  expect(at, `a heading ${heading}`).toBeGreaterThanOrEqual(0);
  const rows = new Map<string, string>();
  let i = at + 1;
  while (i < lines.length && !lines[i].startsWith('|')) i++;
  for (i += 2; i < lines.length && lines[i].startsWith('|'); i++) rows.set(lines[i].split(/(?<!\\)\|/)[1].trim(), lines[i]);
  return rows;
}

describe('README doc test', () => {
  const ws = copyWorkspace(path.join(REPO, 'test/sample-workspace'), 'hci-readme-');
  const deno = denoBinary();
  afterAll(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('keeps the README a user\'s page: at most 25 KB (details go to docs/, the measurement history to bench/README.md)', () => {
    expect(fs.statSync(path.join(REPO, 'README.md')).size).toBeLessThanOrEqual(25_000);
  });

  it('finds the marked blocks and parses their commands and expected outputs', () => {
    const blocks = PAGES.flatMap((p) => docTestBlocks(text(p)));
    expect(blocks.filter((b) => b.kind === 'sh').length).toBeGreaterThanOrEqual(2);
    expect(blocks.filter((b) => b.kind === 'text').length).toBeGreaterThanOrEqual(2);
    expect(blocks.flatMap((b) => b.commands).length).toBeGreaterThanOrEqual(10);
    // The parser itself, on a small sample.
    const sample = docTestBlocks('```sh doc-test\nW=~/x\nnpx hci a \\\n  --b $W   # exit 3\n# note\n```\n```text doc-test\n$ echo hi\nhi\n```\n');
    expect(sample.map((b) => b.commands)).toEqual([[{ line: 3, cmd: 'npx hci a  --b $W   # exit 3', expectCode: 3 }], [{ line: 8, cmd: 'echo hi', expectCode: 0, expectOutput: 'hi\n' }]]);
  });

  it('runs every marked command against a copy of the sample workspace', () => {
    let ran = 0;
    for (const page of PAGES) {
      for (const block of docTestBlocks(text(page))) {
        for (const c of block.commands) {
          if (/\bnpx deno\b/.test(c.cmd) && !deno) continue;
          // The newline ends a trailing `# exit N` comment before the redirection.
          const r = spawnSync('bash', ['-c', `{ ${c.cmd}\n} 2>&1`], { cwd: REPO, env: { ...process.env, W: ws, NO_COLOR: '1' }, encoding: 'utf8', timeout: 120_000 });
          const where = `${page}:${c.line}: ${c.cmd}\n${r.stdout}`;
          expect(r.status, where).toBe(c.expectCode);
          if (c.expectOutput !== undefined) expect(normalise(r.stdout, ws), where).toBe(normalise(c.expectOutput, ws));
          ran++;
        }
      }
    }
    console.log(`README doc test: ${ran} commands run`);
    expect(ran).toBeGreaterThanOrEqual(10);
  }, 300_000);

  it('cites only repository files that exist, and links only to files and headings that exist', () => {
    const missing: string[] = [];
    let cited = 0;
    for (const page of PAGES) {
      const md = text(page);
      for (const p of new Set(md.match(/(?<![\w/.$-])(?:dist\/)?(?:core|runtimes|test|bench|bin|scripts|tools|web-demo|docs)\/[A-Za-z0-9_./-]+\.(?:ts|js|mjs|json|md|jsonl|sqlite|wat|png)\b/g) ?? [])) {
        cited++;
        const source = p.replace(/^dist\/(.*)\.js$/, '$1.ts');
        // A path of the sample workspace is one the examples' output shows (docs/configuration.md).
        if (![REPO, path.join(REPO, path.dirname(page)), SAMPLE].some((dir) => fs.existsSync(path.join(dir, source)))) missing.push(`${page}: ${p}`);
      }
      // A folder (`core/search/`), or a test named without its extension (`test/vector-parity`); built
      // output (`web-demo/dist/`) is not in the repository, and a pattern (`eval-<set>.md`, `eval-*`) names no one file.
      for (const p of new Set(md.match(/(?<![\w/.$-])(?:core|runtimes|test|bench|bin|scripts|tools|web-demo|docs)\/[A-Za-z0-9_/-]*(?![\w.<>*{-])/g) ?? [])) {
        if (/(?:^|\/)dist\//.test(p)) continue;
        cited++;
        if (!fs.existsSync(path.join(REPO, p)) && !fs.existsSync(path.join(REPO, `${p}.test.ts`))) missing.push(`${page}: ${p}`);
      }
      for (const m of md.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/.test(target)) continue;
        cited++;
        const [file, anchor] = target.split('#');
        const abs = file ? path.join(REPO, path.dirname(page), file) : path.join(REPO, page);
        if (!fs.existsSync(abs)) { missing.push(`${page}: ${target}`); continue; }
        if (anchor && !anchorsOf(fs.readFileSync(abs, 'utf8')).has(anchor)) missing.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(cited).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  describe('commands and tables', () => {
    const top = help([]);
    const commands = commandsIn(top);
    const aliases = aliasesIn(top);
    const sub = new Map<string, string[]>(commands.map((c) => [c, c === 'intercom' ? commandsIn(help([c])) : []]));
    const pairsOf = new Map<string, (readonly [string, string | undefined])[]>();
    for (const c of commands) {
      if (sub.get(c)!.length) for (const s of sub.get(c)!) pairsOf.set(`${c} ${s}`, optionPairs(help([c, s])));
      else pairsOf.set(c, optionPairs(help([c])));
    }
    const optionsOf = new Map([...pairsOf].map(([k, pairs]) => [k, pairs.flatMap(([long, short]) => (short ? [long, short] : [long]))]));

    it('knows the real commands (the check below is not empty)', () => {
      expect(commands).toEqual(expect.arrayContaining(['index', 'search', 'similar', 'status', 'explain', 'outline', 'resolve', 'intercom', 'mcp', 'demo']));
      expect(optionsOf.get('search')).toEqual(expect.arrayContaining(['--root', '-k', '--mode', '--literal', '-F']));
      expect(optionsOf.get('intercom find')).toEqual(expect.arrayContaining(['--log', '--thread']));
    });

    it('shows only real commands, options, scripts and built files', () => {
      const scripts = Object.keys((JSON.parse(text('package.json')) as { scripts: Record<string, string> }).scripts);
      const wrong: string[] = [];
      let checked = 0;
      for (const page of PAGES) {
        for (const { line, code } of codeOf(text(page))) {
          if (/\bclaude mcp add\b/.test(code)) continue; // `hci` there is the server's name
          for (const a of code.matchAll(/(?:^|[\s(`]|npx -y [\w=/.-]+ |bin\/hci\.js )hci ([a-z][\w-]*)(?: ([a-z][\w-]*))?([^|;&#]*)/g)) {
            // An alias (`hci def`) is checked as the command it names.
            const m = [a[0], aliases.get(a[1]) ?? a[1], a[2], a[3]];
            if (!commands.includes(m[1])) { wrong.push(`${page}:${line}: hci ${m[1]} (no such command)`); continue; }
            const hasSub = sub.get(m[1])!.length > 0;
            if (hasSub && !sub.get(m[1])!.includes(m[2] ?? '')) { wrong.push(`${page}:${line}: hci ${m[1]} ${m[2] ?? ''} (no such subcommand)`); continue; }
            const key = hasSub ? `${m[1]} ${m[2]}` : m[1];
            // After a bare `--` come arguments, not options (a query that starts with "-").
            const rest = (hasSub ? m[3] : `${m[2] ?? ''}${m[3]}`).split(/(?:^|\s)--(?=\s|$)/)[0];
            for (const o of rest.match(/(?<=^|[\s[(])--?[a-zA-Z][\w-]*(?=$|[\s=\])|,])/g) ?? []) {
              checked++;
              if (!optionsOf.get(key)!.includes(o) && o !== '--help') wrong.push(`${page}:${line}: hci ${key} ${o} (no such option)`);
            }
            checked++;
          }
          for (const m of code.matchAll(/npm run ([\w:-]+)/g)) {
            checked++;
            if (m[1].endsWith(':')) continue; // a placeholder: `npm run test:<lane>`
            if (!scripts.includes(m[1]) && !APP_SCRIPTS.includes(m[1])) wrong.push(`${page}:${line}: npm run ${m[1]} (no such script)`);
          }
          for (const m of code.matchAll(/node (dist\/[\w/.-]+)\.js/g)) {
            checked++;
            const src = m[1].replace(/^dist\//, '');
            if (!['.ts', '.mjs'].some((e) => fs.existsSync(path.join(REPO, src + e)))) wrong.push(`${page}:${line}: node ${m[1]}.js (no source)`);
          }
        }
      }
      expect(checked).toBeGreaterThan(40);
      expect(wrong).toEqual([]);
    });

    it('lists every command in the README and docs/cli.md, and each command\'s options in docs/cli.md', () => {
      const verbs = [...optionsOf.keys()];
      const readme = tableRows(text('README.md'), /^## CLI/);
      const cli = tableRows(text('docs/cli.md'), /^## Commands/);
      const named = (rows: Map<string, string>, v: string) => [...rows.keys()].find((k) => k.includes(`\`hci ${v} `) || k.includes(`\`hci ${v}\``) || k.includes(` hci ${v} `));
      expect(verbs.filter((v) => !named(readme, v)), 'README.md: commands missing from the CLI table').toEqual([]);
      expect(verbs.filter((v) => !named(cli, v)), 'docs/cli.md: commands missing from the table').toEqual([]);
      // Each alias is named in its command's row of both tables.
      expect(aliases.get('def')).toBe('resolve');
      for (const [alias, cmd] of aliases) {
        for (const [page, rows] of [['README.md', readme], ['docs/cli.md', cli]] as const) expect(rows.get(named(rows, cmd)!), `${page}: hci ${alias} in the row of hci ${cmd}`).toContain(`\`hci ${alias}`);
      }
      // An option is named by its long form, or by its short one (`-k N` for `-k, --k <n>`).
      const mentions = (row: string, o: string | undefined) => !!o && new RegExp(`(?<![\\w-])${o}(?![\\w-])`).test(row);
      const unnamed = verbs.flatMap((v) => pairsOf.get(v)!.filter(([long, short]) => !mentions(cli.get(named(cli, v)!)!, long) && !mentions(cli.get(named(cli, v)!)!, short)).map(([long]) => `hci ${v} ${long}`));
      expect(unnamed, 'docs/cli.md: options missing from their command\'s row').toEqual([]);
    });

    describe('MCP tools', () => {
      let tools: { name: string; inputSchema: { properties?: Record<string, unknown> } }[] = [];
      let close: () => Promise<void> = async () => {};
      beforeAll(async () => {
        ensureBuilt();
        const sample = copySample('hci-readme-mcp-');
        const mcp = await startStdio(sample.root, ['--watch', 'off']);
        close = async () => { await mcp.close(); sample.cleanup(); };
        tools = (await mcp.client.listTools()).tools as typeof tools;
      }, 60_000);
      afterAll(() => close());

      it('lists every tool in the README and docs/mcp.md, and each tool\'s arguments in docs/mcp.md', () => {
        expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search', 'similar', 'resolve', 'intercom_message_relate']));
        const readme = tableRows(text('README.md'), /^## Use with MCP hosts/);
        const mcp = tableRows(text('docs/mcp.md'), /^\*\*Tools\.\*\*/);
        expect(tools.map((t) => t.name).filter((n) => !readme.has(`\`${n}\``)), 'README.md: tools missing from the MCP table').toEqual([]);
        expect(tools.map((t) => t.name).filter((n) => !mcp.has(`\`${n}\``)), 'docs/mcp.md: tools missing from the table').toEqual([]);
        const unnamed = tools.flatMap((t) => Object.keys(t.inputSchema.properties ?? {}).filter((a) => !mcp.get(`\`${t.name}\``)!.includes(`\`${a}\``)).map((a) => `${t.name}.${a}`));
        expect(unnamed, 'docs/mcp.md: arguments missing from their tool\'s row').toEqual([]);
      });
    });
  });
});
