// The traceability facade: find (which messages of a thread relate to this code), relate (record
// that a contiguous range of committed messages relates to it), markers (a file's gutter) and
// messages (a thread's conversation, read from the log), each
// one call in and one contract answer out (contract.ts), never throwing. Owns request validation,
// keeping the sidecar current — rebuilt from the log when it is missing, when the log changed, when
// the index generation moved (a re-index) and when a queried file drifted since the last rebuild —
// and the error wording. Reading the log, resolving anchors, storing rows and ranking belong to
// log.ts, anchors.ts, sidecar.ts and find.ts; the platform (log files, the sidecar's storage) to the
// runtime that builds the IntercomHost.
import { asHciError, HciError } from '../platform.ts';
import type { HciWorkspace } from '../workspace.ts';
import type { IndexStorage } from '../index/storage.ts';
import type { Database } from '../sqlite/engine.ts';
import { EVENT_SCHEMA_VERSION, messageRangeRelatedSchema, type CodeAnchor, type MessageRangeRelated, type RelateSource } from './events.ts';
import { logMissing, readLogEvents, type IntercomLogFile, type IntercomLogOpener, type LogReadStats, type LogStat } from './log.ts';
import { parseCodeRef, parseMessageRange, workspacePath, type CodeRef } from './code-ref.ts';
import { anchorForRef, queryTargets, type QueryTarget } from './anchors.ts';
import { workspaceCodeView, type CodeView } from './code-view.ts';
import { Sidecar } from './sidecar.ts';
import { snapshotLog } from './rebuild.ts';
import { anchorById, fileFingerprint, logRecord, logStats, threadIds, threadRecord, type Scope, type ThreadRecord } from './sidecar-queries.ts';
import { collectMarkers, collectMatches } from './find.ts';
import { threadMessages } from './projection.ts';
import {
  INTERCOM_CONTRACT_VERSION, findRequestSchema, markersRequestSchema, messagesRequestSchema, relateRequestSchema,
  type FindRequest, type FindResponse, type LogInfo, type MarkersRequest, type MarkersResponse, type MessagesRequest, type MessagesResponse, type RelateRequest, type RelateResponse, type SidecarInfo,
} from '../contract/intercom.ts';

export interface IntercomHost {
  workspace: HciWorkspace;
  /** Where the sidecar lives (Node/Deno: the index storage factory with SIDECAR_FILE). */
  sidecar: IndexStorage;
  openLog: IntercomLogOpener;
}

export interface IntercomOptions {
  /** How long a sidecar transaction may wait for another process (default: the workspace's lock_timeout_ms). */
  lockTimeoutMs?: number;
  /** close() closes the workspace too (it was opened for this Intercom). */
  ownsWorkspace?: boolean;
}

export interface RebuildSummary {
  sidecar: SidecarInfo;
  log: { location: string; stats: LogReadStats; threads: number; anchors: number };
  took_ms: number;
}

const DEFAULT_LIMIT = 100;
const DEFAULT_MESSAGES = 1000;
/** A log's thread ids, in order of first appearance. */
const readThreadIds = (events: ReadonlyArray<{ event: { thread_id: string } }>) => [...new Set(events.map((e) => e.event.thread_id))];
type RebuildReason = NonNullable<SidecarInfo['reason']>;

/** The request as its schema reads it, or HciError `invalid_request` naming the first issue. */
function parseRequest<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } } }, req: unknown): T {
  const parsed = schema.safeParse(req);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  throw new HciError('invalid_request', `${first.path.join('.') || 'request'}: ${first.message}`, 'see the request schema (core/contract/intercom.ts)');
}

type Answer = { status: string; took_ms: number; hint?: string; error?: { code: string; message: string } };

/** Runs `body` to fill `res`; any failure becomes status error with its code and hint (and `cleared` fields reset). Never throws. */
async function answer<R extends Answer>(res: R, cleared: Partial<R>, body: () => Promise<void>): Promise<R> {
  const t0 = Date.now();
  try {
    await body();
  } catch (e) {
    const err = asHciError(e);
    Object.assign(res, cleared, { status: 'error', error: { code: err.code, message: err.message }, hint: err.hint });
  }
  res.took_ms = Date.now() - t0;
  return res;
}

export class Intercom {
  private sidecar: Sidecar | null = null;
  private opening: Promise<Sidecar> | null = null;
  private readonly rebuilding = new Map<string, Promise<{ stats: LogReadStats; threads: number; anchors: number }>>();

  constructor(
    readonly host: IntercomHost,
    private readonly opts: IntercomOptions = {},
  ) {}

  close(): void {
    this.sidecar?.close();
    this.sidecar = null;
    if (this.opts.ownsWorkspace) this.host.workspace.close();
  }

  private get rootLabel(): string {
    return this.host.workspace.host.fs.rootLabel;
  }

  private async store(): Promise<Sidecar> {
    if (this.sidecar) return this.sidecar;
    this.opening ??= Sidecar.open(this.host.sidecar, this.host.workspace.engine, {
      lockTimeoutMs: this.opts.lockTimeoutMs ?? this.host.workspace.settings.lock_timeout_ms,
    })
      .then((s) => (this.sidecar = s))
      .finally(() => (this.opening = null));
    return this.opening;
  }

  /** Which messages of the thread relate to the code ref, best first. */
  find(req: FindRequest): Promise<FindResponse> {
    const res: FindResponse = {
      contract_version: INTERCOM_CONTRACT_VERSION, status: 'ok', thread_id: String(req?.thread_id ?? ''), code_ref: typeof req?.code_ref === 'string' ? req.code_ref : null,
      targets: [], matches: [], total: 0, truncated: false, log: null, sidecar: null, index_generation: null, took_ms: 0,
    };
    return answer(res, { matches: [] }, async () => {
      const r = parseRequest(findRequestSchema, req);
      const ref = parseCodeRef(r.code_ref, { file: r.file, selection: r.selection, rootLabel: this.rootLabel });
      const ctx = await this.targetsOf(r.log, r.thread_id, ref);
      const { value: out, sidecar } = await this.current(ctx, r.thread_id, ctx.targets, (db, t) => ({
        log: logInfo(ctx.log.location, t.log, t.thread),
        ...collectMatches(db, t.scope, ctx.targets, r.limit ?? DEFAULT_LIMIT),
      }));
      res.targets = ctx.targets;
      res.sidecar = ctx.sidecar ?? sidecar;
      res.index_generation = await ctx.view.indexGeneration();
      res.log = out.log;
      res.total = out.total;
      res.matches = out.matches;
      res.truncated = out.total > out.matches.length;
      if (!res.matches.length) {
        res.status = 'empty';
        res.hint = emptyHint(r.thread_id, ctx.targets, out.log);
      } else if (res.matches.some((m) => m.stale)) {
        res.hint = 'stale matches: their code changed or went away since they were attached; excerpt shows the text as attached';
      }
    });
  }

  /** The gutter of one file: a marker per related line range, with the ordinals there. */
  markers(req: MarkersRequest): Promise<MarkersResponse> {
    const res: MarkersResponse = {
      contract_version: INTERCOM_CONTRACT_VERSION, status: 'ok', thread_id: String(req?.thread_id ?? ''), file: String(req?.file ?? ''),
      markers: [], log: null, sidecar: null, index_generation: null, took_ms: 0,
    };
    return answer(res, { markers: [] }, async () => {
      const r = parseRequest(markersRequestSchema, req);
      const file = workspacePath(r.file, this.rootLabel);
      res.file = file;
      const ctx = await this.targetsOf(r.log, r.thread_id, { kind: 'file', file });
      const { value: out, sidecar } = await this.current(ctx, r.thread_id, ctx.targets, (db, t) => ({
        log: logInfo(ctx.log.location, t.log, t.thread),
        markers: collectMarkers(db, t.scope, file),
      }));
      res.sidecar = sidecar;
      res.index_generation = await ctx.view.indexGeneration();
      res.log = out.log;
      res.markers = out.markers;
      if (!res.markers.length) {
        res.status = 'empty';
        res.hint = `no message of thread ${r.thread_id} relates to ${file}`;
      }
    });
  }

  /** A thread's committed messages with their text as last edited, in ordinal order (read from the log). */
  messages(req: MessagesRequest): Promise<MessagesResponse> {
    const res: MessagesResponse = {
      contract_version: INTERCOM_CONTRACT_VERSION, status: 'ok', thread_id: String(req?.thread_id ?? ''),
      messages: [], total: 0, threads: [], log: null, took_ms: 0,
    };
    return answer(res, { messages: [] }, async () => {
      const r = parseRequest(messagesRequestSchema, req);
      const log = this.openLog(r.log);
      const bytes = await log.read();
      if (!bytes) throw logMissing(log.location);
      const { events, stats } = readLogEvents(bytes);
      const threadId = r.thread_id ?? readThreadIds(events)[0];
      res.log = { location: log.location, events: stats.events, messages: 0, skipped: { ...stats.skipped } };
      if (threadId === undefined) {
        res.status = 'empty';
        res.hint = 'the log holds no events yet';
        return;
      }
      res.thread_id = threadId;
      const { threads, messages } = threadMessages(events, threadId);
      res.threads = threads;
      if (!messages) {
        throw new HciError('unknown_thread', `no thread "${threadId}" in ${log.location}`, threads.length ? `threads in this log: ${threads.join(', ')}` : 'the log holds no message events yet');
      }
      const offset = r.offset ?? 0;
      res.total = messages.length;
      res.messages = messages.slice(offset, offset + (r.limit ?? DEFAULT_MESSAGES));
      res.log.messages = messages.length;
      if (!messages.length) {
        res.status = 'empty';
        res.hint = `thread ${threadId} has no committed messages yet`;
      }
    });
  }

  /** Appends one message_range_related event: committed messages `range` relate to the code ref. */
  relate(req: RelateRequest): Promise<RelateResponse> {
    const res: RelateResponse = {
      contract_version: INTERCOM_CONTRACT_VERSION, status: 'ok', thread_id: String(req?.thread_id ?? ''),
      start_ordinal: null, end_ordinal: null, ordinals: [], code_ref: null, log: null, took_ms: 0,
    };
    return answer(res, { ordinals: [] }, async () => {
      const r = parseRequest(relateRequestSchema, req);
      const range = parseMessageRange(r.range);
      const ref = parseCodeRef(r.code_ref, { file: r.file, selection: r.selection, rootLabel: this.rootLabel });
      const view = workspaceCodeView(this.host.workspace);
      const log = this.openLog(r.log);
      const st = await statOrFail(log);
      const { value: { thread, anchorRow } } = await this.current({ log, st, view }, r.thread_id, [], (db, t) => ({
        thread: t.thread,
        anchorRow: ref.kind === 'anchor' ? anchorById(db, t.scope, ref.anchor_id) : undefined,
      }));
      if (range.end > thread.messages) {
        throw new HciError(
          'message_not_committed',
          `thread ${r.thread_id} has ${thread.messages} committed message${thread.messages === 1 ? '' : 's'}; #${range.end} is not one of them`,
          'relate committed messages only (1-based ordinals as the gutter shows them); a draft cannot be related',
        );
      }
      let anchor: CodeAnchor;
      if (ref.kind === 'anchor') {
        if (!anchorRow) throw unknownAnchor(ref.anchor_id, r.thread_id);
        anchor = await anchorForRef({ kind: 'lines', file: anchorRow.file, line_start: anchorRow.line_start, line_end: anchorRow.line_end }, view, this.rootLabel);
        if (anchorRow.shape === 'member' && anchorRow.member_key) anchor = { ...anchor, member_key: anchorRow.member_key, shape: 'member' };
      } else {
        anchor = await anchorForRef(ref, view, this.rootLabel);
      }
      const event: MessageRangeRelated = messageRangeRelatedSchema.parse({
        type: 'message_range_related', schema_version: EVENT_SCHEMA_VERSION, thread_id: r.thread_id,
        start_ordinal: range.start, end_ordinal: range.end, code_ref: anchor, source: (r.source ?? 'agent') as RelateSource, at: new Date().toISOString(),
      });
      await log.append(JSON.stringify(event));
      Object.assign(res, {
        start_ordinal: range.start, end_ordinal: range.end, code_ref: anchor, log: { location: log.location },
        ordinals: Array.from({ length: range.end - range.start + 1 }, (_, i) => range.start + i),
      });
    });
  }

  /** Rebuilds the sidecar rows of one log now (they are otherwise rebuilt when needed). Throws HciError. */
  async rebuild(location: string): Promise<RebuildSummary> {
    const t0 = Date.now();
    const log = this.openLog(location);
    const st = await statOrFail(log);
    const out = await this.rebuildLog(log, st, workspaceCodeView(this.host.workspace));
    return { sidecar: { location: this.host.sidecar.location, rebuilt: true, reason: 'forced' }, log: { location: log.location, ...out }, took_ms: Date.now() - t0 };
  }

  // ── freshness ──────────────────────────────────────────────────────────────────────────────

  private openLog(location: string): IntercomLogFile {
    return this.host.openLog(location);
  }

  /** What a find looks for now. An `anchor:<id>` ref is looked up in the (current) sidecar first. */
  private async targetsOf(location: string, threadId: string, ref: CodeRef): Promise<Freshness & { targets: QueryTarget[]; sidecar: SidecarInfo | null }> {
    const log = this.openLog(location);
    const view = workspaceCodeView(this.host.workspace);
    const st = await statOrFail(log);
    const ctx = { log, st, view };
    if (ref.kind !== 'anchor') return { ...ctx, targets: await queryTargets(ref, view), sidecar: null };
    const { value: row, sidecar } = await this.current(ctx, threadId, [], (db, t) => anchorById(db, t.scope, ref.anchor_id));
    if (!row) throw unknownAnchor(ref.anchor_id, threadId);
    const fv = await view.file(row.file);
    const member = row.member_key ? fv.members.find((m) => m.key === row.member_key) : undefined;
    const target: QueryTarget = {
      file: row.file, member_key: row.member_key, syntax_scope: row.syntax_scope,
      line_start: member ? member.start : Number(row.line_start), line_end: member ? member.end : Number(row.line_end),
    };
    return { ...ctx, targets: [target], sidecar: sidecar.rebuilt ? sidecar : null };
  }

  /**
   * Runs `fn` on the log's rows in one read transaction once they are current: rebuilt first when
   * the sidecar has none, the log changed (size or mtime), the index generation moved, or a file of
   * `targets` changed on disk since they were built (drift).
   */
  private async current<T>(ctx: Freshness, threadId: string, targets: QueryTarget[], fn: (db: Database, t: ThreadRows) => T): Promise<{ value: T; sidecar: SidecarInfo }> {
    const { log, st, view } = ctx;
    const files = [...new Set(targets.flatMap((t) => (t.file === null ? [] : [t.file])))];
    const fingerprints = await Promise.all(files.map(async (f) => ({ f, fv: await view.file(f) })));
    const generation = await view.indexGeneration();
    const store = await this.store();
    let sidecar: SidecarInfo = { location: this.host.sidecar.location, rebuilt: false };
    for (let attempt = 0; ; attempt++) {
      const out = await store.read((db): { reason: RebuildReason } | { value: T } => {
        const rec = logRecord(db, log.location);
        let reason: RebuildReason | null = null;
        if (!rec) reason = 'missing';
        else if (Number(rec.size) !== st.size || Number(rec.mtime_ms) !== st.mtimeMs) reason = 'log_changed';
        else if (Number(rec.index_generation) !== generation) reason = 'index_changed';
        else {
          for (const { f, fv } of fingerprints) {
            const known = fileFingerprint(db, rec.log_id, f);
            if (known && (Number(known.size) !== fv.size || Number(known.mtime_ms) !== fv.mtimeMs)) reason = 'drift';
          }
        }
        // After a rebuild, answer from its rows even if the log moved on meanwhile (the next call catches up).
        if (reason && attempt === 0) return { reason };
        return { value: fn(db, this.threadIn(db, log.location, threadId)) };
      });
      if ('value' in out) return { value: out.value, sidecar };
      await this.rebuildLog(log, st, view);
      sidecar = { location: this.host.sidecar.location, rebuilt: true, reason: out.reason };
    }
  }

  /** Replays the log, re-resolves every anchor and replaces the log's rows in one transaction. */
  private rebuildLog(log: IntercomLogFile, st: LogStat, view: CodeView): Promise<{ stats: LogReadStats; threads: number; anchors: number }> {
    // Calls that find the same log stale at once share one rebuild.
    let running = this.rebuilding.get(log.location);
    if (!running) {
      running = (async () => {
        const { snapshot, threads, anchors } = await snapshotLog(log, st, view, this.rootLabel);
        await (await this.store()).replaceLog(snapshot);
        return { stats: snapshot.stats, threads, anchors };
      })().finally(() => this.rebuilding.delete(log.location));
      this.rebuilding.set(log.location, running);
    }
    return running;
  }

  /** The log's and thread's records in a read transaction; HciErrors when either is unknown. */
  private threadIn(db: Database, location: string, threadId: string): ThreadRows {
    const rec = logRecord(db, location);
    if (!rec) throw new HciError('sidecar_changed', `the sidecar lost the rows of ${location} while answering`, 'retry');
    const thread = threadRecord(db, rec.log_id, threadId);
    if (!thread) {
      const known = threadIds(db, rec.log_id);
      throw new HciError(
        'unknown_thread',
        `no thread "${threadId}" in ${location}`,
        known.length ? `threads in this log: ${known.join(', ')}` : 'the log holds no message events yet',
      );
    }
    return { scope: { logId: rec.log_id, threadNo: thread.thread_no }, thread, log: logStats(db, rec.log_id) as LogReadStats };
  }
}

/** A log, its stat and the code view one call works with. */
interface Freshness {
  log: IntercomLogFile;
  st: LogStat;
  view: CodeView;
}

/** One thread's rows in a read transaction. */
interface ThreadRows {
  scope: Scope;
  thread: ThreadRecord;
  log: LogReadStats;
}

function logInfo(location: string, stats: LogReadStats, thread: ThreadRecord): LogInfo {
  return { location, events: stats.events, messages: thread.messages, skipped: { ...stats.skipped, ...thread.skipped } };
}

async function statOrFail(log: IntercomLogFile): Promise<LogStat> {
  const st = await log.stat();
  if (!st) throw logMissing(log.location);
  return st;
}


function unknownAnchor(id: string, threadId: string): HciError {
  return new HciError('unknown_anchor', `no anchor "${id}" in thread ${threadId}`, 'anchor ids come from find matches (anchor_id) or the log (attachments[].id, default <message_id>#<n>)');
}

function emptyHint(threadId: string, targets: QueryTarget[], log: LogInfo): string {
  const what = targets.length
    ? targets.map((t) => `${t.file ?? '(any file)'}${t.line_start !== null ? `:L${t.line_start}-${t.line_end}` : ''}${t.member_key ? ` [M:${t.member_key}]` : ''}`).join(', ')
    : 'this code ref (no member has that key now)';
  const skipped = Object.values(log.skipped).reduce((a, b) => a + b, 0);
  return `no message of thread ${threadId} (${log.messages} messages) relates to ${what}` + (skipped ? `; ${skipped} log lines or events were skipped (see log.skipped)` : '');
}
