// What the indexer records for a first search (core/index/file-list.ts recordFileList,
// core/search/variants.ts recordVariantGroups, core/search/first-search-record.ts recordFileStems): the file
// list, the variant groups, the files by stem and the project files of the
// generation a whole-tree pass committed, and ignored by a search once a later write (a pass over
// some paths, any other write) bumped the generation without renewing them: it builds them then,
// the same as the record. Real index files in a temp folder, the real WASM SQLite.
// @lane unit
import { describe, it, expect, afterAll, vi } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';
import { readPackedFileList } from '../core/index/file-list.ts';
import { fflateCodec } from '../core/index/fflate-codec.ts';
import { VARIANT_GROUPS_TABLE, packVariantGroups, recordedVariantGroups, variantGroups } from '../core/search/variants.ts';
import type { Database } from '../core/sqlite/engine.ts';
import { FILE_STEMS_TABLE, recordedCounts, recordedProjectFiles, stemsOf } from '../core/search/first-search-record.ts';
import { countChunks, countFiles, countParseErrors } from '../core/search/session.ts';
import { ProjectMap } from '../core/search/roles.ts';

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

  it('records the files by stem, the project files and the counts; a first search reads no file list then, and answers as without the record', async () => {
    const ws = await fixture.create({
      'src/App/App.csproj': '<Project Sdk="Microsoft.NET.Sdk">\n</Project>\n',
      'check/Suite/Suite.csproj': '<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n    <PackageReference Include="xunit" Version="2.9.0" />\n  </ItemGroup>\n</Project>\n',
      'src/App/Pricing/TariffTable.cs': cs('Pricing', 'public sealed class TariffTable\n{\n    public decimal Rate { get; set; }\n}'),
      'src/App/Pricing/TariffTable.Designer.cs': cs('Pricing', 'public partial class Designer\n{\n}'),
      'src/App/Pricing/Uses.cs': cs('Pricing', 'public sealed class Uses\n{\n    // TariffTable TariffTable TariffTable TariffTable\n    public TariffTable Table { get; } = new TariffTable();\n}'),
      'check/Suite/TariffTableChecks.cs': cs('Suite', 'public sealed class TariffTableChecks\n{\n    public void TariffTable() { var t = new TariffTable(); }\n}'),
      'src/App/__proto__.cs': cs('App', 'public sealed class Odd\n{\n}'),
    });
    const { session } = await ws.searcher();
    const db = session.db;
    const rows = fromTable(db);
    const expected = new Map([...stemsOf(rows.map(([fileId, path]) => ({ fileId, path })))].map(([stem, fs]) => [stem, fs.map((f) => f.fileId)]));
    expect(expected.get('tarifftable')?.length).toBe(2);
    expect(expected.get('__proto__')?.length).toBe(1);
    expect(db.selectValue(`SELECT ids FROM ${FILE_STEMS_TABLE} WHERE stem = '/generation'`)).toBe(generation(db));
    for (const [stem, ids] of expected) expect(db.selectValue(`SELECT ids FROM ${FILE_STEMS_TABLE} WHERE stem = ?`, [stem])).toBe(ids.join(','));
    const projects = recordedProjectFiles(db)!;
    const all = rows.map(([fileId, path, lang, flags]) => ({ fileId, path, lang, flags }));
    expect(ProjectMap.fromFiles(projects)).toEqual(ProjectMap.fromFiles(all));
    expect(session.withPathFilter(null, () => recordedCounts(session))).toEqual({ files: countFiles(db), chunks: countChunks(db), parseErrors: countParseErrors(db) });
    expect(projects.map((f) => f.path)).toEqual(['check/Suite/Suite.csproj', 'src/App/App.csproj']);

    const answer = async () => (await ws.search({ query: 'TariffTable', limit: 5 })).hits.map((h) => JSON.stringify(h));
    const list = vi.spyOn(session, 'indexedFiles');
    // A pass that changed a file: a new generation (the session's caches emptied: the next search is a first one), recorded again.
    fs.appendFileSync(path.join(fixture.root, 'src/App/Pricing/Uses.cs'), '// TariffTable\n');
    await ws.index();
    expect(recordedProjectFiles(db)).not.toBeNull();
    const recorded = await answer();
    expect(JSON.parse(recorded[0]).path).toBe('src/App/Pricing/TariffTable.cs');
    // (A test file by its project alone — an xunit project: its role comes from the recorded project files.)
    expect(recorded.some((h) => JSON.parse(h).path.startsWith('check/'))).toBe(true);
    expect(list).not.toHaveBeenCalled();
    // Without a current record the session reads the file list: the same answer (hits, scores: roles weigh in them).
    db.exec("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'");
    expect(recordedProjectFiles(db)).toBeNull();
    expect(await answer()).toEqual(recorded);
    expect(list).toHaveBeenCalled();
    list.mockRestore();
  });
});
