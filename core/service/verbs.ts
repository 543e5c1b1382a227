// The verb table: one row per call every surface offers — its request and answer schemas (the zod
// contract, core/contract/), its handler, typed from the request schema as the MCP SDK types a tool's
// callback, and its failure answer, written once against the answer schema's type. Everything a
// surface offers is derived from it: HciService.call dispatches here, the MCP tools take their
// schemas from it (runtimes/mcp/), the CLI's verbs their calls (runtimes/cli/), and the browser
// Worker's one call() passes any verb through (runtimes/browser/). A surface adds only presentation.
// A new verb is a contract file, a handler, one row here and, where a surface shows it, a presenter.
//
// The schemas are reached through `schemas(contract)`, handed the contract module by a caller that has
// loaded it (the MCP server, tests): this module imports zod and the contract as types only, so the
// CLI and the Worker dispatch verbs without loading zod (test/cli-start.test.ts).
// `index` (a run to its end, with progress and cancellation: HciService.index) is not a verb.
import type { z } from 'zod';
import type * as Contract from '../contract/index.ts';
import type { ErrorInfo, IndexFreshness } from '../contract/common.ts';
import type { TaskView } from '../contract/tasks.ts';
import type { WatcherView } from '../contract/watch.ts';
import { CONTRACT_VERSION, INTERCOM_CONTRACT_VERSION } from '../contract/version.ts';
import type { CallContext } from './host.ts';
import type { ServiceContext } from './context.ts';
import { explain, search, similar } from './search-calls.ts';
import { facets, file, files, outline, resolve, tree } from './read-calls.ts';
import { reindex, status, watch } from './index-calls.ts';

/** What every answer of the contract has: a status, freshness, and the error and hint of a failure. */
export interface AnswerShape {
  status: string;
  index: IndexFreshness | null;
  error?: ErrorInfo;
  hint?: string;
}

/** A failure, ready to be the verb's answer: the error, its hint worded for the surface, the time taken. */
export interface Failure {
  error: ErrorInfo;
  hint?: string;
  took_ms: number;
}

/** What a failure answer may take from the service: its watcher, its recent tasks, and whether its surface shows them. */
export interface FailureHost {
  hostFields: boolean;
  watcher(): WatcherView;
  tasks(): TaskView[];
}

export interface VerbRow<I extends z.ZodType, O extends z.ZodType<AnswerShape>> {
  /** The request and answer schemas, out of the contract module the caller has loaded. */
  schemas(contract: typeof Contract): { input: I; output: O };
  /** The call. Throws on failure; the caller answers with `failed` (HciService.call). */
  run(cx: ServiceContext, req: z.output<I>, ctx: CallContext): Promise<z.output<O>>;
  /**
   * The verb's answer to a failure: the answer's shape with status error, the error, and what the
   * request said that the answer echoes (`req` as it came: unvalidated when its arguments were refused).
   */
  failed(f: Failure, req: unknown, host: FailureHost): z.output<O>;
}

/** A row, with its schema types inferred from `schemas`. */
const verb = <I extends z.ZodType, O extends z.ZodType<AnswerShape>>(row: VerbRow<I, O>): VerbRow<I, O> => row;

/** A string field of a request as it came, or `fallback`. */
function field(req: unknown, key: string, fallback = ''): string {
  const v: unknown = req !== null && typeof req === 'object' ? Reflect.get(req, key) : undefined;
  return typeof v === 'string' ? v : fallback;
}

/** The fields every failure answer carries. */
const failure = (f: Failure) => ({ status: 'error' as const, index: null, error: f.error, ...(f.hint !== undefined ? { hint: f.hint } : {}) });

const searchFailure = (f: Failure, query: string, mode: string) => ({
  ...failure(f), contract_version: CONTRACT_VERSION, query, mode, match: 'none' as const, hits: [], took_ms: f.took_ms, skipped: {}, truncated: false,
});

const intercomFailure = (f: Failure, req: unknown): ReturnType<typeof failure> & { contract_version: typeof INTERCOM_CONTRACT_VERSION; thread_id: string; took_ms: number } =>
  ({ ...failure(f), contract_version: INTERCOM_CONTRACT_VERSION, thread_id: field(req, 'thread_id'), took_ms: f.took_ms });

const ROWS = {
  search: verb({
    schemas: (c) => ({ input: c.searchRequest, output: c.searchAnswer }),
    run: (cx, req, ctx) => search(cx, req, ctx),
    failed: (f, req) => searchFailure(f, field(req, 'query'), field(req, 'mode', 'keyword')),
  }),
  similar: verb({
    schemas: (c) => ({ input: c.similarRequest, output: c.similarAnswer }),
    run: (cx, req) => similar(cx, req),
    failed: (f) => ({ ...searchFailure(f, '', 'semantic'), source: null }),
  }),
  explain: verb({
    schemas: (c) => ({ input: c.explainRequest, output: c.explainResponse }),
    run: (cx, req) => explain(cx, req),
    failed: (f, req) => ({ ...failure(f), hit_id: field(req, 'hit_id') }),
  }),
  outline: verb({
    schemas: (c) => ({ input: c.outlineRequest, output: c.outlineResponse }),
    run: (cx, req) => outline(cx, req),
    failed: (f, req) => ({ ...failure(f), path: field(req, 'path'), symbols: [] }),
  }),
  resolve: verb({
    schemas: (c) => ({ input: c.resolveRequest, output: c.resolveResponse }),
    run: (cx, req) => resolve(cx, req),
    failed: (f) => ({ ...failure(f), locations: [] }),
  }),
  files: verb({
    schemas: (c) => ({ input: c.filesRequest, output: c.filesResponse }),
    run: (cx, req) => files(cx, req),
    failed: (f) => ({ ...failure(f), files: [], total: 0, truncated: false }),
  }),
  file: verb({
    schemas: (c) => ({ input: c.fileRequest, output: c.fileResponse }),
    run: (cx, req) => file(cx, req),
    failed: (f, req) => ({ ...failure(f), path: field(req, 'path') }),
  }),
  facets: verb({
    schemas: (c) => ({ input: c.facetsRequest, output: c.facetsResponse }),
    run: (cx, req) => facets(cx, req),
    failed: (f, req) => ({ ...failure(f), query: field(req, 'query'), match: 'none' as const, files: 0, chunks: 0, exts: [], langs: [] }),
  }),
  tree: verb({
    schemas: (c) => ({ input: c.treeRequest, output: c.treeResponse }),
    run: (cx, req) => tree(cx, req),
    failed: (f, req) => ({ ...failure(f), folder: field(req, 'folder'), folders: [], files: [], total: 0, truncated: false }),
  }),
  status: verb({
    schemas: (c) => ({ input: c.statusRequest, output: c.statusAnswer }),
    run: (cx, req, ctx) => status(cx, req, ctx),
    failed: (f, _req, host) => ({
      ...failure(f), format_version: null, engine: '', files_by_lang: {}, skipped: {}, skipped_samples: [], last_run: null, pending: null,
      ...(host.hostFields ? { watcher: host.watcher(), tasks: host.tasks() } : {}),
    }),
  }),
  reindex: verb({
    schemas: (c) => ({ input: c.reindexRequest, output: c.reindexAnswer }),
    run: (cx, req, ctx) => reindex(cx, req, ctx),
    failed: (f) => ({ ...failure(f), task: null }),
  }),
  watch: verb({
    schemas: (c) => ({ input: c.watchRequest, output: c.watchAnswer }),
    run: (cx, req) => watch(cx, req),
    failed: (f, _req, host) => ({ ...failure(f), watcher: host.watcher() }),
  }),
  intercomFind: verb({
    schemas: (c) => ({ input: c.findRequestSchema, output: c.intercomFindAnswer }),
    run: (cx, req) => cx.intercom.find(req),
    failed: (f, req) => ({
      ...intercomFailure(f, req), code_ref: field(req, 'code_ref') || null, targets: [], matches: [], total: 0, truncated: false, log: null, sidecar: null, index_generation: null,
    }),
  }),
  intercomRelate: verb({
    schemas: (c) => ({ input: c.relateCallSchema, output: c.intercomRelateAnswer }),
    run: (cx, req) => cx.intercom.relate(req),
    failed: (f, req) => ({ ...intercomFailure(f, req), start_ordinal: null, end_ordinal: null, ordinals: [], code_ref: null, log: null }),
  }),
  intercomMarkers: verb({
    schemas: (c) => ({ input: c.markersRequestSchema, output: c.intercomMarkersAnswer }),
    run: (cx, req) => cx.intercom.markers(req),
    failed: (f, req) => ({ ...intercomFailure(f, req), file: field(req, 'file'), markers: [], log: null, sidecar: null, index_generation: null }),
  }),
  intercomMessages: verb({
    schemas: (c) => ({ input: c.messagesRequestSchema, output: c.intercomMessagesAnswer }),
    run: (cx, req) => cx.intercom.messages(req),
    failed: (f, req) => ({ ...intercomFailure(f, req), messages: [], total: 0, threads: [], log: null }),
  }),
};

type Rows = typeof ROWS;
export type VerbName = keyof Rows;
type Schemas<V extends VerbName> = ReturnType<Rows[V]['schemas']>;
/** A verb's request schema and answer schema. */
export type VerbInputSchema<V extends VerbName> = Schemas<V>['input'];
export type VerbOutputSchema<V extends VerbName> = Schemas<V>['output'];
/** A verb's request, as its handler gets it (the schema's output: defaults applied). */
export type VerbInput<V extends VerbName> = z.output<VerbInputSchema<V>>;
/** A verb's answer. */
export type VerbOutput<V extends VerbName> = z.output<VerbOutputSchema<V>>;

/** The table, each row typed by its own verb (so `VERBS[v]` of a generic `v` keeps the pairing of request and answer). */
export const VERBS: { readonly [V in VerbName]: VerbRow<VerbInputSchema<V>, VerbOutputSchema<V>> } = ROWS;

/** Every verb's name, in table order. */
export const VERB_NAMES = Object.keys(ROWS) as VerbName[];
