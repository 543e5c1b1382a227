// The search pipeline's seams, each against a real index: a second channel registered through the
// mode table contributes candidates that fusion, rerank, the per-file cap, the hit shape and explain
// all carry; paging and the token budget; hints that read the parsed query; a damaged page met
// during a search is `index_corrupt`; the blob codec and the path filter belong to each workspace.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import { openWorkspace, createNodeIndexStorage, createNodeWorkspaceFs, loadEngine, zlibCodec, HciWorkspace } from '../runtimes/node/index.ts';
import { IndexStore } from '../core/index/store.ts';
import type { DeflateCodec } from '../core/index/file-data.ts';
import { fflateCodec } from '../core/index/fflate-codec.ts';
import { SearchSession } from '../core/search/session.ts';
import { rankQuery, searchPage, type SearchContext } from '../core/search/pipeline.ts';
import { DEFAULT_MODES, modeRow, type ModeTable } from '../core/search/modes.ts';
import { ftsChannel } from '../core/search/channels/fts.ts';
import { candidateOf, channelEntry, type Candidate } from '../core/search/candidates.ts';
import type { Channel, ChannelHit, ChunkRow } from '../core/search/channels/channel.ts';
import type { Fusion } from '../core/search/fuse.ts';
import { explainChunk, loadChunk } from '../core/search/explain.ts';
import { findDeclarations } from '../core/search/declarations.ts';
import { decodeCursor, encodeCursor, estimateTokens, fitTokenBudget, MAX_TEXT_HITS, MIN_TEXT_HITS, pageRange, textHitCap } from '../core/search/page.ts';
import { defaultSettings } from '../core/settings.ts';
import { createTmpWorkspace, withTmpWorkspace, type TmpWorkspace, csharpClass } from './helpers/tmp-workspace.ts';


const FILES = {
  'src/Shipping/ShippingRates.cs': csharpClass('ShippingRates', '    public decimal RateFor(string zone) => zone.Length;\n', 'Demo.Shipping'),
  'src/Shipping/Carrier.cs': csharpClass('Carrier', '    public string Name { get; set; } = "shipping carrier";\n', 'Demo.Shipping'),
  // Holds no word "shipping", not even in its path: only the stand-in path channel finds it.
  'src/Shippers/Zones.cs': csharpClass('Zones', '    public int Count => 3;\n', 'Demo.Geo'),
  'docs/billing.md': '# Billing\n\nInvoices are sent monthly.\n',
  'src/Web/appsettings.json': '{\n  "ConnectionStrings": {\n    "OrderingDb": "Server=.;Database=Ordering"\n  }\n}\n',
};

/**
 * A stand-in second channel: chunks whose path holds the first four letters of a query word, best for
 * the shortest path. Labelled text_vector, as the vector channel's hits will be; it has no contract
 * score field.
 */
const pathChannel: Channel = {
  name: 'paths',
  hitKind: 'text_vector',
  search(session, q, pool) {
    const words = q.clauses.flatMap((c) => (c.kind === 'word' ? [c.token.slice(0, 4)] : []));
    if (!words.length) return [];
    const rows = session.db.selectArrays(
      `SELECT c.id, c.file_id, c.ordinal, f.path, f.hash, f.lang, f.flags, c.start_line, c.end_line, c.symbol_kind, c.symbol_name
       FROM chunks c JOIN files f ON f.id = c.file_id
       WHERE (${words.map(() => "lower(f.path) LIKE '%' || ? || '%'").join(' OR ')}) AND hci_path_ok(f.path)
       ORDER BY length(f.path), f.path, c.ordinal LIMIT ?`,
      [...words, pool],
    ) as unknown[][];
    return rows.map((r, i): ChannelHit => {
      const row: ChunkRow = {
        chunkId: Number(r[0]), fileId: Number(r[1]), ordinal: Number(r[2]), path: String(r[3]), hash: String(r[4]), lang: String(r[5]),
        flags: Number(r[6]), startLine: Number(r[7]), endLine: Number(r[8]), symbolKind: (r[9] as string | null) ?? null, symbolName: (r[10] as string | null) ?? null,
      };
      return { row, score: 1 / (i + 1), detail: { matched_path: row.path } };
    });
  },
  explain: (entry) => ({ matched_path: entry.detail?.matched_path }),
};

/** A test fusion: the first channel's order, then chunks only the others found; a chunk found by several is `hybrid`. */
const appendFusion: Fusion = (lists) => {
  const byChunk = new Map<number, Candidate>();
  const out: Candidate[] = [];
  for (const { channel, hits } of lists) {
    hits.forEach((h, i) => {
      const known = byChunk.get(h.row.chunkId);
      if (known) {
        known.channels.push(candidateOf(h, channel, i + 1).channels[0]);
        known.hitKind = 'hybrid';
        return;
      }
      const c = candidateOf(h, channel, i + 1);
      byChunk.set(h.row.chunkId, c);
      out.push(c);
    });
  }
  return out;
};

const TWO_CHANNELS: ModeTable = { keyword: { channels: [ftsChannel, pathChannel], fuse: appendFusion } };

let ws: TmpWorkspace;
let store: IndexStore;
let ctx: SearchContext;

beforeAll(async () => {
  ws = await createTmpWorkspace(FILES);
  const w = await openWorkspace(ws.root);
  await w.index();
  w.close();
  store = await IndexStore.open(createNodeIndexStorage(ws.root), await loadEngine(), { create: false, lockTimeoutMs: 2000, codec: zlibCodec });
  ctx = { session: new SearchSession(store.db, store.codec), settings: defaultSettings(), modes: TWO_CHANNELS };
});

afterAll(async () => {
  store?.close();
  await ws?.cleanup();
});


describe('declarations (definition-first) read only the outlines of files that can declare the name', () => {
  it("reads no file with the record of file facts (its declarations' rows); without it, skips the meta of a file whose text and path never hold the name; the same declarations", async () => {
    const inflates: number[] = [];
    const counting: DeflateCodec = { deflateRaw: zlibCodec.deflateRaw, inflateRaw: (d, dict, size) => (inflates.push(d.length), zlibCodec.inflateRaw(d, dict, size)) };
    // A connection of its own (a session registers hci_path_ok on its connection).
    const own = await IndexStore.open(createNodeIndexStorage(ws.root), await loadEngine(), { create: false, lockTimeoutMs: 2000, codec: counting });
    let bumped = false;
    try {
      const files = own.db.selectObjects('SELECT id AS fileId, hash, path, lang FROM files ORDER BY path') as Array<{ fileId: number; hash: string; path: string; lang: string }>;
      const find = () => {
        const session = new SearchSession(own.db, counting);
        return session.withPathFilter(null, () => findDeclarations(session, ['ShippingRates'], files));
      };
      const found = find();
      expect(found.map((d) => [d.name, d.kind, files.find((f) => f.fileId === d.fileId)?.path])).toEqual([['ShippingRates', 'class', 'src/Shipping/ShippingRates.cs']]);
      // With this generation's file facts (file-facts.ts) no file is read: the declaration, its line and chunk are its row of file_declarations.
      expect(inflates.length).toBe(0);
      // Without them (a write that did not keep them): every file's text is read; the meta of the one file that holds the name only.
      own.db.exec("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'");
      bumped = true;
      inflates.length = 0;
      expect(find()).toEqual(found);
      expect(inflates.length).toBe(files.length + 1);
    } finally {
      if (bumped) own.db.exec("UPDATE meta SET value = CAST(value AS INTEGER) - 1 WHERE key = 'generation'");
      own.close();
    }
  });
});

describe('the channel seam', () => {
  it('takes a second channel from the mode table: its candidates are fused, reranked, capped, rendered and explained', async () => {
    await store.read((db) => {
      const ranked = rankQuery(ctx, { query: 'ShippingRates' }, 10);
      const paths = ranked.ranked.map((c) => c.path);
      // Only the path channel finds Zones.cs (no "shipping" in it).
      expect(paths).toContain('src/Shippers/Zones.cs');
      const zones = ranked.ranked.find((c) => c.path === 'src/Shippers/Zones.cs')!;
      expect(zones.hitKind).toBe('text_vector');
      expect(zones.channels.map((e) => e.channel.name)).toEqual(['paths']);
      // Found by both: FTS's score is the fused base, and rerank's factors apply on top.
      const rates = ranked.ranked.find((c) => c.path === 'src/Shipping/ShippingRates.cs')!;
      expect(rates.hitKind).toBe('hybrid');
      expect(rates.channels.map((e) => e.channel.name)).toEqual(['fts', 'paths']);
      expect(rates.base).toBe(channelEntry(rates, 'fts')!.score);
      expect(rates.factors.map((f) => f.name)).toEqual(expect.arrayContaining(['definition_like', 'file_name_match']));
      expect(ranked.ranked[0]).toBe(rates);
      // The per-file cap holds for the fused list too.
      const perFile = new Map<string, number>();
      for (const p of paths) perFile.set(p, (perFile.get(p) ?? 0) + 1);
      expect(Math.max(...perFile.values())).toBeLessThanOrEqual(ctx.settings.max_hits_per_file);

      const page = searchPage(ctx, { query: 'ShippingRates' }, { offset: 0, limit: 10 }, 'k');
      const hit = page.hits.find((h) => h.path === 'src/Shippers/Zones.cs')!;
      expect(hit.hit_kind).toBe('text_vector');
      expect(hit.fts_score).toBeUndefined(); // the path channel has no contract score field
      expect(page.hits.find((h) => h.path === 'src/Shipping/ShippingRates.cs')?.hit_kind).toBe('hybrid');

      const x = explainChunk(db, loadChunk(db, rates.chunkId, store.codec)!, ranked, store.codec);
      expect(x.channels?.fts).toMatchObject({ hit_kind: 'text_fts', rank: expect.any(Number), terms: 'all', column_weights: { symbol: 6 } });
      // The path channel's own rank and score: third-shortest of the three paths it matched.
      expect(x.channels?.paths).toEqual({ hit_kind: 'text_vector', rank: 3, score: 0.333, matched_path: 'src/Shipping/ShippingRates.cs' });
      expect(x.fts).toMatchObject({ score: x.channels!.fts.score, bm25: -x.channels!.fts.score });
      const zx = explainChunk(db, loadChunk(db, zones.chunkId, store.codec)!, ranked, store.codec);
      expect(Object.keys(zx.channels ?? {})).toEqual(['paths']);
      expect(zx.fts).toBeUndefined();
    });
  });

  it('gives the second channel the path filter of the search', async () => {
    await store.read(() => {
      const ranked = rankQuery(ctx, { query: 'shipping', exclude_paths: ['src/Shippers/Zones.cs'] }, 10);
      expect(ranked.filtered).toBe(true);
      expect(ranked.ranked.map((c) => c.path)).not.toContain('src/Shippers/Zones.cs');
      expect(ranked.ranked.length).toBeGreaterThan(0);
      // Outside a search the filter is off again.
      expect(ctx.session.filtered).toBe(false);
    });
  });

  it('answers keyword mode with FTS alone by default, and an unconfigured mode with mode_unavailable', async () => {
    const viaTable = await store.read(() => searchPage({ ...ctx, modes: DEFAULT_MODES }, { query: 'shipping', limit: 10 }, { offset: 0, limit: 10 }, 'k').hits);
    expect(viaTable.map((h) => h.path)).not.toContain('src/Shippers/Zones.cs');
    const w = await openWorkspace(ws.root);
    try {
      const viaWorkspace = (await w.search({ query: 'shipping', limit: 10 })).hits;
      expect(viaWorkspace.map((h) => [h.path, h.score, h.fts_score, h.hit_kind])).toEqual(viaTable.map((h) => [h.path, h.score, h.fts_score, 'text_fts']));
    } finally {
      w.close();
    }
    expect(() => modeRow('hybrid')).toThrow(expect.objectContaining({ code: 'mode_unavailable' }));
    expect(modeRow('keyword', TWO_CHANNELS).channels).toHaveLength(2);
  });
});

describe('paging and the token budget', () => {
  it('round-trips cursors and rejects foreign ones', () => {
    for (const n of [0, 1, 8, 35, 36, 1234567]) expect(decodeCursor(encodeCursor(n))).toBe(n);
    expect(decodeCursor(undefined)).toBe(0);
    expect(decodeCursor('')).toBe(0);
    for (const bad of ['garbage', 'o', 'oZZ', 'x12', 'o123456789']) expect(() => decodeCursor(bad)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
    // The literal channel's hit cap follows the ranking depth, never the page (depth.ts): 4 × the depth
    // within [MIN_TEXT_HITS, MAX_TEXT_HITS] (tiers 10, 40, 160: 64, 160, 200); a cursor holds only its offset.
    expect(pageRange({})).toEqual({ offset: 0, limit: 8 });
    expect(pageRange({ limit: 3, cursor: encodeCursor(6) })).toEqual({ offset: 6, limit: 3 });
    expect([textHitCap(10), textHitCap(30), textHitCap(40), textHitCap(160), textHitCap(640)]).toEqual([MIN_TEXT_HITS, 120, 160, MAX_TEXT_HITS, MAX_TEXT_HITS]);
    // A cursor of the last version (its first page's cap after the dot) still reads as its offset.
    expect(pageRange({ limit: 50, cursor: 'oa.1s' })).toEqual({ offset: 10, limit: 50 });
    for (const bad of ['o1.', 'o1.0', `o1.${(MAX_TEXT_HITS + 1).toString(36)}`, 'o1.zzz']) expect(() => pageRange({ cursor: bad })).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
  });

  it('keeps the leading items that fit, always the first, and says when it cut', () => {
    const items = [{ t: 'a'.repeat(40) }, { t: 'b'.repeat(40) }, { t: 'c'.repeat(40) }];
    const each = estimateTokens(items[0]);
    expect(fitTokenBudget(items, 100 + 3 * each, 100)).toEqual({ kept: items, truncated: false });
    expect(fitTokenBudget(items, 100 + 2 * each, 100)).toEqual({ kept: items.slice(0, 2), truncated: true });
    expect(fitTokenBudget(items, 100 + 2 * each - 1, 100)).toEqual({ kept: items.slice(0, 1), truncated: true });
    expect(fitTokenBudget(items, 10, 100)).toEqual({ kept: items.slice(0, 1), truncated: true }); // the first always
    expect(fitTokenBudget([], 10, 100)).toEqual({ kept: [], truncated: false });
  });

  it('pages through the same ranking the budget cuts, with a cursor after the last hit shown', async () => {
    const w = await openWorkspace(ws.root);
    try {
      const all = await w.search({ query: 'shipping', limit: 10 });
      const cut = await w.search({ query: 'shipping', limit: 10, max_tokens: estimateTokens({ ...all, hits: [] }) + estimateTokens(all.hits[0]) + 1 });
      expect(cut.truncated).toBe(true);
      expect(cut.hits.map((h) => h.hit_id)).toEqual(all.hits.slice(0, 1).map((h) => h.hit_id));
      const rest = await w.search({ query: 'shipping', limit: 10, cursor: cut.next_cursor });
      expect(rest.hits.map((h) => h.hit_id)).toEqual(all.hits.slice(1).map((h) => h.hit_id));
      expect(rest.hits[0]?.rank).toBe(2);
    } finally {
      w.close();
    }
  });
});

describe('hints and signals read the parsed query', () => {
  it('says "within the filters" exactly when a filter applied', async () => {
    const w = await openWorkspace(ws.root);
    try {
      const hint = async (req: Parameters<HciWorkspace['search']>[0]) => (await w.search(req)).hint ?? '';
      expect(await hint({ query: 'zzzabsent path:' })).not.toMatch(/within the filters/); // an empty filter filters nothing
      expect(await hint({ query: '"zzzabsent path:src"' })).not.toMatch(/within the filters/); // a quoted phrase is no filter
      expect(await hint({ query: '"zzzabsent"file:src/' })).toMatch(/within the filters/); // a filter right after a phrase is one
      expect(await hint({ query: 'zzzabsent -path:docs/' })).toMatch(/within the filters/);
      expect(await hint({ query: 'zzzabsent', exts: ['cs'] })).toMatch(/within the filters/);
    } finally {
      w.close();
    }
  });

  it('ranks a query padded with spaces exactly as the query itself', async () => {
    const w = await openWorkspace(ws.root);
    try {
      const q = 'OrderingDb ConnectionStrings Server';
      const plain = await w.search({ query: q });
      const padded = await w.search({ query: `  ${q}  ` });
      expect(padded.hits.map((h) => [h.path, h.score])).toEqual(plain.hits.map((h) => [h.path, h.score]));
      const top = await w.explain(padded.hits[0].hit_id);
      expect(top.explanation?.factors?.map((f) => f.name)).toContain('definition_like');
    } finally {
      w.close();
    }
  });
});

describe('a damaged index met during a search', () => {
  it('answers index_corrupt with the rebuild hint (not query_failed), and `index --full` repairs it', async () => {
    await withTmpWorkspace(FILES, async (tmp) => {
      let w = await openWorkspace(tmp.root);
      await w.index();
      w.close();
      // Overwrite the root page of the FTS postings with garbage: the file opens, the search's MATCH reads it.
      const file = tmp.abs('.hci/index.sqlite');
      const probe = await IndexStore.open(createNodeIndexStorage(tmp.root), await loadEngine(), { create: false, lockTimeoutMs: 2000 });
      const { root, pageSize } = await probe.read((db) => ({
        root: Number(db.selectValue("SELECT rootpage FROM sqlite_master WHERE name = 'chunks_fts_data'")),
        pageSize: Number(db.selectValue('PRAGMA page_size')),
      }));
      probe.close();
      const fd = fs.openSync(file, 'r+');
      fs.writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (root - 1) * pageSize);
      fs.closeSync(fd);

      w = await openWorkspace(tmp.root);
      try {
        const r = await w.search({ query: 'shipping' });
        expect(r.status).toBe('error');
        expect(r.error?.code).toBe('index_corrupt');
        expect(r.error?.message).toMatch(/malformed|damaged/);
        expect(r.hint).toMatch(/hci index --full/);
        expect((await w.explain('1.abc', { query: 'shipping' })).error?.code).toBe('index_corrupt');
        await w.index({ full: true });
        expect((await w.search({ query: 'shipping' })).status).toBe('ok');
      } finally {
        w.close();
      }
    });
  });
});

describe('no process-wide state', () => {
  it("uses each workspace's own codec for its index blobs, side by side in one process", async () => {
    const counting = (inner: DeflateCodec) => {
      const n = { deflate: 0, inflate: 0 };
      const codec: DeflateCodec = {
        deflateRaw: (d, dict) => (n.deflate++, inner.deflateRaw(d, dict)),
        inflateRaw: (d, dict, size) => (n.inflate++, inner.inflateRaw(d, dict, size)),
      };
      return { n, codec };
    };
    await withTmpWorkspace(FILES, async (a) => {
      await withTmpWorkspace(FILES, async (b) => {
        const ca = counting(fflateCodec);
        const cb = counting(zlibCodec);
        const open = (root: string, deflate: DeflateCodec) => HciWorkspace.open({ fs: createNodeWorkspaceFs(root), storage: createNodeIndexStorage(root), deflate });
        const wa = await open(a.root, ca.codec);
        const wb = await open(b.root, cb.codec);
        try {
          // Two streams a file: its text and its meta (core/index/file-data.ts).
          await wa.index();
          expect(ca.n.deflate).toBe(2 * Object.keys(FILES).length);
          expect(cb.n.deflate).toBe(0);
          await wb.index();
          expect(cb.n.deflate).toBe(2 * Object.keys(FILES).length);
          const before = { ...ca.n };
          const rb = await wb.search({ query: 'shipping' });
          expect(rb.hits.length).toBeGreaterThan(0);
          expect(cb.n.inflate).toBeGreaterThan(0);
          expect(ca.n).toEqual(before);
          // Both write the same format: each reads the other's file.
          wa.close();
          const crossed = await open(a.root, cb.codec);
          try {
            expect((await crossed.search({ query: 'shipping' })).hits.map((h) => h.path)).toEqual(rb.hits.map((h) => h.path));
          } finally {
            crossed.close();
          }
        } finally {
          wa.close();
          wb.close();
        }
      });
    });
  });
});
