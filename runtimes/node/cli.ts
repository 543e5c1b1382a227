// The `hci` command line under Node (bin/hci.js runs the compiled file): the Node side of the shared
// command table (runtimes/cli/) — process streams and signals, node:path and node:fs, cli-progress for
// the progress bar, the Node adapters and, for `hci mcp`, node:http, stdio and the chokidar watcher.
// Owns only this wiring; verbs, flags, help, output and exit codes are runtimes/cli/.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import cliProgress from 'cli-progress';
import type { IndexProgress } from '../../core/index/indexer.ts';
import { EXIT } from '../../core/contract/errors.ts';
import { runCli } from '../cli/program.ts';
import { formatProgress, tickClock, type ProgressClock } from '../cli/format.ts';
import type { CliRuntime, McpRuntime, ProgressDisplay } from '../cli/runtime.ts';
import { findIndexedRoot, openWorkspace } from './index.ts';
import { nodeServiceHost } from './service-host.ts';
import { runDemo } from './demo.ts';
export { EXIT };

/** cli-progress draws and redraws (elapsed time moves between reports too); the line is formatProgress. */
function progressBar(): ProgressDisplay {
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
      if (first) bar.start(Math.max(1, p.filesTotal), p.filesDone);
      else {
        bar.setTotal(Math.max(1, p.filesTotal));
        bar.update(p.filesDone);
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

/** The package version, from the nearest package.json above this module (source or dist). */
function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'hci' && pkg.version) return pkg.version;
    } catch {
      // keep looking
    }
    dir = path.dirname(dir);
  }
  return '0.0.0';
}

/** The server's modules (MCP SDK, zod schemas, chokidar, node:http) load only when `hci mcp` runs. */
async function mcpRuntime(root: string): Promise<McpRuntime> {
  // Open the workspace (WASM engine, index) while the server's modules load: a faster first answer.
  let early: ReturnType<typeof openWorkspace> | null = openWorkspace(root);
  early.catch(() => {}); // a failure (bad settings) is answered by the first tool call
  const [{ serveStdio }, { serveHttp }, { nodeMcpHost }] = await Promise.all([import('./mcp/stdio.ts'), import('./mcp/http.ts'), import('./mcp/node-host.ts')]);
  return {
    host: nodeMcpHost(),
    version: packageVersion(),
    open: (r) => {
      const p = early ?? openWorkspace(r);
      early = null;
      return p;
    },
    serveStdio,
    serveHttp,
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

const isTerminal = (s: NodeJS.WriteStream) => s.isTTY === true;

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
  isDirectory: (p) => fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() === true,
  isFile: (p) => fs.statSync(p, { throwIfNoEntry: false })?.isFile() === true,
  findIndexedRoot,
  serviceHost: (open) => nodeServiceHost(open),
  onInterrupt,
  progress: progressBar,
  missingRootHint: 'pass an existing folder: hci mcp /path/to/repo',
  mcp: mcpRuntime,
  demo: runDemo,
};

export function main(argv: string[]): Promise<number> {
  return runCli(argv, nodeCliRuntime);
}
