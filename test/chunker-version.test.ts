// Makes a forgotten CHUNKER_VERSION bump impossible (core/chunk/version.ts explains why it is done
// this way). Every golden fixture and sample-workspace file is chunked at two chunk sizes; each
// file's chunks and outline are hashed and compared with test/fixtures/chunker-version.json, which
// also holds what else shapes chunks: the language table's rows (extensions, extractor, grammars)
// and the grammar packages' versions. Under the recorded version nothing may differ. Recording
// (HCI_UPDATE_GOLDEN=1, the same switch as the golden files) is refused while anything recorded
// changed and the version did not: raising CHUNKER_VERSION is the only way to record new output.
// New corpus files only need recording (no bump: nothing already indexed changes).
// @lane unit
import { describe, it, expect } from 'vitest';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Chunker, CHUNKER_VERSION } from '../core/chunk/chunker.ts';
import type { ChunkLimits } from '../core/chunk/types.ts';
import { splitLines } from '../core/scan/content.ts';
import { languageOf } from '../core/scan/languages.ts';
import { LANGUAGES } from '../core/languages/table.ts';
import { GRAMMARS, TREE_SITTER_RUNTIME, type WasmFile } from '../core/languages/grammars.ts';
import { createNodeGrammarSource, wasmFilePath } from '../runtimes/node/grammars.ts';
import { RecordingHost, TEST_DIR, chunkCorpus } from './helpers/language-corpus.ts';

const RECORD = path.join(TEST_DIR, 'fixtures/chunker-version.json');
const UPDATE = process.env.HCI_UPDATE_GOLDEN === '1';
/** The indexer's defaults, and a small size that makes the builder split and pack. */
const SIZES: ChunkLimits[] = [
  { chunkLines: 110, overlapLines: 15, maxChunkBytes: 65536 },
  { chunkLines: 24, overlapLines: 4, maxChunkBytes: 2048 },
];

interface VersionRecord {
  chunker_version: number;
  /** What shapes chunks besides the code: table rows and grammar packages. */
  inputs: Record<string, string>;
  /** test/-relative path → hash of its chunk results at every size. */
  outputs: Record<string, string>;
}

/** `<package>@<version>/<file>`: the version read from the package that holds the wasm file. */
function packaged(f: WasmFile): string {
  let dir = path.dirname(wasmFilePath(f));
  for (;;) {
    const pj = path.join(dir, 'package.json');
    if (fs.existsSync(pj)) {
      const j = JSON.parse(fs.readFileSync(pj, 'utf8')) as { name?: string; version?: string };
      if (j.name === f.package) return `${f.package}@${j.version}/${f.file}`;
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json of ${f.package} above ${wasmFilePath(f)}`);
    dir = up;
  }
}

function currentInputs(): Record<string, string> {
  const out: Record<string, string> = { 'tree-sitter runtime': packaged(TREE_SITTER_RUNTIME) };
  for (const [id, f] of Object.entries(GRAMMARS)) out[`grammar ${id}`] = packaged(f);
  for (const r of LANGUAGES) {
    out[`language ${r.id}`] = JSON.stringify({ extensions: r.extensions, other: r.otherExtensions ?? [], extractor: r.extractor !== undefined, grammars: r.grammars });
  }
  return out;
}

async function currentOutputs(): Promise<Record<string, string>> {
  // A generous parse limit: a loaded machine must not turn a parse into a line-window fallback here.
  const chunker = new Chunker(new RecordingHost(createNodeGrammarSource(), 60_000));
  const out: Record<string, string> = {};
  for (const rel of chunkCorpus()) {
    const lines = splitLines(fs.readFileSync(path.join(TEST_DIR, rel), 'utf8'));
    const input = { path: rel, lang: languageOf(rel), lines, text: lines.join('\n') };
    const results = [];
    for (const limits of SIZES) results.push(await chunker.chunk(input, limits));
    out[rel] = createHash('sha256').update(JSON.stringify(results)).digest('hex').slice(0, 16);
  }
  return out;
}

/** Keys whose values differ between two maps (present in both), and keys only in one. */
function compare(was: Record<string, string>, now: Record<string, string>) {
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])].sort();
  return {
    changed: keys.filter((k) => k in was && k in now && was[k] !== now[k]),
    added: keys.filter((k) => !(k in was)),
    removed: keys.filter((k) => !(k in now)),
  };
}

function sorted(m: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The verdict on the current state against the record: null when it may stand (or be recorded), else
 * why not. Pure, so the rule itself is tested below without touching the record.
 */
function verdict(recorded: VersionRecord, now: VersionRecord): string | null {
  if (now.chunker_version < recorded.chunker_version) return `CHUNKER_VERSION went down (${recorded.chunker_version} → ${now.chunker_version}): versions only go up`;
  if (now.chunker_version > recorded.chunker_version) return null; // a bump: anything may be recorded under it
  const i = compare(recorded.inputs, now.inputs);
  const o = compare(recorded.outputs, now.outputs);
  const shaped = [...i.changed, ...i.added, ...i.removed];
  if (shaped.length || o.changed.length) {
    const list = [...shaped, ...o.changed];
    return (
      `chunker output changed without a CHUNKER_VERSION bump (${list.length}: ${list.slice(0, 8).join(', ')}${list.length > 8 ? ', …' : ''}). ` +
      'Existing indexes would keep the old chunks. Raise CHUNKER_VERSION in core/chunk/version.ts, then record with HCI_UPDATE_GOLDEN=1 npx vitest run test/chunker-version.test.ts'
    );
  }
  return null;
}

describe('CHUNKER_VERSION guard', () => {
  it('the recorded chunk output of every fixture and sample file belongs to the current CHUNKER_VERSION', async () => {
    const now: VersionRecord = { chunker_version: CHUNKER_VERSION, inputs: sorted(currentInputs()), outputs: sorted(await currentOutputs()) };
    expect(Object.keys(now.outputs).length).toBeGreaterThan(90);
    const recorded = fs.existsSync(RECORD) ? (JSON.parse(fs.readFileSync(RECORD, 'utf8')) as VersionRecord) : null;
    const problem = recorded ? verdict(recorded, now) : null;
    if (problem) throw new Error(problem);
    if (recorded && JSON.stringify(recorded) === JSON.stringify(now)) return;
    if (UPDATE) {
      fs.writeFileSync(RECORD, `${JSON.stringify(now, null, 1)}\n`);
      return;
    }
    const o = recorded ? compare(recorded.outputs, now.outputs) : null;
    const what = !recorded || !o
      ? `${path.relative(TEST_DIR, RECORD)} is missing`
      : recorded.chunker_version !== now.chunker_version
        ? `CHUNKER_VERSION is now ${now.chunker_version} (recorded: ${recorded.chunker_version})`
        : `corpus files not recorded (added: ${o.added.join(', ') || '-'}; removed: ${o.removed.join(', ') || '-'})`;
    throw new Error(`${what}: record with HCI_UPDATE_GOLDEN=1 npx vitest run test/chunker-version.test.ts`);
  });

  it('refuses changed output under the recorded version, allows it after a bump, and never a lower version', () => {
    const base: VersionRecord = { chunker_version: 3, inputs: { 'language x': 'a' }, outputs: { 'a.cs': '1', 'b.md': '2' } };
    expect(verdict(base, base)).toBeNull();
    expect(verdict(base, { ...base, outputs: { 'a.cs': '9', 'b.md': '2' } })).toMatch(/without a CHUNKER_VERSION bump \(1: a\.cs\)/);
    expect(verdict(base, { ...base, inputs: { 'language x': 'b' } })).toMatch(/without a CHUNKER_VERSION bump \(1: language x\)/);
    expect(verdict(base, { ...base, inputs: { 'language x': 'a', 'language y': 'c' } })).toMatch(/language y/);
    expect(verdict(base, { ...base, outputs: { ...base.outputs, 'c.json': '3' } })).toBeNull(); // a new sample: record, no bump
    expect(verdict(base, { ...base, chunker_version: 4, outputs: { 'a.cs': '9' } })).toBeNull();
    expect(verdict(base, { ...base, chunker_version: 2 })).toMatch(/went down/);
  });
});
