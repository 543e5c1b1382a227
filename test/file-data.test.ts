// The per-file stored data of index format 7: what goes in comes back (text, headers, member keys,
// outline, file context), lines of dropped chunks are not kept, the blob is a short header and two
// standard raw deflate streams with the format's dictionary (the text readable without the meta;
// the one-stream blobs of formats 3–6 still read), FTS values of stored chunks equal the inserted ones, and the
// file-context lines are indexed once per file.
// @lane cli
import { describe, it, expect, vi } from 'vitest';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { decodeFileData, displayHeader, encodeFileData, encodeFileDataSized, knownFtsSource, readStoredFile, storedChunkFts, storedLines, storedTextReader } from '../core/index/file-data.ts';
import { loadEngine } from '../core/sqlite/engine.ts';
import { inflateStored } from './helpers/hci-process.ts';
import { fflateCodec } from '../core/index/fflate-codec.ts';
import { zlibCodec } from '../runtimes/node/index.ts';
import { keyWords } from '../core/search/symbols.ts';
import { FORMAT_3_DICTIONARY } from '../core/index/deflate-dictionary.ts';
import { ftsValues, indexedHeader, sliceLines } from '../core/index/fts-row.ts';
import type { FileOutline } from '../core/chunk/outline.ts';

const lines = ['using System;', 'namespace Demo;', 'public class A', '{', '    const string Key = "x";', '    public void Run() { }', '}'];
const outline: FileOutline = {
  fileContext: ['using System;', 'namespace Demo;'],
  nodes: [
    {
      kind: 'class', name: 'A', memberKey: 'Demo.A', startLine: 3, endLine: 7, role: 'container', children: [
        { kind: 'field', name: 'Key', memberKey: 'Demo.A.Key', startLine: 5, endLine: 5, role: 'unit', children: [] },
        { kind: 'method', name: 'Run', memberKey: 'Demo.A.Run()', startLine: 6, endLine: 6, role: 'unit', children: [] },
      ],
    },
  ],
};
const chunks = [
  { startLine: 1, endLine: 4, header: 'using System;\nnamespace Demo;', symbol: null },
  { startLine: 6, endLine: 7, header: 'using System;\nnamespace Demo;\npublic class A', symbol: { memberKey: 'Demo.A.Run()' } },
];

/** The blobs as rows 1, 2, … of a file_data table in memory, read back through storedTextReader. */
async function blobTable(blobs: Uint8Array[]): Promise<{ texts(id: number): string | undefined; ascii(id: number): boolean | undefined; close(): void }> {
  const engine = await loadEngine();
  const db = new engine.sqlite3.oo1.DB(':memory:', 'c');
  db.exec('CREATE TABLE file_data(file_id INTEGER PRIMARY KEY, data BLOB NOT NULL)');
  blobs.forEach((b, i) => db.exec('INSERT INTO file_data VALUES (?, ?)', { bind: [i + 1, b] }));
  const reader = storedTextReader(db, zlibCodec);
  return { texts: (id) => reader.read(id)?.text, ascii: (id) => reader.read(id)?.ascii, close: () => { reader.close(); db.close(); } };
}

describe('file data (format 7)', () => {
  it('round-trips text, headers, member keys, outline and file context', () => {
    const blob = encodeFileData({ lines, chunks, allKept: true, outline }, fflateCodec);
    const back = decodeFileData(blob, fflateCodec);
    expect(back.lines).toEqual(lines);
    // The text whole beside its lines (declarations test a name against it in one scan).
    expect(back.text).toBe(lines.join('\n'));
    // Stored as indexed (the file context once, in the first chunk); shown whole.
    expect(back.headers).toEqual([chunks[0].header, 'public class A']);
    expect([0, 1].map((i) => displayHeader(back, i))).toEqual(chunks.map((c) => c.header));
    expect(back.keys).toEqual([null, 'Demo.A.Run()']);
    expect(back.fileContext).toEqual(outline.fileContext);
    expect(back.outline).toEqual([
      {
        kind: 'class', name: 'A', member_key: 'Demo.A', start_line: 3, end_line: 7, children: [
          { kind: 'field', name: 'Key', member_key: 'Demo.A.Key', start_line: 5, end_line: 5 },
          { kind: 'method', name: 'Run', member_key: 'Demo.A.Run()', start_line: 6, end_line: 6 },
        ],
      },
    ]);
  });

  it('keeps only the lines of kept chunks when chunks were dropped', () => {
    const blob = encodeFileData({ lines, chunks, allKept: false, outline }, fflateCodec);
    const back = decodeFileData(blob, fflateCodec);
    expect(back.lines).toHaveLength(lines.length);
    expect(back.lines[4]).toBe(''); // line 5 (the dropped chunk) is not stored
    expect(back.lines.join('\n')).not.toContain('Key = "x"');
    expect(back.lines[5]).toBe(lines[5]);
  });

  it('is a short header and two raw deflate streams with the format dictionary (any zlib reads them), smaller than the text', () => {
    const big = Array.from({ length: 400 }, (_, i) => `    public int Property${i} { get; set; }`);
    const blob = Buffer.from(encodeFileData({ lines: big, chunks: [{ startLine: 1, endLine: big.length, header: '', symbol: null }], allKept: true, outline: null }, fflateCodec));
    const plain = inflateStored(blob);
    expect(plain.slice(plain.indexOf('\n') + 1)).toBe(big.join('\n'));
    expect(JSON.parse(plain.slice(0, plain.indexOf('\n')))).toMatchObject({ h: [''], k: [0] });
    expect(blob.length * 4).toBeLessThan(Buffer.byteLength(big.join('\n')));
    // 0x07 cannot start a deflate stream (block type 3 is reserved): the layouts cannot be confused.
    expect(() => inflateRawSync(blob, { dictionary: Buffer.from(FORMAT_3_DICTIONARY, 'utf8') })).toThrow();
  });

  it('reads the one-stream blobs of formats 3–6 (`<meta JSON>\\n<text>`) as before, whole or their text only', async () => {
    const input = { lines, chunks, allKept: true, outline };
    const now = decodeFileData(encodeFileData(input, zlibCodec), zlibCodec);
    const plain = inflateStored(Buffer.from(encodeFileData(input, zlibCodec)));
    const old = new Uint8Array(deflateRawSync(Buffer.from(plain, 'utf8'), { dictionary: Buffer.from(FORMAT_3_DICTIONARY, 'utf8') }));
    expect(decodeFileData(old, zlibCodec)).toEqual(now);
    expect(decodeFileData(old, fflateCodec)).toEqual(now);
    const { texts, close } = await blobTable([old, encodeFileData(input, fflateCodec)]);
    try {
      expect([texts(1), texts(2)]).toEqual([lines.join('\n'), lines.join('\n')]);
    } finally {
      close();
    }
  });

  it("reads a file's text without inflating its meta (a literal search's candidate)", async () => {
    const blob = encodeFileData({ lines, chunks, allKept: true, outline }, zlibCodec);
    // Damage the meta stream (the blob's last bytes): the whole file no longer decodes, its text still does.
    const damaged = blob.slice();
    damaged.fill(0xff, damaged.length - 4);
    // (Decoding reads the text now and the meta when one of its parts is first read: that read fails.)
    expect(decodeFileData(damaged, zlibCodec).lines).toEqual(lines);
    expect(() => decodeFileData(damaged, zlibCodec).keys).toThrow();
    const { texts, ascii, close } = await blobTable([damaged, encodeFileData({ lines: ['naïve', 'ok'], chunks, allKept: true, outline }, zlibCodec)]);
    try {
      expect(texts(1)).toBe(lines.join('\n'));
      expect(texts(2)).toBe('naïve\nok');
      // Whether a text is ASCII comes with it (from its byte count), for the case-insensitive check.
      expect([ascii(1), ascii(2)]).toEqual([true, false]);
    } finally {
      close();
    }
  });

  it('inflates the meta when a part of it is first read, once, and reports a damaged meta as the index damage it is', async () => {
    const blob = encodeFileData({ lines, chunks, allKept: true, outline }, zlibCodec);
    const sizes: number[] = [];
    const counting = { ...zlibCodec, inflateRaw: (d: Uint8Array, dict: Uint8Array, size?: number) => (sizes.push(size ?? -1), zlibCodec.inflateRaw(d, dict, size)) };
    const back = decodeFileData(blob, counting);
    // The text only: ranking reads the text of many candidates' files, the meta of few.
    expect(back.lines).toEqual(lines);
    expect(sizes).toEqual([lines.join('\n').length]);
    expect(back.keys).toEqual([null, 'Demo.A.Run()']);
    expect(sizes.length).toBe(2);
    expect(back.headers).toEqual([chunks[0].header, 'public class A']);
    expect(back.outline[0].name).toBe('A');
    expect(back.fileContext).toEqual(outline.fileContext);
    expect(sizes.length, 'the meta is inflated once').toBe(2);
    // Its stored length measures it for a cache without decoding it.
    expect(decodeFileData(blob, zlibCodec).metaLength).toBe(sizes[1]);
    // Read through the index (readStoredFile), a damaged meta is index damage when it is read.
    const damaged = blob.slice();
    damaged.fill(0xff, damaged.length - 4);
    const engine = await loadEngine();
    const db = new engine.sqlite3.oo1.DB(':memory:', 'c');
    try {
      db.exec('CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT); CREATE TABLE file_data(file_id INTEGER PRIMARY KEY, data BLOB NOT NULL)');
      db.exec("INSERT INTO files VALUES (1, 'src/A.cs')");
      db.exec('INSERT INTO file_data VALUES (1, ?)', { bind: [damaged] });
      const stored = readStoredFile(db as unknown as Parameters<typeof readStoredFile>[0], 1, zlibCodec)!;
      expect(stored.lines).toEqual(lines);
      expect(() => stored.outline).toThrow(expect.objectContaining({ code: 'index_corrupt', message: expect.stringContaining('src/A.cs') }));
    } finally {
      db.close();
    }
  });

  it('cuts a line range from the text as sliceLines cuts it from the lines, without splitting the text, and splits it when its lines are read', () => {
    const text = ['', 'first', '', '    indented\tline', 'é ü 漢字', '', 'last'].join('\n');
    const blob = encodeFileData({ lines: text.split('\n'), chunks: [{ startLine: 1, endLine: 7, header: '', symbol: null }], allKept: true, outline: null }, fflateCodec);
    const split = vi.spyOn(String.prototype, 'split');
    const stored = decodeFileData(blob, fflateCodec);
    const cuts: Array<[number, number, string]> = [];
    let count: number;
    try {
      count = stored.lineCount;
      for (let start = 1; start <= 9; start++) for (let end = 0; end <= 9; end++) cuts.push([start, end, storedLines(stored, start, end)]);
      // Decoded, then line ranges of its text: no split of it.
      expect(split.mock.calls.filter((c) => String(c[0]) === '\n')).toEqual([]);
    } finally {
      split.mockRestore();
    }
    // (A start before line 1 or an end below 0, which the lines' slice counts from their end: from the lines.)
    for (const [start, end] of [[0, 3], [-1, 7], [2, -1], [0, -2]]) cuts.push([start, end, storedLines(stored, start, end)]);
    const lines = text.split('\n');
    expect(count).toBe(7);
    for (const [start, end, got] of cuts) expect([start, end, got]).toEqual([start, end, sliceLines(lines, start, end)]);
    expect(stored.lines).toEqual(lines);
    expect(stored.lineCount).toBe(stored.lines.length);
  });

  it("reads blobs written by the other codec (Node's zlib and the pure-JS default)", () => {
    const input = { lines, chunks, allKept: true, outline };
    const byFflate = encodeFileData(input, fflateCodec);
    const byZlib = encodeFileData(input, zlibCodec);
    expect(byFflate).not.toEqual(byZlib); // two implementations, one format
    expect(decodeFileData(byFflate, zlibCodec)).toEqual(decodeFileData(byZlib, zlibCodec));
    expect(decodeFileData(byZlib, fflateCodec)).toEqual(decodeFileData(byFflate, fflateCodec));
    expect(decodeFileData(byZlib, fflateCodec).lines).toEqual(lines);
  });

  it('decodes with the inflated length as a size hint, under both codecs, to the same file', () => {
    const input = { lines, chunks, allKept: true, outline };
    for (const codec of [fflateCodec, zlibCodec]) {
      const { data, rawLength } = encodeFileDataSized(input, codec);
      expect(data).toEqual(encodeFileData(input, codec));
      expect(rawLength).toBe(Buffer.byteLength(inflateStored(Buffer.from(data))) - 1); // meta + text, without the \n between them
      expect(decodeFileData(data, codec, rawLength)).toEqual(decodeFileData(data, codec));
      expect(decodeFileData(data, codec, rawLength).lines).toEqual(lines);
    }
  });

  it("sizes Node zlib's output chunks to the output (not 16 KB each), below 128 KB, and round-trips at their edges", () => {
    const zlib = createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');
    const dict = new TextEncoder().encode(FORMAT_3_DICTIONARY);
    const deflate = vi.spyOn(zlib, 'deflateRawSync');
    const inflate = vi.spyOn(zlib, 'inflateRawSync');
    try {
      const small = new TextEncoder().encode('public class A { }\n'.repeat(40));
      const packed = zlibCodec.deflateRaw(small, dict);
      expect(Buffer.from(zlibCodec.inflateRaw(packed, dict, small.length)).equals(Buffer.from(small))).toBe(true);
      const chunkOf = (spy: typeof deflate | typeof inflate) => (spy.mock.calls.at(-1)![1] as { chunkSize?: number }).chunkSize!;
      expect(chunkOf(deflate)).toBeGreaterThan(small.length);
      expect(chunkOf(deflate)).toBeLessThan(2 * small.length);
      expect(chunkOf(inflate)).toBe(small.length + 1); // one chunk, and no second one to look for more output
      // Past the cap (incompressible too), an exact fit, hints too small and too large, no hint: the same bytes.
      for (const data of [randomBytes(200_000), new Uint8Array(65_535).fill(97), randomBytes(63), new Uint8Array(0)]) {
        const z = zlibCodec.deflateRaw(data, dict);
        expect(chunkOf(deflate)).toBeLessThanOrEqual(64 * 1024);
        for (const hint of [data.length, Math.floor(data.length / 2), data.length + 1000, undefined]) {
          expect(Buffer.from(zlibCodec.inflateRaw(z, dict, hint)).equals(Buffer.from(data))).toBe(true);
          if (hint !== undefined) expect(chunkOf(inflate)).toBeLessThanOrEqual(64 * 1024);
        }
      }
    } finally {
      deflate.mockRestore();
      inflate.mockRestore();
    }
  });

  it('finds the words a member key must appear with', () => {
    expect(keyWords('Wingtip.Billing.InvoiceService.ToDto(PendingInvoice)')).toEqual(['invoiceservice', 'todto']);
    expect(keyWords('Demo.Orders.OrderService.#ctor(int,string)')).toEqual(['orderservice']);
    expect(keyWords('Demo.Grid+Row.this[int]')).toEqual(['row', 'this']);
    expect(keyWords('Demo.Repo.Find<T>(Expression<Func<T,bool>>)')).toEqual(['repo', 'find']);
    expect(keyWords('Demo.Views.OrdersView')).toEqual(['views', 'ordersview']);
    expect(keyWords('Demo.Money.operator +(Money,Money)')).toEqual(['money', 'operator']);
  });

  it('indexes the file context in the first chunk only, and recomputes the same FTS values', () => {
    const ctx = outline.fileContext!;
    expect(indexedHeader(chunks[1].header, 0, ctx)).toBe(chunks[1].header);
    expect(indexedHeader(chunks[1].header, 1, ctx)).toBe('public class A');
    // A capped context line (ends with …) still counts as the file's.
    expect(indexedHeader('using System.Collections.Gen…\npublic class A', 1, ['using System.Collections.Generic;'])).toBe('public class A');
    const src = { path: 'src/A.cs', symbolKind: 'method', symbolName: 'Run', memberKey: 'Demo.A.Run()', header: chunks[1].header, body: lines.slice(5, 7).join('\n'), ordinal: 1, fileContext: ctx };
    const values = ftsValues(src);
    expect(values[2]).toBe('public class A');
    expect(values[2]).not.toContain('using');
    const back = decodeFileData(encodeFileData({ lines, chunks, allKept: true, outline }, fflateCodec), fflateCodec);
    expect(ftsValues({ ...src, header: back.headers[1], fileContext: back.fileContext, memberKey: back.keys[1] })).toEqual(values);
    expect(ftsValues({ ...src, header: displayHeader(back, 1), fileContext: back.fileContext, memberKey: back.keys[1] })).toEqual(values);
  });
});

describe('a text deflated by a parse worker (deflateFileText)', () => {
  const chunks = [
    { startLine: 1, endLine: 4, header: 'h0', symbol: null },
    { startLine: 5, endLine: 7, header: 'h1', symbol: { memberKey: 'Demo.A.Key' } },
  ];
  const text = lines.join('\n');

  it('makes the very blob the writer makes, and is ignored when chunks were dropped', async () => {
    const { deflateFileText } = await import('../core/index/file-data.ts');
    const pre = deflateFileText(text, fflateCodec);
    const plain = encodeFileDataSized({ lines, text, chunks, allKept: true, outline }, fflateCodec);
    const given = encodeFileDataSized({ lines, text, chunks, allKept: true, outline, deflatedText: pre }, fflateCodec);
    expect(given.data).toEqual(plain.data);
    expect(given.rawLength).toBe(plain.rawLength);
    // A secret chunk dropped: the stored text blanks its lines, so the worker's full text must not be used.
    const dropped = decodeFileData(encodeFileData({ lines, text, chunks: chunks.slice(0, 1), allKept: false, outline, deflatedText: pre }, fflateCodec), fflateCodec);
    expect(dropped.lines.slice(4)).toEqual(['', '', '']);
  });

  it('comes from extractFromBytes given a codec, over the text the chunker gets (CRLF and all)', async () => {
    const { extractFromBytes } = await import('../core/index/prepare.ts');
    const { Chunker } = await import('../core/chunk/chunker.ts');
    const { TreeSitterHost } = await import('../core/chunk/treesitter.ts');
    const { createNodeGrammarSource } = await import('../runtimes/node/grammars.ts');
    const chunker = new Chunker(new TreeSitterHost(createNodeGrammarSource()));
    const bytes = new TextEncoder().encode(lines.join('\r\n') + '\r\n');
    const r = await extractFromBytes(bytes, { path: 'A.cs', lang: 'csharp' }, 8192, chunker, { codec: fflateCodec });
    expect(r.extracted).toContain('"name":"A"');
    const back = new TextDecoder().decode(fflateCodec.inflateRaw(r.deflatedText!.deflated, new TextEncoder().encode(FORMAT_3_DICTIONARY)));
    expect(back).toBe(text);
    expect(r.deflatedText!.rawLength).toBe(new TextEncoder().encode(text).length);
    expect((await extractFromBytes(bytes, { path: 'A.cs', lang: 'csharp' }, 8192, chunker)).deflatedText).toBeUndefined();
  });

  it("hashes and scans for secrets as classifyFile does, which then takes the worker's facts as they are", async () => {
    const { extractFromBytes, classifyFile } = await import('../core/index/prepare.ts');
    const { defaultSettings } = await import('../core/settings.ts');
    const { Chunker } = await import('../core/chunk/chunker.ts');
    const chunker = new Chunker(null);
    const settings = defaultSettings();
    const files = [
      { path: 'appsettings.json', lang: 'json', text: '{\r\n  "Db": {\r\n    "Password": "hunter2-very-secret-Pa55word"\r\n  }\r\n}\r\n' },
      { path: 'A.cs', lang: 'csharp', text: lines.join('\n') },
    ];
    for (const f of files) {
      const bytes = new TextEncoder().encode(f.text);
      const scanned = { path: f.path, lang: f.lang, size: bytes.length, mtimeMs: 0, ext: f.path.slice(f.path.lastIndexOf('.')) };
      const r = await extractFromBytes(bytes, f, settings.binary_probe_bytes, chunker);
      const own = classifyFile(bytes, scanned, settings);
      if (own.kind !== 'text') throw new Error('a text file');
      expect(r.facts, f.path).toEqual({ hash: own.hash, secrets: own.secrets });
      // Given the facts, classifyFile uses them instead of computing its own.
      const given = classifyFile(bytes, scanned, settings, { hash: 'from-worker', secrets: [] });
      expect(given.kind === 'text' && [given.hash, given.secrets]).toEqual(['from-worker', []]);
    }
    expect(((await extractFromBytes(new TextEncoder().encode(files[0].text), files[0], 8192, chunker)).facts?.secrets ?? []).length).toBeGreaterThan(0);
    expect((await extractFromBytes(new Uint8Array([0x4d, 0x5a, 0, 0, 1]), { path: 'B.cs', lang: 'csharp' }, 8192, chunker)).facts).toBeUndefined();
  });
});

describe('the FTS source known when a blob is encoded (encodeFileDataSized().known)', () => {
  const fts = (src: ReturnType<typeof decodeFileData> | ReturnType<typeof knownFtsSource>, kept: typeof chunks) =>
    kept.map((c, ordinal) => storedChunkFts('src/A.cs', src, { ordinal, startLine: c.startLine, endLine: c.endLine, symbolKind: null, symbolName: null }));

  it('gives the FTS values decoding the blob gives, all chunks kept or some dropped', () => {
    for (const [kept, allKept] of [[chunks, true], [chunks.slice(1), false]] as const) {
      const enc = encodeFileDataSized({ lines, text: lines.join('\n'), chunks: kept, allKept, outline }, zlibCodec);
      expect(enc.known).toBeDefined();
      expect(fts(knownFtsSource(enc.known!), kept)).toEqual(fts(decodeFileData(enc.data, zlibCodec, enc.rawLength), kept));
    }
  });

  it('is absent where decoding would not give the same text back: a lone surrogate, a leading BOM', () => {
    const lone = ['public class A', '{', '    string s = "\uD800";', '}'];
    const bom = ['\uFEFFpublic class A', '{', '}'];
    for (const ls of [lone, bom]) {
      const enc = encodeFileDataSized({ lines: ls, text: ls.join('\n'), chunks: chunks.slice(0, 1), allKept: true, outline: null }, zlibCodec);
      expect(enc.known).toBeUndefined();
      // And decoding indeed changes the text: the very case the fallback exists for.
      expect(decodeFileData(enc.data, zlibCodec, enc.rawLength).lines.join('\n')).not.toBe(ls.join('\n'));
    }
    // A surrogate in the meta (JSON keeps it, but the check is the same conservative one): decoded too.
    const loneHeader = [{ startLine: 1, endLine: 4, header: 'class \uDC00', symbol: null }];
    expect(encodeFileDataSized({ lines, text: lines.join('\n'), chunks: loneHeader, allKept: true, outline: null }, zlibCodec).known).toBeUndefined();
  });
});
