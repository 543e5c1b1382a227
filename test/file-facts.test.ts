// The record of what a search asks of a file before decoding it (core/search/file-facts.ts): the
// names its outline declares and whether a stored line is dead. Written by the writer with every file
// (a whole-tree pass, a pass over some paths), carried to each new generation by the indexer, filled
// again from the stored files by a whole-tree pass that finds it not current (an older index, a write
// by other code); declarations (declarations.ts) then decode only the files it says may declare a
// name, and a file it does not mark is not scanned for dead lines — with what reading and scanning
// every file finds. Beside it, a row per live declaration (file_declarations: name line, chunk,
// type parameters): an exact name's declarations are read from it with no file decoded, and they
// are what the outlines give. Real index files in a temp folder, the real WASM SQLite.
// @lane unit
import { describe, it, expect, afterAll, vi } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';
import type { Database } from '../core/sqlite/engine.ts';
import { fflateCodec } from '../core/index/fflate-codec.ts';
import { readStoredFile } from '../core/index/file-data.ts';
import { DECLS_TABLE, FILE_FACTS_TABLE, factsOf, fileFactsCurrent } from '../core/search/file-facts.ts';
import { findDeclarations } from '../core/search/declarations.ts';

const fixture = new RankingFixture();
afterAll(() => fixture.close());

const generation = (db: Database) => String(db.selectValue("SELECT value FROM meta WHERE key = 'generation'"));

/** The table's rows, and what each stored file gives (the rows a fill from the stored files writes). */
const rows = (db: Database) => db.selectArrays(`SELECT file_id, names, dead FROM ${FILE_FACTS_TABLE} ORDER BY file_id`).map(([id, names, dead]) => [Number(id), String(names), Number(dead)]);
const fromStored = (db: Database) => (db.selectArrays('SELECT id, lang FROM files ORDER BY id') as Array<[number, string]>).flatMap(([id, lang]) => {
  const stored = readStoredFile(db, Number(id), fflateCodec)!;
  const f = factsOf(stored.outline, stored.lines, lang);
  return f.names || f.dead ? [[Number(id), f.names, f.dead ? 1 : 0]] : [];
});
/** The declarations' rows, and what each stored file and its chunks give. */
const declRows = (db: Database) => db.selectArrays(`SELECT file_id, seq, symbol, kind, line, chunk_id, arity FROM ${DECLS_TABLE} ORDER BY file_id, seq`).map((r) => r.map((v) => (typeof v === 'string' ? v : Number(v))));
const declFromStored = (db: Database) => (db.selectArrays('SELECT id, lang FROM files ORDER BY id') as Array<[number, string]>).flatMap(([id, lang]) => {
  const stored = readStoredFile(db, Number(id), fflateCodec)!;
  const chunks = (db.selectArrays('SELECT id, start_line, end_line FROM chunks WHERE file_id = ? ORDER BY ordinal', [Number(id)]) as number[][]).map(([cid, a, b]) => ({ id: Number(cid), startLine: Number(a), endLine: Number(b) }));
  return factsOf(stored.outline, stored.lines, lang, chunks).declarations.map((d) => [Number(id), d.seq, d.symbol, d.kind, d.line, chunks[d.chunk].id, d.arity]);
});
const idOf = (db: Database, p: string) => Number(db.selectValue('SELECT id FROM files WHERE path = ?', [p]));

describe('the record of file facts', () => {
  it('is kept by every pass, decodes and scans only the files it names, and finds what reading every file finds', async () => {
    const ws = await fixture.create({
      'src/App/Pricing/TariffTable.cs': cs('Pricing', 'public sealed class TariffTable\n{\n    public decimal Rate { get; set; }\n}'),
      'src/App/Pricing/Uses.cs': cs('Pricing', 'public sealed class Uses\n{\n    // TariffTable TariffTable TariffTable\n    public TariffTable Table { get; } = new TariffTable();\n}'),
      'src/App/Pricing/More.cs': cs('Pricing', 'public sealed class More\n{\n    public TariffTable Other() => new TariffTable();\n}'),
      'src/App/Pricing/Old.cs': cs('Pricing', 'public sealed class Old\n{\n    // public TariffTable Legacy() => new TariffTable();\n#if false\n    public TariffTable Gone { get; }\n#endif\n}'),
      'src/App/Pricing/GetTariffTable.cs': cs('Pricing', 'public static class Lookups\n{\n    public static object GetTariffTable() => new TariffTable();\n}'),
      'docs/tariffs.md': '# Tariffs\n\nThe TariffTable holds the rates.\n',
    });
    const { session } = await ws.searcher();
    const db = session.db;
    // Written by the pass that made the index, current at its generation; one row per file that declares a name or has a dead line.
    expect(fileFactsCurrent(db)).toBe(true);
    expect(rows(db)).toEqual(fromStored(db));
    expect(declRows(db)).toEqual(declFromStored(db));
    const declaring = idOf(db, 'src/App/Pricing/TariffTable.cs');
    const getter = idOf(db, 'src/App/Pricing/GetTariffTable.cs');
    const old = idOf(db, 'src/App/Pricing/Old.cs');
    expect(rows(db).filter((r) => r[2] === 1).map((r) => r[0])).toEqual([old]);

    const cands = () => (db.selectArrays('SELECT id, hash, path, lang FROM files ORDER BY id') as Array<[number, string, string, string]>)
      .map(([fileId, hash, p, lang]) => ({ fileId: Number(fileId), hash, path: p, lang }));
    const find = (names: string[], among = cands()) => {
      const get = vi.spyOn(session.files, 'get');
      const sql = vi.spyOn(session, 'arrays');
      try {
        const found = session.withPathFilter(null, () => findDeclarations(session, names, among));
        return { found, read: [...new Set(get.mock.calls.map((c) => c[0]))].sort((a, b) => a - b), sql: sql.mock.calls.map((c) => c[0]) };
      } finally {
        get.mockRestore();
        sql.mockRestore();
      }
    };
    // The dead-line maps a session scanned this generation (file-facts.ts deadLinesOf's cache).
    const scanned = () => [...session.withPathFilter(null, () => session.cached('dead-lines', () => new Map<string, Uint8Array>())).keys()].map((k) => Number(k.split(':')[0])).sort((a, b) => a - b);
    // The exact name: read from the declarations' rows, no file decoded (its chunk is the one holding
    // the name line; Old.cs's commented-out and `#if false` members have no row). A member name (a property): only the files declaring it, then
    // (no type declares it) the files declaring a name with it and an affix.
    const exact = find(['TariffTable']);
    expect(exact.found.map((d) => [d.fileId, d.name, d.level])).toEqual([[declaring, 'TariffTable', 'type']]);
    expect(exact.read).toEqual([]);
    const chunkAt = (d: { fileId: number; line: number }) => Number(db.selectValue('SELECT id FROM chunks WHERE file_id = ? AND start_line <= ? AND end_line >= ? ORDER BY ordinal LIMIT 1', [d.fileId, d.line, d.line]));
    expect(exact.found.map((d) => d.chunkId)).toEqual(exact.found.map(chunkAt));
    expect(db.selectValue(`SELECT count(*) FROM ${DECLS_TABLE} WHERE file_id = ?`, [old])).toBe(1);
    // The files that declare a name beyond the candidates' come from the record too: no lookup over the
    // chunks' symbols (FTS), the declaration found with no candidate at all.
    const alone = find(['Rate'], []);
    expect(alone.found.map((d) => [d.fileId, d.name, d.kind])).toEqual([[declaring, 'Rate', 'property']]);
    expect(alone.sql.filter((q) => /chunks_fts|symbol_name/.test(q))).toEqual([]);
    const member = find(['Tariff']);
    expect(member.read.every((id) => id === declaring || id === getter)).toBe(true);
    const page = async () => JSON.stringify((await ws.search({ query: 'TariffTable', limit: 10 })).hits);
    const withRecord = { exact: exact.found, member: member.found, page: await page() };
    // Rerank read every file holding the name; only the one with dead lines was scanned.
    expect(JSON.parse(withRecord.page).length).toBeGreaterThan(4);
    expect(scanned()).toEqual([old]);

    // Without a current record (a write that bumped the generation without keeping it) every file is read and scanned,
    // and the same declarations and the same page are found.
    db.exec("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'");
    expect(fileFactsCurrent(db)).toBe(false);
    const stale = find(['TariffTable']);
    // (Without it the lookups guess from chunk symbols: the property inside a one-chunk class is not found.)
    expect(find(['Rate'], []).found).toEqual([]);
    expect(stale.read.length).toBe(cands().length);
    expect(stale.found).toEqual(withRecord.exact);
    expect(find(['Tariff']).found).toEqual(withRecord.member);
    expect(await page()).toBe(withRecord.page);
    expect(scanned().length).toBeGreaterThan(1);

    // A whole-tree pass that changes nothing (no new generation) fills it again from the stored files.
    db.exec(`DELETE FROM ${FILE_FACTS_TABLE}; DELETE FROM ${DECLS_TABLE}`);
    const kept = generation(db);
    await ws.index();
    expect(generation(db)).toBe(kept);
    expect(fileFactsCurrent(db)).toBe(true);
    expect(rows(db)).toEqual(fromStored(db));
    expect(declRows(db)).toEqual(declFromStored(db));

    // A pass over some paths (the watcher's) keeps it: a changed file's row replaced, a deleted file's gone, current at the new generation.
    fs.writeFileSync(path.join(fixture.root, 'src/App/Pricing/More.cs'), cs('Pricing', 'public sealed class More\n{\n    // Cheaper(new TariffTable());\n    public TariffTable Cheaper() => new TariffTable();\n}'));
    fs.rmSync(path.join(fixture.root, 'src/App/Pricing/Uses.cs'));
    await ws.index({ paths: ['src/App/Pricing/More.cs', 'src/App/Pricing/Uses.cs'] });
    expect(generation(db)).not.toBe(kept);
    expect(fileFactsCurrent(db)).toBe(true);
    expect(rows(db)).toEqual(fromStored(db));
    const more = idOf(db, 'src/App/Pricing/More.cs');
    expect(rows(db).find((r) => r[0] === more)).toEqual([more, '\nmore\ncheaper\n', 1]);
    // The changed file's declarations replaced, the deleted file's gone.
    expect(declRows(db)).toEqual(declFromStored(db));
    expect(find(['Cheaper']).read).toEqual([]);
  });
});
