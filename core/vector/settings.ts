// The `[semantic]` table of `.hci/settings.toml`: whether the semantic channel is on (off by
// default: then nothing is trained, embedded or stored, and every search is the keyword search),
// which provider embeds (`learned` when on; `pretrained`, the code model in the package; `combined`,
// both, each vector half one model's; `model2vec`, a static model folder; `http`; `onnx`), the
// learned model's dims (combined: its learned half's), the fusion
// settings (weights, the guard, routing, a minimum vector score) and each provider's own table
// (`[semantic.http]`: core/vector/http/settings.ts; `[semantic.onnx]`; `[semantic.model2vec]`). snake_case keys, validated:
// a wrong key or value is `invalid_settings` naming it. Owns the shape and defaults; what the
// settings do belongs to the providers, the vector indexer and the fusion.
import { z } from 'zod';
import { parseHttpSettings, type HttpProviderSettings } from './http/settings.ts';
import { QUERY_FORMS } from '../contract/limits.ts';

export const PROVIDERS = ['learned', 'pretrained', 'combined', 'model2vec', 'http', 'onnx'] as const;

/**
 * `[semantic.http]`: checked by the http provider's own parser (every key and range) and kept as
 * written (snake_case), so settings validate the same however often they are read; httpSettingsOf
 * gives the provider's shape.
 */
const httpTable = z.record(z.string(), z.unknown()).superRefine((raw, ctx) => {
  const r = parseHttpSettings(raw);
  if (!r.ok) ctx.addIssue({ code: 'custom', message: r.error.message });
});

/** The http provider's settings from a validated `[semantic.http]` table. */
export function httpSettingsOf(raw: Record<string, unknown>): HttpProviderSettings {
  const r = parseHttpSettings(raw);
  if (!r.ok) throw new Error(r.error.message);
  return r.settings;
}

/** `[semantic.onnx]`: a local model folder in the Hugging Face layout; nothing is ever downloaded. */
const onnxTable = z
  .object({
    /** The folder holding tokenizer.json and onnx/model*.onnx (absolute, or relative to the workspace root). */
    model_dir: z.string().min(1),
    /** Which file under onnx/ (default: model.onnx, else the first model*.onnx). */
    model_file: z.string().min(1).optional(),
    /** Tokens per text, [CLS] and [SEP] included: longer texts are truncated. */
    max_tokens: z.number().int().min(8).max(8192).default(256),
    batch_size: z.number().int().min(1).max(512).default(16),
    query_prefix: z.string().default(''),
    document_prefix: z.string().default(''),
    quantization: z.enum(['int8', 'f32']).default('int8'),
  })
  .strict();

/** `[semantic.model2vec]`: a static model folder in the model2vec layout (tokenizer.json, model.safetensors, config.json). */
const model2vecTable = z
  .object({
    /** The folder (absolute, or relative to the workspace root). */
    model_dir: z.string().min(1),
    /** Tokens per text (model2vec's max_length): longer texts are cut. */
    max_tokens: z.number().int().min(1).max(1_000_000).default(512),
    quantization: z.enum(['int8', 'f32']).default('int8'),
  })
  .strict();

/** One query type's fusion blend (`[semantic.fusion_by_type.stated]`). */
const typeBlend = z.object({
  vector_weight: z.number().min(0).max(1).optional(),
  guard: z.number().int().min(0).max(50).optional(),
}).strict();

export const semanticSettings = z
  .object({
    enabled: z.boolean().default(false),
    provider: z.enum(PROVIDERS).default('learned'),
    /** Dimensions of the learned model (128–256 measured; 192 the best on the dev set). */
    dims: z.number().int().min(16).max(1024).default(192),
    /** Fusion: each channel's min-max normalized score times its weight. */
    keyword_weight: z.number().min(0).max(1).default(0.65),
    vector_weight: z.number().min(0).max(1).default(0.35),
    /** Keyword's first N files keep their ranks in hybrid results (0: no guard). */
    guard: z.number().int().min(0).max(50).default(3),
    /**
     * Identifier-like queries and queries of at most two content terms go to keyword only (on by
     * default since issue 12's re-tuning: with it hybrid ≥ keyword on the sample and both dev sets).
     */
    routing: z.boolean().default(true),
    /** Vector hits below this cosine similarity are left out. */
    min_vector_score: z.number().min(-1).max(1).default(0),
    /**
     * Keyword's candidates the vector list did not reach are fused with their own cosine with the
     * query (computed for those chunks alone) instead of none (core/search/fuse.ts).
     */
    keyword_cosines: z.boolean().default(false),
    /** The vector side of the fusion weighed by each hit's path role factor, as keyword's rerank weighs it (core/search/fuse.ts). */
    vector_roles: z.boolean().default(false),
    /** A file only the vector channel found enters when its cosine reaches this share of keyword's top files' best (0: off; core/search/fuse.ts). */
    vector_agreement: z.number().min(0).max(1).default(0),
    /**
     * Per query type (core/search/fuse.ts fusionType: symbol, question — put as one —, stated — a
     * description, as a paraphrase —, mixed) its own vector weight (keyword's is 1 − it) and guard;
     * a type not named takes keyword_weight, vector_weight and guard.
     */
    fusion_by_type: z.object({ symbol: typeBlend, question: typeBlend, stated: typeBlend, mixed: typeBlend }).partial().strict().default({}),
    /** How each channel's scores are put on one scale before the weights: minmax or zscore (core/search/fuse.ts). */
    fusion_calibration: z.enum(['minmax', 'zscore']).default('minmax'),
    /**
     * The confidence gate (core/search/fuse.ts readGate): for one query, the vector channel's first file
     * enters keyword's top files (stands at file rank `at`; the guard becomes `guard` when given) when its
     * cosine leads the second file's by `vector_gap` or more (0: off) and keyword's first file's score is at
     * most `keyword_lead` times its second's (0: no keyword condition) or, with `keyword_any`, no chunk held every term;
     * `types` limits it to those fusion types.
     */
    fusion_gate: z.object({
      vector_gap: z.number().min(0).max(2).default(0),
      keyword_lead: z.number().min(0).default(0),
      keyword_any: z.boolean().default(false),
      at: z.number().int().min(1).max(10).default(3),
      guard: z.number().int().min(0).max(50).optional(),
      /** The fusion types the gate reads (symbol, question, stated, mixed; absent: every type). */
      types: z.array(z.enum(QUERY_FORMS)).optional(),
    }).strict().default({ vector_gap: 0, keyword_lead: 0, keyword_any: false, at: 3 }),
    http: httpTable.optional(),
    onnx: onnxTable.optional(),
    model2vec: model2vecTable.optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.enabled && s.provider === 'http' && !s.http) ctx.addIssue({ code: 'custom', path: ['http'], message: 'is required when provider = "http" (a [semantic.http] table with api, base_url, model, dims)' });
    if (s.enabled && s.provider === 'onnx' && !s.onnx) ctx.addIssue({ code: 'custom', path: ['onnx'], message: 'is required when provider = "onnx" (a [semantic.onnx] table with model_dir)' });
    if (s.enabled && s.provider === 'model2vec' && !s.model2vec) ctx.addIssue({ code: 'custom', path: ['model2vec'], message: 'is required when provider = "model2vec" (a [semantic.model2vec] table with model_dir)' });
  });

export type SemanticSettings = z.output<typeof semanticSettings>;
export type OnnxSettings = NonNullable<SemanticSettings['onnx']>;
export type Model2VecSettings = NonNullable<SemanticSettings['model2vec']>;
