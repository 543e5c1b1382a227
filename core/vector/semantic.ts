// One workspace's semantic channel: the provider its settings name (learned, pretrained — the code
// model shipped in the package —, combined — both side by side —, model2vec, http, onnx), what an indexing pass gets from it (inline
// vectors, the vector phase), and what a search or a "more like this" gets (a query vector and the
// loaded scan of the current index generation, cached until a commit changes either). Off when the
// settings say so: then it gives nothing and the workspace is keyword-only. Owns these caches and
// the per-workspace wiring; rows are store.ts's, the phase indexing.ts's, the channel
// core/search/channels/vector.ts.
import type { Database } from '../sqlite/engine.ts';
import type { IndexStore } from '../index/store.ts';
import type { IndexEnv } from '../index/indexer.ts';
import type { StatusReport } from '../contract/status.ts';
import { httpSettingsOf, type SemanticSettings } from './settings.ts';
import { HttpEmbeddingProvider } from './http/provider.ts';
import { createOnnxProvider, type OnnxHost } from './onnx/provider.ts';
import { createModel2VecProvider, type ModelFiles } from './static/provider.ts';
import { loadPretrained, type PretrainedProvider } from './pretrained/provider.ts';
import { CombinedEmbedder, combinedPrefix } from './combined/embedder.ts';
import { LearnedProvider } from './learned/provider.ts';
import { KnnIndex } from './knn.ts';
import { kernelModule } from './scan.ts';
import { blobToVector, dequantizeInt8 } from './quantize.ts';
import { InlineVectors, TrainingCollector } from './inline.ts';
import { runVectorPhase, type VectorProgress } from './indexing.ts';
import { bumpVectorGeneration, currentModel, loadPackedVectors, modelData, readVectorState, setCurrentModel, writeVectorState, type FirstRow, type StoredModel } from './store.ts';
import { modelKeyString, providerError, type EmbeddingProvider, type ProviderError } from './provider.ts';

/** What a runtime lends the semantic channel (each piece only where a provider needs it). */
export interface VectorHost {
  /** http: the runtime's fetch (every runtime has one). */
  fetch?: typeof fetch;
  /** http: reads the API key's environment variable (each runtime's adapter: runtimes/<runtime>/vector-host.ts). */
  env?: (name: string) => string | undefined;
  /** onnx: loading onnxruntime-web and the model folder's files. */
  onnx?: OnnxHost;
  /** pretrained: the bytes of the code model shipped in the package (models/code-model.bin), each runtime reading them its own way. */
  codeModel?: () => Promise<Uint8Array>;
  /** model2vec: a model folder's files. */
  files?: ModelFiles;
}

/** A provider that embeds at once (pretrained, model2vec): new chunks get vectors inline with the keyword pass. */
type SyncProvider = EmbeddingProvider & { embedSync(texts: readonly string[], kind?: 'document' | 'query'): Float32Array; readonly scale?: number };

const isSync = (p: EmbeddingProvider): p is SyncProvider => typeof (p as Partial<SyncProvider>).embedSync === 'function';

/** A query's vector, or why there is none. */
export type QueryVector = { ok: true; vector: Float32Array | null } | { ok: false; error: ProviderError };

/** What a search's read transaction gets: the scan and the query vector, or why the vector channel cannot run. */
export type VectorSearch =
  | { ok: true; knn: KnnIndex; query: Float32Array; model: StoredModel }
  | { ok: false; reason: string; hint: string };

export class SemanticIndex {
  private remote: Promise<EmbeddingProvider | ProviderError> | null = null;
  private pre: Promise<PretrainedProvider | ProviderError> | null = null;
  /** The shipped model once loaded (combined: the query's pretrained half inside the read transaction). */
  private preLoaded: PretrainedProvider | null = null;
  private learned: { modelId: number; created: string; provider: LearnedProvider } | null = null;
  private knn: { key: string; index: KnnIndex } | null = null;
  private kernel: WebAssembly.Module | null | undefined;

  constructor(readonly settings: SemanticSettings, private readonly host: VectorHost, private readonly root: string) {}

  get enabled(): boolean {
    return this.settings.enabled;
  }

  get provider(): string {
    return this.settings.provider;
  }

  /** Whether the vector phase trains a model on this index (learned, and combined's learned half). */
  private get trains(): boolean {
    return this.settings.provider === 'learned' || this.settings.provider === 'combined';
  }

  /** The shipped code model (pretrained, and combined's other half), loaded once. */
  private pretrained(): Promise<PretrainedProvider | ProviderError> {
    this.pre ??= loadPretrained(this.host.codeModel).then((p) => {
      if (!('code' in p)) this.preLoaded = p;
      return p;
    });
    return this.pre;
  }

  /** The provider other than learned and combined (built once); a ProviderError when it cannot be built. */
  private remoteProvider(): Promise<EmbeddingProvider | ProviderError> {
    this.remote ??= (async () => {
      const s = this.settings;
      if (s.provider === 'pretrained') return this.pretrained();
      if (s.provider === 'model2vec') return createModel2VecProvider(s.model2vec!, this.host.files, this.root);
      if (s.provider === 'http') {
        if (!this.host.fetch) return providerError('provider_config', 'this runtime gave hci no fetch', 'embedding over HTTP needs a runtime with fetch', false);
        return new HttpEmbeddingProvider(httpSettingsOf(s.http!), { fetch: this.host.fetch, env: this.host.env });
      }
      return createOnnxProvider(s.onnx!, this.host.onnx, this.root);
    })();
    return this.remote;
  }

  /** What an indexing pass gets: vectors written with their chunks, and the vector phase after it. */
  async passEnv(store: IndexStore, opts: { full?: boolean; signal?: AbortSignal; onProgress?: (p: VectorProgress) => void }): Promise<Pick<IndexEnv, 'vectors' | 'afterPass'> & { summary(): unknown }> {
    if (!this.enabled) return { summary: () => undefined };
    const model = await store.read((db) => currentModel(db));
    let inline: InlineVectors | undefined;
    const s = this.settings;
    const isLearned = this.trains;
    // combined: the shipped half first (without it the phase only records why).
    const pre = s.provider === 'combined' ? await this.pretrained() : null;
    const preModel = pre && !('code' in pre) ? pre.model : null;
    const current = isLearned && model?.key.provider === s.provider && !opts.full && model.key.dims === s.dims + (preModel?.dims ?? 0) && (!preModel || model.key.model.startsWith(combinedPrefix(preModel)));
    if (pre && 'code' in pre) {
      // Nothing to embed with: the vector phase records the failure.
    } else if (isLearned && !current) {
      // A model will be trained after this pass: collect the texts the pass writes.
      inline = new InlineVectors(null, undefined, new TrainingCollector());
    } else if (current && model) {
      const p = await store.read((db) => this.learnedFor(db, model));
      const learned = p?.model;
      if (learned && preModel) {
        const both = new CombinedEmbedder(preModel, learned);
        inline = new InlineVectors(model, (texts) => both.embed(texts));
      } else inline = new InlineVectors(model, p ? (texts) => p.embedWithCoverage(texts) : undefined);
    } else if (!isLearned) {
      const remote = await this.remoteProvider();
      if (!('code' in remote)) {
        let m = model;
        const sync = isSync(remote) ? remote : null;
        // A provider whose int8 scale is known before any vector (the pretrained model's) becomes the
        // current model now, so even a first pass embeds inline instead of reading every chunk again.
        if (sync?.scale !== undefined && (!m || modelKeyString(m.key) !== modelKeyString(remote.key))) {
          const scale = sync.scale;
          m = await store.write((db) => {
            setCurrentModel(db, remote.key, { scale });
            bumpVectorGeneration(db);
            return currentModel(db);
          });
        }
        // The cache (same text, same model) inline, and a synchronous provider's new vectors; an async provider embeds in the vector phase.
        if (m && modelKeyString(remote.key) === modelKeyString(m.key)) inline = new InlineVectors(m, sync ? (texts) => ({ vectors: sync.embedSync(texts) }) : undefined);
      }
    }
    let run: unknown;
    return {
      vectors: inline,
      afterPass: async () => {
        if (pre && 'code' in pre) {
          run = await recordFailure(store, s.provider, pre);
        } else if (isLearned) {
          run = await runVectorPhase(store, { kind: 'learned', dims: s.dims, ...(preModel ? { pretrained: preModel } : {}) }, { full: opts.full, signal: opts.signal, onProgress: opts.onProgress, inline: inline?.stats, collected: inline?.collector });
        } else {
          const remote = await this.remoteProvider();
          if ('code' in remote) {
            run = await recordFailure(store, this.settings.provider, remote);
          } else {
            run = await runVectorPhase(store, { kind: 'remote', provider: remote }, { full: opts.full, signal: opts.signal, onProgress: opts.onProgress, inline: inline?.stats });
          }
        }
        this.knn = null;
      },
      summary: () => run,
    };
  }

  /** The learned provider of a stored model (loaded once per model). */
  private learnedFor(db: Database, model: StoredModel): LearnedProvider | null {
    if (this.learned?.modelId === model.id && this.learned.created === model.createdAt) return this.learned.provider;
    const data = modelData(db, model.id);
    if (!data) return null;
    const provider = LearnedProvider.fromBytes(data);
    this.learned = { modelId: model.id, created: model.createdAt, provider };
    return provider;
  }

  /**
   * Before a search's read transaction: compiles the scan kernel once, and for a remote provider
   * embeds the query (null: the learned model embeds it inside the transaction, or none is needed).
   */
  async prepare(query: string | null): Promise<QueryVector> {
    if (this.kernel === undefined) this.kernel = await kernelModule();
    if (this.settings.provider === 'combined') {
      // Both halves are embedded inside the transaction (the learned half is the index's); the shipped half is loaded here.
      const pre = await this.pretrained();
      return 'code' in pre ? { ok: false, error: pre } : { ok: true, vector: null };
    }
    if (query === null || this.settings.provider === 'learned') return { ok: true, vector: null };
    const remote = await this.remoteProvider();
    if ('code' in remote) return { ok: false, error: remote };
    if (isSync(remote)) return { ok: true, vector: remote.embedSync([query], 'query') };
    const r = await remote.embed([query], { kind: 'query' });
    return r.ok ? { ok: true, vector: r.vectors } : { ok: false, error: r.error };
  }

  /** The scan of the current generation's vectors (loaded once per generation and model). */
  private scanFor(db: Database, model: StoredModel, first?: FirstRow): KnnIndex {
    const sql = "SELECT group_concat(value, ':') FROM meta WHERE key IN ('generation', 'vector_generation')";
    const gen = (first ? first(sql)?.[0] : db.selectValue(sql)) as string;
    const key = `${gen}#${model.id}#${model.createdAt}#${model.scale}`;
    if (this.knn?.key !== key) this.knn = { key, index: KnnIndex.createSync(loadPackedVectors(db, model), this.kernel ?? null) };
    return this.knn.index;
  }

  /**
   * Inside the search's read transaction: the scan and the query vector (from `prepare`, or the
   * learned model here). `first`: how the two reads every search makes (the current model, the
   * generations the scan is of) run — the search session's prepared statements.
   */
  vectorSearch(db: Database, text: string | null, prepared: QueryVector, chunkId?: number, first?: FirstRow): VectorSearch {
    const model = currentModel(db, first);
    if (!model) return { ok: false, reason: 'no vectors yet', hint: 'run `hci index`: it builds the vectors (semantic search is on)' };
    if (!prepared.ok) return { ok: false, reason: `the ${this.settings.provider} provider failed: ${prepared.error.message}`, hint: prepared.error.hint };
    const wanted = this.settings.provider;
    if (model.key.provider !== wanted) return { ok: false, reason: `the stored vectors are ${model.key.provider}'s, the settings name ${wanted}`, hint: 'run `hci index` to embed with the configured provider' };
    let query: Float32Array | null = prepared.vector;
    if (chunkId !== undefined) {
      query = storedVector(db, chunkId, model);
      if (!query) return { ok: false, reason: 'this chunk has no vector yet', hint: 'run `hci index` to finish the vectors' };
    } else if (!query && text !== null) {
      const p = this.learnedFor(db, model);
      if (!p?.model) return { ok: false, reason: 'the learned model is missing', hint: 'run `hci index --full`' };
      if (wanted === 'combined') {
        const pre = this.preLoaded;
        if (!pre) return { ok: false, reason: 'the shipped code model is not loaded', hint: 'search again (it loads before the search)' };
        if (!model.key.model.startsWith(combinedPrefix(pre.model))) return { ok: false, reason: 'the stored vectors were made with another shipped code model', hint: 'run `hci index` to embed with this one' };
        query = new CombinedEmbedder(pre.model, p.model).embedQueries([text]);
      } else query = p.embedWithCoverage([text]).vectors;
    }
    if (!query) return { ok: false, reason: 'nothing to embed', hint: 'pass a query' };
    return { ok: true, knn: this.scanFor(db, model, first), query, model };
  }

  /** The vector channel's part of a status report. */
  status(db: Database): NonNullable<StatusReport['vectors']> {
    const chunks = Number(db.selectValue('SELECT count(*) FROM chunks'));
    const model = currentModel(db);
    const withVectors = model ? Number(db.selectValue('SELECT count(*) FROM chunk_vectors WHERE model_id = ?', [model.id])) : 0;
    const vs = readVectorState(db);
    const lastError = vs?.last_error ?? null;
    let state: NonNullable<StatusReport['vectors']>['state'];
    if (!this.enabled) state = 'off';
    else if (lastError) state = 'failed';
    else if (!model || (withVectors === 0 && chunks > 0)) state = 'not_built';
    else state = withVectors < chunks ? 'partial' : 'ready';
    return {
      state, provider: this.enabled ? this.settings.provider : null, model: model ? modelKeyString(model.key) : null, chunks, with_vectors: withVectors,
      coverage: chunks ? Math.round((withVectors / chunks) * 1000) / 1000 : 0, last_error: lastError, last_run: vs?.last_run ?? null,
    };
  }
}

/** A chunk's stored vector as unit-length floats (the query of "more like this"). */
export function storedVector(db: Database, chunkId: number, model: StoredModel): Float32Array | null {
  const blob = db.selectValue('SELECT vec FROM chunk_vectors WHERE chunk_id = ? AND model_id = ?', [chunkId, model.id]) as Uint8Array | undefined;
  if (!blob) return null;
  const v = blobToVector(blob, model.key.quantization);
  return v instanceof Int8Array ? dequantizeInt8(v, model.scale ?? 1) : v;
}

async function recordFailure(store: IndexStore, provider: string, error: ProviderError): Promise<unknown> {
  await store.write((db) => writeVectorState(db, { provider, last_error: { code: error.code, message: error.message, hint: error.hint, at: new Date().toISOString() }, last_run: null }));
  return { provider, model: null, trained: false, train_reason: null, embedded: 0, reused: 0, chunks: 0, with_vectors: 0, took_ms: 0, error: { code: error.code, message: error.message, hint: error.hint } };
}
