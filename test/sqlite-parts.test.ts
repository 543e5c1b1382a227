// The browser build's cut of sqlite-wasm's JS glue (runtimes/browser/sqlite-parts.ts, applied by
// hciVitePlugin): on the glue hci pins, every unused part's block goes and nothing else — the result
// still parses, keeps oo1 and the opfs-sahpool VFS hci opens its indexes with, and is a fifth smaller;
// a glue laid out otherwise (a part missing or doubled) fails with the reason instead of shipping a
// half-cut file. That the cut glue runs is the browser lane's (test/browser-runtime.test.ts and the
// explorer's suites build with the plugin and index, search, export and import in Chromium).
// @lane unit
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { parseAst } from 'vite';
import { UNUSED_SQLITE_PARTS, withoutUnusedSqliteParts } from '../runtimes/browser/sqlite-parts.ts';
import { hciVitePlugin } from '../runtimes/browser/vite-plugin.ts';

const require = createRequire(import.meta.url);
const GLUE_PATH = require.resolve('@sqlite.org/sqlite-wasm').replace(/[^/\\]+$/, 'index.mjs');
const glue = fs.readFileSync(GLUE_PATH, 'utf8');

describe("sqlite-wasm's glue, cut for the browser build", () => {
  it('loses every unused part and keeps oo1 and opfs-sahpool; the rest is unchanged and parses', () => {
    const cut = withoutUnusedSqliteParts(glue);
    for (const { marker } of UNUSED_SQLITE_PARTS) {
      expect(glue).toContain(marker);
      expect(cut).not.toContain(marker);
    }
    for (const kept of ['sqlite3.installOpfsSAHPoolVfs = async function', 'sqlite3.oo1 = {', 'globalThis.sqlite3ApiBootstrap = async function sqlite3ApiBootstrap']) {
      expect(glue, kept).toContain(kept);
      expect(cut, kept).toContain(kept);
    }
    expect(cut.length).toBeLessThan(glue.length * 0.85);
    // Only whole blocks went: every line of the cut glue is a line of the glue, in the same order.
    const lines = glue.split('\n');
    let at = 0;
    for (const line of cut.split('\n')) {
      while (at < lines.length && lines[at] !== line) at++;
      expect(at, `"${line.slice(0, 80)}" is not the glue's next line`).toBeLessThan(lines.length);
      at++;
    }
    expect(() => parseAst(cut)).not.toThrow();
  });

  it('refuses a glue whose layout it does not know', () => {
    const kvvfs = UNUSED_SQLITE_PARTS.find((p) => p.part === 'kvvfs')!.marker;
    expect(() => withoutUnusedSqliteParts(glue.replace(kvvfs, 'if (sqlite3.config.disable?.vfs?.kv) return;'))).toThrow(/kvvfs \(0 blocks\)/);
    expect(() => withoutUnusedSqliteParts(glue.replace('if (sqlite3.config.disable?.vfs?.["opfs-sahpool"]) return;', ''))).toThrow(/opfs-sahpool \(0 blocks\)/);
    expect(() => withoutUnusedSqliteParts('export default 1;\n')).toThrow(/not the layout hci cuts/);
  });

  it('is what hciVitePlugin does to the glue, unless the app keeps the whole of it', () => {
    const transform = (opts?: Parameters<typeof hciVitePlugin>[0]) => {
      const t = hciVitePlugin(opts).transform as (code: string, id: string) => { code: string } | null;
      return t(glue, GLUE_PATH)?.code;
    };
    const cut = transform();
    expect(cut).toBeDefined();
    for (const { marker } of UNUSED_SQLITE_PARTS) expect(cut).not.toContain(marker);
    expect(cut).not.toContain('new Worker(new URL("sqlite3-worker1.mjs"');
    const full = transform({ fullSqlite: true });
    for (const { marker } of UNUSED_SQLITE_PARTS) expect(full).toContain(marker);
    expect(full).not.toContain('new Worker(new URL("sqlite3-worker1.mjs"');
    // Other modules pass through.
    expect((hciVitePlugin().transform as (code: string, id: string) => unknown)('export const x = 1;', '/app/src/main.ts')).toBeNull();
  });
});
