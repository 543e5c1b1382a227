// The skipped files a short first page names (core/search/skipped-files.ts) are read from the
// `skipped` table once per index generation: a second search of the same generation matches the rows
// read before (the table is not read again), and a new generation (any index commit) reads it anew.
// The match rule itself is covered end to end by large-files.test.ts. Real WASM SQLite.
// @lane unit
import { describe, it, expect, afterEach } from 'vitest';
import { SearchSession } from '../core/search/session.ts';
import { SKIPPED_ROWS, skippedFilesMatching } from '../core/search/skipped-files.ts';
import { loadEngine } from '../core/sqlite/engine.ts';
import { fflateCodec } from '../core/index/fflate-codec.ts';

describe('skipped files named by a query', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(() => {
    for (const done of cleanups.splice(0).reverse()) done();
  });

  it('reads the skipped table once per index generation and again after a new one', async () => {
    const engine = await loadEngine();
    const db = new engine.sqlite3.oo1.DB(':memory:', 'c');
    cleanups.push(() => db.close());
    db.exec(`CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('generation', '1');
      CREATE TABLE skipped(path TEXT, reason TEXT);
      INSERT INTO skipped VALUES ('src/Icons/MaterialIcons.json', 'too_large'), ('assets/Logo.png', 'binary'), ('secrets/Icons.env', 'ignored')`);
    const session = new SearchSession(db, fflateCodec);
    const named = (q: string) => session.withPathFilter(null, () => skippedFilesMatching(session, q));

    // The rule: a stem naming the word; a reason a person chose (ignored) is never named.
    expect(named('material icons')).toEqual([{ path: 'src/Icons/MaterialIcons.json', reason: 'too_large' }]);
    expect(named('logo')).toEqual([{ path: 'assets/Logo.png', reason: 'binary' }]);
    // The rows read are the session's for this generation.
    const rows = session.withPathFilter(null, () => session.cached(SKIPPED_ROWS, () => null));
    expect(rows).toHaveLength(2);

    // A row written without a new generation is not seen: the search matched the rows it had read.
    db.exec("INSERT INTO skipped VALUES ('src/Themes/DarkTheme.xaml', 'too_large')");
    expect(named('dark theme')).toEqual([]);
    expect(session.withPathFilter(null, () => session.cached(SKIPPED_ROWS, () => null))).toBe(rows);

    // A commit bumps the generation: the table is read again.
    db.exec("UPDATE meta SET value = '2' WHERE key = 'generation'");
    expect(named('dark theme')).toEqual([{ path: 'src/Themes/DarkTheme.xaml', reason: 'too_large' }]);
    expect(session.withPathFilter(null, () => session.cached(SKIPPED_ROWS, () => null))).toHaveLength(3);
  });
});
