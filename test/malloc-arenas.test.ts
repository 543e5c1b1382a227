// The commands that index run under a cap on glibc's malloc arenas (runtimes/node/malloc-arenas.ts):
// which command lines are relaunched, and, on Linux with process.execve, that `hci mcp` really
// replaces its own process (same pid, nothing left behind) with MALLOC_ARENA_MAX=2 and then serves
// as usual (real child process, the SDK client after listTools, the kernel's view of its environment).
// @lane cli
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ARENA_CAP, MMAP_THRESHOLD, arenaCapEnv } from '../runtimes/node/malloc-arenas.ts';
import { copySample, ensureBuilt, HCI_BIN, REPO } from './helpers/mcp-harness.ts';

describe('arenaCapEnv: which command lines run again under the cap', () => {
  const env = { PATH: '/usr/bin', HOME: '/home/x', UNSET: undefined };

  it('caps the indexing verbs on Linux, keeping the rest of the environment', () => {
    for (const args of [['index'], ['index', '--full', '.'], ['mcp', '/repo', '--http'], ['--quiet', 'index']]) {
      expect(arenaCapEnv(args, env, 'linux'), args.join(' ')).toEqual({ PATH: '/usr/bin', HOME: '/home/x', MALLOC_ARENA_MAX: ARENA_CAP, MALLOC_MMAP_THRESHOLD_: MMAP_THRESHOLD });
    }
    expect(ARENA_CAP).toBe('2');
    expect(MMAP_THRESHOLD).toBe('131072');
    // A threshold the user set is kept.
    expect(arenaCapEnv(['index'], { ...env, MALLOC_MMAP_THRESHOLD_: '65536' }, 'linux')?.MALLOC_MMAP_THRESHOLD_).toBe('65536');
  });

  it('leaves every other command, platform and a cap the user set alone', () => {
    expect(arenaCapEnv(['search', 'index'], env, 'linux')).toBeNull(); // "index" is the query here
    expect(arenaCapEnv(['status'], env, 'linux')).toBeNull();
    expect(arenaCapEnv([], env, 'linux')).toBeNull();
    expect(arenaCapEnv(['--help'], env, 'linux')).toBeNull();
    expect(arenaCapEnv(['index'], env, 'darwin')).toBeNull();
    expect(arenaCapEnv(['index'], env, 'win32')).toBeNull();
    expect(arenaCapEnv(['index'], { ...env, MALLOC_ARENA_MAX: '8' }, 'linux')).toBeNull();
  });
});

const canExec = process.platform === 'linux' && typeof (process as unknown as { execve?: unknown }).execve === 'function';

describe.skipIf(!canExec)('hci mcp replaces its own process under the cap (Linux, process.execve)', () => {
  const environOf = (pid: number) => new Map(fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));

  const serve = async (extra: Record<string, string>) => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'MALLOC_ARENA_MAX') env[k] = v;
    const ws = copySample('hci-arenas-');
    const transport = new StdioClientTransport({ command: process.execPath, args: [HCI_BIN, 'mcp', ws.root], env: { ...env, ...extra }, cwd: REPO, stderr: 'pipe' });
    const client = new Client({ name: 'hci-arenas-test', version: '1.0.0' });
    await client.connect(transport);
    const tools = await client.listTools();
    return { client, pid: transport.pid!, tools: tools.tools.map((t) => t.name), done: async () => (await client.close(), ws.cleanup()) };
  };

  it('the spawned pid itself runs the server with MALLOC_ARENA_MAX=2', async () => {
    ensureBuilt();
    const s = await serve({});
    try {
      expect(s.tools).toContain('search');
      expect(environOf(s.pid).get('MALLOC_ARENA_MAX')).toBe(ARENA_CAP);
      expect(environOf(s.pid).get('MALLOC_MMAP_THRESHOLD_')).toBe(MMAP_THRESHOLD);
      // The process the client spawned is the server itself (exec'd in place, no parent left beside it).
      expect(fs.readFileSync(`/proc/${s.pid}/cmdline`, 'latin1').split('\0')).toContain('mcp');
    } finally {
      await s.done();
    }
  }, 120_000);

  it('a cap the user set is kept', async () => {
    ensureBuilt();
    const s = await serve({ MALLOC_ARENA_MAX: '4' });
    try {
      expect(s.tools).toContain('search');
      expect(environOf(s.pid).get('MALLOC_ARENA_MAX')).toBe('4');
    } finally {
      await s.done();
    }
  }, 120_000);
});
