// The vector phase of an indexing run, after the keyword pass has committed (it runs holding the
// indexer claim; core/index/indexer.ts IndexEnv.afterPass). `learned`: train a model from the
// index's own chunks — streamed from short read transactions, never all texts at once — when there
// is none, on --full, when the settings' dims changed, or past the drift verdict; else embed the
// chunks still without a vector with the current vocabulary. `combined`: the same training, each
// vector the pretrained model's and the learned model's side by side (combined/embedder.ts; a new
// pretrained model retrains); after training, the shipped half comes from the trainer's token stream
// in the shipped model's ids (no second read or tokenization of the texts: the same bits). `pretrained` / `model2vec` / `http` / `onnx`: make the provider's
// model key current (a new key drops the old vectors) and embed every chunk still without one, in
// batches, each batch's vectors committed on their own. A provider failure is recorded (meta
// vector_state: status shows it) and ends the phase: keyword data is never touched. Owns the
// phase's order, batching and bookkeeping; rows are store.ts's, providers their own modules.
import { HciError } from '../platform.ts';
import type { IndexStore } from '../index/store.ts';
import type { VectorRun } from '../contract/tasks.ts';
import { fitInt8Scale } from './quantize.ts';
import { TokenCorpusBuilder } from './learned/cooccur.ts';
import { ModelTokenizer } from './learned/tokens.ts';
import { trainModelFromCorpus, type Clock } from './learned/train.ts';
import { LearnedProvider, LEARNED_RECIPE } from './learned/provider.ts';
import { LearnedModel, type Coverage, DEFAULT_LEARNED_PARAMS } from './learned/model.ts';
import { CombinedEmbedder, combinedPrefix, concatHalves } from './combined/embedder.ts';
import { END } from './learned/cooccur.ts';
import { modelKeyString, providerError, type EmbeddingProvider, type ModelKey, type ProviderError } from './provider.ts';
import type { InlineStats, TrainingCollector } from './inline.ts';
import {
  bumpVectorGeneration, chunkTextsOfFiles, currentModel, encodeInt8Into, encodeVector, filesNeedingVectors, modelData, setCurrentModel,
  textHashKindOf, updateModelInfo, VectorRows, writeVectorBatch, writeVectorState, type ChunkText, type StoredModel,
} from './store.ts';
import { CURRENT_TEXT_HASH } from './text-hash.ts';

export interface VectorProgress {
  done: number;
  total: number;
  /** Chunks per second so far, and the time left at that rate. */
  rate: number;
  etaS: number;
}

export interface VectorPhaseOptions {
  full?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: VectorProgress) => void;
  /** What the keyword pass embedded or reused inline (learned: the drift measure adds its coverage). */
  inline?: InlineStats;
  /** The texts the keyword pass wrote, already in a corpus builder (used when they are every chunk of the index). */
  collected?: TrainingCollector;
  clock?: Clock;
  /** Files per read transaction when streaming chunk texts. */
  filesPerRead?: number;
  /** Chunks per embed call / write transaction of the backfill. */
  batchChunks?: number;
}

/** What the phase embeds with. */
export type PhaseProvider =
  /** With `pretrained`: the combined provider (the learned model trained here beside the shipped one). */
  | { kind: 'learned'; dims: number; pretrained?: LearnedModel }
  | { kind: 'remote'; provider: EmbeddingProvider };

const now = (): number => (typeof performance === 'object' ? performance.now() : Date.now());

export async function runVectorPhase(store: IndexStore, p: PhaseProvider, o: VectorPhaseOptions = {}): Promise<VectorRun> {
  const t0 = now();
  const run: VectorRun = { provider: p.kind === 'learned' ? (p.pretrained ? 'combined' : 'learned') : p.provider.id, model: null, trained: false, train_reason: null, embedded: 0, reused: o.inline?.reused ?? 0, chunks: 0, with_vectors: 0, took_ms: 0, error: null };
  run.embedded += o.inline?.embedded ?? 0;
  try {
    if (p.kind === 'learned') await learnedPhase(store, p.dims, p.pretrained ?? null, o, run);
    else await remotePhase(store, p.provider, o, run);
  } catch (e) {
    if (e instanceof HciError && e.code === 'cancelled') throw e;
    const err = e as Error;
    run.error = { code: 'provider_failed', message: `the vector phase failed: ${err?.message ?? String(e)}`, hint: 'keyword search is unaffected; run `hci index` again' };
  }
  const counts = await store.read((db) => ({
    chunks: Number(db.selectValue('SELECT count(*) FROM chunks')),
    with: Number(db.selectValue('SELECT count(*) FROM chunk_vectors v JOIN vector_models m ON m.id = v.model_id AND m.current = 1')),
    model: currentModel(db),
  }));
  run.chunks = counts.chunks;
  run.with_vectors = counts.with;
  run.model = counts.model ? modelKeyString(counts.model.key) : null;
  run.took_ms = Math.round(now() - t0);
  await store.write((db) => {
    writeVectorState(db, {
      provider: run.provider,
      last_error: run.error ? { code: run.error.code, message: run.error.message, hint: run.error.hint ?? '', at: new Date().toISOString() } : null,
      last_run: { at: new Date().toISOString(), embedded: run.embedded, reused: run.reused, trained: run.trained, took_ms: run.took_ms, complete: run.with_vectors === run.chunks },
    });
  });
  return run;
}

function checkCancel(signal?: AbortSignal): void {
  if (signal?.aborted) throw new HciError('cancelled', 'indexing was cancelled', 'run `hci index` again to finish; the index holds every file committed so far');
}

// ── learned ────────────────────────────────────────────────────────────────────────────────────

async function learnedPhase(store: IndexStore, dims: number, pre: LearnedModel | null, o: VectorPhaseOptions, run: VectorRun): Promise<void> {
  const family = pre ? 'combined' : 'learned';
  const preDims = pre?.dims ?? 0;
  const cur = await store.read((db) => {
    const m = currentModel(db);
    return m && m.key.provider === family ? { model: m, data: modelData(db, m.id) } : null;
  });
  let reason: string | null = null;
  let provider: LearnedProvider | null = null;
  if (!cur || !cur.data) reason = 'no model yet';
  else if (o.full) reason = 'full rebuild';
  else if (pre && !cur.model.key.model.startsWith(combinedPrefix(pre))) reason = 'the pretrained model changed';
  else if (cur.model.key.dims !== dims + preDims) reason = `dims changed (${cur.model.key.dims - preDims} → ${dims})`;
  else {
    try {
      provider = LearnedProvider.fromBytes(cur.data);
    } catch (e) {
      reason = `the stored model cannot be read (${(e as Error).message})`;
    }
  }
  if (provider && cur) {
    const since = addCoverage(cur.model.info.since ?? { texts: 0, tokens: 0, oov: 0 }, o.inline?.coverage);
    const model = provider.model!;
    const embedder = pre ? new CombinedEmbedder(pre, model) : model;
    // New chunks the pass could not embed inline (none, normally), with the current vocabulary.
    const embed = (texts: readonly string[]) => {
      const r = embedder.embed(texts);
      addCoverage(since, r.coverage);
      return Promise.resolve({ ok: true as const, vectors: r.vectors });
    };
    await backfill(store, cur.model, embed, o, run);
    const verdict = model.drift(since);
    await store.write((db) => updateModelInfo(db, cur.model.id, { ...cur.model.info, since }));
    if (verdict.retrain) reason = `drift: ${verdict.reason}`;
    else return;
  }
  run.trained = true;
  run.train_reason = reason;
  await trainFromIndex(store, dims, pre, o, run);
}

function addCoverage(into: Coverage, add?: Coverage): Coverage {
  if (add) {
    into.texts += add.texts;
    into.tokens += add.tokens;
    into.oov += add.oov;
  }
  return into;
}

/** Streams every chunk text through the corpus builder (a read transaction per `filesPerRead` files), trains, stores the model and every vector. */
async function trainFromIndex(store: IndexStore, dims: number, pre: LearnedModel | null, o: VectorPhaseOptions, run: VectorRun): Promise<void> {
  const filesPerRead = o.filesPerRead ?? 200;
  const params = { ...DEFAULT_LEARNED_PARAMS, dims };
  const phases: Record<string, number> = {};
  let t = now();
  // The keyword pass's own texts, when it wrote every chunk the index holds (a first or full build).
  const c = o.collected;
  const whole = c && c.count > 0 && (await store.read((db) => Number(db.selectValue('SELECT count(*) FROM chunks')))) === c.count;
  const builder = whole ? c.builder : new TokenCorpusBuilder(new ModelTokenizer());
  let ids = whole ? c.ids : new Int32Array(1024);
  let hashes = whole ? c.hashes : new Uint8Array(1024 * 8);
  let n = whole ? c.count : 0;
  const fileIds = whole ? [] : await store.read((db) => filesNeedingVectors(db, null));
  if (whole) phases.tokens_during_pass = 0;
  for (let i = 0; i < fileIds.length; i += filesPerRead) {
    checkCancel(o.signal);
    const slice = fileIds.slice(i, i + filesPerRead);
    const texts = await store.read((db) => chunkTextsOfFiles(db, store.codec, slice));
    for (const t of texts) {
      builder.add(t.text);
      if (n === ids.length) {
        const gi = new Int32Array(ids.length * 2);
        gi.set(ids);
        ids = gi;
        const gh = new Uint8Array(hashes.length * 2);
        gh.set(hashes);
        hashes = gh;
      }
      ids[n] = t.id;
      hashes.set(t.hash, n * 8);
      n++;
    }
  }
  checkCancel(o.signal);
  phases.read_and_tokens = now() - t;
  // combined: the same token stream in the shipped model's ids too (its half of every vector, below).
  const corpus = builder.finish({ minCount: params.minCount, maxVocab: params.maxVocab, ...(pre ? { also: (token: string) => pre.idOf(token) } : {}) });
  const preSeq = corpus.alsoSeq;
  delete corpus.alsoSeq;
  const trained = trainModelFromCorpus(corpus, params, o.clock ?? now, phases);
  t = now();
  const model: LearnedModel = trained.model;
  const combined = pre ? new CombinedEmbedder(pre, model) : null;
  const key: ModelKey = combined ? combined.key : { provider: 'learned', model: `${LEARNED_RECIPE}@${model.fingerprint}`, dims: model.dims, quantization: 'int8' };
  const scale = combined ? combined.scale : model.header.vectorScale;
  const modelId = await store.write((db) => {
    const id = setCurrentModel(db, key, { scale, data: model.toBytes(), info: { trainedChunks: corpus.chunks, since: { texts: 0, tokens: 0, oov: 0 }, textHash: CURRENT_TEXT_HASH } });
    bumpVectorGeneration(db);
    return id;
  });
  const batch = o.batchChunks ?? 4000;
  const width = key.dims;
  // combined: each row's shipped half from the same token stream in its ids (what pre.embed(text) sees: same bits), beside the trainer's row.
  const preStarts = pre && preSeq ? chunkRuns(preSeq, n) : null;
  const preRows = pre ? new Float32Array(Math.min(batch, n) * pre.dims) : null;
  const t0 = now();
  // The trained vectors a batch at a time (the trainer computes them on demand: never all at once).
  const rows = new Float32Array(Math.min(batch, n) * dims);
  for (let start = 0; start < n; start += batch) {
    checkCancel(o.signal);
    const end = Math.min(n, start + batch);
    const vecs = new Uint8Array((end - start) * width);
    trained.rows.fill(start, end, rows);
    let out: Float32Array = rows;
    if (pre && preRows && preStarts && preSeq) {
      const pd = pre.dims;
      preRows.fill(0);
      for (let i = start; i < end; i++) {
        pre.meanOf(preSeq, preStarts[i], preStarts[i + 1] - 1, preRows, (i - start) * pd);
        pre.project(preRows, (i - start) * pd);
      }
      out = concatHalves(preRows.subarray(0, (end - start) * pd), pd, rows.subarray(0, (end - start) * dims), dims);
    }
    for (let i = start; i < end; i++) encodeInt8Into(out.subarray((i - start) * width, (i - start + 1) * width), scale, vecs, (i - start) * width);
    await store.write((db) => {
      writeVectorBatch(db, modelId, ids.subarray(start, end), hashes.subarray(start * 8, end * 8), vecs, width);
      bumpVectorGeneration(db);
    });
    run.embedded += end - start;
    const elapsed = (now() - t0) / 1000;
    const rate = elapsed > 0 ? end / elapsed : 0;
    o.onProgress?.({ done: end, total: n, rate, etaS: rate > 0 ? (n - end) / rate : 0 });
  }
  phases.write = now() - t;
  run.phases = Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, Math.round(v)]));
}

/** Where each of `n` chunks' runs starts in a token stream laid out as TokenCorpus.seq (END first, END after each chunk): chunk c is [starts[c], starts[c+1] − 1). */
function chunkRuns(seq: Uint16Array, n: number): Int32Array {
  const starts = new Int32Array(n + 1);
  let c = 0;
  starts[0] = 1;
  for (let i = 1; i < seq.length && c < n; i++) if (seq[i] === END) starts[++c] = i + 1;
  if (c !== n) throw new Error(`the shipped model's token stream holds ${c} chunks, the corpus ${n}`);
  return starts;
}

// ── http / onnx ────────────────────────────────────────────────────────────────────────────────

async function remotePhase(store: IndexStore, provider: EmbeddingProvider, o: VectorPhaseOptions, run: VectorRun): Promise<void> {
  const key = provider.key;
  const model = await store.write((db) => {
    const before = currentModel(db);
    const id = setCurrentModel(db, key);
    if (!before || before.id !== id) bumpVectorGeneration(db);
    return currentModel(db)!;
  });
  const embed = (texts: readonly string[]) => provider.embed(texts, { signal: o.signal, kind: 'document' });
  const err = await backfill(store, model, embed, o, run);
  if (err) run.error = { code: err.code, message: err.message, hint: err.hint };
}

type Embed = (texts: readonly string[]) => Promise<{ ok: true; vectors: Float32Array } | { ok: false; error: ProviderError; partial?: { vectors: Float32Array; done: Uint8Array } }>;

/** Embeds every chunk without a vector of `model`, batch by batch; the first failure ends it (returned). */
async function backfill(store: IndexStore, model: StoredModel, embed: Embed, o: VectorPhaseOptions, run: VectorRun): Promise<ProviderError | null> {
  const batch = o.batchChunks ?? 256;
  const filesPerRead = o.filesPerRead ?? 200;
  const { total, fileIds } = await store.read((db) => ({
    total: Number(db.selectValue('SELECT count(*) FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id AND v.model_id = ?)', [model.id])),
    fileIds: filesNeedingVectors(db, model.id),
  }));
  if (total === 0) return null;
  let scale = model.scale;
  let done = 0;
  const t0 = now();
  let pending: ChunkText[] = [];
  const flush = async (): Promise<ProviderError | null> => {
    const texts = pending;
    pending = [];
    if (!texts.length) return null;
    checkCancel(o.signal);
    // The cache first: a chunk with the same text under this model already has a vector.
    const reused = await store.write((db) => {
      const rows = new VectorRows(db, model.id);
      const left: ChunkText[] = [];
      try {
        for (const t of texts) {
          const v = rows.lookup(t.hash);
          if (v) rows.write(t.id, t.hash, v);
          else left.push(t);
        }
      } finally {
        rows.close();
      }
      return left;
    });
    run.reused += texts.length - reused.length;
    const todo = reused;
    let error: ProviderError | null = null;
    let vectors: Float32Array;
    let ok: Uint8Array;
    if (todo.length) {
      const r = await embed(todo.map((t) => t.text));
      if (r.ok) {
        vectors = r.vectors;
        ok = new Uint8Array(todo.length).fill(1);
      } else {
        error = r.error;
        vectors = r.partial?.vectors ?? new Float32Array(0);
        ok = r.partial?.done ?? new Uint8Array(todo.length);
      }
      const dims = model.key.dims;
      if (vectors.length && vectors.length !== todo.length * dims) {
        return providerError('provider_bad_response', `the provider gave ${vectors.length / todo.length} dims, the model key says ${dims}`, 'check the dims setting', false);
      }
      if (model.key.quantization === 'int8' && scale === null && ok.some((x) => x)) {
        scale = fitInt8Scale(vectors);
        const s = scale;
        await store.write((db) => void setCurrentModel(db, model.key, { scale: s }));
      }
      const written = await store.write((db) => {
        const rows = new VectorRows(db, model.id);
        let w = 0;
        try {
          todo.forEach((t, i) => {
            if (!ok[i]) return;
            rows.write(t.id, t.hash, encodeVector(vectors.subarray(i * dims, (i + 1) * dims), model.key.quantization, scale));
            w++;
          });
        } finally {
          rows.close();
        }
        bumpVectorGeneration(db);
        return w;
      });
      run.embedded += written;
    }
    done += texts.length;
    const elapsed = (now() - t0) / 1000;
    const rate = elapsed > 0 ? done / elapsed : 0;
    o.onProgress?.({ done, total, rate, etaS: rate > 0 ? (total - done) / rate : 0 });
    return error;
  };
  for (let i = 0; i < fileIds.length; i += filesPerRead) {
    checkCancel(o.signal);
    const slice = fileIds.slice(i, i + filesPerRead);
    const texts = await store.read((db) => chunkTextsOfFiles(db, store.codec, slice, { modelId: model.id, missingOnly: true, hash: textHashKindOf(model.info) }));
    for (const t of texts) {
      pending.push(t);
      if (pending.length >= batch) {
        const e = await flush();
        if (e) return e;
      }
    }
  }
  return flush();
}
