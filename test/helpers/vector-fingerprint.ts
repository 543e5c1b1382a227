// What the learned-embedding parity test compares across Node, Deno and Chromium: digests of the
// trained model's bytes, of the training chunks' vectors and of query and later-chunk vectors, and
// the KNN hits (ids and scores) of every query through both scan backends for int8 and f32; the
// shipped code model's vectors alone and combined with a learned model. Pure
// (core imports only), so the same module runs in all three runtimes.
import { sha256Hex } from '../../core/index/sha256.ts';
import { KnnIndex } from '../../core/vector/knn.ts';
import { quantizeInt8 } from '../../core/vector/quantize.ts';
import { LearnedProvider } from '../../core/vector/learned/provider.ts';
import { LearnedModel } from '../../core/vector/learned/model.ts';
import { loadPretrained } from '../../core/vector/pretrained/provider.ts';
import { CombinedEmbedder } from '../../core/vector/combined/embedder.ts';

export interface VectorCorpus {
  texts: string[];
  queries: string[];
  later: string[];
}

export interface VectorFingerprint {
  dims: number;
  vocab: number;
  modelBytes: number;
  modelSha: string;
  fingerprint: string;
  vectorsSha: string;
  /** embed() of the training texts gives the training vectors bit for bit. */
  embedMatchesTraining: boolean;
  queriesSha: string;
  laterSha: string;
  /** Per query: hits as [id, score] for each backend. */
  knn: Record<string, Array<Array<[number, number]>>>;
  backends: string[];
  drift: unknown;
}

const bytesOf = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

export async function vectorFingerprint(c: VectorCorpus): Promise<VectorFingerprint> {
  const provider = new LearnedProvider({ dims: 64 });
  const trained = provider.train(c.texts);
  const model = trained.model;
  const bytes = model.toBytes();
  const again = model.embed(c.texts).vectors;
  const queries = model.embed(c.queries).vectors;
  const later = model.embed(c.later);
  const dims = model.dims;
  const ids = c.texts.map((_, i) => 1000 + i);
  const scale = model.header.vectorScale;
  const q8 = quantizeInt8(trained.vectors, scale);
  const knn: VectorFingerprint['knn'] = {};
  const backends: string[] = [];
  for (const quantization of ['int8', 'f32'] as const) {
    for (const backend of ['wasm', 'js'] as const) {
      const idx = await KnnIndex.create({ dims, quantization, data: quantization === 'int8' ? q8 : trained.vectors, scale, ids }, backend);
      const name = `${quantization}/${idx.backend}`;
      backends.push(name);
      knn[name] = c.queries.map((_, i) => idx.search(queries.subarray(i * dims, (i + 1) * dims), { k: 10 }).map((h): [number, number] => [h.id, h.score]));
    }
  }
  return {
    dims, vocab: model.vocab.length, modelBytes: bytes.length, modelSha: sha256Hex(bytes), fingerprint: model.fingerprint,
    vectorsSha: sha256Hex(bytesOf(trained.vectors)),
    embedMatchesTraining: sha256Hex(bytesOf(again)) === sha256Hex(bytesOf(trained.vectors)),
    queriesSha: sha256Hex(bytesOf(queries)), laterSha: sha256Hex(bytesOf(later.vectors)),
    knn, backends, drift: model.drift(later.coverage, { minTokens: 1 }),
  };
}

export interface PretrainedFingerprint {
  bytes: number;
  sha: string;
  key: string;
  vocab: number;
  dims: number;
  textsSha: string;
  queriesSha: string;
  /** The combined provider's vectors: the code model beside a learned model trained on the corpus. */
  combined: { key: string; scale: number; textsSha: string; queriesSha: string };
  /**
   * A format 2 model made here from the code model (its rows shifted by one token as the query table),
   * serialized and read back: its bytes, chunk and query vectors, alone and combined.
   */
  queryTable: { sha: string; fingerprint: string; textsSha: string; queriesSha: string; combinedQueriesSha: string };
}

/** The shipped code model as this runtime's loader hands it over (VectorHost.codeModel), and its vectors of the corpus. */
export async function pretrainedFingerprint(load: () => Promise<Uint8Array>, c: VectorCorpus): Promise<PretrainedFingerprint> {
  const bytes = await load();
  const p = await loadPretrained(load);
  if ('code' in p) throw new Error(`${p.code}: ${p.message}`);
  const learned = new LearnedProvider({ dims: 64 }).train(c.texts).model;
  const both = new CombinedEmbedder(p.model, learned);
  const m = p.model;
  const shifted = new Int8Array(m.vectors.length);
  shifted.set(m.vectors.subarray(m.dims));
  shifted.set(m.vectors.subarray(0, m.dims), m.vectors.length - m.dims);
  const rowScale = Float32Array.from(m.rowScale, (_, i) => m.rowScale[(i + 1) % m.rowScale.length]);
  const qBytes = m.withQueryTable({ rowScale, vectors: shifted }).toBytes();
  const q = LearnedModel.fromBytes(qBytes);
  return {
    bytes: bytes.length, sha: sha256Hex(bytes), key: `${p.key.provider}/${p.key.model}/${p.key.dims}`, vocab: p.model.vocab.length, dims: p.dims,
    textsSha: sha256Hex(bytesOf(p.embedSync(c.texts))), queriesSha: sha256Hex(bytesOf(p.embedSync(c.queries))),
    combined: { key: `${both.key.provider}/${both.key.model}/${both.key.dims}`, scale: both.scale, textsSha: sha256Hex(bytesOf(both.embed(c.texts).vectors)), queriesSha: sha256Hex(bytesOf(both.embed(c.queries).vectors)) },
    queryTable: {
      sha: sha256Hex(qBytes), fingerprint: q.fingerprint, textsSha: sha256Hex(bytesOf(q.embed(c.texts).vectors)), queriesSha: sha256Hex(bytesOf(q.embedQueries(c.queries).vectors)),
      combinedQueriesSha: sha256Hex(bytesOf(new CombinedEmbedder(q, learned).embedQueries(c.queries))),
    },
  };
}
