// `npm run model:train`: builds hci's pretrained code model (models/code-model.bin) from the
// repositories models/manifest.json pins, read from bare git mirrors, and writes NOTICE from the
// same manifest. Stages, each cached in the work folder under a key of everything it depends on,
// so an interrupted run resumes where it stopped and a changed recipe redoes only what it changes:
//   check    every repository's commit is in its mirror, its licence file reads as the manifest's
//            permissive licence with the same sha256, and none is forbidden (dev set, tuning set:
//            bench/golden/repos.json, ../shared/eval-dev/excluded-repos.txt)
//   extract  per repository: a capped sample of its files as line windows, doc-comment pairs and
//            commit pairs (extract.ts)
//   corpus   vocabulary (tokens frequent enough in enough repositories) and the id sequence
//   ppmi     co-occurrence ±window → PPMI, row by row (cooc.ts)
//   model    randomized SVD → int8 word vectors, SIF weights, common component (core's learned
//            recipe: core/vector/learned/train.ts trainFromPpmi), serialized in the learned
//            model's byte layout
//   xal      (when the recipe's xalDims > 0) the text ↔ code alignment (xal.ts); with xalConcat the
//            model is its rows beside the PPMI + SVD rows, with a query table (format 2)
//   dual     (when the recipe's dualSources > 0) the token table trained on text ↔ code pairs
//            (dual.ts; name pairs from names.ts), from the model above
// Every step is deterministic: the same manifest and mirrors give the same bytes.
//
//   node dist/bench/model/train.js --mirrors DIR [--work DIR] [--out FILE] [--notice FILE]
//        [--set key=value …] (recipe overrides for experiments; the default writes models/)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { sha256Hex } from '../../core/index/sha256.ts';
import { END, type TokenCorpus } from '../../core/vector/learned/cooccur.ts';
import { ModelTokenizer } from '../../core/vector/learned/tokens.ts';
import { DEFAULT_LEARNED_PARAMS, LearnedModel, type LearnedParams } from '../../core/vector/learned/model.ts';
import { modelFromWordRows, trainFromPpmi } from '../../core/vector/learned/train.ts';
import type { Csr } from '../../core/vector/learned/sparse.ts';
import { parseArgs, optString, repoRoot, runMain } from '../lib/util.ts';
import { checkLicence, hasCommit, mirrorDir } from './mirror.ts';
import { EXTRACT_PARAMS, EXTRACTOR_VERSION, extractRepo, type RepoExtract } from './extract.ts';
import { ppmiFromSequence } from './cooc.ts';
import { alignmentPpmi, alignmentRows, concatModel, pairIds } from './xal.ts';
// A cycle (dual.ts reads this module's stages), static on purpose: neither module touches the other's
// exports at load time, and a dynamic import here would wait on this module's own top-level await
// (runMain) when it is the entry — Node then exits with an unsettled top-level await.
import { DEFAULT_DUAL, dualStage } from './dual.ts';

export interface ManifestRepo {
  repo: string;
  commit: string;
  licence: string;
  licence_file: string;
  licence_sha256: string;
  scope?: 'all' | 'code';
  note?: string;
}

/** The learned recipe's parameters the pretrained model sets, and how many repositories a token must occur in. */
export type Recipe = Pick<LearnedParams, 'dims' | 'window' | 'minCount' | 'maxVocab' | 'maxPerRow' | 'sifA' | 'eigPower' | 'oversample' | 'powerIterations' | 'seed'> & {
  /** A token needs minCount occurrences in at least this many repositories (a word of one code base says nothing about others). */
  minRepos: number;
  /** Text ↔ code alignment (xal.ts): its dimensions (0: none), PPMI entries kept per doc word, and which pairs (1 doc comments, 2 commits, 3 both). */
  xalDims?: number;
  xalMaxPerRow?: number;
  xalSources?: number;
  /**
   * With xalDims > 0: 0 writes the alignment's two sides beside the model (experiments); W > 0 makes the
   * model itself their concatenation with the PPMI + SVD rows (xal.ts concatModel, format 2 with a query
   * table: chunk rows [√W·pre | √(1−W)·code side], query rows [√W·pre | √(1−W)·doc side]).
   */
  xalConcat?: number;
  /** The discriminative stage (dual.ts) after the PPMI + SVD model, when dualSources > 0: which pairs (bits: 1 doc comments, 2 commit lines, 4 commit names, 8 docs sections), masking shared ids, epochs, ids kept per side. */
  dualSources?: number;
  dualMaskShared?: number;
  dualEpochs?: number;
  dualMaxIds?: number;
  /** The dual stage's seed (held-out split, batch order, initial noise; default DEFAULT_DUAL's): seeds' spread without changing the PPMI + SVD model under it. */
  dualSeed?: number;
};

export interface Manifest {
  _about?: string;
  forbidden: { dev_set: string[]; tuning_reserve: string[]; left_out?: Record<string, string> };
  recipe: Recipe;
  repos: ManifestRepo[];
}

export function readManifest(file: string): Manifest {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

/** Repositories that must never be trained on: the manifest's own list, the tuning set, the outside evaluation sets. */
export function forbiddenRepos(m: Manifest, root = repoRoot()): Map<string, string> {
  const out = new Map<string, string>();
  const add = (r: string, why: string) => out.set(r.toLowerCase(), why);
  for (const r of m.forbidden.dev_set) add(r, 'the dev set');
  for (const r of m.forbidden.tuning_reserve) add(r, 'reserved for the ranking tuning set');
  const golden = path.join(root, 'bench/golden/repos.json');
  if (fs.existsSync(golden)) {
    for (const [k, v] of Object.entries(JSON.parse(fs.readFileSync(golden, 'utf8')) as Record<string, { github?: string }>)) {
      if (!k.startsWith('_') && v?.github) add(v.github, 'the ranking tuning set (bench/golden/repos.json)');
    }
  }
  for (const f of [path.resolve(root, '../shared/eval-dev/excluded-repos.txt'), path.resolve(root, '../../shared/eval-dev/excluded-repos.txt')]) {
    if (!fs.existsSync(f)) continue;
    for (const line of fs.readFileSync(f, 'utf8').split('\n')) {
      const r = line.trim();
      if (r && !r.startsWith('#')) add(r, 'an evaluation set kept outside the project (excluded-repos.txt)');
    }
    break;
  }
  return out;
}

/** The manifest's problems (empty: fine to train): forbidden repositories, missing commits, licences. */
export function checkManifest(m: Manifest, mirrors: string | null, root = repoRoot()): string[] {
  const errors: string[] = [];
  const forbidden = forbiddenRepos(m, root);
  const seen = new Set<string>();
  for (const r of m.repos) {
    const key = r.repo.toLowerCase();
    if (seen.has(key)) errors.push(`${r.repo}: listed twice`);
    seen.add(key);
    const why = forbidden.get(key);
    if (why) errors.push(`${r.repo}: never train on it (${why})`);
    if (!['MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause'].includes(r.licence)) errors.push(`${r.repo}: licence ${r.licence} is not permissive (MIT, Apache-2.0, BSD)`);
    if (!/^[0-9a-f]{40}$/.test(r.commit)) errors.push(`${r.repo}: commit ${r.commit} is not a full commit id`);
    if (mirrors === null) continue;
    const dir = mirrorDir(mirrors, r.repo);
    if (!hasCommit(dir, r.commit)) {
      errors.push(`${r.repo}: commit ${r.commit} is not in ${dir}`);
      continue;
    }
    const lic = checkLicence(dir, r.commit, r.licence_file, r.licence, r.licence_sha256);
    if (!lic.ok) errors.push(`${r.repo}: ${lic.reason}`);
  }
  return errors;
}

/** NOTICE: the model's training repositories and their licences (generated from the manifest). */
export function noticeText(m: Manifest): string {
  const lines = [
    'hci — the hybrid codebase index',
    '',
    'models/code-model.bin, the pretrained code model shipped in this package, holds word vectors',
    'learned from token statistics of the public repositories below (at the commits listed), each',
    'under the licence named. The model holds no source text of them: only a vocabulary of code',
    'sub-words and English words with their vectors. models/manifest.json lists the same repositories',
    'with the sha256 of each licence file; bench/model/README.md says how the model is rebuilt.',
    '',
  ];
  for (const r of m.repos) lines.push(`${r.repo} @ ${r.commit.slice(0, 12)} — ${r.licence} (${r.licence_file})${r.scope === 'code' ? ' — code files only' : ''}`);
  return `${lines.join('\n')}\n`;
}

// ── cache ──────────────────────────────────────────────────────────────────────────────────────

function digest(x: unknown): string {
  return sha256Hex(new TextEncoder().encode(JSON.stringify(x)), 12);
}

function writeAtomic(file: string, data: Uint8Array | string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

export function readExtract(file: string): RepoExtract {
  return JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8')) as RepoExtract;
}

/** The repository's extract file (made now when the work folder has none for this commit and extractor). */
export function ensureExtract(work: string, r: ManifestRepo, mirrors: string, log: (s: string) => void): string {
  const file = path.join(work, 'extract', `${r.repo.replace('/', '+')}@${r.commit.slice(0, 12)}-${digest({ v: EXTRACTOR_VERSION, p: EXTRACT_PARAMS, scope: r.scope ?? 'all' })}.json.gz`);
  if (fs.existsSync(file)) return file;
  const t0 = performance.now();
  const x = extractRepo(mirrorDir(mirrors, r.repo), r.repo, r.commit, r.scope ?? 'all');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeAtomic(file, zlib.gzipSync(JSON.stringify(x), { level: 6 }));
  log(`extract ${r.repo}: ${x.files} files, ${(x.bytes / 1e6).toFixed(1)} MB, ${x.windows.length} windows, ${x.docPairs.length} doc pairs, ${x.commitPairs.length} commit pairs (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return file;
}

// ── corpus ─────────────────────────────────────────────────────────────────────────────────────

/** Two passes over the extract files (one in memory at a time): counts, then ids. */
function buildCorpus(files: readonly string[], recipe: Recipe, log: (s: string) => void): TokenCorpus {
  const tok = new ModelTokenizer();
  // Pass 1: counts and the repositories each token occurs in.
  const count = new Map<string, number>();
  const repos = new Map<string, number>();
  let total = 0;
  let chunks = 0;
  for (const f of files) {
    const x = readExtract(f);
    chunks += x.windows.length;
    const here = new Set<string>();
    for (const w of x.windows) {
      tok.forEach(w, (t) => {
        count.set(t, (count.get(t) ?? 0) + 1);
        here.add(t);
        total++;
      });
    }
    for (const t of here) repos.set(t, (repos.get(t) ?? 0) + 1);
  }
  const kept = [...count.keys()].filter((t) => count.get(t)! >= recipe.minCount && repos.get(t)! >= recipe.minRepos);
  kept.sort((a, b) => count.get(b)! - count.get(a)! || (a < b ? -1 : a > b ? 1 : 0));
  if (kept.length > recipe.maxVocab) kept.length = recipe.maxVocab;
  const id = new Map(kept.map((t, i) => [t, i]));
  log(`corpus: ${total} tokens, ${count.size} distinct, ${kept.length} kept (count ≥ ${recipe.minCount} in ≥ ${recipe.minRepos} repositories)`);
  // Pass 2: the id sequence.
  let n = 1;
  for (const t of kept) n += count.get(t)!;
  n += chunks;
  const seq = new Uint16Array(n);
  let w = 0;
  seq[w++] = END;
  let oov = 0;
  for (const f of files) {
    for (const win of readExtract(f).windows) {
      tok.forEach(win, (t) => {
        const i = id.get(t);
        if (i === undefined) oov++;
        else seq[w++] = i;
      });
      seq[w++] = END;
    }
  }
  if (w !== n) throw new Error(`corpus: ${w} ids written, ${n} counted`);
  return { vocab: kept, counts: Float64Array.from(kept, (t) => count.get(t)!), seq, chunks, totalTokens: total, oovTokens: oov };
}

function saveCorpus(file: string, c: TokenCorpus): void {
  const head = new TextEncoder().encode(JSON.stringify({ vocab: c.vocab, counts: Array.from(c.counts), chunks: c.chunks, totalTokens: c.totalTokens, oovTokens: c.oovTokens }));
  const out = new Uint8Array(8 + head.length + c.seq.byteLength);
  new DataView(out.buffer).setUint32(0, head.length, true);
  new DataView(out.buffer).setUint32(4, c.seq.length, true);
  out.set(head, 8);
  out.set(new Uint8Array(c.seq.buffer, c.seq.byteOffset, c.seq.byteLength), 8 + head.length);
  writeAtomic(file, out);
}

export function loadCorpus(file: string): TokenCorpus {
  const b = fs.readFileSync(file);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const hl = dv.getUint32(0, true);
  const n = dv.getUint32(4, true);
  const head = JSON.parse(b.subarray(8, 8 + hl).toString('utf8')) as Omit<TokenCorpus, 'seq' | 'counts'> & { counts: number[] };
  const seq = new Uint16Array(n);
  new Uint8Array(seq.buffer).set(b.subarray(8 + hl, 8 + hl + n * 2));
  return { ...head, counts: Float64Array.from(head.counts), seq };
}

function saveCsr(file: string, m: Csr): void {
  const nnz = m.colIdx.length;
  const out = new Uint8Array(12 + (m.rows + 1) * 4 + nnz * 8);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, m.rows, true);
  dv.setUint32(4, m.cols, true);
  dv.setUint32(8, nnz, true);
  out.set(new Uint8Array(m.rowPtr.buffer, m.rowPtr.byteOffset, m.rowPtr.byteLength), 12);
  out.set(new Uint8Array(m.colIdx.buffer, m.colIdx.byteOffset, m.colIdx.byteLength), 12 + (m.rows + 1) * 4);
  out.set(new Uint8Array(m.values.buffer, m.values.byteOffset, m.values.byteLength), 12 + (m.rows + 1) * 4 + nnz * 4);
  writeAtomic(file, out);
}

function loadCsr(file: string): Csr {
  const b = new Uint8Array(fs.readFileSync(file));
  const dv = new DataView(b.buffer);
  const rows = dv.getUint32(0, true);
  const cols = dv.getUint32(4, true);
  const nnz = dv.getUint32(8, true);
  const at = 12;
  return {
    rows, cols,
    rowPtr: new Int32Array(b.slice(at, at + (rows + 1) * 4).buffer),
    colIdx: new Int32Array(b.slice(at + (rows + 1) * 4, at + (rows + 1) * 4 + nnz * 4).buffer),
    values: new Float32Array(b.slice(at + (rows + 1) * 4 + nnz * 4).buffer),
  };
}

// ── text ↔ code alignment ──────────────────────────────────────────────────────────────────────

/**
 * The alignment's two models (`<out>.xal-code.bin` embeds chunks, `<out>.xal-query.bin` queries,
 * written beside `out` unless it is null), over the corpus's vocabulary and SIF weights.
 */
function trainAlignment(files: readonly string[], corpus: TokenCorpus, params: LearnedParams, maxPerRow: number, sources: number, out: string | null, log: (s: string) => void): { code: LearnedModel; query: LearnedModel } {
  const tok = new ModelTokenizer();
  const id = new Map(corpus.vocab.map((t, i) => [t, i]));
  const distinct = (text: string): number[] => {
    const seen = new Set<number>();
    tok.forEach(text, (t) => {
      const i = id.get(t);
      if (i !== undefined) seen.add(i);
    });
    return [...seen];
  };
  const pairs: Array<[number[], number[]]> = [];
  const docSeq: number[] = [END];
  for (const f of files) {
    const x = readExtract(f);
    const all = [...(sources & 1 ? x.docPairs : []), ...(sources & 2 ? x.commitPairs : [])];
    for (const [doc, code] of all) {
      const d = distinct(doc);
      const c = distinct(code);
      if (d.length < 2 || c.length < 2) continue;
      pairs.push([d, c]);
      tok.forEach(doc, (t) => {
        const i = id.get(t);
        if (i !== undefined) docSeq.push(i);
      });
      docSeq.push(END);
    }
  }
  const p = pairIds(pairs);
  const m = alignmentPpmi(p, corpus.vocab.length, maxPerRow);
  log(`xal: ${p.count} pairs, PPMI ${m.colIdx.length} entries`);
  const rows = alignmentRows(m, { rank: params.dims, oversample: params.oversample, powerIterations: params.powerIterations, seed: params.seed, eigPower: params.eigPower === 1 ? 1 : 0.5 });
  const code = modelFromWordRows(corpus, rows.code, rows.rank, params).model;
  const docCorpus: TokenCorpus = { ...corpus, seq: Uint16Array.from(docSeq), chunks: p.count };
  const query = modelFromWordRows(docCorpus, rows.doc, rows.rank, params).model;
  if (out !== null) {
    writeAtomic(`${out}.xal-code.bin`, code.toBytes());
    writeAtomic(`${out}.xal-query.bin`, query.toBytes());
    log(`xal: ${out}.xal-code.bin, ${out}.xal-query.bin (${params.dims} dims)`);
  }
  return { code, query };
}

// ── the run ────────────────────────────────────────────────────────────────────────────────────

export interface TrainOptions {
  manifest: string;
  mirrors: string;
  work: string;
  out: string;
  notice: string | null;
  overrides: Partial<Recipe>;
  log: (s: string) => void;
}

const cpuS = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

export async function trainCodeModel(o: TrainOptions): Promise<{ bytes: number; sha256: string; vocab: number; dims: number; cpuS: number }> {
  const c0 = cpuS();
  const manifest = readManifest(o.manifest);
  const recipe: Recipe = { ...manifest.recipe, ...o.overrides };
  const errors = checkManifest(manifest, o.mirrors);
  if (errors.length) throw new Error(`the manifest cannot be trained on:\n  ${errors.join('\n  ')}`);
  o.log(`check: ${manifest.repos.length} repositories, commits and licences as the manifest says (${(cpuS() - c0).toFixed(1)} s CPU)`);
  fs.mkdirSync(o.work, { recursive: true });
  const extracts = manifest.repos.map((r) => ensureExtract(o.work, r, o.mirrors, o.log));
  o.log(`extract: done (${(cpuS() - c0).toFixed(0)} s CPU so far)`);
  const extractKey = digest({ v: EXTRACTOR_VERSION, p: EXTRACT_PARAMS, repos: manifest.repos.map((r) => [r.repo, r.commit, r.scope ?? 'all']) });
  const corpusKey = digest({ extractKey, minCount: recipe.minCount, minRepos: recipe.minRepos, maxVocab: recipe.maxVocab });
  const corpusFile = path.join(o.work, `corpus-${corpusKey}.bin`);
  let corpus: TokenCorpus;
  if (fs.existsSync(corpusFile)) corpus = loadCorpus(corpusFile);
  else {
    corpus = buildCorpus(extracts, recipe, o.log);
    saveCorpus(corpusFile, corpus);
  }
  o.log(`corpus: ${corpus.vocab.length} tokens in the vocabulary, ${corpus.chunks} windows, ${corpus.seq.length - corpus.chunks - 1} ids (${(cpuS() - c0).toFixed(0)} s CPU so far)`);
  const ppmiKey = digest({ corpusKey, window: recipe.window, maxPerRow: recipe.maxPerRow });
  const ppmiFile = path.join(o.work, `ppmi-${ppmiKey}.bin`);
  let m: Csr;
  if (fs.existsSync(ppmiFile)) m = loadCsr(ppmiFile);
  else {
    m = ppmiFromSequence(corpus.seq, corpus.vocab.length, recipe.window, recipe.maxPerRow, o.log);
    saveCsr(ppmiFile, m);
  }
  o.log(`ppmi: ${m.colIdx.length} entries (${(cpuS() - c0).toFixed(0)} s CPU so far)`);
  const { minRepos, xalDims = 0, xalMaxPerRow = 400, xalSources = 3, xalConcat = 0, dualSources = 0, dualMaskShared = 0, dualEpochs = 1, dualMaxIds = 48, dualSeed = DEFAULT_DUAL.seed, ...learned } = recipe;
  const params: LearnedParams = { ...DEFAULT_LEARNED_PARAMS, ...learned };
  void minRepos; // the corpus stage's
  const xal = xalDims > 0 ? trainAlignment(extracts, corpus, { ...params, dims: xalDims }, xalMaxPerRow, xalSources, xalConcat > 0 ? null : o.out, o.log) : null;
  const phases: Record<string, number> = {};
  const trained = trainFromPpmi(corpus, { matrix: m }, params, () => performance.now(), phases);
  let bytes = trained.model.toBytes();
  if (xal && xalConcat > 0) {
    if (dualSources > 0) throw new Error('xalConcat and dualSources: one at a time');
    bytes = concatModel(trained.model, xal.query, xal.code, xalConcat, corpus).toBytes();
    o.log(`xal: the model is the PPMI + SVD rows beside the alignment's (weight ${xalConcat}), ${params.dims + xalDims} dims with a query table`);
  }
  if (dualSources > 0) {
    const o2 = { ...DEFAULT_DUAL, sources: dualSources, maskShared: dualMaskShared, epochs: dualEpochs, maxIds: dualMaxIds, seed: dualSeed };
    const d = dualStage(o.work, manifest.repos, o.mirrors, extracts, LearnedModel.fromBytes(bytes), o2, o.log);
    o.log(`dual: epoch ${d.epoch} of ${dualEpochs}, held-out MRR ${d.mrr.map((x) => x.toFixed(4)).join(' → ')}, ${d.pairs} pairs (${(cpuS() - c0).toFixed(0)} s CPU so far)`);
    bytes = d.model.toBytes();
  }
  fs.mkdirSync(path.dirname(o.out), { recursive: true });
  writeAtomic(o.out, bytes);
  if (o.notice) writeAtomic(o.notice, noticeText(manifest));
  const sha = sha256Hex(bytes);
  const dims = recipe.dims + (xal && xalConcat > 0 ? xalDims : 0);
  o.log(`model: ${o.out} — ${bytes.length} bytes, ${corpus.vocab.length} tokens × ${dims} dims, sha256 ${sha} (phases ms: ${Object.entries(phases).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')})`);
  return { bytes: bytes.length, sha256: sha, vocab: corpus.vocab.length, dims, cpuS: cpuS() - c0 };
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const root = repoRoot();
  const mirrors = optString(opts, 'mirrors');
  if (!mirrors) {
    process.stderr.write('model:train: --mirrors DIR is required (bare mirrors laid out as DIR/<owner>+<name>/repo)\n');
    return 2;
  }
  const sets = opts.set === undefined ? [] : ([] as string[]).concat(opts.set as string | string[]);
  const overrides: Partial<Recipe> = {};
  for (const s of sets) {
    const [k, v] = s.split('=');
    (overrides as Record<string, number>)[k] = Number(v);
  }
  const custom = sets.length > 0;
  const out = optString(opts, 'out') ?? (custom ? path.join(os.tmpdir(), `code-model-${digest(overrides)}.bin`) : path.join(root, 'models/code-model.bin'));
  const t0 = performance.now();
  const r = await trainCodeModel({
    manifest: optString(opts, 'manifest') ?? path.join(root, 'models/manifest.json'), mirrors: path.resolve(mirrors),
    work: path.resolve(optString(opts, 'work') ?? path.join(os.tmpdir(), 'hci-model-work')), out: path.resolve(out),
    notice: custom && !optString(opts, 'notice') ? null : path.resolve(optString(opts, 'notice') ?? path.join(root, 'NOTICE')),
    overrides, log: (s) => process.stderr.write(`${s}\n`),
  });
  process.stdout.write(`${JSON.stringify({ ...r, out, wallS: Math.round((performance.now() - t0) / 1000) })}\n`);
  return 0;
}

await runMain(import.meta.url, 'model:train', main);
