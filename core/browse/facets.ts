// How a query's matches spread over extensions and languages: the counts behind filter chips. Runs
// the query's FTS expression (every term; when no chunk holds them all, any term) and counts matching
// chunks and files per extension and language, under the request's path and kind filters but not its
// extension filter, so a chip can show what choosing another extension would give. Owns the
// counting; the query grammar is core/search/query.ts, the filters core/search/filters.ts.
import type { Database } from '../sqlite/engine.ts';
import { compilePathFilter, prepareRequestGlobs } from '../search/filters.ts';
import { ftsExpression, parseQuery } from '../search/query.ts';
import { extensionOf } from '../scan/languages.ts';
import { languageById } from '../languages/table.ts';
import type { FacetsRequest, FacetsResponse } from '../contract/browse.ts';

type Facets = Omit<FacetsResponse, 'index' | 'error'>;

interface Tally {
  files: number;
  chunks: number;
}

const filesByDb = new WeakMap<Database, { generation: string; byId: Map<number, { path: string; lang: string }> }>();

/** id → path and language of every indexed file, read once per index generation. */
function fileTable(db: Database): Map<number, { path: string; lang: string }> {
  const generation = String(db.selectValue("SELECT value FROM meta WHERE key = 'generation'") ?? '');
  const seen = filesByDb.get(db);
  if (seen && seen.generation === generation) return seen.byId;
  const rows = db.selectArrays('SELECT id, path, lang FROM files') as Array<[number, string, string]>;
  const byId = new Map(rows.map(([id, path, lang]) => [Number(id), { path, lang }]));
  filesByDb.set(db, { generation, byId });
  return byId;
}

function chunksPerFile(db: Database, expr: string): Array<[number, number]> {
  return db.selectArrays(
    'SELECT c.file_id, count(*) FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ? GROUP BY c.file_id',
    [expr],
  ) as Array<[number, number]>;
}

const byFilesThenName = <T extends Tally>(key: (t: T) => string) => (a: T, b: T) => b.files - a.files || b.chunks - a.chunks || (key(a) < key(b) ? -1 : 1);

/** Loads what countFacets needs for `req` (the glob matcher when a filter is a glob). */
export async function prepareFacets(req: FacetsRequest): Promise<void> {
  let parsed: ReturnType<typeof parseQuery> | undefined;
  try {
    parsed = parseQuery(req.query);
  } catch {
    // countFacets reports the query's error
  }
  await prepareRequestGlobs(req, parsed);
}

export function countFacets(db: Database, req: FacetsRequest): Facets {
  const parsed = parseQuery(req.query);
  const base: Facets = { status: 'empty', query: req.query, match: 'none', files: 0, chunks: 0, exts: [], langs: [] };
  const all = ftsExpression(parsed, 'all');
  if (!all) return { ...base, hint: 'the query has no searchable words' };
  let match: Facets['match'] = 'all';
  let perFile = chunksPerFile(db, all);
  if (perFile.length === 0 && parsed.clauses.length > 1) {
    perFile = chunksPerFile(db, ftsExpression(parsed, 'any')!);
    match = 'any';
  }
  const keep = compilePathFilter({
    paths: [...(req.paths ?? []), ...parsed.paths],
    excludePaths: [...(req.exclude_paths ?? []), ...parsed.excludePaths],
    excludeKinds: req.exclude_kinds,
  });
  const files = fileTable(db);
  const exts = new Map<string, Tally & { ext: string; lang: string }>();
  const langs = new Map<string, Tally & { lang: string; exts: Set<string> }>();
  let fileCount = 0;
  let chunkCount = 0;
  for (const [id, n] of perFile) {
    const f = files.get(Number(id));
    if (!f || (keep && !keep(f.path))) continue;
    const chunks = Number(n);
    const ext = extensionOf(f.path);
    fileCount++;
    chunkCount += chunks;
    const e = exts.get(`${ext}\0${f.lang}`) ?? { ext, lang: f.lang, files: 0, chunks: 0 };
    e.files++;
    e.chunks += chunks;
    exts.set(`${ext}\0${f.lang}`, e);
    const l = langs.get(f.lang) ?? { lang: f.lang, exts: new Set<string>(), files: 0, chunks: 0 };
    l.files++;
    l.chunks += chunks;
    l.exts.add(ext);
    langs.set(f.lang, l);
  }
  if (fileCount === 0) return { ...base, hint: 'no indexed chunk matches within the filters' };
  return {
    status: 'ok', query: req.query, match, files: fileCount, chunks: chunkCount,
    exts: [...exts.values()].sort(byFilesThenName((e) => e.ext)),
    langs: [...langs.values()]
      .map((l) => ({ lang: l.lang, files: l.files, chunks: l.chunks, exts: [...l.exts].sort(byLanguageOrder(l.lang)) }))
      .sort(byFilesThenName((l) => l.lang)),
  };
}

/** A language's extensions in the language table's order (its main extension first). */
function byLanguageOrder(lang: string): (a: string, b: string) => number {
  const row = languageById(lang);
  const order = [...(row?.extensions ?? []), ...(row?.otherExtensions ?? [])];
  const at = (e: string) => (order.indexOf(e) + order.length + 1) % (order.length + 1);
  return (a, b) => at(a) - at(b) || (a < b ? -1 : 1);
}
