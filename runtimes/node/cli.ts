// The `hci` command line under Node (bin/hci.js runs the compiled file): the Node side of the shared
// command table (runtimes/cli/) — process streams and signals, node:path and node:fs, cli-progress for
// the progress bar, the Node adapters and, for `hci mcp`, node:http, stdio and the chokidar watcher.
// Owns only this wiring; verbs, flags, help, output and exit codes are runtimes/cli/. What a verb does
// not need is not loaded (see runtimes/cli/commands.ts): cli-progress when a bar is shown, the demo,
// the MCP pieces and the intercom engine when their verbs run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import type { IndexProgress } from '../../core/index/indexer.ts';
import { EXIT } from '../../core/contract/errors.ts';
import { runCli } from '../cli/program.ts';
import { formatProgress, progressCount, tickClock, type ProgressClock } from '../cli/format.ts';
import type { CliRuntime, McpRuntime, ProgressDisplay, SetupIo } from '../cli/runtime.ts';
import { findIndexedRoot, openWorkspace } from './workspace.ts';
import { nodeServiceHost } from './service-host.ts';
import { tuneForShortRun } from './short-run.ts';
import { nodePackTarget } from './pack-target.ts';
export { EXIT };
// bin/hci.js applies it once this module's graph has loaded (runtimes/node/v8-flags.ts says why then).
export { keepYoungGenerationSmall } from './young-generation.ts';
// …and, once the command has run, saves the code cache of the CLI's scripts (code-cache.ts).
export { saveCodeCaches } from './code-cache.ts';
// …and ends a one-question process once its answer is out (short-run.ts).
export { endShortRun } from './short-run.ts';

const require = createRequire(import.meta.url);

/** cli-progress draws and redraws (elapsed time moves between reports too); the line is formatProgress. */
function progressBar(): ProgressDisplay {
  // cli-progress is CommonJS: required here, when a bar is shown, not at start.
  const cliProgress = require('cli-progress') as typeof import('cli-progress');
  let clock: ProgressClock | null = null;
  let last: IndexProgress | null = null;
  const bar = new cliProgress.SingleBar(
    {
      format: (options, params) => formatProgress(last!, clock!, Date.now(), cliProgress.Format.BarFormat(params.progress, options)),
      hideCursor: true, clearOnComplete: true, stream: process.stderr, barsize: 24,
    },
    cliProgress.Presets.shades_classic,
  );
  return {
    update(p: IndexProgress) {
      const first = clock === null;
      clock = tickClock(clock, p, Date.now());
      last = p;
      const { done, total } = progressCount(p);
      if (first) bar.start(Math.max(1, total), done);
      else {
        bar.setTotal(Math.max(1, total));
        bar.update(done);
      }
    },
    stop: () => clock !== null && bar.stop(),
  };
}

function onInterrupt(fn: () => void): () => void {
  process.once('SIGINT', fn);
  process.once('SIGTERM', fn);
  return () => {
    process.off('SIGINT', fn);
    process.off('SIGTERM', fn);
  };
}

/** The server's modules (MCP SDK, zod schemas, chokidar, node:http) load only when `hci mcp` runs. */
async function mcpRuntime(root: string): Promise<McpRuntime> {
  // Open the workspace (WASM engine, index) while the server's modules load: a faster first answer.
  let early: ReturnType<typeof openWorkspace> | null = openWorkspace(root);
  early.catch(() => {}); // a failure (bad settings) is answered by the first tool call
  const [{ nodeMcpHost }, { createNodeRepoSearchPool }] = await Promise.all([import('./mcp/node-host.ts'), import('./repo-search-pool.ts')]);
  return {
    host: nodeMcpHost(),
    open: (r) => {
      const p = early ?? openWorkspace(r);
      early = null;
      return p;
    },
    // Only the transport asked for is loaded (the HTTP one brings node:http and more of the SDK).
    serveStdio: async (svc, o) => (await import('./mcp/stdio.ts')).serveStdio(svc, o),
    serveHttp: async (svc, o) => (await import('./mcp/http.ts')).serveHttp(svc, o),
    // Each repository of `hci mcp A B` searched on a worker thread (a long-lived server: their start pays off).
    repoSearchPool: (roots) => createNodeRepoSearchPool({ open: { persistQueries: true } })(roots),
    waitForSignal: () => new Promise((resolve) => {
      const off = onInterrupt(() => {
        off();
        resolve();
      });
    }),
    logUnhandledRejections: (log) => process.on('unhandledRejection', (e) => log(`unhandled rejection: ${(e as Error)?.stack ?? e}`)),
    // Whatever a library left running (a watcher handle, a socket), the server is done.
    finished: () => setTimeout(() => process.exit(), 1500).unref(),
    log: (msg) => process.stderr.write(`hci mcp: ${msg}\n`),
  };
}

/** A path's stat, or null when it names nothing usable (missing, too long, a symlink loop, not readable). */
function statOf(p: string): fs.Stats | null {
  try {
    return fs.statSync(p, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

const isTerminal = (s: NodeJS.WriteStream) => s.isTTY === true;

/** `hci setup`'s files, and this hci as a host starts it: this Node and the real path of bin/hci.js (through an npm link or a global install's symlink). */
const setupIo: SetupIo = {
  // node:os and node:url load only when setup runs (an ES import of a builtin costs every start: bin/hci.js).
  home: () => process.getBuiltinModule('node:os').homedir(),
  join: (...parts) => path.join(...parts),
  read: (p) => (statOf(p)?.isFile() ? fs.readFileSync(p, 'utf8') : null),
  write: (p, text) => {
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  },
  remove: (p, stopAt) => {
    fs.rmSync(p, { force: true });
    for (let dir = path.dirname(p); dir.startsWith(stopAt + path.sep) && dir !== stopAt; dir = path.dirname(dir)) {
      try {
        fs.rmdirSync(dir); // only when empty
      } catch {
        break;
      }
    }
  },
  hci: () => {
    const entry = process.argv[1] ? fs.realpathSync(process.argv[1]) : process.getBuiltinModule('node:url').fileURLToPath(new URL('../../../bin/hci.js', import.meta.url));
    return { command: process.execPath, args: [entry] };
  },
};

export const nodeCliRuntime: CliRuntime = {
  name: 'Node',
  write: (stream, text) => void (stream === 'out' ? process.stdout : process.stderr).write(text),
  columns: (stream) => {
    const s = stream === 'out' ? process.stdout : process.stderr;
    return isTerminal(s) ? s.columns : undefined;
  },
  color: isTerminal(process.stdout) && !process.env.NO_COLOR,
  stderrIsTerminal: isTerminal(process.stderr),
  cwd: () => process.cwd(),
  env: (name) => process.env[name],
  resolve: (...segments) => path.resolve(...segments),
  dirname: (p) => path.dirname(p),
  isDirectory: (p) => statOf(p)?.isDirectory() === true,
  isFile: (p) => statOf(p)?.isFile() === true,
  findIndexedRoot,
  serviceHost: (open) => nodeServiceHost(open),
  shortRun: tuneForShortRun,
  onInterrupt,
  progress: progressBar,
  missingRootHint: 'pass an existing folder: hci mcp /path/to/repo',
  mcp: mcpRuntime,
  packTarget: nodePackTarget,
  demo: async (root) => (await import('./demo.ts')).runDemo(root),
  setup: setupIo,
};

export function main(argv: string[]): Promise<number> {
  return runCli(argv, nodeCliRuntime);
}
