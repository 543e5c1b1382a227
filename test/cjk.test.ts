// CJK text: overlapping bigrams on both sides (core/search/cjk.ts). Over a fixture of real-style
// locale files, C#/AXAML comments and docs in Chinese, Japanese and Korean (mixed with identifiers),
// every 2–6-character substring of every CJK run is found at rank ≤ 3; mixed CJK/Latin queries,
// explain's bigram matches, the empty cjk column of code without CJK, and the format 5 → 6 migration
// that rebuilds chunks_fts from the stored text.
// @lane cli
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { bigrams, cjkIndexText, cjkRuns, splitCjkWord } from '../core/search/cjk.ts';
import { parseQuery, ftsExpression } from '../core/search/query.ts';
import { FORMAT_VERSION } from '../core/index/schema.ts';
import { createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';
import { cjkCoverage } from '../bench/lib/cjk-coverage.ts';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'cjk');

function fixtureFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(FIXTURE, p).split(path.sep).join('/')] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(FIXTURE);
  return out;
}

function sqlite3(file: string, sql: string): string {
  const r = spawnSync('sqlite3', [file, sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

let ws: TmpWorkspace;
let w: HciWorkspace;
const files = fixtureFiles();

beforeAll(async () => {
  ws = await createTmpWorkspace(files, 'hci-cjk-');
  w = await openWorkspace(ws.root);
  await w.index();
});

afterAll(async () => {
  w?.close();
  await ws?.cleanup();
});

describe('the bigram function (one module, both sides)', () => {
  it('cuts CJK runs out of text and words, by code point, with NFKC', () => {
    expect(cjkRuns('// 保存SaveNow之前先检查磁盘空间')).toEqual(['保存', '之前先检查磁盘空间']);
    expect(cjkRuns('ユーザー設定、テーマカラー。')).toEqual(['ユーザー設定', 'テーマカラー']);
    expect(cjkRuns('저장하시겠습니까? 변경 내용')).toEqual(['저장하시겠습니까', '변경', '내용']);
    expect(cjkRuns('ﾃｰﾏ')).toEqual(['テーマ']); // half-width katakana, as a query is normalised
    expect(cjkRuns('public void Save() { }')).toEqual([]);
    expect(bigrams('不可逆')).toEqual(['不可', '可逆']);
    expect(bigrams('𠀋𠀌')).toEqual(['𠀋𠀌']);
    expect(splitCjkWord('Save保存Command')).toEqual({ runs: ['保存'], rest: ['Save', 'Command'] });
  });

  it('indexes each run as bigrams plus its last letter, and the other parts of mixed words', () => {
    expect(cjkIndexText('此修改将不可逆')).toBe('此修 修改 改将 将不 不可 可逆 逆');
    expect(cjkIndexText('保存SaveNow 第3章')).toBe('保存 存 SaveNow 第 3 章');
    expect(cjkIndexText('no CJK here: GetCatalogItemsAsync()')).toBe('');
  });

  it('queries a run as the phrase of its bigrams and one letter as a prefix', () => {
    expect(ftsExpression(parseQuery('不可逆'), 'all')).toBe('"不可 可逆"');
    expect(ftsExpression(parseQuery('保存 SaveNow'), 'all')).toBe('("savenow" OR "save now") AND "保存"');
    expect(ftsExpression(parseQuery('保存SaveNow'), 'all')).toBe('("savenow" OR "save now") AND "保存"');
    expect(ftsExpression(parseQuery('色'), 'all')).toBe('"色"*');
  });
});

describe('CJK search over the fixture', () => {
  it('finds runs inside longer runs (unicode61 alone found none of these)', async () => {
    for (const [q, file] of [
      ['不可逆', 'src/Ink.Controls/Assets/Locales/zh-CN.json'],
      ['元に戻せません', 'src/Ink.Controls/Assets/Locales/ja-JP.json'],
      ['사라집니다', 'src/Ink.Controls/Assets/Locales/ko-KR.json'],
      ['彩度', 'docs/ja-JP.md'],
    ] as const) {
      const r = await w.search({ query: q });
      expect(r.status, q).toBe('ok');
      expect(r.hits.map((h) => h.path), q).toContain(file);
      expect(r.hits[0].fts_score, q).toBeGreaterThan(0);
    }
  });

  it('answers mixed CJK and Latin queries (all terms), and an identifier glued to CJK text', async () => {
    const r = await w.search({ query: '磁盘空间 SaveNow' });
    // The first hits hold every term (the page may then be filled with partial matches: all_then_any).
    expect(r.match).toMatch(/^all/);
    expect(r.hits[0].path).toBe('src/Ink.Controls/Controls/AutoSaveEditor.cs');
    const glued = await w.search({ query: 'SaveNow', paths: ['src/Ink.Controls/Controls/AutoSaveEditor.cs'] });
    expect(glued.hits.length).toBeGreaterThan(0);
    const both = await w.search({ query: '重置为默认颜色 ResetToDefault' });
    expect(both.hits[0].path).toBe('src/Ink.Controls/Controls/ColorPicker.cs');
  });

  it('every 2–6-character substring of every CJK run is found at rank ≤ 3', async () => {
    const { substrings, failures } = await cjkCoverage(w, Object.values(files));
    expect(substrings).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  }, 120_000);

  it('explain shows the bigrams a CJK term matched, in the cjk field', async () => {
    const r = await w.search({ query: '恢复默认设置' });
    const x = await w.explain(r.hits[0].hit_id);
    expect(x.explanation?.matched_terms).toEqual([{ term: '恢复默认设置 (bigrams: 恢复 复默 默认 认设 设置)', fields: ['cjk'] }]);
    expect(x.explanation?.fts?.column_weights).toMatchObject({ cjk: 1 });
  });
});

describe('no cost on code without CJK', () => {
  it('leaves the cjk column empty: the same postings as before, plus one byte of row size', async () => {
    const plain = await createTmpWorkspace({ 'src/A.cs': 'namespace Demo;\npublic class A { public void Run() { } }\n' }, 'hci-cjk-plain-');
    const p = await openWorkspace(plain.root);
    try {
      await p.index();
      const file = plain.abs('.hci/index.sqlite');
      // Nothing in the cjk column (column 5): no instance of any term there.
      expect(sqlite3(file, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH '{cjk} : a* OR {cjk} : d*'")).toBe('0');
      expect(Number(sqlite3(file, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'run'"))).toBe(1);
    } finally {
      p.close();
      await plain.cleanup();
    }
  });
});

describe('the format 5 → 6 migration', () => {
  it('rebuilds chunks_fts with the cjk column from the stored text: CJK search works without re-reading files', async () => {
    const old = await createTmpWorkspace(files, 'hci-cjk-v5-');
    try {
      const a = await openWorkspace(old.root);
      await a.index();
      a.close();
      const file = old.abs('.hci/index.sqlite');
      // Turn it into a format-5 index: chunks_fts without the cjk column (its rows rebuilt the v5 way), no files_tri or files_grams.
      sqlite3(file, `
        DROP TABLE chunks_fts; DROP TABLE files_tri; DROP TABLE files_grams;
        CREATE VIRTUAL TABLE chunks_fts USING fts5(path, symbol, header, body, idents, content='', tokenize='porter unicode61 remove_diacritics 2');
        UPDATE meta SET value = '5' WHERE key = 'format_version'; DELETE FROM meta WHERE key = 'literal_index';`);
      const before = sqlite3(file, 'SELECT count(*) FROM files');
      const b = await openWorkspace(old.root);
      try {
        const r = await b.search({ query: '不可逆' });
        expect(r.status).toBe('ok');
        expect(r.hits.map((h) => h.path)).toContain('src/Ink.Controls/Assets/Locales/zh-CN.json');
        expect(sqlite3(file, "SELECT value FROM meta WHERE key = 'format_version'")).toBe(String(FORMAT_VERSION));
        expect(sqlite3(file, "SELECT value FROM meta WHERE key = 'literal_index'")).toBe('off');
        expect(sqlite3(file, 'SELECT count(*) FROM files')).toBe(before);
        expect(sqlite3(file, "INSERT INTO chunks_fts(chunks_fts) VALUES('integrity-check'); SELECT 'ok'")).toBe('ok');
        // Nothing to re-read: the next pass finds every file unchanged.
        const s = await b.index();
        expect(s.files_indexed).toBe(0);
      } finally {
        b.close();
      }
    } finally {
      await old.cleanup();
    }
  });
});
