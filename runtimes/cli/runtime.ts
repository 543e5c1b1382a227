// What a runtime gives the `hci` command line (runtimes/node/cli.ts, runtimes/deno/cli.ts): output
// streams, the terminal's abilities, the working folder, path arithmetic, signals, a progress display,
// its service host, and the MCP server pieces (loaded only when `hci mcp` runs). Owns the interface
// only; the commands are runtimes/cli/commands.ts, and nothing in runtimes/cli touches a platform API.
import type { HciWorkspace, OpenOptions } from '../../core/workspace.ts';
import type { IndexProgress } from '../../core/index/indexer.ts';
import type { VerbService, ServiceHost, RepoSearchPool } from '../../core/service/index.ts';
import type { McpServerOptions } from '../mcp/server.ts';
import type { EndpointOptions } from '../mcp/http-endpoint.ts';
import type { PackTarget } from '../../core/index/pack.ts';

export interface ProgressDisplay {
  update(p: IndexProgress): void;
  stop(): void;
}

export interface CliRuntime {
  /** "Node" or "Deno". */
  readonly name: string;
  write(stream: 'out' | 'err', text: string): void;
  /** Terminal width for help text (undefined: not a terminal). */
  columns(stream: 'out' | 'err'): number | undefined;
  /** Whether stdout takes ANSI colours (a terminal, NO_COLOR unset). */
  readonly color: boolean;
  /** Whether stderr is a terminal (a progress display is shown there). */
  readonly stderrIsTerminal: boolean;
  cwd(): string;
  /** An environment variable (undefined when unset or not permitted). */
  env(name: string): string | undefined;
  /** An absolute path, like node:path's resolve (against the working folder). */
  resolve(...segments: string[]): string;
  dirname(p: string): string;
  isDirectory(p: string): boolean;
  isFile(p: string): boolean;
  /** The nearest folder at or above `from` that holds an hci index, or null. */
  findIndexedRoot(from: string): string | null;
  /** The service host for one-shot commands (no watcher). */
  serviceHost(open: OpenOptions): ServiceHost;
  /**
   * This process will ask one question and exit (search, explain, status, outline…), and has not
   * loaded its engine yet: a runtime may tune itself for a short run (Node: no optimising compile
   * of the SQLite WebAssembly, see runtimes/node/short-run.ts).
   */
  shortRun?(): void;
  /** Calls fn on SIGINT/SIGTERM until the returned function is called. */
  onInterrupt(fn: () => void): () => void;
  /** A progress display for indexing runs, on stderr. */
  progress(): ProgressDisplay;
  /** More advice for an error this runtime knows more about (Deno: a lock holder it could not check). */
  advice?(code: string): string | null;
  /** What to tell a user whose workspace folder is missing. */
  readonly missingRootHint: string;
  /** The MCP server pieces of this runtime, for `hci mcp <root>` (loaded on demand). */
  mcp(root: string): Promise<McpRuntime>;
  /** Where `hci pack --out <file>` writes (the file, its scratch copy, the manifest beside it). */
  packTarget(out: string): PackTarget;
  /** `hci demo` (Node only: it needs the bundled sample workspace). */
  demo?(root: string | undefined): Promise<void>;
  /** `hci setup` (Node): the files it reads and writes, and how this hci is started. */
  setup?: SetupIo;
}

/** What `hci setup` needs of a runtime: the user's home, files to read and write, and this hci's own command. */
export interface SetupIo {
  home(): string;
  join(...parts: string[]): string;
  /** A file's text, or null when there is none. */
  read(p: string): string | null;
  /** Writes a file, making its folders. */
  write(p: string, text: string): void;
  /** Removes a file, then its folders while they are empty, up to (not including) `stopAt`. */
  remove(p: string, stopAt: string): void;
  /** The absolute command and arguments that start this hci (`hci` itself: node and its bin/hci.js). */
  hci(): { command: string; args: string[] };
}

/** How a runtime serves MCP: its host (with a watcher where it has one), transports and lifetime. */
export interface McpRuntime {
  host: ServiceHost;
  /** A workspace already being opened while the server's modules loaded (a faster first answer). */
  open?: (root: string) => Promise<HciWorkspace>;
  serveStdio(svc: VerbService, opts: McpServerOptions): Promise<void>;
  serveHttp(svc: VerbService, opts: EndpointOptions): Promise<{ url: string; close(): Promise<void> }>;
  /** Searches several repositories in parallel, each on a thread of its own (`hci mcp A B`; absent: one after the other on this thread). */
  repoSearchPool?: RepoSearchPool;
  /** Resolves on SIGINT or SIGTERM. */
  waitForSignal(): Promise<void>;
  /** Keeps a stray rejection in a library from taking the server down. */
  logUnhandledRejections(log: (msg: string) => void): void;
  /** The server is done: whatever a library left running must not keep the process alive. */
  finished(): void;
  log(msg: string): void;
}
