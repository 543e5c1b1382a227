// Matching and ranking inside one sidecar read: which messages of a thread relate to the targets
// of a find (same file and member key; else at least one line of overlap with an anchor's current
// range; a whole-file target takes every anchor of the file), one match per message, best first; and
// the markers of one file for a gutter. Explicit relations count for every ordinal of their range.
// Reads only the sidecar (sidecar-queries.ts); freshness and rebuilds belong to intercom.ts.
import type { Database } from '../sqlite/engine.ts';
import type { QueryTarget } from './anchors.ts';
import type { FindMatch, Marker } from '../contract/intercom.ts';
import { anchorsByNo, anchorsOverlapping, messagesAt, rowsByFile, rowsByKey, rowsByKeyAnywhere, type AnchorRow, type CodeRow, type Scope } from './sidecar-queries.ts';

type MatchHow = FindMatch['match'];
const HOW_RANK: Record<MatchHow, number> = { member: 0, overlap: 1, file: 2 };

interface Candidate {
  ordinal: number;
  anchorNo: number;
  how: MatchHow;
}

const kindOf = (a: AnchorRow): 'explicit' | 'inferred' => (a.origin === 'relate' ? 'explicit' : 'inferred');

/** Anchor rows read once per find, by number. */
class AnchorCache {
  private readonly rows = new Map<number, AnchorRow>();
  constructor(
    private readonly db: Database,
    private readonly scope: Scope,
  ) {}

  load(nos: Iterable<number>): AnchorRow[] {
    const list = [...nos];
    const missing = list.filter((n) => !this.rows.has(n));
    for (const [n, a] of anchorsByNo(this.db, this.scope, missing)) this.rows.set(n, a);
    return list.flatMap((n) => (this.rows.has(n) ? [this.rows.get(n)!] : []));
  }

  get(no: number): AnchorRow {
    return this.rows.get(no)!;
  }
}

/** Every (ordinal, anchor) pair that matches one of the targets. */
function candidates(db: Database, scope: Scope, targets: readonly QueryTarget[], cache: AnchorCache): Candidate[] {
  const out: Candidate[] = [];
  const push = (rows: CodeRow[], how: MatchHow) => {
    for (const r of rows) out.push({ ordinal: r.ordinal, anchorNo: r.anchor_no, how });
  };
  for (const t of targets) {
    if (t.file === null) {
      if (t.member_key) push(rowsByKeyAnywhere(db, scope, t.member_key), 'member');
      continue;
    }
    if (t.member_key) push(rowsByKey(db, scope, t.file, t.member_key), 'member');
    if (t.line_start !== null && t.line_end !== null) {
      for (const a of cache.load(anchorsOverlapping(db, scope, t.file, t.line_start, t.line_end))) {
        for (let o = Number(a.start_ordinal); o <= Number(a.end_ordinal); o++) out.push({ ordinal: o, anchorNo: Number(a.anchor_no), how: 'overlap' });
      }
    } else if (!t.member_key) {
      push(rowsByFile(db, scope, t.file), 'file');
    }
  }
  return out;
}

/** Ranks lower first: how it matched, fresh before stale, explicit before inferred, then the anchor's log order. */
function rankOf(c: Candidate, a: AnchorRow): number[] {
  return [HOW_RANK[c.how], Number(a.stale), kindOf(a) === 'explicit' ? 0 : 1, c.anchorNo];
}

function before(x: number[], y: number[]): boolean {
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i];
  return false;
}

/** One match per message, best first (then by ordinal); `limit` of them, and how many there are. */
export function collectMatches(db: Database, scope: Scope, targets: readonly QueryTarget[], limit: number): { matches: FindMatch[]; total: number } {
  const cache = new AnchorCache(db, scope);
  const found = candidates(db, scope, targets, cache);
  if (!found.length) return { matches: [], total: 0 };
  cache.load(new Set(found.map((c) => c.anchorNo)));
  const best = new Map<number, { c: Candidate; rank: number[]; anchors: Set<number> }>();
  for (const c of found) {
    const rank = rankOf(c, cache.get(c.anchorNo));
    const cur = best.get(c.ordinal);
    if (!cur) best.set(c.ordinal, { c, rank, anchors: new Set([c.anchorNo]) });
    else {
      cur.anchors.add(c.anchorNo);
      if (before(rank, cur.rank)) Object.assign(cur, { c, rank });
    }
  }
  const list = [...best.values()].sort((x, y) => x.rank[0] - y.rank[0] || x.rank[1] - y.rank[1] || x.rank[2] - y.rank[2] || x.c.ordinal - y.c.ordinal);
  const page = list.slice(0, limit);
  const msgs = messagesAt(db, scope, page.map((b) => b.c.ordinal));
  const matches = page.map(({ c, anchors }) => {
    const a = cache.get(c.anchorNo);
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
      anchors: anchors.size,
    };
    if (m.stale) {
      m.stale_reason = (a.stale_reason ?? undefined) as FindMatch['stale_reason'];
      if (a.excerpt !== null) m.excerpt = a.excerpt;
    }
    return m;
  });
  return { matches, total: list.length };
}

/** The markers of one file: one per distinct current range, with the ordinals there, by line. */
export function collectMarkers(db: Database, scope: Scope, file: string): Marker[] {
  const rows = rowsByFile(db, scope, file);
  const anchors = anchorsByNo(db, scope, new Set(rows.map((r) => r.anchor_no)));
  const byRange = new Map<string, { line_start: number; line_end: number; explicit: boolean; fresh: boolean; ids: Set<string>; ordinals: Set<number> }>();
  for (const r of rows) {
    const a = anchors.get(r.anchor_no);
    if (!a) continue;
    const key = `${a.line_start}:${a.line_end}`;
    let m = byRange.get(key);
    if (!m) byRange.set(key, (m = { line_start: Number(a.line_start), line_end: Number(a.line_end), explicit: false, fresh: false, ids: new Set(), ordinals: new Set() }));
    m.ordinals.add(r.ordinal);
    m.ids.add(a.anchor_id);
    if (kindOf(a) === 'explicit') m.explicit = true;
    if (Number(a.stale) === 0) m.fresh = true;
  }
  return [...byRange.values()]
    .sort((x, y) => x.line_start - y.line_start || x.line_end - y.line_end)
    .map((m) => ({
      line_start: m.line_start, line_end: m.line_end, ordinals: [...m.ordinals].sort((x, y) => x - y),
      match_kind: m.explicit ? 'explicit' : 'inferred', stale: !m.fresh, anchor_ids: [...m.ids].sort(),
    }));
}
