// Recent channel answers kept per index generation (SearchSession.recent, used by the FTS channel
// for searches without a path filter): a repeated query gets the same answer without running again,
// at most RECENT_ANSWERS are kept (least recently used goes first) — those to a query's first
// keystrokes (a one- or two-character word) apart, where longer queries do not push them out — a
// path filter is never served
// from them, and a new generation (any index commit) starts empty — so an edit shows at once.
// Through a real index on disk, the real WASM SQLite and a real workspace.
// @lane unit
import { describe, it, expect, afterEach } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/index.ts';
import { FIRST_KEY_ANSWERS, RECENT_ANSWERS, SearchSession } from '../core/search/session.ts';
import { ftsChannel } from '../core/search/channels/fts.ts';
import { parseQuery } from '../core/search/query.ts';
import { compilePathFilter } from '../core/search/filters.ts';
import { loadEngine } from '../core/sqlite/engine.ts';
import { fflateCodec } from '../core/index/fflate-codec.ts';
import { createTmpWorkspace } from './helpers/tmp-workspace.ts';

describe('recent channel answers', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const done of cleanups.splice(0).reverse()) await done();
  });

  /** A session over an in-memory index of one meta row (generation 1): `get` makes an answer the first time (`made` counts them). */
  async function bareSession() {
    const engine = await loadEngine();
    const db = new engine.sqlite3.oo1.DB(':memory:', 'c');
    cleanups.push(() => db.close());
    db.exec("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('generation', '1')");
    const session = new SearchSession(db, fflateCodec);
    const counter = { made: 0 };
    const get = (key: string, first = false) => session.withPathFilter(null, () => session.recent(key, () => ({ key, n: ++counter.made }), first));
    return { db, get, counter };
  }

  it('keeps the last RECENT_ANSWERS answers of a generation, least recently used out first, and drops them all with the generation', async () => {
    const { db, get, counter } = await bareSession();
    const first = get('q0');
    expect(get('q0')).toBe(first);
    expect(counter.made).toBe(1);
    for (let i = 1; i < RECENT_ANSWERS; i++) get(`q${i}`);
    expect(counter.made).toBe(RECENT_ANSWERS);
    get('q0'); // used again: now the most recent, so q1 is the one to go
    get('new');
    expect(counter.made).toBe(RECENT_ANSWERS + 1);
    expect(get('q0')).toBe(first);
    get('q1');
    expect(counter.made).toBe(RECENT_ANSWERS + 2); // q1 was dropped and made again
    db.exec("UPDATE meta SET value = '2' WHERE key = 'generation'");
    expect(get('q0')).not.toBe(first);
    expect(counter.made).toBe(RECENT_ANSWERS + 3);
  });

  it('keeps the answers to first keystrokes apart: RECENT_ANSWERS longer ones do not push them out', async () => {
    const { db, get, counter } = await bareSession();
    const n = get('n', true);
    for (let i = 0; i < RECENT_ANSWERS * 2; i++) get(`long${i}`);
    expect(get('n', true)).toBe(n);
    // They have a bound of their own, least recently used out first.
    for (let i = 0; i < FIRST_KEY_ANSWERS; i++) get(`k${i}`, true);
    expect(get('n', true)).not.toBe(n);
    db.exec("UPDATE meta SET value = '2' WHERE key = 'generation'");
    const again = get('k1', true);
    expect(get('k1', true)).toBe(again);
    expect(again.n).toBe(counter.made);
  });

  it('answers a repeated unfiltered FTS query from the same rows, runs a filtered one every time, and sees an edit after re-indexing', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`src/${i % 2 ? 'Billing' : 'Orders'}/Step${i}.cs`] = `namespace Shop;\n\npublic class Step${i}\n{\n    // settles the invoice ${i}\n    public int C${i} => ${i};\n}\n`;
    const ws = await createTmpWorkspace(files);
    cleanups.push(() => ws.cleanup());
    const w = await openWorkspace(ws.root);
    cleanups.push(() => w.close());
    await w.index();

    const engine = await loadEngine();
    const indexFile = path.join(ws.root, '.hci', 'index.sqlite');
    const db = new engine.sqlite3.oo1.DB(`file:${indexFile}?immutable=1`, 'r');
    cleanups.push(() => db.close());
    const session = new SearchSession(db, fflateCodec);
    const q = parseQuery('invoice');
    const unfiltered = () => session.withPathFilter(null, () => ftsChannel.search(session, q, 50));
    const once = unfiltered();
    expect(once.length).toBe(12);
    expect(unfiltered()).toBe(once);
    const billing = compilePathFilter({ paths: ['src/Billing'] });
    const filtered = () => session.withPathFilter(billing, () => ftsChannel.search(session, q, 50));
    const a = filtered();
    expect(a.map((h) => h.row.path).every((p) => p.startsWith('src/Billing/'))).toBe(true);
    expect(a.length).toBe(6);
    expect(filtered()).not.toBe(a);
    expect(filtered()).toEqual(a);
    // A one-letter query (every query's first keystroke) outlives RECENT_ANSWERS longer ones.
    const letter = () => session.withPathFilter(null, () => ftsChannel.search(session, parseQuery('C'), 50));
    const c = letter();
    expect(c.length).toBeGreaterThan(0);
    for (let i = 0; i < RECENT_ANSWERS; i++) session.withPathFilter(null, () => ftsChannel.search(session, parseQuery(`Step${i % 12} invoice`), 50 + i));
    expect(letter()).toBe(c);

    // Through the workspace: a repeated query, then an edit and a re-index, then the query again.
    const paths = async () => (await w.search({ query: 'parcel', limit: 20 })).hits.map((h) => h.path).sort();
    fs.writeFileSync(path.join(ws.root, 'src/Orders/Step0.cs'), 'namespace Shop;\n\npublic class Step0\n{\n    // ships the parcel\n}\n');
    await w.index();
    expect(await paths()).toEqual(['src/Orders/Step0.cs']);
    expect(await paths()).toEqual(['src/Orders/Step0.cs']);
    fs.writeFileSync(path.join(ws.root, 'src/Billing/Step1.cs'), 'namespace Shop;\n\npublic class Step1\n{\n    // bills the parcel\n}\n');
    await w.index();
    expect(await paths()).toEqual(['src/Billing/Step1.cs', 'src/Orders/Step0.cs']);
  });
});
