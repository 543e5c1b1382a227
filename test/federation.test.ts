// Many repositories in one search (core/service/federation.ts, core/search/term-stats.ts): two real
// workspaces indexed apart and searched together through the service, against ONE index of their
// union. The fixture is built so that each index's own BM25 statistics mis-order the hits — the word
// is in 1 of 2 chunks of the small repository (FTS5's IDF there: ~0) and 1 of 21 of the large one —
// while the union (and the merge with the statistics of both indexes) puts the chunk that holds it
// three times first. Also: the phrases' parts add up to FTS5's own bm25() (and one of them follows from
// it), the repos filter, qualified hit ids reaching explain in the right index, and a qualified path
// reaching outline.
// @lane unit
import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { Federation, HciService } from '../core/service/index.ts';
import { HciWorkspace } from '../core/workspace.ts';
import { searchAnswer } from '../core/contract/index.ts';
import { parseRequest } from '../core/search/pipeline.ts';
import { corpusStats, globalScores, hitParts, queryPhrases } from '../core/search/term-stats.ts';
import { COLUMN_WEIGHTS, ftsChannel } from '../core/search/channels/fts.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { createStyle, formatSearch } from '../runtimes/cli/format.ts';
import { createTmpWorkspace, type TmpWorkspace, type WorkspaceFiles } from './helpers/tmp-workspace.ts';
import { ALPHA, BETA, DELTA, GAMMA } from './helpers/federation-repos.ts';

const prefixed = (repo: string, files: WorkspaceFiles): WorkspaceFiles => Object.fromEntries(Object.entries(files).map(([p, c]) => [`${repo}/${p}`, c]));

describe('a search over several repositories', () => {
  let alpha: TmpWorkspace, beta: TmpWorkspace, union: TmpWorkspace;
  const services: HciService[] = [];
  const service = (root: string) => {
    const s = new HciService({ root, host: nodeServiceHost(), surface: 'cli', watch: 'off' });
    services.push(s);
    return s;
  };
  let fed: Federation, naive: Federation, unionSvc: HciService;

  beforeAll(async () => {
    alpha = await createTmpWorkspace(ALPHA, 'hci-fed-alpha-');
    beta = await createTmpWorkspace(BETA, 'hci-fed-beta-');
    union = await createTmpWorkspace({ ...prefixed('alpha', ALPHA), ...prefixed('beta', BETA) }, 'hci-fed-union-');
    const [a, b] = [service(alpha.root), service(beta.root)];
    unionSvc = service(union.root);
    for (const s of [a, b, unionSvc]) await s.index();
    const members = [{ repo: 'alpha', service: a }, { repo: 'beta', service: b }];
    fed = new Federation(members);
    naive = new Federation(members, { mergeStats: false });
  }, 60_000);

  afterAll(async () => {
    for (const s of services) await s.close();
    for (const w of [alpha, beta, union]) await w?.cleanup();
  });

  it('ranks as one index of the union does, where each index alone would mis-order the hits', async () => {
    const u = searchAnswer.parse(await unionSvc.call('search', { query: 'gizmo' }));
    const m = searchAnswer.parse(await fed.call('search', { query: 'gizmo' }));
    const n = searchAnswer.parse(await naive.call('search', { query: 'gizmo' }));
    expect(u.hits.map((h) => h.path)).toEqual(['alpha/docs/notes.md', 'beta/docs/notes.md']);
    // Merged: the union's order, each hit with its repository and its path relative to it.
    expect(m.hits.map((h) => `${h.repo}/${h.path}`)).toEqual(u.hits.map((h) => h.path));
    expect(m.hits.map((h) => h.rank)).toEqual([1, 2]);
    // Scores as the union's (its paths hold one more token, the repository's name: within 5%).
    m.hits.forEach((h, i) => expect(Math.abs(h.fts_score! / u.hits[i].fts_score! - 1)).toBeLessThan(0.05));
    // Each index's own statistics: the small repository's IDF is ~0, its hit last.
    expect(n.hits.map((h) => `${h.repo}/${h.path}`)).toEqual(['beta/docs/notes.md', 'alpha/docs/notes.md']);
    expect(m.repos?.map((r) => [r.repo, r.status, r.hits])).toEqual([['alpha', 'ok', 1], ['beta', 'ok', 1]]);
  });

  it('merges by the scores themselves when a word is in most chunks (every score ~1e-6), as one index of the union ranks', async () => {
    const [gamma, delta] = await Promise.all([createTmpWorkspace(GAMMA, 'hci-fed-gamma-'), createTmpWorkspace(DELTA, 'hci-fed-delta-')]);
    const both = await createTmpWorkspace({ ...prefixed('gamma', GAMMA), ...prefixed('delta', DELTA) }, 'hci-fed-gd-');
    try {
      const [g, d, u] = [service(gamma.root), service(delta.root), service(both.root)];
      for (const s of [g, d, u]) await s.index();
      const un = searchAnswer.parse(await u.call('search', { query: 'sprocket', limit: 5 }));
      const m = searchAnswer.parse(await new Federation([{ repo: 'gamma', service: g }, { repo: 'delta', service: d }]).call('search', { query: 'sprocket', limit: 5 }));
      expect(un.hits[0].path.startsWith('delta/'), un.hits.map((h) => h.path).join(', ')).toBe(true);
      expect(m.hits.map((h) => `${h.repo}/${h.path}`)).toEqual(un.hits.map((h) => h.path));
      // Scores small enough to vanish at three decimals still tell the hits apart.
      expect(m.hits.every((h) => h.score > 0)).toBe(true);
      // The CLI's text prints them with two significant digits, not as 0.00.
      const text = formatSearch(m, createStyle(false));
      expect(text).not.toMatch(/ · 0\.00 · /);
      expect(text).toMatch(/ · 0\.0000\d+ · /);
    } finally {
      for (const w of [gamma, delta, both]) await w.cleanup();
    }
  });

  it('decomposes bm25() into its phrases exactly, and scores with its own statistics as bm25() does', async () => {
    const ws = await services[1].workspace();
    const req = { query: 'gizmo turns' };
    const phrases = queryPhrases(parseRequest(ws.settings, req));
    expect(phrases.length).toBeGreaterThanOrEqual(2);
    const { value } = await ws.read((db) => {
      const all = db.selectArrays('SELECT rowid, -bm25(chunks_fts, 3, 6, 2, 1, 1, 1) FROM chunks_fts WHERE chunks_fts MATCH ?', [phrases.join(' AND ')]);
      const local = corpusStats(db, phrases);
      return { all, local, parts: hitParts(db, phrases, all.map(([id]) => Number(id))) };
    });
    expect(value.all.length).toBeGreaterThan(0);
    expect(value.local.rows).toBe(21);
    const again = globalScores(value.local, value.local, phrases, value.parts);
    for (const [rowid, score] of value.all) {
      expect(value.parts.get(Number(rowid))!.parts.reduce((a, b) => a + b, 0)).toBeCloseTo(Number(score), 9);
      expect(again.get(Number(rowid))).toBeCloseTo(Number(score), 9);
    }
    // Through the search session's statements (rows read straight from WASM memory): the same parts and lengths.
    const ids = value.all.map(([id]) => Number(id));
    const viaSession = await ws.readSession((session) => ({ session: hitParts(session, phrases, ids), bare: hitParts(session.db, phrases, ids) }));
    expect(viaSession.session).toEqual(viaSession.bare);
    expect(viaSession.session).toEqual(value.parts);
    // A query word's weight (term-weights.ts) weighs its phrase's part, in the merged scores too.
    const halved = globalScores(value.local, value.local, phrases, value.parts, new Map([[phrases[0], 0.5]]));
    for (const [rowid, score] of value.all) expect(halved.get(Number(rowid))).toBeCloseTo(Number(score) - 0.5 * value.parts.get(Number(rowid))!.parts[0], 9);
  });

  it('takes one phrase\'s parts from the hits\' bm25() totals instead of reading them: the parts read, 0 where a chunk lacks the phrase', async () => {
    const ws = await services[1].workspace();
    // "gizmo" and "spin" are in one chunk of beta, "axles" in every chunk (IDF clamped: never derived).
    const phrases = queryPhrases(parseRequest(ws.settings, { query: 'gizmo spin axles' }));
    expect(phrases.length).toBe(3);
    const { value } = await ws.read((db) => {
      const all = db.selectArrays(`SELECT rowid, -bm25(chunks_fts, ${Object.values(COLUMN_WEIGHTS).join(', ')}) FROM chunks_fts WHERE chunks_fts MATCH ?`, [phrases.join(' OR ')]);
      const ids = all.map(([id]) => Number(id));
      const totals = { scores: new Map(all.map(([id, score]) => [Number(id), Number(score)])), own: corpusStats(db, phrases) };
      const read = hitParts(db, phrases, ids);
      const statements = vi.spyOn(db, 'selectArrays');
      try {
        const derived = hitParts(db, phrases, ids, totals);
        // The lengths, and the phrases less the one derived.
        return { read, derived, ran: statements.mock.calls.length, ids };
      } finally {
        statements.mockRestore();
      }
    });
    expect(value.ids.length).toBe(21);
    expect(value.ran).toBe(phrases.length);
    for (const id of value.ids) {
      const [r, d] = [value.read.get(id)!, value.derived.get(id)!];
      expect(d.length).toBe(r.length);
      r.parts.forEach((x, i) => (x === 0 ? expect(d.parts[i]).toBe(0) : expect(d.parts[i]).toBeCloseTo(x, 12)));
    }
    // One phrase: its part is the total itself, no statement of its own.
    const one = queryPhrases(parseRequest(ws.settings, { query: 'gizmo' }));
    const { value: single } = await ws.read((db) => {
      const all = db.selectArrays(`SELECT rowid, -bm25(chunks_fts, ${Object.values(COLUMN_WEIGHTS).join(', ')}) FROM chunks_fts WHERE chunks_fts MATCH ?`, [one[0]]);
      const statements = vi.spyOn(db, 'selectArrays');
      try {
        const parts = hitParts(db, one, all.map(([id]) => Number(id)), { scores: new Map(all.map(([id, score]) => [Number(id), Number(score)])), own: corpusStats(db, one) });
        return { all, parts, ran: statements.mock.calls.length };
      } finally {
        statements.mockRestore();
      }
    });
    expect(single.ran).toBe(1);
    for (const [id, score] of single.all) expect(single.parts.get(Number(id))!.parts).toEqual([Number(score)]);
  });

  it('filters by repository, refuses an unknown one, and pages with its own cursor', async () => {
    const only = searchAnswer.parse(await fed.call('search', { query: 'wheels', repos: ['beta'] }));
    expect(only.hits.length).toBeGreaterThan(0);
    expect(new Set(only.hits.map((h) => h.repo))).toEqual(new Set(['beta']));
    const bad = searchAnswer.parse(await fed.call('search', { query: 'wheels', repos: ['gamma'] }));
    expect(bad.status).toBe('error');
    expect(bad.error?.code).toBe('invalid_request');
    expect(bad.hint).toContain('alpha, beta');
    // A single workspace refuses the filter instead of ignoring it.
    expect((await services[0].call('search', { query: 'wheels', repos: ['alpha'] })).error?.code).toBe('invalid_request');
    const first = searchAnswer.parse(await fed.call('search', { query: 'wheels', limit: 3 }));
    const second = searchAnswer.parse(await fed.call('search', { query: 'wheels', limit: 3, cursor: first.next_cursor }));
    const all = searchAnswer.parse(await fed.call('search', { query: 'wheels', limit: 6 }));
    expect([...first.hits, ...second.hits].map((h) => h.hit_id)).toEqual(all.hits.map((h) => h.hit_id));
    expect(second.hits[0].rank).toBe(4);
  });

  it('reads each index once for the statistics of a query, without the freshness an answer carries', async () => {
    // The statistics round is a helper read: its counts (files, chunks, parse errors: a scan of the
    // file table) and HEAD belong to the answers, which each repository's search reads anyway.
    const read = vi.spyOn(HciWorkspace.prototype, 'read');
    const readSession = vi.spyOn(HciWorkspace.prototype, 'readSession');
    try {
      const m = searchAnswer.parse(await fed.call('search', { query: 'gizmo wheels' }));
      expect(m.hits.length).toBeGreaterThan(0);
      expect(readSession).toHaveBeenCalledTimes(2);
      expect(read).not.toHaveBeenCalled();
    } finally {
      read.mockRestore();
      readSession.mockRestore();
    }
  });

  it('counts and rescores through statements prepared once per connection, and reads no part of a phrase an index lacks', async () => {
    await fed.call('search', { query: 'gizmo axles' });
    const sessions = await Promise.all(fed.members.map(async (m) => (await (await m.service.workspace()).searcher()).session));
    // A phrase's parts: its statement (the session's, prepared once) bound to the phrase and the hits.
    const partSql = `SELECT rowid, -bm25(chunks_fts, ${Object.values(COLUMN_WEIGHTS).join(', ')}) FROM chunks_fts WHERE chunks_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`;
    const binds = sessions.map((s) => vi.spyOn(s.statement(partSql), 'bind'));
    const spies = sessions.flatMap((s) => [vi.spyOn(s.db, 'selectArrays'), vi.spyOn(s.db, 'selectValue'), vi.spyOn(s.db, 'prepare')]);
    try {
      // "17" is in beta's pages only (alpha has page 1): alpha's rescoring reads gizmo's parts alone.
      const m = searchAnswer.parse(await fed.call('search', { query: 'gizmo 17' }));
      expect(m.hits.map((h) => h.repo)).toContain('alpha');
      // The statistics (row totals, counts, head counts) and the phrases' parts: no statement prepared for this new query.
      const statsSql = /chunks_fts_data WHERE id = 1|count\(\*\) FROM chunks_fts WHERE|chunks_fts_docsize WHERE id IN|\+rowid IN|key = 'generation'|c\.file_id FROM chunks_fts JOIN/;
      const prepared = spies.flatMap((s) => s.mock.calls.map((c) => String(c[0])));
      expect(prepared.filter((sql) => statsSql.test(sql))).toEqual([]);
      const parts = (i: number) => binds[i].mock.calls.map((c) => String((c[0] as unknown as unknown[])[0]));
      expect(parts(0).length).toBeGreaterThan(0);
      expect(parts(0).filter((p) => p.includes('17'))).toEqual([]);
      expect(parts(1).filter((p) => p.includes('17')).length).toBeGreaterThan(0);
    } finally {
      for (const s of [...spies, ...binds]) s.mockRestore();
    }
  });

  it('runs no all-terms pass in an index that lacks a word of the query (its count 0)', async () => {
    const sessions = await Promise.all(fed.members.map(async (m) => (await (await m.service.workspace()).searcher()).session));
    const pass = vi.spyOn(ftsChannel, 'search');
    try {
      // "19" is in beta's pages only: alpha has no chunk with both words, and runs no statement to find out.
      const m = searchAnswer.parse(await fed.call('search', { query: 'gizmo 19' }));
      expect(m.hits.map((h) => h.repo)).toContain('alpha');
      const by = (i: number) => pass.mock.calls.filter((c) => c[0] === sessions[i]).length;
      expect(by(0)).toBe(0);
      expect(by(1)).toBeGreaterThan(0);
    } finally {
      pass.mockRestore();
    }
  });

  it('routes a qualified hit id and path to their repository', async () => {
    const m = searchAnswer.parse(await fed.call('search', { query: 'gizmo' }));
    const hit = m.hits[1];
    expect(hit.hit_id.startsWith('beta/')).toBe(true);
    const ex = await fed.call('explain', { hit_id: hit.hit_id });
    expect(ex.status).toBe('ok');
    expect(ex.hit_id).toBe(hit.hit_id);
    expect(ex.explanation?.path).toBe('docs/notes.md');
    expect(ex.explanation?.text).toContain('Wheels spin');
    const out = await fed.call('outline', { path: 'alpha/docs/notes.md' });
    expect(out.status).toBe('ok');
    expect(out.path).toBe('alpha/docs/notes.md');
    const st = await fed.call('status', {});
    expect(st.status).toBe('ok');
    expect(st.index?.files).toBe(2);
    expect(st.hint).toContain("this answer is alpha's; beta: ok, 21 files");
    const unnamed = await fed.call('outline', { path: 'docs/notes.md' });
    expect(unnamed.error?.code).toBe('invalid_request');
    expect(unnamed.hint).toContain('<repo>/<path>');
  });
});
