// Properties every chunking must have, whatever the language: every line belongs to a chunk, no chunk
// exceeds the limits, ranges are 1-based and inside the file, outlines nest inside their parents.
// Checked over every file of the sample workspace and over large generated inputs.
// @lane unit
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Chunker } from '../core/chunk/chunker.ts';
import { TreeSitterHost } from '../core/chunk/treesitter.ts';
import type { ChunkLimits, ChunkResult } from '../core/chunk/types.ts';
import type { OutlineNode } from '../core/chunk/outline.ts';
import { splitLines } from '../core/scan/content.ts';
import { languageOf } from '../core/scan/languages.ts';
import { createNodeGrammarSource } from '../runtimes/node/grammars.ts';

const sample = path.resolve(import.meta.dirname, 'sample-workspace');
const chunker = new Chunker(new TreeSitterHost(createNodeGrammarSource()));

function files(dir = sample): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === '.hci' ? [] : files(p);
    return [path.relative(sample, p).split(path.sep).join('/')];
  });
}

function checkProperties(rel: string, lines: string[], r: ChunkResult, limits: ChunkLimits): void {
  const n = lines.length;
  const covered = new Uint8Array(n + 2);
  let prevStart = 0;
  for (const c of r.chunks) {
    expect(Number.isInteger(c.startLine) && Number.isInteger(c.endLine), rel).toBe(true);
    expect(c.startLine, `${rel}: chunk starts at ${c.startLine}`).toBeGreaterThanOrEqual(1);
    expect(c.endLine, `${rel}: chunk ${c.startLine}-${c.endLine} ends past line ${n}`).toBeLessThanOrEqual(n);
    expect(c.endLine, rel).toBeGreaterThanOrEqual(c.startLine);
    expect(c.endLine - c.startLine + 1, `${rel}: chunk ${c.startLine}-${c.endLine} is over ${limits.chunkLines} lines`).toBeLessThanOrEqual(limits.chunkLines);
    let bytes = 0;
    for (let i = c.startLine; i <= c.endLine; i++) bytes += lines[i - 1].length + 1;
    if (c.endLine > c.startLine) expect(bytes, `${rel}: chunk ${c.startLine}-${c.endLine} is over the byte limit`).toBeLessThanOrEqual(limits.maxChunkBytes);
    expect(c.startLine, `${rel}: chunks out of order`).toBeGreaterThanOrEqual(prevStart);
    prevStart = c.startLine;
    for (let i = c.startLine; i <= c.endLine; i++) covered[i] = 1;
  }
  const missing: number[] = [];
  for (let i = 1; i <= n; i++) if (!covered[i]) missing.push(i);
  expect(missing, `${rel}: lines in no chunk`).toEqual([]);
  const walk = (nodes: OutlineNode[], lo: number, hi: number) => {
    for (const node of nodes) {
      expect(node.startLine, `${rel}: ${node.kind} ${node.name} starts before its parent`).toBeGreaterThanOrEqual(lo);
      expect(node.endLine, `${rel}: ${node.kind} ${node.name} ends after its parent`).toBeLessThanOrEqual(hi);
      expect(node.endLine, rel).toBeGreaterThanOrEqual(node.startLine);
      walk(node.children, node.startLine, node.endLine);
    }
  };
  if (r.outline) walk(r.outline.nodes, 1, n);
}

const LIMITS: ChunkLimits = { chunkLines: 110, overlapLines: 15, maxChunkBytes: 65536 };

async function chunkText(rel: string, text: string, limits = LIMITS): Promise<{ lines: string[]; r: ChunkResult }> {
  const lines = splitLines(text);
  return { lines, r: await chunker.chunk({ path: rel, lang: languageOf(rel), lines, text: lines.join('\n') }, limits) };
}

describe('chunk properties', () => {
  it('hold for every file of the sample workspace', async () => {
    const all = files();
    expect(all.length).toBeGreaterThan(50);
    for (const rel of all) {
      const { lines, r } = await chunkText(rel, fs.readFileSync(path.join(sample, rel), 'utf8'));
      checkProperties(rel, lines, r, LIMITS);
    }
  });

  it('hold with small limits too (everything gets split)', async () => {
    const small: ChunkLimits = { chunkLines: 12, overlapLines: 3, maxChunkBytes: 600 };
    for (const rel of files()) {
      const { lines, r } = await chunkText(rel, fs.readFileSync(path.join(sample, rel), 'utf8'), small);
      checkProperties(rel, lines, r, small);
    }
  });

  it('hold for large generated inputs in every structured language', async () => {
    const method = (i: number, body: number) =>
      `    /// <summary>Handles case ${i}.</summary>\n    [Obsolete("use v2")]\n    public int Handle${i}(int value, string? label = null)\n    {\n${Array.from({ length: body }, (_, k) => `        value += ${k} * ${i}; // step ${k}\n`).join('')}        return value;\n    }\n\n`;
    const cs = `using System;\n\nnamespace Gen.Big;\n\n${Array.from({ length: 40 }, (_, t) => `public partial class Type${t} : IDisposable\n{\n    private int _a, _b;\n${Array.from({ length: 8 }, (_, m) => method(m, (m * 17 + t) % 140)).join('')}    public void Dispose() { }\n}\n\n`).join('')}`;
    const md = Array.from({ length: 300 }, (_, i) => `${'#'.repeat(1 + (i % 3))} Section ${i}\n\n${'Lorem ipsum dolor sit amet. '.repeat(1 + (i % 9))}\n\n\`\`\`sh\n# not a heading ${i}\n\`\`\`\n`).join('\n');
    const json = JSON.stringify(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`Section${i}`, { Enabled: i % 2 === 0, Items: Array.from({ length: i % 7 }, (_, k) => ({ Name: `item${k}`, Value: k })) }])), null, 2);
    const xaml = `<Window xmlns="https://github.com/avaloniaui" xmlns:x="http://schemas.microsoft.com/winfx/2006/xaml" x:Class="Gen.MainWindow">\n  <StackPanel>\n${Array.from({ length: 300 }, (_, i) => `    <Border x:Name="Box${i}">\n      <TextBlock Text="{Binding Items[${i}].Title}" />\n    </Border>\n`).join('')}  </StackPanel>\n</Window>\n`;
    const yaml = `jobs:\n${Array.from({ length: 60 }, (_, j) => `  job${j}:\n    runs-on: ubuntu-latest\n    steps:\n${Array.from({ length: 6 }, (_, s) => `      - name: Step ${s}\n        run: echo ${j}-${s}\n`).join('')}`).join('')}`;
    const css = Array.from({ length: 400 }, (_, i) => (i % 50 === 0 ? `@media (max-width: ${600 + i}px) {\n  .m${i} { color: red; }\n}\n` : `.rule-${i} > a:hover {\n  color: #${(i * 4099).toString(16).slice(0, 6).padEnd(6, '0')};\n  margin: ${i}px;\n}\n`)).join('\n');
    const inputs: Array<[string, string]> = [
      ['Gen/Big.cs', cs],
      ['docs/big.md', md],
      ['config/appsettings.json', json],
      ['Views/Big.axaml', xaml],
      ['.github/workflows/big.yml', yaml],
      ['wwwroot/big.css', css],
      ['Gen/Broken.cs', cs.slice(0, Math.floor(cs.length / 2)) + '\n{{{ (( ] class ;'],
    ];
    for (const [rel, text] of inputs) {
      const { lines, r } = await chunkText(rel, text);
      expect(lines.length, rel).toBeGreaterThan(500);
      checkProperties(rel, lines, r, LIMITS);
    }
  });
});
