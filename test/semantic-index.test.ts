// The semantic channel's store and indexing, against real index files: off by default (nothing
// trained or stored, keyword only, hybrid answers mode_unavailable); with `learned` on, a vector per
// chunk in sqlite-vec's BLOB layout, written, replaced and deleted with their files (unchanged chunk
// texts reuse their vectors), the model's bytes in the index; keyword mode identical with semantic
// on; a model change re-embeds without re-chunking or touching FTS; the format 3 → 4 migration (and on); the
// http provider (a stub on 127.0.0.1) wired through indexing, failing mid-run without harming
// keyword search, with status saying what is missing, and resuming from what it kept.
// @lane cli
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/index.ts';
import { startEmbedStub, type EmbedStub } from './helpers/embed-stub.ts';
import { createTmpWorkspace, type TmpWorkspace, tmpDir } from './helpers/tmp-workspace.ts';
import { FORMAT_VERSION } from '../core/index/schema.ts';
import { IndexStore } from '../core/index/store.ts';
import { loadEngine } from '../core/sqlite/engine.ts';
import { createNodeIndexStorage } from '../runtimes/node/node-storage.ts';
import { chunkTextsOfFiles, filesNeedingVectors, hashKey } from '../core/vector/store.ts';
import { h64, textHash, type TextHashKind } from '../core/vector/text-hash.ts';
import { settingDefaults } from '../core/settings-defaults.ts';
import { ROLE_SETTING } from '../core/search/roles.ts';

function sqlite3(file: string, sql: string): string {
  return execFileSync('sqlite3', [file, sql], { encoding: 'utf8' }).trim();
}

const SAMPLE = path.resolve(import.meta.dirname, 'sample-workspace');
const QUERIES = ['GetCatalogItemsAsync', 'where is the discount applied', 'connection string', 'order total', 'MaxItemsPerOrder', 'how are prices rounded'];

function copySample(): string {
  const dir = tmpDir('hci-sem-');
  // Without the checkout's own .hci (`npm start` indexes the sample workspace in place).
  fs.cpSync(SAMPLE, dir, { recursive: true, filter: (src) => path.basename(src) !== '.hci' });
  return dir;
}

function settings(root: string, toml: string): void {
  fs.mkdirSync(path.join(root, '.hci'), { recursive: true });
  fs.writeFileSync(path.join(root, '.hci', 'settings.toml'), toml);
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('semantic search off (the default)', () => {
  it('trains and stores nothing; hybrid and semantic answer mode_unavailable with a hint', async () => {
    const root = copySample();
    dirs.push(root);
    const w = await openWorkspace(root);
    try {
      const s = await w.index();
      expect(s.vectors).toBeUndefined();
      const file = path.join(root, '.hci/index.sqlite');
      expect(sqlite3(file, 'SELECT count(*) FROM vector_models')).toBe('0');
      expect(sqlite3(file, 'SELECT count(*) FROM chunk_vectors')).toBe('0');
      expect((await w.status()).vectors).toBeUndefined();
      for (const mode of ['hybrid', 'semantic'] as const) {
        const r = await w.search({ query: 'discount', mode });
        expect(r).toMatchObject({ status: 'error', error: { code: 'mode_unavailable' } });
        expect(r.hint).toMatch(/enabled = true/);
      }
    } finally {
      w.close();
    }
  });
});

describe('semantic search with the learned provider', () => {
  let root: string;
  let file: string;

  beforeAll(async () => {
    root = copySample();
    dirs.push(root);
    file = path.join(root, '.hci/index.sqlite');
    settings(root, '[semantic]\nenabled = true\n');
  });

  it('writes one int8 vector per chunk in sqlite-vec\'s layout and the model\'s bytes, in the index file', async () => {
    const w = await openWorkspace(root);
    try {
      const s = await w.index();
      expect(s.vectors).toMatchObject({ provider: 'learned', trained: true, train_reason: 'no model yet', error: null });
      expect(s.vectors!.with_vectors).toBe(s.vectors!.chunks);
      expect(sqlite3(file, 'SELECT count(*) FROM chunks')).toBe(String(s.vectors!.chunks));
      expect(sqlite3(file, 'SELECT count(*) FROM chunk_vectors')).toBe(String(s.vectors!.chunks));
      // Every vector: dims int8 bytes; every chunk has one; the model row keeps the key, scale and bytes.
      expect(sqlite3(file, 'SELECT DISTINCT length(vec) FROM chunk_vectors')).toBe('192');
      expect(sqlite3(file, 'SELECT count(*) FROM chunks c LEFT JOIN chunk_vectors v ON v.chunk_id = c.id WHERE v.chunk_id IS NULL')).toBe('0');
      const [provider, dims, quant, scale, bytes] = sqlite3(file, 'SELECT provider, dims, quantization, scale, length(data) FROM vector_models WHERE current = 1').split('|');
      expect([provider, dims, quant]).toEqual(['learned', '192', 'int8']);
      expect(Number(scale)).toBeGreaterThan(0);
      expect(Number(bytes)).toBeGreaterThan(10_000);
      const st = await w.status();
      expect(st.vectors).toMatchObject({ state: 'ready', provider: 'learned', coverage: 1, last_error: null });
      expect(st.vectors!.model).toMatch(/^learned\/ppmi-svd-sif-1@[0-9a-f]{16}\/192\/int8$/);
      expect(sqlite3(file, 'PRAGMA integrity_check')).toBe('ok');
    } finally {
      w.close();
    }
  });

  it('replaces a changed file\'s vectors and deletes a removed file\'s, in the transactions of their chunks; unchanged texts are not re-embedded', async () => {
    const w = await openWorkspace(root);
    try {
      const rel = 'src/Contoso.Shop.Application/Pricing/PricingEngine.cs';
      const before = sqlite3(file, `SELECT count(*) FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = '${rel}'`);
      const others = sqlite3(file, `SELECT group_concat(v.chunk_id || ':' || hex(v.vec), ',') FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id JOIN files f ON f.id = c.file_id WHERE f.path <> '${rel}' ORDER BY v.chunk_id`);
      const text = fs.readFileSync(path.join(root, rel), 'utf8');
      fs.writeFileSync(path.join(root, rel), `${text}\n// a trailing comment about loyalty points and coupons\n`);
      const s = await w.index();
      expect(s.files_indexed).toBe(1);
      expect(s.vectors).toMatchObject({ trained: false, error: null });
      // Its chunks got new ids; every chunk but the one that changed kept its vector (reused, not embedded).
      expect(s.vectors!.reused).toBeGreaterThanOrEqual(Number(before) - 1);
      expect(s.vectors!.embedded).toBeGreaterThanOrEqual(1);
      expect(s.vectors!.embedded).toBeLessThanOrEqual(2);
      expect(sqlite3(file, 'SELECT count(*) FROM chunks c LEFT JOIN chunk_vectors v ON v.chunk_id = c.id WHERE v.chunk_id IS NULL')).toBe('0');
      expect(sqlite3(file, 'SELECT count(*) FROM chunk_vectors v LEFT JOIN chunks c ON c.id = v.chunk_id WHERE c.id IS NULL')).toBe('0');
      expect(sqlite3(file, `SELECT group_concat(v.chunk_id || ':' || hex(v.vec), ',') FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id JOIN files f ON f.id = c.file_id WHERE f.path <> '${rel}' ORDER BY v.chunk_id`)).toBe(others);

      fs.rmSync(path.join(root, rel));
      const d = await w.index();
      expect(d.files_removed).toBe(1);
      expect(sqlite3(file, 'SELECT count(*) FROM chunk_vectors')).toBe(sqlite3(file, 'SELECT count(*) FROM chunks'));
      expect(sqlite3(file, 'SELECT count(*) FROM chunk_vectors v LEFT JOIN chunks c ON c.id = v.chunk_id WHERE c.id IS NULL')).toBe('0');
      fs.writeFileSync(path.join(root, rel), text);
      await w.index();
    } finally {
      w.close();
    }
  });

  it('keeps keyword mode exactly as it is with semantic search off', async () => {
    const plain = copySample();
    dirs.push(plain);
    const off = await openWorkspace(plain);
    const on = await openWorkspace(root);
    try {
      await off.index({ full: true });
      await on.index({ full: true });
      const strip = (h: { hit_id: string }) => ({ ...h, hit_id: h.hit_id.split('.')[1] });
      for (const query of QUERIES) {
        const a = await off.search({ query, limit: 10 });
        const b = await on.search({ query, limit: 10, mode: 'keyword' });
        const c = await on.search({ query, limit: 10 });
        expect(b.hits.map((h) => `${h.path}:${h.start_line}`), query).toEqual(a.hits.map((h) => `${h.path}:${h.start_line}`));
        expect(b.hits.map(strip)).toEqual(a.hits.map(strip));
        expect(c.hits).toEqual(b.hits);
        expect(b.hits.every((h) => h.hit_kind === 'text_fts' && h.vec_score === undefined && h.fts_norm === undefined)).toBe(true);
      }
    } finally {
      off.close();
      on.close();
    }
  });

  it('answers hybrid and semantic: both channels\' scores, normalised values, hit kinds, and explain with weights and route', async () => {
    const w = await openWorkspace(root);
    try {
      // Three content words: routed to both channels (routing = true sends identifier-like and ≤ 2-term queries to keyword only).
      const kw = await w.search({ query: 'where is the order discount applied', limit: 8 });
      const hy = await w.search({ query: 'where is the order discount applied', limit: 8, mode: 'hybrid' });
      const routed = await w.search({ query: 'where is the discount applied', limit: 8, mode: 'hybrid' });
      expect(routed.hint).toBe('keyword results only (2 content terms)');
      expect(hy.status).toBe('ok');
      expect(hy.mode).toBe('hybrid');
      // The guard: keyword's first 3 files keep their places.
      const files = (r: typeof kw) => [...new Set(r.hits.map((h) => h.path))];
      expect(files(hy).slice(0, 3)).toEqual(files(kw).slice(0, 3));
      for (const h of hy.hits) {
        expect(h.fts_norm).toBeGreaterThanOrEqual(0);
        expect(h.vec_norm).toBeGreaterThanOrEqual(0);
        if (h.hit_kind === 'text_fts') expect(h.fts_score).toBeTypeOf('number');
        if (h.hit_kind === 'text_vector') expect(h.fts_score).toBeUndefined();
        if (h.hit_kind !== 'text_fts') expect(h.vec_score).toBeTypeOf('number');
      }
      const sem = await w.search({ query: 'where is the order discount applied', limit: 8, mode: 'semantic' });
      expect(sem).toMatchObject({ status: 'ok', match: 'similar' });
      expect(sem.hits.every((h) => h.hit_kind === 'text_vector' && h.fts_score === undefined && typeof h.vec_score === 'number')).toBe(true);
      const x = await w.explain(hy.hits[0].hit_id);
      expect(x.explanation?.fusion).toMatchObject({ mode: 'hybrid', route: 'hybrid', weights: { keyword: 0.65, vector: 0.35 }, guard: 3, guarded: true });
      expect(Object.keys(x.explanation!.channels!)).toContain('fts');
      const v = sem.hits[0];
      const vx = await w.explain(v.hit_id);
      expect(vx.explanation?.channels?.vector).toMatchObject({ hit_kind: 'text_vector', rank: 1, model: expect.stringMatching(/^learned\//) });
      // similar reads a hit id as explain does (query-log's parseHitId): a hit's chunk, or invalid_hit_id.
      expect(await w.similar({ hit_id: v.hit_id, limit: 3 })).toMatchObject({ status: 'ok', source: { kind: 'hit', path: v.path, start_line: v.start_line } });
      // similar's next_cursor continues its one list: pages of 3 followed by cursor = one page of 12.
      const whole = await w.similar({ hit_id: v.hit_id, limit: 12 });
      const paged: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 4; i++) {
        const page = await w.similar({ hit_id: v.hit_id, limit: 3, cursor });
        expect(page.status, page.error?.message).toBe('ok');
        paged.push(...page.hits.map((h) => h.hit_id));
        cursor = page.next_cursor;
        if (!cursor) break;
      }
      expect(whole.hits.length).toBe(12);
      expect(paged).toEqual(whole.hits.map((h) => h.hit_id));
      expect((await w.similar({ hit_id: v.hit_id, cursor: 'not a cursor' })).error?.code).toBe('invalid_cursor');
      expect((await w.similar({ hit_id: 'nonsense' })).error?.code).toBe('invalid_hit_id');
      expect((await w.similar({ hit_id: ' 12.x9 ' })).error?.code).not.toBe('invalid_hit_id');
    } finally {
      w.close();
    }
  });

  it('keyword_cosines: keyword-only hits are fused with their own cosine (vec_norm, explain); the guard and routing hold', async () => {
    // min_vector_score -1: every cosine counts, so keyword's hits past the vector list (explain ranks 200 deep) are scored too.
    const on = await openWorkspace(root, { settings: { semantic: { enabled: true, keyword_cosines: true, min_vector_score: -1 } } as never });
    const off = await openWorkspace(root, { settings: { semantic: { enabled: true, min_vector_score: -1 } } as never });
    try {
      await off.index();
      const q = 'where is the order discount applied';
      const a = await off.search({ query: q, limit: 30, mode: 'hybrid' });
      const b = await on.search({ query: q, limit: 30, mode: 'hybrid' });
      const files = (r: typeof a) => [...new Set(r.hits.map((h) => h.path))];
      expect(files(b).slice(0, 3)).toEqual(files(a).slice(0, 3));
      // Hits only keyword found: off, no vector value of their own (0, or their file's best); on, their cosine's.
      const kwOnly = (r: typeof a) => r.hits.filter((h) => h.hit_kind === 'text_fts');
      expect(kwOnly(b).length).toBeGreaterThan(0);
      expect(kwOnly(b).filter((h) => h.vec_norm! > 0).length).toBeGreaterThan(kwOnly(a).filter((h) => h.vec_norm! > 0).length);
      const fx = await Promise.all(b.hits.map(async (h) => ({ h, f: (await on.explain(h.hit_id)).explanation!.fusion! })));
      expect(fx.every(({ f }) => f.keyword_cosines === true)).toBe(true);
      const scored = fx.filter(({ f }) => f.vector.from === 'scored');
      expect(scored.length).toBeGreaterThan(0);
      for (const { h, f } of scored) {
        expect(h.hit_kind).toBe('text_fts');
        expect(f.vector.cosine).toBeTypeOf('number');
        expect(f.vector.normalized).toBeGreaterThanOrEqual(0);
        expect(f.vector.normalized).toBeLessThanOrEqual(1);
      }
      const ax = await Promise.all(a.hits.map(async (h) => (await off.explain(h.hit_id)).explanation!.fusion!));
      expect(ax.every((f) => f.keyword_cosines === false && f.vector.from !== 'scored' && f.vector.cosine === undefined)).toBe(true);
      // A routed query is keyword's answer either way.
      expect((await on.search({ query: 'DiscountPolicy', mode: 'hybrid' })).hits).toEqual((await off.search({ query: 'DiscountPolicy', mode: 'hybrid' })).hits);
    } finally {
      on.close();
      off.close();
    }
  });

  it('vector_roles: a hit\'s vector value is weighed by its path role factor (tests 0.3, docs 0.6 …), source unchanged; explain says so', async () => {
    // One ranking tier for a 50-hit page (rank_depth 50): past the depth, hits come from deeper tiers fused
    // over longer lists (core/search/depth.ts), whose min-max values differ; on and off must share a tier.
    const on = await openWorkspace(root, { settings: { rank_depth: 50, semantic: { enabled: true, vector_roles: true } } as never });
    const off = await openWorkspace(root, { settings: { rank_depth: 50, semantic: { enabled: true } } as never });
    const DEFAULTS = settingDefaults();
    try {
      await off.index();
      const q = 'tests for the order discount rules and their docs';
      const a = await off.search({ query: q, limit: 50, mode: 'hybrid' });
      const b = await on.search({ query: q, limit: 50, mode: 'hybrid' });
      const vecOf = new Map(a.hits.map((h) => [h.hit_id, h.vec_norm ?? 0]));
      const both = b.hits.filter((h) => (vecOf.get(h.hit_id) ?? 0) > 0);
      expect(both.length).toBeGreaterThan(5);
      const roleOf = async (id: string) => (await on.explain(id)).explanation!.role ?? { role: 'source', factor: 1 };
      const seen = new Set<string>();
      for (const h of both) {
        const { role, factor } = await roleOf(h.hit_id);
        seen.add(role);
        // The query names tests and docs: their factors are not applied (demo's, generated's are).
        const want = role === 'test' || role === 'docs' || role === 'source' ? 1 : DEFAULTS[ROLE_SETTING[role]];
        expect(factor).toBe(want);
        expect(Math.abs((h.vec_norm ?? 0) - vecOf.get(h.hit_id)! * want), `${h.path} (${role})`).toBeLessThanOrEqual(0.0011); // both rounded to 3 decimals
      }
      const plain = await on.search({ query: 'order discount rules checked', limit: 50, mode: 'hybrid' });
      const plainOff = new Map((await off.search({ query: 'order discount rules checked', limit: 50, mode: 'hybrid' })).hits.map((h) => [h.hit_id, h.vec_norm ?? 0]));
      const weighed = [];
      for (const h of plain.hits) {
        const before = plainOff.get(h.hit_id) ?? 0;
        if (before <= 0) continue;
        const { role, factor } = await roleOf(h.hit_id);
        const want = role === 'source' ? 1 : DEFAULTS[ROLE_SETTING[role]];
        // Explain shows the factor the vector value was weighed by (rerank's, or the fusion's for a vector-only hit).
        expect(factor, `${h.path} (${role})`).toBe(want);
        expect(Math.abs((h.vec_norm ?? 0) - before * want), `${h.path} (${role})`).toBeLessThanOrEqual(0.0011);
        if (want < 1) weighed.push(h.path);
      }
      expect(weighed.length).toBeGreaterThan(0);
      expect((await on.explain(plain.hits[0].hit_id)).explanation!.fusion!.vector_roles).toBe(true);
      expect((await off.explain(plain.hits[0].hit_id)).explanation!.fusion!.vector_roles).toBeUndefined();
    } finally {
      on.close();
      off.close();
    }
  });

  it('changing the model re-embeds every chunk without re-chunking or touching FTS', async () => {
    const CHUNK_ROWS = "SELECT group_concat(id || ',' || file_id || ',' || start_line || ',' || end_line, ';') FROM chunks ORDER BY id";
    const chunksBefore = sqlite3(file, CHUNK_ROWS);
    const ftsBefore = sqlite3(file, "SELECT group_concat(rowid, ',') FROM chunks_fts WHERE chunks_fts MATCH 'discount' ORDER BY rowid");
    const modelBefore = sqlite3(file, 'SELECT provider || model || dims FROM vector_models');
    settings(root, '[semantic]\nenabled = true\ndims = 128\n');
    const w = await openWorkspace(root);
    try {
      const s = await w.index();
      expect(s.files_indexed).toBe(0);
      expect(s.vectors).toMatchObject({ trained: true, train_reason: 'dims changed (192 → 128)' });
      expect(sqlite3(file, CHUNK_ROWS)).toBe(chunksBefore);
      expect(sqlite3(file, "SELECT group_concat(rowid, ',') FROM chunks_fts WHERE chunks_fts MATCH 'discount' ORDER BY rowid")).toBe(ftsBefore);
      expect(sqlite3(file, 'SELECT provider || model || dims FROM vector_models')).not.toBe(modelBefore);
      expect(sqlite3(file, 'SELECT count(*) FROM vector_models')).toBe('1');
      expect(sqlite3(file, 'SELECT DISTINCT length(vec) FROM chunk_vectors')).toBe('128');
    } finally {
      w.close();
      settings(root, '[semantic]\nenabled = true\n');
    }
  });
});

describe('the embedding cache key (chunk text hash, model) across hash functions', () => {
  /** Every chunk's id and its text's hash under `kind`, as the vector indexer computes them. */
  async function chunkHashes(root: string, kind: TextHashKind): Promise<Map<number, string>> {
    const store = await IndexStore.open(createNodeIndexStorage(root), await loadEngine(), { create: false, lockTimeoutMs: 5000 });
    try {
      return await store.read((db) => new Map(chunkTextsOfFiles(db, store.codec, filesNeedingVectors(db, null), { hash: kind }).map((t) => [t.id, hashKey(t.hash)])));
    } finally {
      store.close();
    }
  }
  const rowHashes = (file: string) => new Map(sqlite3(file, "SELECT group_concat(chunk_id || ':' || lower(hex(text_hash)), ',') FROM chunk_vectors").split(',').map((r) => r.split(':')).map(([id, h]) => [Number(id), h] as const));
  const fileVectors = (file: string, rel: string) => sqlite3(file, `SELECT group_concat(c.ordinal || ':' || hex(v.vec), ',') FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id JOIN files f ON f.id = c.file_id WHERE f.path = '${rel}' ORDER BY c.ordinal`);

  it('h64 is deterministic over UTF-16 code units and differs from sha256-8', () => {
    expect(hashKey(h64('public class Order {}'))).toBe(hashKey(textHash('public class Order {}', 'h64')));
    expect(hashKey(h64('ab'))).not.toBe(hashKey(h64('ba')));
    expect(hashKey(h64('a'))).not.toBe(hashKey(h64('a\u0000')));
    expect(hashKey(h64('x\ud800'))).not.toBe(hashKey(h64('x\udc00')));
    expect(hashKey(textHash('abc', 'sha256-8'))).toBe('ba7816bf8f01cfea'); // SHA-256("abc"), its first 8 bytes
    const seen = new Set(Array.from({ length: 20_000 }, (_, i) => hashKey(h64(`line ${i}\n`))));
    expect(seen.size).toBe(20_000);
  });

  it('a new model keys its vectors with h64; a model from before (sha256-8, no name in its row) keeps its cache hits; a mismatch is only a miss', async () => {
    const root = copySample();
    dirs.push(root);
    const file = path.join(root, '.hci/index.sqlite');
    settings(root, '[semantic]\nenabled = true\n');
    const rel = 'src/Contoso.Shop.Application/Pricing/PricingEngine.cs';
    const text = fs.readFileSync(path.join(root, rel), 'utf8');
    const w = await openWorkspace(root);
    try {
      await w.index();
      expect(sqlite3(file, "SELECT json_extract(info, '$.textHash') FROM vector_models WHERE current = 1")).toBe('h64');
      const h = await chunkHashes(root, 'h64');
      expect(rowHashes(file)).toEqual(h);
      const vectorsBefore = fileVectors(file, rel);
      const count = Number(sqlite3(file, `SELECT count(*) FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = '${rel}'`));

      // An index written before h64: the model row names no hash, its rows hold SHA-256 keys.
      const sha = await chunkHashes(root, 'sha256-8');
      const store = await IndexStore.open(createNodeIndexStorage(root), await loadEngine(), { create: false, lockTimeoutMs: 5000 });
      try {
        await store.write((db) => {
          db.exec("UPDATE vector_models SET info = json_remove(info, '$.textHash')");
          for (const [id, k] of sha) db.exec('UPDATE chunk_vectors SET text_hash = unhex(?) WHERE chunk_id = ?', { bind: [k, id] });
        });
      } finally {
        store.close();
      }
      fs.writeFileSync(path.join(root, rel), `${text}\n// a trailing comment about loyalty points\n`);
      const s = await w.index();
      expect(s.vectors).toMatchObject({ trained: false, error: null });
      // Its unchanged chunks were found by their SHA-256 keys (reused), the changed one embedded.
      expect(s.vectors!.reused).toBeGreaterThanOrEqual(count - 1);
      expect(s.vectors!.embedded).toBeLessThanOrEqual(2);
      expect(s.vectors!.with_vectors).toBe(s.vectors!.chunks);
      expect(sqlite3(file, "SELECT ifnull(json_extract(info, '$.textHash'), 'none') FROM vector_models WHERE current = 1")).toBe('none');
      expect(rowHashes(file)).toEqual(await chunkHashes(root, 'sha256-8'));

      // A row that names h64 over SHA-256 keys (a mix-up): nothing matches, every chunk of the file is embedded again — the same vectors.
      await (async () => {
        const st = await IndexStore.open(createNodeIndexStorage(root), await loadEngine(), { create: false, lockTimeoutMs: 5000 });
        try {
          await st.write((db) => db.exec(`UPDATE vector_models SET info = json_set(info, '$.textHash', 'h64')`));
        } finally {
          st.close();
        }
      })();
      fs.writeFileSync(path.join(root, rel), text);
      const m = await w.index();
      expect(m.vectors).toMatchObject({ trained: false, error: null, reused: 0 });
      expect(m.vectors!.embedded).toBe(count);
      expect(m.vectors!.with_vectors).toBe(m.vectors!.chunks);
      expect(fileVectors(file, rel)).toBe(vectorsBefore);
    } finally {
      w.close();
    }
  });
});

describe('the format 3 → 4 migration (then on to the current format)', () => {
  it('adds the vector tables empty and leaves keyword data untouched', async () => {
    const ws: TmpWorkspace = await createTmpWorkspace({ 'src/A.cs': 'namespace Demo;\npublic class Alpha { public void RunAlpha() { } }\n' });
    try {
      const w = await openWorkspace(ws.root);
      await w.index();
      w.close();
      const file = ws.abs('.hci/index.sqlite');
      // Make it a format-3 file: no vector tables, version 3.
      sqlite3(file, "DROP TABLE chunk_vectors; DROP TABLE vector_models; UPDATE meta SET value = '3' WHERE key = 'format_version';");
      const keyword = sqlite3(file, 'SELECT group_concat(id, \',\') FROM chunks') + sqlite3(file, 'SELECT hash FROM files');
      const w2 = await openWorkspace(ws.root);
      try {
        expect((await w2.search({ query: 'RunAlpha' })).hits[0]?.path).toBe('src/A.cs');
        expect(sqlite3(file, "SELECT value FROM meta WHERE key = 'format_version'")).toBe(String(FORMAT_VERSION));
        expect(sqlite3(file, 'SELECT count(*) FROM chunk_vectors') + sqlite3(file, 'SELECT count(*) FROM vector_models')).toBe('00');
        expect(sqlite3(file, 'SELECT group_concat(id, \',\') FROM chunks') + sqlite3(file, 'SELECT hash FROM files')).toBe(keyword);
      } finally {
        w2.close();
      }
    } finally {
      await ws.cleanup();
    }
  });
});

describe('the http provider wired through indexing (a stub on 127.0.0.1)', () => {
  let stub: EmbedStub;
  beforeAll(async () => {
    stub = await startEmbedStub(16);
  });
  afterAll(async () => stub?.close());

  it('embeds every chunk; fails mid-run without harming keyword search (status says what is missing); resumes from the vectors it kept', async () => {
    const root = copySample();
    dirs.push(root);
    const file = path.join(root, '.hci/index.sqlite');
    settings(root, `[semantic]\nenabled = true\nprovider = "http"\n[semantic.http]\napi = "ollama"\nbase_url = "${stub.url}"\nmodel = "stub-embed"\ndims = 16\nbatch_size = 16\nconcurrency = 1\nmax_retries = 0\nretry_base_ms = 0\n`);
    stub.failFrom = 3; // the 4th request fails
    let kept = 0;
    let w = await openWorkspace(root);
    try {
      const s = await w.index();
      expect(s.files_indexed).toBeGreaterThan(50);
      expect(s.vectors?.error).toMatchObject({ code: 'provider_http' });
      kept = Number(sqlite3(file, 'SELECT count(*) FROM chunk_vectors'));
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(s.vectors!.chunks);
      // Keyword search is whole; hybrid degrades to keyword with a hint; status says what failed.
      const r = await w.search({ query: 'GetCatalogItemsAsync' });
      expect(r.hits[0]?.path).toMatch(/Catalog/);
      const st = await w.status();
      expect(st.vectors).toMatchObject({ state: 'failed', provider: 'http', last_error: { code: 'provider_http' } });
      expect(st.vectors!.coverage).toBeLessThan(1);
      expect(st.vectors!.model).toBe('http/ollama:stub-embed/16/int8');
      // Only chunk text went to the server: every input is a chunk's path + header + body.
      expect(stub.texts.every((t) => t.startsWith('src/') || t.startsWith('docs/') || t.startsWith('tests/') || t.includes('\n'))).toBe(true);
    } finally {
      w.close();
    }
    stub.failFrom = null;
    const asked = stub.texts.length;
    w = await openWorkspace(root);
    try {
      const s2 = await w.index();
      expect(s2.vectors).toMatchObject({ error: null });
      expect(s2.vectors!.with_vectors).toBe(s2.vectors!.chunks);
      // The second run embedded only what the first did not keep.
      expect(stub.texts.length - asked).toBe(s2.vectors!.chunks - kept - s2.vectors!.reused);
      expect(Number(sqlite3(file, 'SELECT count(*) FROM chunk_vectors'))).toBe(s2.vectors!.chunks);
      expect((await w.status()).vectors).toMatchObject({ state: 'ready', coverage: 1, last_error: null });
      const hy = await w.search({ query: 'where is the order discount applied', mode: 'hybrid' });
      expect(hy.status).toBe('ok');
      expect(hy.hits.some((h) => h.vec_score !== undefined)).toBe(true);
    } finally {
      w.close();
    }
  });
});
