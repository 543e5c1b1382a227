// A file's rows made in a parse worker (core/index/ready-rows.ts) are the rows the writer's thread
// makes from the same bytes: the same blob, chunks, facts and counts, and FTS values that unpack to
// exactly what the writer derives from the blob (secret lines carved, CRLF, a BOM, CJK, invalid UTF-8,
// an empty and a binary file); RowsShare asks for
// rows in the share it keeps and moves it towards the thread that waits.
// @lane cli
import { describe, it, expect } from 'vitest';
import { Chunker } from '../core/chunk/chunker.ts';
import { TreeSitterHost } from '../core/chunk/treesitter.ts';
import { createNodeGrammarSource } from '../runtimes/node/grammars.ts';
import { zlibCodec } from '../runtimes/node/zlib-codec.ts';
import { defaultSettings } from '../core/settings.ts';
import { chunkLimits, classifyFile, finishFile } from '../core/index/prepare.ts';
import { fileRows } from '../core/index/writer.ts';
import { decodeFileData, storedChunkFts } from '../core/index/file-data.ts';
import { readyRows, rowSettings, transferables } from '../core/index/ready-rows.ts';
import { FTS_COLUMNS, packFts, packedFtsRow } from '../core/index/packed-fts.ts';
import { RowsShare } from '../core/index/read-ahead.ts';

const chunker = new Chunker(new TreeSitterHost(createNodeGrammarSource()));
const settings = defaultSettings();
const decoder = new TextDecoder();

const csharp = [
  'namespace Shop.Catalog;',
  '',
  '/// <summary>Reads the catalog.</summary>',
  'public class CatalogService : ICatalogService',
  '{',
  '    private readonly string _connectionString = "Server=db;Password=hunter2-very-secret-Pa55word";',
  '    public async Task<Item?> GetItemAsync(int id, CancellationToken ct)',
  '    {',
  '        return await _db.Items.FindAsync(id, ct);',
  '    }',
  '    public int Count => _items.Count;',
  '}',
];

const files: Array<{ path: string; lang: string; bytes: Uint8Array }> = [
  { path: 'src/Catalog/CatalogService.cs', lang: 'csharp', bytes: new TextEncoder().encode(csharp.join('\n') + '\n') },
  { path: 'src/Catalog/Crlf.cs', lang: 'csharp', bytes: new TextEncoder().encode('\uFEFF' + csharp.join('\r\n') + '\r\n') },
  { path: 'appsettings.json', lang: 'json', bytes: new TextEncoder().encode('{\n  "Db": {\n    "Password": "hunter2-very-secret-Pa55word"\n  },\n  "Name": "x",\n  "Other": 1\n}\n') },
  // A lone surrogate cannot reach UTF-8 bytes; the CJK and the invalid byte take the other decode paths.
  { path: 'docs/读我.md', lang: 'markdown', bytes: Uint8Array.from([...new TextEncoder().encode('# 标题 Title\n\nSome text about OrderService.\n\n## Next\nbad '), 0xff, 0x0a]) },
  { path: 'empty.cs', lang: 'csharp', bytes: new Uint8Array(0) },
  { path: 'Blob.cs', lang: 'csharp', bytes: Uint8Array.from([0x4d, 0x5a, 0, 0, 1, 2, 0, 0xff]) },
];

/** What the writer's thread makes of the bytes (read-ahead.ts's in-thread path, then indexer.ts's fileRows). */
async function inThread(f: (typeof files)[number]) {
  const c = classifyFile(f.bytes, { path: f.path, lang: f.lang, size: f.bytes.length, mtimeMs: 0, ext: '' }, settings);
  if (c.kind === 'skip') return c;
  const p = finishFile(c, await chunker.chunk(c.input, chunkLimits(settings)));
  if (p.kind !== 'file') throw new Error('a prepared file');
  const rows = fileRows(p.file, zlibCodec);
  const stored = decodeFileData(rows.data, zlibCodec, rows.rawLength);
  return { p, rows, fts: rows.chunks.map((ch, ordinal) => storedChunkFts(rows.path, stored, { ordinal, ...ch })) };
}

describe("a file's rows made in a parse worker (readyRows)", () => {
  it('are the rows the writer makes, with FTS values that unpack to what it derives from the blob', async () => {
    for (const f of files) {
      const ready = await readyRows(f.bytes, f, rowSettings(settings, false), chunker, zlibCodec);
      const own = await inThread(f);
      if ('reason' in own) {
        expect(ready, f.path).toEqual(own);
        continue;
      }
      if (ready.kind !== 'rows') throw new Error(`${f.path}: rows`);
      const { fts, ...rows } = ready.rows;
      // (The decoded source the writer's own rows carry is left out of the worker's unless asked for: below.)
      const expected = { ...own.rows };
      delete expected.known;
      expect(rows, f.path).toEqual(expected);
      expect([ready.bytes, ready.fallback, ready.parseErrors, ready.secretsFound], f.path).toEqual([own.p.bytes, own.p.fallback, own.p.parseErrors, own.p.secretsFound]);
      expect([fts.ends.length, fts.bodies.length], f.path).toEqual([rows.chunks.length * (FTS_COLUMNS - 1), rows.chunks.length * 2]);
      const unpacked = rows.chunks.map((_, ordinal) => packedFtsRow(fts, ordinal).map((v) => decoder.decode(v.bytes)));
      expect(unpacked, f.path).toEqual(own.fts);
    }
  });

  it('carries the secret carve: the JSON secret is neither in the blob nor in any FTS value', async () => {
    const f = files[2];
    const ready = await readyRows(f.bytes, f, rowSettings(settings, false), chunker, zlibCodec);
    if (ready.kind !== 'rows') throw new Error('rows');
    expect(ready.secretsFound).toBe(true);
    expect(decoder.decode(ready.rows.fts.utf8)).not.toContain('hunter2');
    expect(decodeFileData(ready.rows.data, zlibCodec).text).not.toContain('hunter2');
    expect(decoder.decode(ready.rows.fts.utf8)).toContain('Name');
  });

  it('keeps the decoded source only when asked (literal index or vectors), and hands over whole buffers to transfer', async () => {
    const f = files[0];
    const without = await readyRows(f.bytes, f, rowSettings(settings, false), chunker, zlibCodec);
    const withKnown = await readyRows(f.bytes, f, rowSettings(settings, true), chunker, zlibCodec);
    if (without.kind !== 'rows' || withKnown.kind !== 'rows') throw new Error('rows');
    expect(without.rows.known).toBeUndefined();
    // (The stored text: the secret's lines and their margin blanked.)
    expect(withKnown.rows.known?.text).toBe(decodeFileData(withKnown.rows.data, zlibCodec).text);
    expect(withKnown.rows.known?.text).toContain('FindAsync');
    const buffers = transferables(withKnown);
    const { fts } = withKnown.rows;
    expect(buffers).toEqual([withKnown.rows.data.buffer, fts.text.buffer, fts.bodies.buffer, fts.utf8.buffer, fts.ends.buffer]);
    for (const b of buffers) expect(b.byteLength).toBeGreaterThan(0);
    expect(transferables({ kind: 'skip', reason: 'binary' })).toEqual([]);
  });

  it('packs values whose UTF-8 needs up to four bytes, empty ones, and bodies as ranges of the text (past its end, or none)', () => {
    const text = 'héllo\n标题 😀\n\nlast';
    const lines = text.split('\n');
    const chunks = [
      { startLine: 1, endLine: 2 },
      { startLine: 2, endLine: 4 },
      { startLine: 3, endLine: 3 },
      { startLine: 4, endLine: 9 },
      { startLine: 6, endLine: 7 },
    ];
    const rows = chunks.map((c, i) => ['p', i % 2 ? '' : 'sym', 'héader', lines.slice(c.startLine - 1, c.endLine).join('\n'), '😀 x', '']);
    const packed = packFts(rows, text, chunks);
    expect(chunks.map((_, i) => packedFtsRow(packed, i).map((v) => decoder.decode(v.bytes)))).toEqual(rows);
    expect(packed.utf8.buffer.byteLength).toBe(packed.utf8.length);
  });
});

describe('RowsShare (which files a pool makes whole)', () => {
  it('asks for rows in the share it keeps, file after file', () => {
    const s = new RowsShare();
    expect(Array.from({ length: 10 }, () => s.next())).toEqual(Array(10).fill(true));
    s.share = 0.25;
    const asked = Array.from({ length: 400 }, () => s.next()).filter(Boolean).length;
    expect(asked).toBe(100);
    s.share = 0;
    expect(Array.from({ length: 10 }, () => s.next()).some(Boolean)).toBe(false);
  });

  it('moves the share down when this thread waits and up, more slowly, when the answer was there, within 0..1', () => {
    const s = new RowsShare();
    s.consumed(false);
    expect(s.share).toBe(1);
    for (let i = 0; i < 100; i++) s.consumed(true);
    expect(s.share).toBeCloseTo(1 - 100 * RowsShare.STEP_DOWN, 9);
    const low = s.share;
    for (let i = 0; i < 100; i++) s.consumed(false);
    expect(s.share).toBeCloseTo(low + (100 * RowsShare.STEP_DOWN) / RowsShare.UP_DOWN_RATIO, 9);
    for (let i = 0; i < 10_000; i++) s.consumed(true);
    expect(s.share).toBe(0);
    // Waiting for one file in UP_DOWN_RATIO + 1 holds it where it is.
    s.share = 0.5;
    for (let i = 0; i < 90; i++) s.consumed(i % (RowsShare.UP_DOWN_RATIO + 1) === 0);
    expect(s.share).toBeCloseTo(0.5, 9);
  });
});
