// The writer's binding path (core/sqlite/fast-statement.ts) stores what oo1's bind() stores (and keeps
// integral doubles beyond 2^53 as REAL instead of wrapping them into int64):
// every value type, UTF-8 beyond ASCII and astral planes, strings and blobs larger than its scratch
// buffer, integers past 32 bits; and a failing statement throws oo1's own error type, result code
// included, leaving the statement usable.
// @lane unit
import { describe, it, expect } from 'vitest';
import { loadEngine } from '../core/sqlite/engine.ts';
import { FastStatement, Utf8Text, lastInsertRowId } from '../core/sqlite/fast-statement.ts';

describe('FastStatement', () => {
  it('binds UTF-8 bytes (Utf8Text, a parse worker\'s packed FTS values) as the TEXT their string binds', async () => {
    const engine = await loadEngine();
    const db = new engine.sqlite3.oo1.DB(':memory:', 'c');
    try {
      db.exec('CREATE TABLE t(a, b)');
      const st = new FastStatement(engine.sqlite3, db, db.prepare('INSERT INTO t(a, b) VALUES (?, ?)'));
      const texts = ['plain', '', 'naïve — 中文 😀', 'x'.repeat(300_000) + 'é'];
      for (const s of texts) st.run([s, new Utf8Text(new TextEncoder().encode(s))]);
      st.finalize();
      const back = db.selectArrays('SELECT b, typeof(b), a = b FROM t ORDER BY rowid') as Array<[string, string, number]>;
      expect(back).toEqual(texts.map((s) => [s, 'text', 1]));
    } finally {
      db.close();
    }
  });

  it('binds every value type as oo1 does', async () => {
    const engine = await loadEngine();
    const db = new engine.sqlite3.oo1.DB(':memory:', 'c');
    try {
      db.exec('CREATE TABLE t(id INTEGER PRIMARY KEY, a, b, c, d, e)');
      const st = new FastStatement(engine.sqlite3, db, db.prepare('INSERT INTO t(a, b, c, d, e) VALUES (?, ?, ?, ?, ?)'));
      const big = 'x'.repeat(300_000) + 'é😀' + 'y'.repeat(10);
      const blob = new Uint8Array(200_000).map((_, i) => i % 251);
      const rows: unknown[][] = [
        ['plain', 42, 2 ** 40 + 3, 1.5, null],
        ['naïve — 中文 😀', -7, -(2 ** 35), -0.25, new Uint8Array([0, 1, 255])],
        [big, 0, 123n, 1e300, blob],
        ['', 2147483647, 2147483648, Number.MIN_VALUE, new Uint8Array(0)],
      ];
      for (const r of rows) st.run(r as never);
      expect(lastInsertRowId(engine.sqlite3, db)).toBe(4);
      st.finalize();
      const back = db.selectArrays('SELECT a, b, c, d, e, typeof(c), typeof(e) FROM t ORDER BY id');
      expect(back[0]).toEqual(['plain', 42, 2 ** 40 + 3, 1.5, null, 'integer', 'null']);
      expect(back[1].slice(0, 4)).toEqual(['naïve — 中文 😀', -7, -(2 ** 35), -0.25]);
      expect([...(back[1][4] as Uint8Array)]).toEqual([0, 1, 255]);
      expect(back[2][0]).toBe(big);
      expect(back[2][2]).toBe(123);
      expect(back[2][3]).toBe(1e300);
      expect(back[2][4]).toEqual(blob);
      expect(back[3].slice(0, 4)).toEqual(['', 2147483647, 2147483648, Number.MIN_VALUE]);
    } finally {
      db.close();
    }
  });

  it('throws the SQLite error with its result code and stays usable', async () => {
    const engine = await loadEngine();
    const db = new engine.sqlite3.oo1.DB(':memory:', 'c');
    try {
      db.exec('CREATE TABLE u(k TEXT PRIMARY KEY)');
      const st = new FastStatement(engine.sqlite3, db, db.prepare('INSERT INTO u(k) VALUES (?)'));
      st.run(['a']);
      let err: unknown;
      try {
        st.run(['a']);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(engine.sqlite3.SQLite3Error);
      expect((err as { resultCode: number }).resultCode & 0xff).toBe(engine.sqlite3.capi.SQLITE_CONSTRAINT);
      expect(String((err as Error).message)).toMatch(/UNIQUE/);
      st.run(['b']);
      st.finalize();
      expect(db.selectValues('SELECT k FROM u ORDER BY k')).toEqual(['a', 'b']);
    } finally {
      db.close();
    }
  });
});
