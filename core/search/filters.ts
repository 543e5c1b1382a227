// Path filters for search: prefixes, globs and extensions, compiled into one predicate (the same
// function again for a spec among the last few compiled: a pure function of the spec, shared). Owns the filter semantics (text without glob characters is a path prefix; anything with glob
// characters is a picomatch glob over the workspace-relative path). picomatch loads on first use
// (prepareGlobs, which every entry point awaits before it compiles a filter): most searches name no
// glob, and a browser Worker starts without it.
import { HciError } from '../platform.ts';
import { isGeneratedPath, isTestPath } from '../scan/roles.ts';

export interface PathFilterSpec {
  paths?: string[];
  exts?: string[];
  excludePaths?: string[];
  /** Leave out test files and/or generated files (the scanner's path heuristics). */
  excludeKinds?: Array<'test' | 'generated'>;
}

/** Whether a workspace-relative path passes the request's filters. */
/** Whether a path passes; `key`: the spec it was compiled from (compilePathFilter), the same for the same spec. */
export type PathFilter = ((path: string) => boolean) & { readonly key?: string };

const GLOB_CHARS = /[*?[\]{}()!]/;

type GlobMatcher = (pattern: string, opts: { dot: boolean }) => (path: string) => boolean;
let picomatch: GlobMatcher | undefined;

/** Loads the glob matcher when one of `patterns` is a glob (once per process); compilePathFilter needs it then. */
export async function prepareGlobs(patterns: ReadonlyArray<string | undefined>): Promise<void> {
  if (!picomatch && patterns.some((p) => p !== undefined && GLOB_CHARS.test(p))) picomatch = (await import('picomatch/posix.js')).default;
}

/** prepareGlobs for a request's path filters and those its query wrote (`parsed`: absent when it did not parse). */
export function prepareRequestGlobs(req: { paths?: readonly string[]; exclude_paths?: readonly string[] }, parsed?: { paths: readonly string[]; excludePaths: readonly string[] }): Promise<void> {
  return prepareGlobs([...(req.paths ?? []), ...(req.exclude_paths ?? []), ...(parsed?.paths ?? []), ...(parsed?.excludePaths ?? [])]);
}

function normalize(p: string, backslashes: 'literal' | 'separators'): string {
  const t = p.trim();
  return (backslashes === 'separators' ? t.replace(/\\/g, '/') : t).replace(/^\.\//, '').replace(/^\/+/, '');
}

/**
 * A pattern with `\` matches either reading: as a name character (POSIX file names may hold it)
 * or as a separator (a Windows habit). A filter names a set, so matching both is safe.
 */
function compileOne(pattern: string): (path: string) => boolean {
  const separators = compileReading(pattern, 'separators');
  if (!pattern.includes('\\')) return separators;
  const literal = compileReading(pattern, 'literal');
  return (path) => literal(path) || separators(path);
}

function compileReading(pattern: string, backslashes: 'literal' | 'separators'): (path: string) => boolean {
  const p = normalize(pattern, backslashes);
  if (p.split('/').includes('..')) {
    throw new HciError('path_outside_workspace', `path filter "${pattern}" leaves the workspace`, 'use a workspace-relative path or glob');
  }
  if (!p) return () => true;
  if (GLOB_CHARS.test(p)) {
    if (!picomatch) throw new HciError('internal', `path filter "${pattern}" compiled before its glob matcher was loaded`, 'await prepareGlobs(patterns) before compilePathFilter');
    const isMatch = picomatch(p, { dot: true });
    // A glob without a slash matches file names anywhere, like .gitignore patterns do.
    if (!p.includes('/')) return (path) => isMatch(path) || isMatch(path.slice(path.lastIndexOf('/') + 1));
    return isMatch;
  }
  return (path) => path.startsWith(p);
}

/** Filters compiled lately, by spec: a repeated search gets the very same function (SearchSession keys what it did under a filter by it). */
const compiled = new Map<string, PathFilter | null>();
const COMPILED_KEPT = 32;

/**
 * Returns null when the spec filters nothing (so the SQL can skip the filter call). The same function
 * for the same spec while it is among the last COMPILED_KEPT; its `key` names the spec for good (what
 * a session keeps per filter is keyed by it).
 */
export function compilePathFilter(spec: PathFilterSpec): PathFilter | null {
  const key = JSON.stringify([spec.paths ?? [], spec.excludePaths ?? [], spec.exts ?? [], spec.excludeKinds ?? []]);
  if (compiled.has(key)) return compiled.get(key)!;
  const made = compileSpec(spec);
  const filter = made && Object.assign(made, { key });
  if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, filter);
  return filter;
}

function compileSpec(spec: PathFilterSpec): PathFilter | null {
  const includes = (spec.paths ?? []).filter((s) => s.trim()).map(compileOne);
  const excludes = (spec.excludePaths ?? []).filter((s) => s.trim()).map(compileOne);
  const exts = (spec.exts ?? [])
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean)
    .map((e) => (e.startsWith('.') ? e : `.${e}`));
  const kinds = new Set(spec.excludeKinds ?? []);
  if (kinds.has('test')) excludes.push(isTestPath);
  if (kinds.has('generated')) excludes.push(isGeneratedPath);
  if (!includes.length && !excludes.length && !exts.length) return null;
  return (path: string) => {
    if (includes.length && !includes.some((f) => f(path))) return false;
    if (excludes.some((f) => f(path))) return false;
    if (exts.length) {
      const lower = path.toLowerCase();
      if (!exts.some((e) => lower.endsWith(e))) return false;
    }
    return true;
  };
}
