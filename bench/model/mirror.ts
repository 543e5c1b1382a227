// Reading a pinned commit of a bare git mirror for the code-model trainer: the tree's blobs (path,
// size, object id), blob contents in one `git cat-file --batch` run, the licence check against the
// manifest, and the commit log with each commit's changed lines. Everything comes from the commit
// the manifest pins, so the same mirror gives the same bytes on every machine. Owns only git I/O;
// what is kept of it is extract.ts's.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256Hex } from '../../core/index/sha256.ts';

export interface TreeEntry {
  path: string;
  size: number;
  oid: string;
}

/** `<root>/<owner>+<name>/repo`: the layout the mirror tool writes. */
export function mirrorDir(root: string, repo: string): string {
  return path.join(root, repo.replace('/', '+'), 'repo');
}

function git(dir: string, args: string[], input?: string | Buffer, maxBuffer = 1 << 30): Buffer {
  const r = spawnSync('git', ['-C', dir, ...args], { input, maxBuffer, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' } });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} in ${dir}: ${r.stderr.toString().trim()}`);
  return r.stdout;
}

export function hasCommit(dir: string, commit: string): boolean {
  if (!fs.existsSync(dir)) return false;
  const r = spawnSync('git', ['-C', dir, 'cat-file', '-e', `${commit}^{commit}`]);
  return r.status === 0;
}

/** Every blob of the commit's tree (symlinks and submodules left out), in path order. */
export function listTree(dir: string, commit: string): TreeEntry[] {
  const out = git(dir, ['ls-tree', '-r', '-l', '-z', commit]).toString('utf8');
  const entries: TreeEntry[] = [];
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, type, oid, size] = rec.slice(0, tab).split(/\s+/);
    if (type !== 'blob' || mode === '120000') continue;
    entries.push({ path: rec.slice(tab + 1), size: Number(size), oid });
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return entries;
}

/** The blobs' bytes, in the order asked (one `git cat-file --batch`); null for a blob the mirror lacks. */
export function readBlobs(dir: string, oids: readonly string[]): Array<Buffer | null> {
  if (!oids.length) return [];
  const out = git(dir, ['cat-file', '--batch'], `${oids.join('\n')}\n`);
  const blobs: Array<Buffer | null> = [];
  let at = 0;
  for (const oid of oids) {
    const nl = out.indexOf(10, at);
    const head = out.subarray(at, nl).toString('latin1');
    const [got, type, size] = head.split(' ');
    if (got !== oid) throw new Error(`git cat-file: asked for ${oid}, got ${head}`);
    if (type === 'missing') {
      blobs.push(null);
      at = nl + 1;
      continue;
    }
    const n = Number(size);
    blobs.push(out.subarray(nl + 1, nl + 1 + n));
    at = nl + 1 + n + 1;
  }
  return blobs;
}

export function readBlobAt(dir: string, commit: string, file: string): Buffer | null {
  const r = spawnSync('git', ['-C', dir, 'show', `${commit}:${file}`], { maxBuffer: 1 << 26 });
  return r.status === 0 ? r.stdout : null;
}

export type Licence = 'MIT' | 'Apache-2.0' | 'BSD-2-Clause' | 'BSD-3-Clause';
export const PERMISSIVE: readonly Licence[] = ['MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause'];

/** What a licence text says it is (null: none of the permissive licences the trainer accepts). */
export function classifyLicence(text: string): Licence | null {
  const t = text.replace(/\s+/g, ' ');
  if (/GNU (LESSER |AFFERO )?GENERAL PUBLIC LICENSE|Mozilla Public License|Creative Commons|Attribution 4\.0|Business Source|Commons Clause/i.test(t)) return null;
  if (/Apache License,? Version 2\.0|Apache License Version 2\.0|apache\.org\/licenses\/LICENSE-2\.0/i.test(t)) return 'Apache-2.0';
  if (/Permission is hereby granted, free of charge, to any person obtaining a copy/i.test(t)) return 'MIT';
  if (/Redistribution and use in source and binary forms/i.test(t)) {
    return /Neither the name|endorse or promote products/i.test(t) ? 'BSD-3-Clause' : 'BSD-2-Clause';
  }
  return null;
}

export interface LicenceCheck {
  ok: boolean;
  found: Licence | null;
  sha256: string | null;
  reason: string | null;
}

/** The manifest's licence claim checked against the licence file at the pinned commit. */
export function checkLicence(dir: string, commit: string, file: string, claimed: string, sha?: string): LicenceCheck {
  const bytes = readBlobAt(dir, commit, file);
  if (!bytes) return { ok: false, found: null, sha256: null, reason: `${file} does not exist at ${commit}` };
  const digest = sha256Hex(new Uint8Array(bytes));
  const found = classifyLicence(bytes.toString('utf8'));
  if (!found) return { ok: false, found, sha256: digest, reason: `${file} is not one of ${PERMISSIVE.join(', ')}` };
  if (found !== claimed) return { ok: false, found, sha256: digest, reason: `${file} reads as ${found}, the manifest says ${claimed}` };
  if (sha && sha !== digest) return { ok: false, found, sha256: digest, reason: `${file} changed (sha256 ${digest.slice(0, 12)}…, the manifest has ${sha.slice(0, 12)}…)` };
  return { ok: true, found, sha256: digest, reason: null };
}

export interface CommitChange {
  subject: string;
  /** The changed lines (added and removed, without the +/- mark) of the files kept. */
  lines: string[];
}

/** Which commits a pair extractor reads: the newest `max` non-merge commits that change 1…maxFiles of the pathspecs' files, all blobs present, at most maxBlobBytes in all. */
export interface CommitPick { max: number; maxFiles: number; maxBlobBytes: number; pathspecs: readonly string[] }

/** The picked commits (hash and subject), newest first: the log with raw changes, then one batch check sizes their blobs. */
export function pickCommits(dir: string, commit: string, o: CommitPick): Array<{ hash: string; subject: string }> {
  const log = git(dir, ['log', '--no-merges', '--no-renames', '-n', String(o.max * 4), '--format=%x00%H %s', '--raw', '--no-abbrev', commit, '--', ...o.pathspecs]).toString('utf8');
  const zero = /^0+$/;
  const candidates: Array<{ hash: string; subject: string; oids: string[] }> = [];
  for (const rec of log.split('\0')) {
    if (!rec) continue;
    const lines = rec.split('\n');
    const head = lines[0];
    const sp = head.indexOf(' ');
    const raw = lines.slice(1).filter((l) => l.startsWith(':'));
    if (raw.length === 0 || raw.length > o.maxFiles) continue;
    const oids: string[] = [];
    for (const r of raw) {
      const [, , a, b] = r.split('\t')[0].split(' ');
      if (a && !zero.test(a)) oids.push(a);
      if (b && !zero.test(b)) oids.push(b);
    }
    candidates.push({ hash: head.slice(0, sp), subject: head.slice(sp + 1), oids });
  }
  const all = [...new Set(candidates.flatMap((c) => c.oids))];
  const size = new Map<string, number>();
  if (all.length) {
    const check = git(dir, ['cat-file', '--batch-check'], `${all.join('\n')}\n`).toString('utf8');
    for (const line of check.split('\n')) {
      const [oid, type, n] = line.split(' ');
      if (oid && type !== 'missing') size.set(oid, Number(n));
    }
  }
  const picked: Array<{ hash: string; subject: string }> = [];
  for (const c of candidates) {
    if (picked.length >= o.max) break;
    let bytes = 0;
    let ok = true;
    for (const oid of c.oids) {
      const n = size.get(oid);
      if (n === undefined) ok = false;
      else bytes += n;
    }
    if (ok && bytes <= o.maxBlobBytes) picked.push({ hash: c.hash, subject: c.subject });
  }
  return picked;
}

/** The picked commits' patches without context (`--unified=0`, full blob ids), split per commit: hash → patch text. */
export function commitPatches(dir: string, hashes: readonly string[], pathspecs: readonly string[]): Map<string, string> {
  const byHash = new Map<string, string>();
  if (!hashes.length) return byHash;
  const patches = git(dir, ['log', '--no-walk=unsorted', '--stdin', '--no-renames', '--full-index', '--format=%x00%x01%H', '--unified=0', '--no-color', '-p', '--', ...pathspecs], `${hashes.join('\n')}\n`).toString('utf8');
  for (const rec of patches.split('\0\x01')) {
    if (!rec) continue;
    const nl = rec.indexOf('\n');
    byHash.set((nl < 0 ? rec : rec.slice(0, nl)).trim(), nl < 0 ? '' : rec.slice(nl + 1));
  }
  return byHash;
}

/**
 * The picked commits (pickCommits), each with its subject and its added/removed lines (no context,
 * the +/- mark dropped, at most maxLines).
 */
export function commitChanges(dir: string, commit: string, o: CommitPick & { maxLines: number }): CommitChange[] {
  const picked = pickCommits(dir, commit, o);
  const byHash = new Map<string, string[]>();
  for (const [hash, patch] of commitPatches(dir, picked.map((p) => p.hash), o.pathspecs)) {
    const lines: string[] = [];
    for (const line of patch.split('\n')) {
      if (lines.length >= o.maxLines) break;
      if ((line.startsWith('+') && !line.startsWith('+++')) || (line.startsWith('-') && !line.startsWith('---'))) lines.push(line.slice(1));
    }
    byHash.set(hash, lines);
  }
  return picked.map((p) => ({ subject: p.subject, lines: byHash.get(p.hash) ?? [] })).filter((c) => c.lines.length > 0);
}
