// The broad tuning set's query files (bench/golden/<Repo>.jsonl) as data: their row shape (hci's
// GoldenQuery plus the record of how each row was made), the kinds, and the checks every row must pass
// against the pinned commit of its repository (paths in the tree, evidence in the file, the declaration
// on its line, the source commit touching the file). Owns those rules; the manifest and mirrors are
// bench/lib/corpora.ts, metrics are bench/lib/metrics.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { listTree, type CorpusEntry } from './corpora.ts';
import type { GoldenQuery } from './queries.ts';

/**
 * commit: a commit subject (SWE-bench-style localisation), relevant = the non-test files it changed.
 * architecture: where is X configured / how is Y wired. behaviour: what happens when …
 * symbol: a type or member name as people write it (maybe without the library's prefix).
 * paraphrase: behaviour in words that share no identifier with the target (the semantic channel).
 */
export const BROAD_KINDS = ['commit', 'architecture', 'behaviour', 'symbol', 'paraphrase'] as const;
export type BroadKind = (typeof BROAD_KINDS)[number];

export interface Declaration {
  /** The declaring file (one of `relevant`). */
  path: string;
  /** 1-based line of the declaration. */
  line: number;
  /** The declared name (may differ from the query: `FAContentDialog` for "ContentDialog"). */
  symbol: string;
  /** type: class/struct/interface/record/enum/delegate or a TS class/interface/type/component; member: method, property, function, constant. */
  of: 'type' | 'member';
  /** Text that is on that line (checked). */
  text: string;
}

export interface BroadQuery extends GoldenQuery {
  id: string;
  kind: BroadKind;
  /** Hand-written kinds: for every relevant file, a substring of it at the pinned commit (the record of having opened it). */
  evidence?: Record<string, string>;
  /** Commit kind: the commit the subject comes from (it changed every relevant file). */
  source_commit?: string;
  /** Symbol kind: where the name is declared; `declaration@1` = the first hit's range holds this line. */
  declaration?: Declaration;
}

export function readBroadSet(file: string): BroadQuery[] {
  return fs.readFileSync(file, 'utf8').split('\n').map((l, i) => [l.trim(), i + 1] as const).filter(([l]) => l).map(([l, n]) => {
    try {
      return JSON.parse(l) as BroadQuery;
    } catch (e) {
      throw new Error(`${file}:${n}: not valid JSON (${(e as Error).message})`);
    }
  });
}

/** Shape problems of one set, without git: ids, kinds, relevant lists, evidence and declaration fields. */
export function shapeErrors(rows: readonly BroadQuery[], repo: string): string[] {
  const errors: string[] = [];
  const ids = new Set<string>();
  const texts = new Set<string>();
  for (const [i, r] of rows.entries()) {
    const at = `${repo} row ${i + 1} (${r.id ?? '?'})`;
    if (typeof r.id !== 'string' || !r.id.startsWith(`${repo}-`)) errors.push(`${at}: id must start with "${repo}-"`);
    else if (ids.has(r.id)) errors.push(`${at}: duplicate id`);
    ids.add(r.id);
    if (typeof r.query !== 'string' || !r.query.trim()) errors.push(`${at}: no query`);
    else if (texts.has(r.query.trim().toLowerCase())) errors.push(`${at}: duplicate query text "${r.query}"`);
    else texts.add(r.query.trim().toLowerCase());
    if (!(BROAD_KINDS as readonly string[]).includes(r.kind)) errors.push(`${at}: kind "${r.kind}" is not one of ${BROAD_KINDS.join(', ')}`);
    if (!Array.isArray(r.relevant) || r.relevant.length < 1 || r.relevant.length > 4) errors.push(`${at}: 1-4 relevant files needed`);
    else if (new Set(r.relevant).size !== r.relevant.length) errors.push(`${at}: a relevant file is listed twice`);
    else if (r.relevant.some((p) => typeof p !== 'string' || p.startsWith('/') || p.includes('\\') || p.split('/').includes('..'))) errors.push(`${at}: relevant paths are repository-relative with forward slashes`);
    if (r.kind === 'commit') {
      if (!/^[0-9a-f]{40}$/.test(r.source_commit ?? '')) errors.push(`${at}: a commit query needs source_commit (40 hex)`);
    } else {
      const ev = r.evidence ?? {};
      for (const p of r.relevant ?? []) if (typeof ev[p] !== 'string' || !ev[p]) errors.push(`${at}: no evidence for ${p}`);
      for (const p of Object.keys(ev)) if (!r.relevant?.includes(p)) errors.push(`${at}: evidence for ${p}, which is not relevant`);
    }
    if (r.kind === 'symbol' && !r.declaration) errors.push(`${at}: a symbol query needs its declaration`);
    if (r.declaration) {
      const d = r.declaration;
      if (!r.relevant?.includes(d.path)) errors.push(`${at}: the declaration's file ${d.path} is not relevant`);
      if (!Number.isInteger(d.line) || d.line < 1) errors.push(`${at}: declaration.line must be a 1-based line`);
      if (d.of !== 'type' && d.of !== 'member') errors.push(`${at}: declaration.of must be type or member`);
      if (!d.symbol || !d.text || !d.text.includes(d.symbol)) errors.push(`${at}: declaration.text must hold declaration.symbol`);
    }
  }
  return errors;
}

function gitShow(gitDir: string, spec: string): Buffer | null {
  const r = spawnSync('git', ['--git-dir', gitDir, 'show', spec], { maxBuffer: 1 << 28 });
  return r.status === 0 ? r.stdout : null;
}

/** The files a commit changed (name-only, renames off), or null when it is not in the mirror. */
function changedBy(gitDir: string, sha: string): Set<string> | null {
  const r = spawnSync('git', ['--git-dir', gitDir, 'show', '--no-renames', '--name-only', '--format=', sha], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return r.status === 0 ? new Set(r.stdout.split('\n').filter(Boolean)) : null;
}

function isAncestor(gitDir: string, a: string, b: string): boolean {
  return spawnSync('git', ['--git-dir', gitDir, 'merge-base', '--is-ancestor', a, b]).status === 0;
}

/**
 * Every check against the pinned commit: relevant paths are in its tree (and, given a corpus folder,
 * on disk there); hand-written evidence occurs in its file; a declaration's text is on its line; a
 * commit query's source commit is an ancestor of the pin and changed every relevant file.
 */
export function pinnedErrors(rows: readonly BroadQuery[], entry: CorpusEntry, gitDir: string, corpusDir?: string): string[] {
  const errors: string[] = [];
  const tree = new Set(listTree(gitDir, entry.commit).map((t) => t.path));
  const blobs = new Map<string, Buffer | null>();
  const blob = (p: string) => {
    if (!blobs.has(p)) blobs.set(p, gitShow(gitDir, `${entry.commit}:${p}`));
    return blobs.get(p) ?? null;
  };
  for (const r of rows) {
    const at = `${entry.name} ${r.id}`;
    for (const p of r.relevant) {
      if (!tree.has(p)) errors.push(`${at}: ${p} is not in the tree at ${entry.commit.slice(0, 12)}`);
      else if (corpusDir && !fs.existsSync(path.join(corpusDir, p))) errors.push(`${at}: ${p} is missing from ${corpusDir}`);
    }
    for (const [p, needle] of Object.entries(r.evidence ?? {})) {
      const b = tree.has(p) ? blob(p) : null;
      if (b && !b.includes(Buffer.from(needle, 'utf8'))) errors.push(`${at}: evidence ${JSON.stringify(needle)} is not in ${p}`);
    }
    if (r.declaration && tree.has(r.declaration.path)) {
      const lines = (blob(r.declaration.path) ?? Buffer.alloc(0)).toString('utf8').split('\n');
      const line = lines[r.declaration.line - 1] ?? '';
      if (!line.includes(r.declaration.text)) {
        const found = lines.findIndex((l) => l.includes(r.declaration!.text));
        errors.push(`${at}: line ${r.declaration.line} of ${r.declaration.path} does not hold ${JSON.stringify(r.declaration.text)}${found >= 0 ? ` (line ${found + 1} does)` : ''}`);
      }
    }
    if (r.kind === 'commit' && r.source_commit) {
      const changed = changedBy(gitDir, r.source_commit);
      if (!changed) errors.push(`${at}: source commit ${r.source_commit} is not in the mirror`);
      else {
        if (!isAncestor(gitDir, r.source_commit, entry.commit)) errors.push(`${at}: source commit ${r.source_commit} is not an ancestor of the pin`);
        for (const p of r.relevant) if (!changed.has(p)) errors.push(`${at}: source commit ${r.source_commit.slice(0, 10)} did not change ${p}`);
      }
    }
  }
  return errors;
}

export interface SetCounts { total: number; byKind: Record<string, number>; typeNames: number }

export function countSet(rows: readonly BroadQuery[]): SetCounts {
  const byKind: Record<string, number> = {};
  for (const r of rows) byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
  return { total: rows.length, byKind, typeNames: rows.filter((r) => r.declaration?.of === 'type').length };
}
