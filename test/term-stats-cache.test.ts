// The keyword statistics a search over several repositories keeps between searches
// (core/search/term-stats.ts StatsCache, used per repository by core/service/repo-search.ts): a real
// workspace indexed; the cache answers what corpusStats counts, counts a phrase once per index
// generation (a second search's phrases that were counted before run no counting statement), and
// counts again after a write — the new file's rows and phrase counts are in its next answer — and
// reads no head count of an expression one of whose clauses the index holds nowhere.
// @lane unit
import { describe, it, expect, afterAll } from 'vitest';
import { openWorkspace } from '../runtimes/node/workspace.ts';
import { StatsCache, corpusStats, headCount } from '../core/search/term-stats.ts';
import type { Database } from '../core/sqlite/engine.ts';
import { createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';
import { ALPHA } from './helpers/federation-repos.ts';

describe('keyword statistics kept between searches', () => {
  let tmp: TmpWorkspace | undefined;
  afterAll(async () => tmp?.cleanup());

  it('counts a phrase once per index generation, and again after a write', async () => {
    tmp = await createTmpWorkspace(ALPHA, 'hci-stats-cache-');
    const ws = await openWorkspace(tmp.root);
    try {
      await ws.index();
      const cache = new StatsCache();
      const counting: string[] = [];
      /** The connection, with every MATCH count it runs noted. */
      const watched = (db: Database): Database => new Proxy(db, {
        get: (target, key) => {
          const v = Reflect.get(target, key);
          if ((key !== 'selectValue' && key !== 'selectArrays') || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
          return (sql: string, bind?: unknown) => {
            if (/MATCH/.test(sql)) counting.push(String((bind as unknown[])?.[0]));
            return v.call(target, sql, bind);
          };
        },
      });
      const read = async (phrases: string[]) => (await ws.read((db) => ({ cached: cache.read(watched(db), phrases), direct: corpusStats(db, phrases) }))).value;

      const first = await read(['"gizmo"', '"hums"']);
      expect(first.cached).toEqual(first.direct);
      expect(first.cached.docs['"gizmo"']).toBe(1);
      expect(counting).toEqual(['"gizmo"', '"hums"']);
      counting.length = 0;
      // Counted before: no counting statement; a new phrase: only it.
      const second = await read(['"hums"', '"wheels"', '"gizmo"']);
      expect(second.cached).toEqual(second.direct);
      expect(counting).toEqual(['"wheels"']);
      counting.length = 0;
      // A write bumps the generation: everything is counted again, the new file included.
      await tmp.write({ 'docs/more.md': '# More\n\nAnother gizmo hums here.\n' });
      await ws.index();
      const third = await read(['"gizmo"', '"hums"']);
      expect(third.cached).toEqual(third.direct);
      expect(third.cached.docs['"gizmo"']).toBe(2);
      expect(third.cached.rows).toBeGreaterThan(first.cached.rows);
      expect(counting).toEqual(['"gizmo"', '"hums"']);
      counting.length = 0;

      // Head counts (how many complete matches a first pass keeps at its head): read once per
      // generation; none where the index holds a clause nowhere — nothing matches them all.
      const heads = async (clauses: string[]) => {
        const ask = { exprs: [clauses.join(' AND ')], cap: 2, clauses };
        return (await ws.read((db) => ({ cached: cache.read(watched(db), clauses, ask).heads, direct: headCount(db, ask.exprs[0], 2) }))).value;
      };
      const held = await heads(['"gizmo"', '"hums"']);
      expect(held.cached).toEqual({ '"gizmo" AND "hums"': held.direct });
      expect(held.direct).toBe(2);
      expect(counting).toEqual(['"gizmo" AND "hums"']);
      counting.length = 0;
      const lacking = await heads(['"gizmo"', '"sprocket"']);
      expect(lacking.cached).toEqual({ '"gizmo" AND "sprocket"': 0 });
      expect(lacking.direct).toBe(0);
      // Only the new clause counted: no head-count statement.
      expect(counting).toEqual(['"sprocket"']);
    } finally {
      ws.close();
    }
  });
});
