// Caps glibc's malloc arenas for the commands that index (`hci index`, the MCP server, which indexes
// and watches): bin/hci.js calls relaunchWithArenaCap first thing, and on Linux such a command
// replaces its own process (process.execve: same pid, same stdio, nothing left behind) with the same
// command under MALLOC_ARENA_MAX=2. Owns that decision and the exec; which verbs index is the CLI's
// (runtimes/cli), named here by the verb words only.
//
// Why: glibc gives every thread that calls malloc an arena of its own (up to 8 per core), and keeps
// what it freed there. A cold pass has many such threads: the parse worker's isolate, V8's GC helper
// threads, libuv's pool (the scan's readdir/stat). Over AvaloniaUI/Avalonia (4,831 files, 41k chunks,
// Node 24, 2 cores) the arenas other than the main one held 25-35 MB of the pass's peak RSS (/proc
// smaps: five anonymous 64 MB-aligned mappings of 5-10 MB each): `hci index` peaked at 252-271 MB by
// default, 231 MB with MALLOC_ARENA_MAX=2 and 238 MB with 1, with the same CPU time. glibc reads the
// variable only when a process starts, hence the exec. A user's own MALLOC_ARENA_MAX is kept; other
// C libraries (musl, macOS) ignore the variable, and other platforms are not relaunched. A Node
// without process.execve (before 22.15 / 23.11) runs as it is: a child process instead would leave
// this one resident beside it, costing more than the arenas.
// The same relaunch fixes glibc's mmap threshold (MALLOC_MMAP_THRESHOLD_): by default it rises to the
// largest block freed so far (up to 32 MB), so after the first large file buffers, every later one
// of that size comes from an arena, whose freed pages stay resident. Fixed at 128 KiB, blocks above it
// are mapped and unmapped: an in-process cold index of AvaloniaUI/Avalonia peaked at 261.8 and 260.7 MB
// without, 234.4 and 244.0 MB with it, the same CPU (two alternated pairs, load 11-18:
// bench/results/mmap-threshold-avalonia-ab.md).

/** The arena cap an indexing command runs with (measured above: 2 beat 1). */
export const ARENA_CAP = '2';

/** glibc's mmap threshold an indexing command runs with (bytes; its default before it adapts). */
export const MMAP_THRESHOLD = '131072';

/** The CLI verbs that index a workspace: long passes with several threads allocating. */
export const INDEXING_VERBS: ReadonlySet<string> = new Set(['index', 'mcp']);

/** The command's verb: its first argument that is not an option. */
function verbOf(args: readonly string[]): string | undefined {
  return args.find((a) => !a.startsWith('-'));
}

/**
 * The environment to run `args` (the CLI's arguments, after the script) again with (the arena cap and
 * the mmap threshold, a threshold the user set kept), or null when it runs as it is: not Linux,
 * MALLOC_ARENA_MAX already set (by the user, or by this relaunch), or a verb that does not index.
 */
export function arenaCapEnv(args: readonly string[], env: Readonly<Record<string, string | undefined>>, platform: string): Record<string, string> | null {
  if (platform !== 'linux' || env.MALLOC_ARENA_MAX !== undefined) return null;
  const verb = verbOf(args);
  if (verb === undefined || !INDEXING_VERBS.has(verb)) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  out.MALLOC_ARENA_MAX = ARENA_CAP;
  out.MALLOC_MMAP_THRESHOLD_ ??= MMAP_THRESHOLD;
  return out;
}

type Execve = (file: string, args: readonly string[], env: Record<string, string>) => never;

/**
 * Replaces this process with the same command under the arena cap when arenaCapEnv says so (does
 * not return then); otherwise returns and the command runs here. Call it before anything is
 * written to stdout or stderr.
 */
export function relaunchWithArenaCap(): void {
  const execve = (process as unknown as { execve?: Execve }).execve;
  if (typeof execve !== 'function') return;
  const env = arenaCapEnv(process.argv.slice(2), process.env, process.platform);
  if (!env) return;
  execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], env);
}
