// Git-style ignore rules: loading a directory's ignore files (.gitignore, .hciignore, …) and
// .git/info/exclude into compiled layers, and deciding whether a path is ignored by a chain of them.
// Walking the tree and pruning ignored directories belong to walker.ts.
import ignore from 'ignore';
import type { Ignore } from 'ignore';
import type { DirEntry, WorkspaceFs } from '../platform.ts';

/** The rules of one directory, matched against paths relative to `base` ('' = workspace root). */
export interface IgnoreLayer {
  base: string;
  ig: Ignore;
}

/** Layers from the shallowest (lowest precedence) to the deepest (highest precedence). */
export type IgnoreChain = readonly IgnoreLayer[];

const MAX_IGNORE_FILE_BYTES = 1024 * 1024;
const decoder = new TextDecoder('utf-8');

interface RuleTester {
  test(path: string, checkUnignored: boolean, mode: string): { ignored: boolean; unignored: boolean };
}

/**
 * Tests one path against one layer without the package's implicit parent-directory check: the walker
 * already pruned ignored parents, and a deeper file may re-include a directory a shallower one
 * excluded (git checks each path against its own patterns only). Falls back to the public API if the
 * package's internals ever change.
 */
function testOne(ig: Ignore, path: string): { ignored: boolean; unignored: boolean } {
  const rules = (ig as unknown as { _rules?: RuleTester })._rules;
  if (rules && typeof rules.test === 'function') return rules.test(path, true, 'regex');
  return ig.test(path);
}

/** Compiles gitignore texts (later texts win over earlier ones) into one matcher; null when empty. */
export function compileIgnore(texts: readonly string[]): Ignore | null {
  const ig = ignore({ ignorecase: false, allowRelativePaths: true });
  let any = false;
  for (const t of texts) {
    const lines = t.split(/\r?\n/).filter((l) => l.trim() !== '' && !l.startsWith('#'));
    if (lines.length) {
      ig.add(lines);
      any = true;
    }
  }
  return any ? ig : null;
}

async function readText(fs: WorkspaceFs, rel: string): Promise<string | null> {
  try {
    return decoder.decode(await fs.readFile(rel, MAX_IGNORE_FILE_BYTES));
  } catch {
    return null;
  }
}

/**
 * Reads the ignore files (names in settings order; later files win) present in a directory listing.
 * Unreadable ignore files are skipped.
 */
export async function loadDirLayer(
  fs: WorkspaceFs,
  dir: string,
  entries: readonly DirEntry[],
  names: readonly string[],
): Promise<IgnoreLayer | null> {
  const texts: string[] = [];
  for (const name of names) {
    const e = entries.find((x) => x.name === name);
    if (!e || e.kind === 'dir') continue;
    const t = await readText(fs, dir === '' ? name : `${dir}/${name}`);
    if (t !== null) texts.push(t);
  }
  const ig = texts.length ? compileIgnore(texts) : null;
  return ig ? { base: dir, ig } : null;
}

/** `.git/info/exclude` at the workspace root, as the lowest-precedence root layer. */
export async function loadInfoExclude(fs: WorkspaceFs): Promise<IgnoreLayer | null> {
  const t = await readText(fs, '.git/info/exclude');
  const ig = t === null ? null : compileIgnore([t]);
  return ig ? { base: '', ig } : null;
}

/**
 * Whether `path` (workspace-relative) is ignored by the chain: the deepest layer with a matching
 * rule decides (a negation there re-includes); within a layer the last matching rule wins.
 */
export function isIgnored(chain: IgnoreChain, path: string, isDir: boolean): boolean {
  for (let i = chain.length - 1; i >= 0; i--) {
    const { base, ig } = chain[i];
    let rel = base === '' ? path : path.slice(base.length + 1);
    if (isDir) rel += '/';
    const r = testOne(ig, rel);
    if (r.ignored) return true;
    if (r.unignored) return false;
  }
  return false;
}
