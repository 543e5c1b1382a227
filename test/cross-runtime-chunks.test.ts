// The same file gives identical chunks and outlines in Node and in Deno: both run the same core
// sources and grammar files, and this test holds them to it over the whole sample workspace.
// @lane runtimes
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Chunker } from '../core/chunk/chunker.ts';
import { TreeSitterHost } from '../core/chunk/treesitter.ts';
import { splitLines } from '../core/scan/content.ts';
import { languageOf } from '../core/scan/languages.ts';
import { createNodeGrammarSource } from '../runtimes/node/grammars.ts';
import { denoBinary, titled } from './helpers/runtimes.ts';

const repo = path.resolve(import.meta.dirname, '..');
const sample = path.join(repo, 'test/sample-workspace');

function sampleFiles(dir = sample): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === '.hci' ? [] : sampleFiles(p);
    return [path.relative(sample, p).split(path.sep).join('/')];
  });
}

const deno = denoBinary();
describe.skipIf(!deno)(titled('chunks across runtimes', { Deno: deno }), () => {

  it('Node and Deno cut every sample file into identical chunks and outlines', async () => {
    const files = sampleFiles();
    expect(files.length).toBeGreaterThan(50);
    const run = spawnSync(deno, ['run', '-A', 'test/helpers/deno-chunks.ts', sample, ...files], { cwd: repo, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(run.status, run.stderr).toBe(0);
    const fromDeno = JSON.parse(run.stdout) as Record<string, unknown>;

    const chunker = new Chunker(new TreeSitterHost(createNodeGrammarSource()));
    for (const rel of files) {
      const lines = splitLines(fs.readFileSync(path.join(sample, rel), 'utf8'));
      const fromNode = await chunker.chunk({ path: rel, lang: languageOf(rel), lines, text: lines.join('\n') }, { chunkLines: 110, overlapLines: 15, maxChunkBytes: 65536 });
      expect(fromDeno[rel], rel).toEqual(JSON.parse(JSON.stringify(fromNode)));
    }
  });
});
