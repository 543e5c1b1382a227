// A page of hits names each hit's paired files (a view's code-behind, a component's scoped styles:
// core/search/pairs.ts) from the search's file list (SearchSession.indexedPaths), not by looking the
// candidate paths up in the files' path index: over HTTP that lookup was a descent of the index, a
// request per level, for every page. And the keyword passes take their candidates' file fields (path,
// hash, language, flags) from the pack's file list, which carries each file's hash (core/index/file-list.ts,
// SearchSession.packedFiles), instead of joining the files table: the pool's files rows were pages
// spread over the whole table (~0.3–0.5 MB of a first query on Avalonia). The sample workspace and
// 200 notes packed at 4 KB pages (its path index has leaves below its root, its files table many
// pages) and served by a real range server on 127.0.0.1: searches answer as the local index does and
// read no page of the path index (and, but for an extension filter, of the files table) but its root (read
// ahead on opening) — nor does scoring chunks a pass did not reach (a declaration's: ftsChannel.scoreChunks);
// which page belongs to which B-tree: SQLite's dbstat over the same file.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openRemoteIndex, openWorkspace } from '../runtimes/node/workspace.ts';
import type { HttpIndexStorage } from '../runtimes/shared/http-vfs.ts';
import { copyWorkspace, tmpDir } from './helpers/tmp-workspace.ts';
import { startRangeServer, type RangeServer } from './helpers/range-server.ts';
import { indexAndPack } from './helpers/published-index.ts';
import { SearchSession } from '../core/search/session.ts';
import { ftsChannel } from '../core/search/channels/fts.ts';
import { parseQuery } from '../core/search/query.ts';
import { fflateCodec } from '../core/index/fflate-codec.ts';
import type { Database } from '../core/sqlite/engine.ts';

const sample = path.resolve(import.meta.dirname, 'sample-workspace');
const remote = { revalidateMs: 3_600_000 };
const PATH_INDEX = 'sqlite_autoindex_files_1';

describe("paired files of a remote search's hits", () => {
  let root: string;
  let out: string;
  let server: RangeServer;

  beforeAll(async () => {
    root = copyWorkspace(sample, 'hci-pairs-');
    // More paths than one page of the path index holds.
    const notes = path.join(root, 'docs', 'release-notes-by-component-and-version');
    fs.mkdirSync(notes, { recursive: true });
    for (let i = 1; i <= 200; i++) fs.writeFileSync(path.join(notes, `component-release-note-number-${i}.md`), `# Note ${i}\n\nA release note, number ${i}.\n`);
    out = tmpDir('hci-pairs-out-');
    await indexAndPack(root, path.join(out, 'index.sqlite'), { pageSize: 4096 });
    server = await startRangeServer(out);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(out, { recursive: true, force: true });
  });

  /** Page number (from 1) → its B-tree, and a B-tree's root page. */
  async function pageOwners(): Promise<{ owner: Map<number, string>; rootOf(name: string): number }> {
    const owners = await openRemoteIndex(server.url('index.sqlite'), { remote });
    const storage = owners.host.storage as HttpIndexStorage;
    const db = storage.open(owners.engine);
    const owner = new Map((db.selectArrays('SELECT pageno, name FROM dbstat') as Array<[number, string]>).map(([p, n]) => [Number(p), n]));
    const roots = new Map((db.selectArrays('SELECT name, rootpage FROM sqlite_schema') as Array<[string, number]>).map(([n, p]) => [n, Number(p)]));
    db.close();
    owners.close();
    return { owner, rootOf: (name) => roots.get(name)! };
  }

  it('come from the file list: the same pairs as the local index, no page of the path index read but its root', async () => {
    const { owner, rootOf } = await pageOwners();
    const pathRoot = rootOf(PATH_INDEX);
    expect([...owner.values()].filter((n) => n === PATH_INDEX).length).toBeGreaterThan(1);

    const local = await openWorkspace(root);
    const pages: number[] = [];
    const ws = await openRemoteIndex(server.url('index.sqlite'), { remote: { ...remote, onPages: (first, count) => pages.push(...Array.from({ length: count }, (_, i) => first + i + 1)) } });
    try {
      for (const query of ['razor', 'MainWindow']) {
        const want = await local.search({ query, limit: 10 });
        const got = await ws.search({ query, limit: 10 });
        expect(want.hits.filter((h) => h.paired?.length).length).toBeGreaterThan(0);
        expect(got.hits.map((h) => [h.path, h.paired ?? []])).toEqual(want.hits.map((h) => [h.path, h.paired ?? []]));
      }
      expect(pages.filter((p) => owner.get(p) === PATH_INDEX && p !== pathRoot)).toEqual([]);
    } finally {
      ws.close();
      local.close();
    }
  });

  it("a keyword pass's files come from the file list too: the local answers, no page of the files table read but its root", async () => {
    const { owner, rootOf } = await pageOwners();
    expect([...owner.values()].filter((n) => n === 'files').length).toBeGreaterThan(4);
    const local = await openWorkspace(root);
    try {
      for (const query of ['release note number', 'component', 'Pricing', 'ext:md release', 'path:src PricingEngine']) {
        const pages: number[] = [];
        const ws = await openRemoteIndex(server.url('index.sqlite'), { remote: { ...remote, onPages: (first, count) => pages.push(...Array.from({ length: count }, (_, i) => first + i + 1)) } });
        try {
          const want = await local.search({ query, limit: 10 });
          const got = await ws.search({ query, limit: 10 });
          expect(got.hits.length, query).toBeGreaterThan(0);
          expect(got.hits).toEqual(want.hits);
          // (A filtered declaration lookup too: the files of the chunks named after it from the list, the path filter on the list's paths.)
          if (!query.startsWith('ext:')) expect(pages.filter((p) => owner.get(p) === 'files' && p !== rootOf('files')), query).toEqual([]);
        } finally {
          ws.close();
        }
      }
    } finally {
      local.close();
    }
  });
  it("scoring chunks a pass did not reach (a declaration's) takes their files from the list as well: the local hits, no page of the files table read but its root", async () => {
    const { owner, rootOf } = await pageOwners();
    const local = await openWorkspace(root);
    const pages: number[] = [];
    const ws = await openRemoteIndex(server.url('index.sqlite'), { remote: { ...remote, onPages: (first, count) => pages.push(...Array.from({ length: count }, (_, i) => first + i + 1)) } });
    const storage = ws.host.storage as HttpIndexStorage;
    const db = storage.open(ws.engine);
    try {
      const { value: ids } = await local.read((d) => (d.selectValues("SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path LIKE 'docs/release-notes%' ORDER BY c.id DESC LIMIT 40") as number[]).map(Number));
      expect(ids.length).toBe(40);
      const q = parseQuery('release note number');
      const { value: want } = await local.read((d) => ftsChannel.scoreChunks!(new SearchSession(d, fflateCodec), q, ids).map((h) => [h.row.chunkId, h.row.path, h.row.hash, h.score]));
      const session = new SearchSession(db, fflateCodec, (table, rowids) => storage.prefetchRows!(db, table, rowids), () => new ws.engine.sqlite3.oo1.DB(':memory:') as unknown as Database);
      const got = ftsChannel.scoreChunks!(session, q, ids).map((h) => [h.row.chunkId, h.row.path, h.row.hash, h.score]);
      expect(got).toEqual(want);
      expect(got.length).toBe(40);
      expect(pages.filter((p) => owner.get(p) === 'files' && p !== rootOf('files'))).toEqual([]);
    } finally {
      db.close();
      ws.close();
      local.close();
    }
  });
});
