// Code anchors against the current code: re-resolving an attached or related anchor (member key →
// the member's current range; a line range without a key → the innermost member there, whose key
// becomes the anchor's; the excerpt relocates drifted lines and tells a stale anchor), and turning a
// code ref into what a find looks for, or into the full anchor a relate records. Reads the code only
// through a CodeView (code-view.ts); storing the results belongs to sidecar.ts.
import { HciError } from '../platform.ts';
import type { CodeAnchor } from './events.ts';
import { innermostMember, type CodeView, type FileView, type Member } from './code-view.ts';
import { workspacePath, type CodeRef } from './code-ref.ts';

export type StaleReason = 'file_missing' | 'member_missing' | 'excerpt_mismatch' | 'lines_missing' | 'outside_workspace';
export type AnchorShape = 'lines' | 'member' | 'file';

export interface ResolvedAnchor {
  file: string;
  member_key: string | null;
  syntax_scope: string | null;
  shape: AnchorShape;
  /** The current range (re-resolved); for a stale anchor, its last known one. */
  line_start: number;
  line_end: number;
  stale: boolean;
  stale_reason: StaleReason | null;
}

/** Excerpts longer than this many lines are matched on their first lines only. */
const EXCERPT_MATCH_LINES = 40;
/** Excerpts a relate records are cut to this many lines / characters (ending in …). */
const EXCERPT_MAX_LINES = 12;
const EXCERPT_MAX_CHARS = 800;

/** The excerpt's non-blank lines, trimmed, without a trailing cut mark (… or ...). */
export function excerptLines(excerpt: string | undefined): string[] {
  if (!excerpt) return [];
  const lines = excerpt.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length) {
    const last = lines[lines.length - 1].replace(/(?:…|\.\.\.)$/, '').trimEnd();
    if (last === '') lines.pop();
    else lines[lines.length - 1] = last;
  }
  return lines.slice(0, EXCERPT_MATCH_LINES);
}

interface LineIndex {
  /** Non-blank lines: 1-based line number and trimmed text. */
  nb: Array<{ line: number; text: string }>;
  /** Trimmed text → positions in nb. */
  at: Map<string, number[]>;
}

const lineIndexes = new WeakMap<string[], LineIndex>();

function lineIndex(lines: string[]): LineIndex {
  let ix = lineIndexes.get(lines);
  if (!ix) {
    const nb: LineIndex['nb'] = [];
    const at = new Map<string, number[]>();
    lines.forEach((l, i) => {
      const t = l.trim();
      if (t === '') return;
      const list = at.get(t);
      if (list) list.push(nb.length);
      else at.set(t, [nb.length]);
      nb.push({ line: i + 1, text: t });
    });
    lineIndexes.set(lines, (ix = { nb, at }));
  }
  return ix;
}

/**
 * Where the excerpt stands in the file (its first and last line), within [lo, hi] when given,
 * closest to `near`; null when it is nowhere. Lines are compared trimmed; each excerpt line must be
 * contained in its file line (a selection may start or end inside a line).
 */
export function findExcerpt(lines: string[], excerpt: string[], near: number | null, lo = 1, hi = Number.MAX_SAFE_INTEGER): { start: number; end: number } | null {
  if (!excerpt.length) return null;
  const { nb, at } = lineIndex(lines);
  // Anchor the search on the longest excerpt line (the most specific), then check the others.
  let pivot = 0;
  excerpt.forEach((l, j) => {
    if (l.length > excerpt[pivot].length) pivot = j;
  });
  const fits = (p: number): boolean => {
    const first = p - pivot;
    if (first < 0 || first + excerpt.length > nb.length) return false;
    if (nb[first].line < lo || nb[first + excerpt.length - 1].line > hi) return false;
    for (let j = 0; j < excerpt.length; j++) if (!nb[first + j].text.includes(excerpt[j])) return false;
    return true;
  };
  let candidates = (at.get(excerpt[pivot]) ?? []).filter(fits);
  if (!candidates.length) {
    candidates = [];
    for (let p = 0; p < nb.length; p++) if (nb[p].text.includes(excerpt[pivot]) && fits(p)) candidates.push(p);
  }
  if (!candidates.length) return null;
  const target = near ?? 1;
  let best = candidates[0];
  for (const p of candidates) if (Math.abs(nb[p - pivot].line - target) < Math.abs(nb[best - pivot].line - target)) best = p;
  return { start: nb[best - pivot].line, end: nb[best - pivot + excerpt.length - 1].line };
}

function nearest(members: Member[], line: number | null): Member {
  if (line === null) return members[0];
  return members.reduce((a, b) => (Math.abs(b.start - line) < Math.abs(a.start - line) ? b : a));
}

/** Re-resolves one anchor against the file as it is now (`fv` loaded with text). */
export function resolveAnchor(anchor: CodeAnchor, fv: FileView | null): ResolvedAnchor {
  const hintStart = anchor.line_start ?? anchor.line_end ?? null;
  const hintEnd = anchor.line_end ?? hintStart;
  const givenKey = anchor.member_key ?? null;
  const shape: AnchorShape = anchor.shape ?? (hintStart === null ? (givenKey ? 'member' : 'file') : 'lines');
  const hinted = { line_start: hintStart ?? 1, line_end: hintEnd ?? hintStart ?? 1 };
  const base = { member_key: givenKey, syntax_scope: anchor.syntax_scope ?? null, shape };
  if (!fv) return { file: anchor.file, ...base, ...hinted, stale: true, stale_reason: 'outside_workspace' };
  const stale = (reason: StaleReason, range = hinted): ResolvedAnchor => ({ file: fv.path, ...base, ...range, stale: true, stale_reason: reason });
  if (!fv.exists) return stale('file_missing');
  const lines = fv.lines ?? [];
  const count = Math.max(1, lines.length - (lines.length > 1 && lines[lines.length - 1] === '' ? 1 : 0));
  const excerpt = excerptLines(anchor.excerpt);
  const span = hintStart === null ? null : hinted.line_end - hinted.line_start;
  const located = (lo?: number, hi?: number) => {
    const at = findExcerpt(lines, excerpt, hintStart, lo, hi);
    if (!at) return null;
    // A cut excerpt matched only its first lines: keep the attached length.
    const end = span === null ? at.end : Math.min(count, Math.max(at.end, at.start + span));
    return { line_start: at.start, line_end: end };
  };
  const fresh = (range: { line_start: number; line_end: number }, member: Member | null): ResolvedAnchor => ({
    file: fv.path, shape,
    member_key: member?.key ?? givenKey,
    syntax_scope: anchor.syntax_scope ?? member?.kind ?? null,
    ...range, stale: false, stale_reason: null,
  });

  if (givenKey) {
    const found = fv.members.filter((m) => m.key === givenKey);
    if (!found.length) return stale('member_missing', located() ?? hinted);
    const member = nearest(found, hintStart);
    const whole = { line_start: member.start, line_end: member.end };
    if (shape === 'member' || shape === 'file') {
      if (excerpt.length && !findExcerpt(lines, excerpt, member.start, member.start, member.end)) return { ...fresh(whole, member), stale: true, stale_reason: 'excerpt_mismatch' };
      return fresh(whole, member);
    }
    if (excerpt.length) {
      const at = located(member.start, member.end);
      return at ? fresh(at, member) : { ...fresh(whole, member), stale: true, stale_reason: 'excerpt_mismatch' };
    }
    const inside = hintStart !== null && hinted.line_start >= member.start && hinted.line_end <= member.end;
    return fresh(inside ? hinted : whole, member);
  }
  if (shape === 'file') return fresh({ line_start: 1, line_end: count }, null);
  let range = hinted;
  if (excerpt.length) {
    const at = located();
    if (!at) return stale('excerpt_mismatch');
    range = at;
  } else if (hinted.line_start > count) {
    return stale('lines_missing');
  }
  return fresh(range, innermostMember(fv.members, range.line_start, range.line_end));
}

/** What a find looks for in one file: the member there (if any) and the lines. */
export interface QueryTarget {
  /** null: any file (a member key no longer defined anywhere, matched against the anchors recorded with it). */
  file: string | null;
  member_key: string | null;
  syntax_scope: string | null;
  /** null: the whole file. */
  line_start: number | null;
  line_end: number | null;
}

/**
 * The targets of a code ref now: a line range and its innermost member; a member key wherever it is
 * defined; a whole file. `anchor:<id>` is resolved by the caller (it needs the sidecar).
 */
export async function queryTargets(ref: Exclude<CodeRef, { kind: 'anchor' }>, view: CodeView): Promise<QueryTarget[]> {
  if (ref.kind === 'file') return [{ file: ref.file, member_key: null, syntax_scope: null, line_start: null, line_end: null }];
  if (ref.kind === 'lines') {
    const fv = await view.file(ref.file);
    const m = innermostMember(fv.members, ref.line_start, ref.line_end);
    return [{ file: ref.file, member_key: m?.key ?? null, syntax_scope: m?.kind ?? null, line_start: ref.line_start, line_end: ref.line_end }];
  }
  let locations = await view.locate(ref.member_key);
  if (ref.file) locations = locations.filter((l) => l.path === ref.file);
  if (!locations.length) {
    // A key no longer defined (renamed, removed) still matches the anchors recorded with it: stale ones.
    return [{ file: ref.file ?? null, member_key: ref.member_key, syntax_scope: null, line_start: null, line_end: null }];
  }
  return locations.map((l) => ({ file: l.path, member_key: ref.member_key, syntax_scope: l.kind, line_start: l.start_line, line_end: l.end_line }));
}

/** The text of lines [start, end], cut to the excerpt limits. */
export function excerptOf(lines: string[], start: number, end: number): string {
  const picked = lines.slice(start - 1, Math.min(end, start - 1 + EXCERPT_MAX_LINES));
  let text = picked.join('\n');
  const cut = end - start + 1 > EXCERPT_MAX_LINES || text.length > EXCERPT_MAX_CHARS;
  if (text.length > EXCERPT_MAX_CHARS) text = text.slice(0, EXCERPT_MAX_CHARS);
  return cut ? `${text}…` : text;
}

/**
 * The full anchor a relate records for a code ref (member key, syntax scope, shape, excerpt and the
 * lines as a hint), read from the code as it is now. The file must exist.
 */
export async function anchorForRef(ref: Exclude<CodeRef, { kind: 'anchor' }>, view: CodeView, rootLabel?: string): Promise<CodeAnchor> {
  let file: string;
  let start: number | null;
  let end: number | null;
  let shape: AnchorShape;
  let member: Member | null = null;
  if (ref.kind === 'member') {
    const targets = (await queryTargets(ref, view)).filter((x) => x.line_start !== null);
    const t = targets[0];
    if (!t) throw new HciError('unknown_member', `no member has the key ${ref.member_key} now`, 'check the key with `hci outline <file>`; it may have been renamed');
    if (targets.length > 1) {
      throw new HciError('ambiguous_member', `${ref.member_key} is defined in ${targets.length} places (${targets.map((x) => `${x.file}:L${x.line_start}`).join(', ')})`, 'pass the file too, or a line range');
    }
    file = t.file!;
    start = t.line_start;
    end = t.line_end;
    shape = 'member';
  } else {
    file = workspacePath(ref.file, rootLabel);
    start = ref.kind === 'lines' ? ref.line_start : null;
    end = ref.kind === 'lines' ? ref.line_end : null;
    shape = ref.kind === 'lines' ? 'lines' : 'file';
  }
  const fv = await view.file(file, { text: true });
  if (!fv.exists) throw new HciError('file_not_found', `${file} does not exist in the workspace`, 'relate code that exists now; a stale anchor is kept only by earlier events');
  const lines = fv.lines ?? [];
  if (start !== null && end !== null) {
    if (start > lines.length) throw new HciError('invalid_code_ref', `${file} has ${lines.length} lines; L${start} is past its end`, 'pick lines inside the file');
    end = Math.min(end, lines.length);
    member = innermostMember(fv.members, start, end);
  }
  const anchor: CodeAnchor = { file, member_key: member?.key ?? null, syntax_scope: member?.kind ?? null, shape };
  if (start !== null && end !== null) {
    anchor.line_start = start;
    anchor.line_end = end;
    anchor.excerpt = ref.kind === 'lines' && ref.text ? ref.text : excerptOf(lines, start, end);
  }
  return anchor;
}
