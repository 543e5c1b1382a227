// Result files that can be checked: the commit a run was measured at (and whether the work tree had
// uncommitted changes), and, with `--record`, a compact copy of a report under bench/results/ — a
// committed folder, unlike bench-results/ — that the README cites. Owns the file names and what a
// compact copy leaves out (raw samples and per-run task results).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot, writeJson } from './util.ts';

export interface CommitInfo {
  sha: string | null;
  /** Uncommitted changes to tracked files when the run started (the figures may not match `sha`). */
  dirty: boolean | null;
  subject: string | null;
}

export function commitInfo(): CommitInfo {
  const git = (args: string[]) => {
    const r = spawnSync('git', args, { cwd: repoRoot(), encoding: 'utf8' });
    return r.status === 0 ? r.stdout.trim() : null;
  };
  const sha = git(['rev-parse', 'HEAD']);
  const status = git(['status', '--porcelain', '--untracked-files=no']);
  return { sha, dirty: status === null ? null : status.length > 0, subject: git(['log', '-1', '--format=%s']) };
}

export const RECORD_DIR = () => path.join(repoRoot(), 'bench', 'results');

/** Drops raw sample arrays (long) from a report, keeping every summary figure. */
export function compact(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 24 && value.every((x) => typeof x === 'number') ? undefined : value.map(compact);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'runs' || k === 'queries' && Array.isArray(v)) continue; // per-run task results; per-query eval outcomes
      const c = compact(v);
      if (c !== undefined) out[k] = c;
    }
    return out;
  }
  return value;
}

/** Writes bench/results/<name>.json (compact) and .md (the printed tables). */
export function recordResult(name: string, report: unknown, markdown: string): string {
  const base = path.join(RECORD_DIR(), name);
  writeJson(`${base}.json`, compact(report));
  fs.writeFileSync(`${base}.md`, `${markdown}\n`);
  return base;
}
