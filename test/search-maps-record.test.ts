// What the indexer records for a first search (core/index/file-list.ts recordFileList,
// core/search/variants.ts recordVariantGroups): the file list and the variant groups of the
// generation a whole-tree pass committed, and ignored by a search once a later write (a pass over
// some paths, any other write) bumped the generation without renewing them: it builds them then,
// the same as the record. Real index files in a temp folder, the real WASM SQLite.
// @lane unit
import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';
import { readPackedFileList } from '../core/index/file-list.ts';
import { fflateCodec } from '../core/index/fflate-codec.ts';
import { VARIANT_GROUPS_TABLE, packVariantGroups, recordedVariantGroups, variantGroups } from '../core/search/variants.ts';
import type { Database } from '../core/sqlite/engine.ts';

const fixture = new RankingFixture();
afterAll(() => fixture.close());

const strings = (lang: string) => JSON.stringify({ GREETING: `Hello in ${lang}`, FAREWELL: `Bye in ${lang}` }, null, 2);

/** The files table as the first search lists it (id order). */
const fromTable = (db: Database) => JSON.parse(String(db.selectValue('SELECT json_group_array(json_array(id, path, lang, flags)) FROM (SELECT * FROM files ORDER BY id)'))) as Array<[number, string, string, number]>;
const generation = (db: Database) => String(db.selectValue("SELECT value FROM meta WHERE key = 'generation'"));

describe('the file list and variant groups recorded by each indexing pass', () => {
  it('records them for a whole-tree pass generation; after a pass over one path or another write a search builds them itself, the same', async () => {
    const ws = await fixture.create({
      'src/App/Languages/de.json': strings('de'),
      'src/App/Languages/fr.json': strings('fr'),
      'src/App/Languages/pl.json': strings('pl'),
      'src/App/Languages/en.json': strings('en'),
      'src/App/Settings/Preferences.cs': cs('Settings', 'public sealed class Preferences\n{\n    public bool Enabled { get; set; }\n}'),
    });
    const { session } = await ws.searcher();
    const db = session.db;
    const check = () => {
      const rows = fromTable(db);
      expect(readPackedFileList(db, fflateCodec)).toEqual(rows);
      const expected = variantGroups(rows.map((r) => r[1]));
      expect(db.selectValue(`SELECT generation FROM ${VARIANT_GROUPS_TABLE}`)).toBe(generation(db));
      expect(recordedVariantGroups(db, fflateCodec)).toEqual(expected);
      return expected;
    };
    const first = check();
    expect(first.get('src/App/Languages/en.json')).toEqual({ key: 'src/App/Languages/{locale}.json', canonical: true });
    expect(first.size).toBe(4);
    // A pack deflates the record (bytes over HTTP); it reads the same.
    expect(db.selectValue(`SELECT typeof(data) FROM ${VARIANT_GROUPS_TABLE}`)).toBe('text');
    packVariantGroups(db, fflateCodec);
    expect(db.selectValue(`SELECT typeof(data) FROM ${VARIANT_GROUPS_TABLE}`)).toBe('blob');
    expect(recordedVariantGroups(db, fflateCodec)).toEqual(first);

    // A pass over one path (the watcher's): a new generation, the records left behind (a search builds them, below);
    // the next whole-tree pass records them again, with the new file in them.
    fs.writeFileSync(path.join(fixture.root, 'src/App/Languages/it.json'), strings('it'));
    const before = generation(db);
    await ws.index({ paths: ['src/App/Languages/it.json'] });
    expect(generation(db)).not.toBe(before);
    expect(readPackedFileList(db, fflateCodec)).toBeNull();
    expect(recordedVariantGroups(db, fflateCodec)).toBeNull();
    const built = session.withPathFilter(null, () => ({ files: session.indexedFiles(), groups: session.variantGroups() }));
    expect(built.files.map((f) => [f.fileId, f.path, f.lang, f.flags])).toEqual(fromTable(db));
    expect(built.groups).toEqual(variantGroups(fromTable(db).map((f) => f[1])));
    await ws.index();
    expect(check().get('src/App/Languages/it.json')).toEqual({ key: 'src/App/Languages/{locale}.json', canonical: false });

    // A whole-tree pass that changed nothing keeps the generation and the records.
    const kept = generation(db);
    await ws.index();
    expect(generation(db)).toBe(kept);
    check();

    // A write that bumps the generation without renewing them (as a vector fill or a compaction does): no record is trusted,
    // and a search's session builds the same list and groups itself.
    db.exec("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'");
    expect(readPackedFileList(db, fflateCodec)).toBeNull();
    expect(recordedVariantGroups(db, fflateCodec)).toBeNull();
    const r = await ws.search({ query: 'Hello in it' });
    expect(r.hits.length).toBeGreaterThan(0);
    const rebuilt = session.withPathFilter(null, () => ({ files: session.indexedFiles(), groups: session.variantGroups() }));
    expect(rebuilt.files.map((f) => [f.fileId, f.path, f.lang, f.flags])).toEqual(fromTable(db));
    expect(rebuilt.groups).toEqual(variantGroups(fromTable(db).map((f) => f[1])));
  });
});
