// Matching and ranking inside one sidecar read: which messages of a thread relate to the targets
// of a find (same file and member key; else at least one line of overlap with an anchor's current
// range; a whole-file target takes every anchor of the file), one match per message, best first; and
// the markers of one file for a gutter. Explicit relations count for every ordinal of their range.
// Reads only the sidecar (sidecar.ts); freshness and rebuilds belong to intercom.ts.
import type { Database } from '../sqlite/engine.ts';
import type { QueryTarget } from './anchors.ts';
import type { FindMatch, Marker } from './contract.ts';
import { anchorsByNo, anchorsOverlapping, messageIds, rowsByFile, rowsByKey, rowsByKeyAnywhere, type AnchorRow } from './sidecar.ts';

type MatchHow = FindMatch['match'];
const HOW_RANK: Record<MatchHow, number> = { member: 0, overlap: 1, file: 2 };

interface Candidate {
  ordinal: number;
  anchorNo: number;
  how: MatchHow;
}

function kindOf(a: AnchorRow): 'explicit' | 'inferred' {
  return a.origin === 'relate' ? 'explicit' : 'inferred';
}

/** Every (ordinal, anchor) pair that matches one of the targets. */
function candidates(db: Database, logId: number, threadId: string, targets: readonly QueryTarget[], anchors: (nos: number[]) => Map<number, AnchorRow>): Candidate[] {
  const out: Candidate[] = [];
  const push = (rows: Array<{ ordinal: number; anchor_no: number }>, how: MatchHow) => {
    for (const r of rows) out.push({ ordinal: Number(r.ordinal), anchorNo: Number(r.anchor_no), how });
  };
  for (const t of targets) {
    if (t.file === null) {
      if (t.member_key) push(rowsByKeyAnywhere(db, logId, threadId, t.member_key), 'member');
      continue;
    }
    if (t.member_key) push(rowsByKey(db, logId, threadId, t.file, t.member_key), 'member');
    if (t.line_start !== null && t.line_end !== null) {
      const nos = anchorsOverlapping(db, logId, threadId, t.file, t.line_start, t.line_end);
      for (const a of anchors(nos).values()) {
        for (let o = Number(a.start_ordinal); o <= Number(a.end_ordinal); o++) out.push({ ordinal: o, anchorNo: Number(a.anchor_no), how: 'overlap' });
      }
    } else if (!t.member_key) {
      push(rowsByFile(db, logId, threadId, t.file), 'file');
    }
  }
  return out;
}

/** One match per message, best first (member before overlap before file; fresh before stale; explicit before inferred; then by ordinal). */
export function collectMatches(db: Database, logId: number, threadId: string, targets: readonly QueryTarget[]): FindMatch[] {
  const cache = new Map<number, AnchorRow>();
  const anchors = (nos: Iterable<number>) => {
    const missing = [...nos].filter((n) => !cache.has(n));
    for (const [n, a] of anchorsByNo(db, logId, threadId, missing)) cache.set(n, a);
    return new Map([...nos].flatMap((n) => (cache.has(n) ? [[n, cache.get(n)!] as const] : [])));
  };
  const found = candidates(db, logId, threadId, targets, (nos) => anchors(nos));
  if (!found.length) return [];
  anchors(new Set(found.map((c) => c.anchorNo)));
  const rank = (c: Candidate) => {
    const a = cache.get(c.anchorNo)!;
    return [HOW_RANK[c.how], Number(a.stale), kindOf(a) === 'explicit' ? 0 : 1, c.anchorNo];
  };
  const better = (x: number[], y: number[]) => {
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i];
    return false;
  };
  const best = new Map<number, { c: Candidate; r: number[]; anchors: Set<number> }>();
  for (const c of found) {
    const r = rank(c);
    const cur = best.get(c.ordinal);
    if (!cur) best.set(c.ordinal, { c, r, anchors: new Set([c.anchorNo]) });
    else {
      cur.anchors.add(c.anchorNo);
      if (better(r, cur.r)) Object.assign(cur, { c, r });
    }
  }
  const ordinals = [...best.keys()];
  const msgs = messageIds(db, logId, threadId, Math.min(...ordinals), Math.max(...ordinals));
  const list = [...best.values()].sort((x, y) => x.r[0] - y.r[0] || x.r[1] - y.r[1] || x.r[2] - y.r[2] || x.c.ordinal - y.c.ordinal);
  return list.map(({ c, anchors: set }) => {
    const a = cache.get(c.anchorNo)!;
    const msg = msgs.get(c.ordinal);
    const m: FindMatch = {
      ordinal: c.ordinal,
      message_id: msg?.message_id ?? '',
      role: msg?.role ?? '',
      match_kind: kindOf(a),
      match: c.how,
      stale: Number(a.stale) === 1,
      anchor_id: a.anchor_id,
      origin: a.origin,
      file: a.file,
      member_key: a.member_key,
      line_start: Number(a.line_start),
      line_end: Number(a.line_end),
      anchors: set.size,
    };
    if (m.stale) {
      m.stale_reason = (a.stale_reason ?? undefined) as FindMatch['stale_reason'];
      if (a.excerpt !== null) m.excerpt = a.excerpt;
    }
    return m;
  });
}

/** The markers of one file: one per distinct current range, with the ordinals there, by line. */
export function collectMarkers(db: Database, logId: number, threadId: string, file: string): Marker[] {
  const rows = rowsByFile(db, logId, threadId, file);
  const anchors = anchorsByNo(db, logId, threadId, new Set(rows.map((r) => Number(r.anchor_no))));
  const byRange = new Map<string, Marker & { ids: Set<string>; set: Set<number>; fresh: boolean }>();
  for (const r of rows) {
    const a = anchors.get(Number(r.anchor_no));
    if (!a) continue;
    const key = `${a.line_start}:${a.line_end}`;
    let m = byRange.get(key);
    if (!m) {
      m = { line_start: Number(a.line_start), line_end: Number(a.line_end), ordinals: [], match_kind: 'inferred', stale: true, anchor_ids: [], ids: new Set(), set: new Set(), fresh: false };
      byRange.set(key, m);
    }
    m.set.add(Number(r.ordinal));
    m.ids.add(a.anchor_id);
    if (kindOf(a) === 'explicit') m.match_kind = 'explicit';
    if (Number(a.stale) === 0) m.fresh = true;
  }
  return [...byRange.values()]
    .sort((x, y) => x.line_start - y.line_start || x.line_end - y.line_end)
    .map((m) => ({
      line_start: m.line_start, line_end: m.line_end, ordinals: [...m.set].sort((x, y) => x - y), match_kind: m.match_kind,
      stale: !m.fresh, anchor_ids: [...m.ids].sort(),
    }));
}
