// `hci setup <host>` (issue 38 item 1) as a user runs it, the real CLI in child processes over a temp
// home and a temp project: each host's MCP configuration is written in the host's format (JSON under
// its key, TOML table) next to what the files held, with the instructions for its agent; a second run
// changes nothing; `--remove` gives every file back byte for byte (and deletes what it made); an entry
// edited after setup is taken out without losing the user's edit; `--print` writes nothing; and the
// MCP server started exactly as the written configuration says answers the SDK client.
// @lane cli
import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parse as parseJsonc } from 'jsonc-parser';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ensureBuilt, runCli, REPO } from './helpers/hci-process.ts';
import { tmpDir } from './helpers/tmp-workspace.ts';

/** Every file and folder under `dir`, with the bytes of each file. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        out[`${path.relative(dir, p)}/`] = '';
        walk(p);
      } else out[path.relative(dir, p)] = fs.readFileSync(p).toString('base64');
    }
  };
  walk(dir);
  return out;
}

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A temp home and a project holding files the hosts' configurations share with others. */
function place(): { home: string; root: string; env: Record<string, string> } {
  const home = tmpDir('hci-setup-home-');
  const root = tmpDir('hci-setup-proj-');
  made.push(home, root);
  fs.mkdirSync(path.join(root, 'src'));
  fs.writeFileSync(path.join(root, 'src', 'OrderService.cs'), 'namespace Shop;\n\npublic class OrderService\n{\n    public decimal ApplyDiscount(decimal price) => price * 0.9m;\n}\n');
  return { home, root, env: { HOME: home } };
}

const HCI = [process.execPath, fs.realpathSync(path.join(REPO, 'bin', 'hci.js'))];

beforeAll(() => ensureBuilt());

describe('hci setup', () => {
  it('writes each host\'s configuration in its format, idempotently, and --remove restores every file byte for byte', async () => {
    const { home, root, env } = place();
    // What the hosts' files held before: other servers, comments (VS Code reads JSONC), a TOML table, an agent file.
    fs.writeFileSync(path.join(root, '.mcp.json'), '{\n    "mcpServers": {\n        "db": { "command": "db-mcp", "args": ["--ro"] }\n    }\n}\n');
    fs.mkdirSync(path.join(root, '.vscode'));
    fs.writeFileSync(path.join(root, '.vscode', 'mcp.json'), '// team servers\n{\n\t"servers": {\n\t\t"git": { "type": "stdio", "command": "git-mcp" } // keep\n\t},\n\t"inputs": []\n}');
    fs.mkdirSync(path.join(root, '.codex'));
    fs.writeFileSync(path.join(root, '.codex', 'config.toml'), 'model = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n');
    fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Agents\n\nRun the tests with npm test.'); // no final newline
    fs.mkdirSync(path.join(home, '.codeium', 'windsurf'), { recursive: true });
    fs.writeFileSync(path.join(home, '.codeium', 'windsurf', 'mcp_config.json'), '{"mcpServers":{}}');
    const before = { root: snapshot(root), home: snapshot(home) };

    const expectServer = (entry: any) => {
      expect(entry.command).toBe(HCI[0]);
      expect(entry.args).toEqual([HCI[1], 'mcp', root]);
    };
    const hosts = ['claude', 'cursor', 'vscode', 'codex', 'windsurf'];
    for (const host of hosts) {
      const r = await runCli(['setup', host, root, '--json'], env);
      expect(r.code, `${host}: ${r.stderr}`).toBe(0);
      const report = JSON.parse(r.stdout);
      // Windsurf's agent reads AGENTS.md too, which codex's run already gave the instructions.
      expect(report.files.map((f: { action: string }) => f.action), `${host}: ${r.stdout}`).toEqual(host === 'windsurf' ? ['written', 'unchanged'] : ['written', 'written']);
    }
    const read = (...p: string[]) => fs.readFileSync(path.join(...p), 'utf8');
    // Claude Code: .mcp.json mcpServers (the other server kept), CLAUDE.md made.
    const claude = JSON.parse(read(root, '.mcp.json'));
    expect(claude.mcpServers.db).toEqual({ command: 'db-mcp', args: ['--ro'] });
    expectServer(claude.mcpServers.hci);
    expect(claude.mcpServers.hci.type).toBe('stdio');
    expect(read(root, 'CLAUDE.md')).toContain('`search` tool');
    // Cursor: .cursor/mcp.json and an always-applied rule.
    expectServer(JSON.parse(read(root, '.cursor', 'mcp.json')).mcpServers.hci);
    expect(read(root, '.cursor', 'rules', 'hci.mdc')).toMatch(/^---\ndescription: .+\nalwaysApply: true\n---\n## Finding code/);
    // VS Code: `servers`, JSONC comments kept; Copilot's instructions file.
    const vscodeText = read(root, '.vscode', 'mcp.json');
    expect(vscodeText).toContain('// team servers');
    expect(vscodeText).toContain('// keep');
    const vscode = parseJsonc(vscodeText) as any;
    expect(vscode.servers.git.command).toBe('git-mcp');
    expectServer(vscode.servers.hci);
    expect(vscode.servers.hci.type).toBe('stdio');
    expect(read(root, '.github', 'copilot-instructions.md')).toContain('before grep');
    // Codex: a [mcp_servers.hci] table beside the others; AGENTS.md keeps its text.
    const codex = parseToml(read(root, '.codex', 'config.toml')) as any;
    expect(codex.model).toBe('o3');
    expect(codex.mcp_servers.docs.command).toBe('docs-mcp');
    expectServer(codex.mcp_servers.hci);
    expect(read(root, 'AGENTS.md')).toMatch(/^# Agents\n\nRun the tests with npm test\.\n\n<!-- hci setup: begin -->\n## Finding code/);
    // Windsurf: the user's file in the home.
    expectServer(JSON.parse(read(home, '.codeium', 'windsurf', 'mcp_config.json')).mcpServers.hci);

    // A second run changes nothing.
    const after = { root: snapshot(root), home: snapshot(home) };
    for (const host of hosts) {
      const r = await runCli(['setup', host, root, '--json'], env);
      expect(JSON.parse(r.stdout).files.map((f: { action: string }) => f.action)).toEqual(['unchanged', 'unchanged']);
    }
    expect({ root: snapshot(root), home: snapshot(home) }).toEqual(after);

    // --remove: every file as it was, byte for byte; what hci made is gone (folders too).
    for (const host of hosts) {
      const r = await runCli(['setup', host, root, '--remove'], env);
      expect(r.code, r.stderr).toBe(0);
    }
    expect({ root: snapshot(root), home: snapshot(home) }).toEqual(before);
  });

  it('Codex and Windsurf share AGENTS.md\'s block: removing one host keeps it for the other, removing both gives the file back byte for byte', async () => {
    for (const [first, second] of [['codex', 'windsurf'], ['windsurf', 'codex']]) {
      const { home, root, env } = place();
      fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Agents\n\nRun the tests with npm test.\n');
      const before = { root: snapshot(root), home: snapshot(home) };
      for (const host of [first, second]) expect((await runCli(['setup', host, root], env)).code).toBe(0);
      const agents = fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8');
      expect(agents).toContain('<!-- hci setup: begin -->');

      // One host removed: its MCP entry goes, the instructions block the other host's agent reads stays.
      const r = await runCli(['setup', first, root, '--remove', '--json'], env);
      expect(r.code, r.stderr).toBe(0);
      const files = JSON.parse(r.stdout).files as Array<{ role: string; action: string; kept_for?: string[] }>;
      expect(files.find((f) => f.role === 'instructions')).toMatchObject({ action: 'kept', kept_for: [second] });
      expect(fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8'), `${first} removed`).toBe(agents);
      const text = await runCli(['setup', first, root, '--remove'], env); // again: nothing of first's is left to take out
      expect(text.code).toBe(0);
      expect(fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8')).toBe(agents);

      // The last host removed: every file as it was.
      expect((await runCli(['setup', second, root, '--remove'], env)).code).toBe(0);
      expect({ root: snapshot(root), home: snapshot(home) }, `${first}, then ${second}`).toEqual(before);
    }
  });

  it('--remove takes out only hci\'s part of a file edited after setup, --print writes nothing, generic prints the JSON', async () => {
    const { home, root, env } = place();
    const cursorFile = path.join(root, '.cursor', 'mcp.json');
    const printed = await runCli(['setup', 'cursor', root, '--print'], env);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain(`# ${cursorFile} (would write)`);
    expect(snapshot(root)).not.toHaveProperty('.cursor/');

    expect((await runCli(['setup', 'cursor', root], env)).code).toBe(0);
    // The user adds a server of their own afterwards.
    const cfg = JSON.parse(fs.readFileSync(cursorFile, 'utf8'));
    cfg.mcpServers.web = { command: 'web-mcp' };
    fs.writeFileSync(cursorFile, JSON.stringify(cfg, null, 2));
    const r = await runCli(['setup', 'cursor', root, '--remove'], env);
    expect(r.stdout).toMatch(/restored\s+.*\.cursor\/mcp\.json/);
    expect(JSON.parse(fs.readFileSync(cursorFile, 'utf8'))).toEqual({ mcpServers: { web: { command: 'web-mcp' } } });
    expect(fs.existsSync(path.join(root, '.cursor', 'rules'))).toBe(false);
    expect(fs.existsSync(path.join(root, '.hci'))).toBe(false);

    const generic = await runCli(['setup', 'generic', root], env);
    expect(generic.code).toBe(0);
    const json = JSON.parse(generic.stdout.split('\n# instructions')[0].replace(/^#.*\n/, ''));
    expect(json.mcpServers.hci.args).toEqual([HCI[1], 'mcp', root]);
    expect(snapshot(home)).toEqual({});

    const bad = await runCli(['setup', 'emacs', root], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^hci: unknown host: emacs\nhint: one of claude, cursor/);
  });

  it('the MCP server started as the written configuration says answers the SDK client', async () => {
    const { root, env } = place();
    expect((await runCli(['setup', 'vscode', root, '--no-instructions'], env)).code).toBe(0);
    expect(fs.existsSync(path.join(root, '.github'))).toBe(false);
    const entry = (JSON.parse(fs.readFileSync(path.join(root, '.vscode', 'mcp.json'), 'utf8')) as any).servers.hci;
    // As a host starts it: the command and args of the entry, from another folder.
    const transport = new StdioClientTransport({ command: entry.command, args: entry.args, cwd: tmpDir('hci-setup-cwd-'), env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' });
    const client = new Client({ name: 'hci-setup-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['search', 'resolve', 'outline', 'status']));
      // The server indexes the new workspace in the background: search until the first build is done.
      let answer = { status: 'indexing', hits: [] as Array<{ path: string }> };
      for (const deadline = Date.now() + 60_000; answer.status === 'indexing' && Date.now() < deadline; await new Promise((r) => setTimeout(r, 300))) {
        const r = await client.callTool({ name: 'search', arguments: { query: 'ApplyDiscount' } }, undefined, { timeout: 60_000 });
        answer = r.structuredContent as typeof answer;
      }
      expect(answer.hits[0]?.path, JSON.stringify(answer)).toBe('src/OrderService.cs');
    } finally {
      await client.close();
    }
  }, 120_000);
});
