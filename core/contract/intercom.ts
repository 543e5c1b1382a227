// The traceability contract (message ↔ code): one zod schema per request and answer of find, relate,
// markers (the gutter) and messages (a conversation panel), declared once for the library (core/intercom/), the CLI's --json and the
// MCP tools' input and output schemas; and the answers a long-lived host gives (the same, plus index
// freshness). The code anchor and the relate source are the event log's (core/intercom/events.ts,
// the log format). Owns these shapes; behaviour is core/intercom/intercom.ts, the host layer
// core/service/intercom.ts.
import { z } from 'zod';
import { codeAnchorSchema, relateSourceSchema } from '../intercom/events.ts';
import { errorInfo, freshness, hint } from './common.ts';
import { INTERCOM_CONTRACT_VERSION } from './version.ts';

export { INTERCOM_CONTRACT_VERSION };

const line = z.number().int().min(1);

export const selectionSchema = z.object({
  file: z.string().describe('workspace-relative path of the selected code'),
  line_start: line,
  line_end: line.optional(),
  text: z.string().optional().describe('the selected text (kept as the excerpt by relate)'),
});

const refFields = {
  log: z.string().min(1).describe('path of the events.ndjson log (relative paths are taken from the workspace root)'),
  thread_id: z.string().min(1).describe('the conversation (branch) in the log'),
  code_ref: z
    .string()
    .optional()
    .describe('src/Foo.cs:L10-20 · src/Foo.cs (whole file) · L:10-20 with `file` · [M:<member key>] · anchor:<id> · selection (or omit) with `selection`'),
  file: z.string().optional().describe('the file a bare L:10-20 refers to (the open file)'),
  selection: selectionSchema.optional(),
};

export const findRequestSchema = z.object({
  ...refFields,
  limit: z.number().int().min(1).max(10_000).optional().describe('most matches to return (default 100)'),
});

export const relateRequestSchema = z.object({
  ...refFields,
  range: z
    .union([z.string(), line, z.object({ start: line, end: line.optional() })])
    .describe('the contiguous range of committed messages: n, "n m" or n:m (1-based ordinals)'),
  source: relateSourceSchema.optional().describe('who declares it (default agent)'),
});

/** relate as a surface passes it: who declares the relation (`source`) is the surface's to say (core/service/). */
export const relateCallSchema = relateRequestSchema.omit({ source: true });

export const markersRequestSchema = z.object({
  log: refFields.log,
  thread_id: refFields.thread_id,
  file: z.string().min(1).describe('the open file'),
});

export const messagesRequestSchema = z.object({
  log: refFields.log,
  thread_id: refFields.thread_id.optional().describe('the conversation (branch) in the log; default: its first thread'),
  offset: z.number().int().min(0).optional().describe('messages to skip (default 0)'),
  limit: z.number().int().min(1).max(10_000).optional().describe('most messages to return (default 1000)'),
});

const staleReason = z.enum(['file_missing', 'member_missing', 'excerpt_mismatch', 'lines_missing', 'outside_workspace']);
const matchKind = z.enum(['inferred', 'explicit']);

export const targetSchema = z.object({
  file: z.string().nullable().describe('null: any file (a member key defined nowhere now: the anchors recorded with it)'),
  member_key: z.string().nullable(),
  syntax_scope: z.string().nullable(),
  line_start: z.number().nullable(),
  line_end: z.number().nullable(),
});

export const matchSchema = z.object({
  ordinal: z.number().int().describe('1-based position among the thread\'s committed messages'),
  message_id: z.string(),
  role: z.string(),
  match_kind: matchKind.describe('inferred: from an attachment of the message; explicit: a message_range_related event covers it'),
  match: z.enum(['member', 'overlap', 'file']).describe('member: same file and member key; overlap: ≥ 1 line of the re-resolved range; file: anywhere in the file'),
  stale: z.boolean().describe('the anchor no longer resolves cleanly (file gone, member vanished, excerpt changed): see excerpt'),
  stale_reason: staleReason.optional(),
  anchor_id: z.string().describe('pass as anchor:<id> to find or relate by this anchor'),
  origin: z.enum(['attachment', 'relate']),
  file: z.string(),
  member_key: z.string().nullable(),
  line_start: z.number().int().describe('the anchor\'s current first line (re-resolved; for a stale one, the last known)'),
  line_end: z.number().int(),
  excerpt: z.string().optional().describe('the text as attached, when the anchor is stale'),
  anchors: z.number().int().describe('how many anchors of this message match'),
});

export const logInfoSchema = z.object({
  location: z.string(),
  events: z.number().int().describe('events read (every thread)'),
  messages: z.number().int().describe('committed messages of the thread'),
  skipped: z.record(z.string(), z.number()).describe('lines and events skipped, by reason (torn_tail, malformed, unsupported_version, unknown_type, orphan_edit, …)'),
});

export const sidecarInfoSchema = z.object({
  location: z.string(),
  rebuilt: z.boolean(),
  reason: z.enum(['missing', 'log_changed', 'index_changed', 'drift', 'forced']).optional(),
});

const common = {
  contract_version: z.literal(INTERCOM_CONTRACT_VERSION),
  thread_id: z.string(),
  took_ms: z.number(),
  hint,
  error: errorInfo.optional(),
};

export const findResponseSchema = z.object({
  ...common,
  status: z.enum(['ok', 'empty', 'error']),
  code_ref: z.string().nullable(),
  targets: z.array(targetSchema).describe('what was looked for: the ref re-resolved now'),
  matches: z.array(matchSchema).describe('one per message, best first'),
  total: z.number().int(),
  truncated: z.boolean(),
  log: logInfoSchema.nullable(),
  sidecar: sidecarInfoSchema.nullable(),
  index_generation: z.number().nullable(),
});

export const relateResponseSchema = z.object({
  ...common,
  status: z.enum(['ok', 'error']),
  start_ordinal: z.number().int().nullable(),
  end_ordinal: z.number().int().nullable(),
  ordinals: z.array(z.number().int()),
  code_ref: codeAnchorSchema.nullable().describe('the anchor recorded'),
  log: z.object({ location: z.string() }).nullable(),
});

export const markerSchema = z.object({
  line_start: z.number().int(),
  line_end: z.number().int(),
  ordinals: z.array(z.number().int()),
  match_kind: matchKind.describe('the strongest among them (explicit > inferred)'),
  stale: z.boolean(),
  anchor_ids: z.array(z.string()),
});

export const markersResponseSchema = z.object({
  ...common,
  status: z.enum(['ok', 'empty', 'error']),
  file: z.string(),
  markers: z.array(markerSchema).describe('by line'),
  log: logInfoSchema.nullable(),
  sidecar: sidecarInfoSchema.nullable(),
  index_generation: z.number().nullable(),
});

export const threadMessageSchema = z.object({
  ordinal: z.number().int().describe('1-based position among the thread\'s committed messages'),
  message_id: z.string(),
  role: z.string(),
  text: z.string().describe('as last edited'),
  edited: z.boolean(),
  attachments: z.number().int().describe('code anchors attached (after edits)'),
});

export const messagesResponseSchema = z.object({
  ...common,
  status: z.enum(['ok', 'empty', 'error']),
  messages: z.array(threadMessageSchema).describe('in ordinal order, from offset'),
  total: z.number().int().describe('committed messages of the thread'),
  threads: z.array(z.string()).describe('every thread of the log, in order of first appearance'),
  log: logInfoSchema.nullable(),
});

/** A host's answers (core/service/: the CLI, MCP): the library's, plus how fresh the index is. */
export const intercomFindAnswer = findResponseSchema.extend({ index: freshness });
export const intercomRelateAnswer = relateResponseSchema.extend({ index: freshness });
export const intercomMarkersAnswer = markersResponseSchema.extend({ index: freshness });
export const intercomMessagesAnswer = messagesResponseSchema.extend({ index: freshness });

export type IntercomSelection = z.infer<typeof selectionSchema>;
export type FindRequest = z.infer<typeof findRequestSchema>;
export type RelateRequest = z.infer<typeof relateRequestSchema>;
export type RelateCall = z.infer<typeof relateCallSchema>;
export type MarkersRequest = z.infer<typeof markersRequestSchema>;
export type FindMatch = z.infer<typeof matchSchema>;
export type FindTarget = z.infer<typeof targetSchema>;
export type FindResponse = z.infer<typeof findResponseSchema>;
export type RelateResponse = z.infer<typeof relateResponseSchema>;
export type Marker = z.infer<typeof markerSchema>;
export type MarkersResponse = z.infer<typeof markersResponseSchema>;
export type LogInfo = z.infer<typeof logInfoSchema>;
export type SidecarInfo = z.infer<typeof sidecarInfoSchema>;
export type IntercomFindAnswer = z.infer<typeof intercomFindAnswer>;
export type IntercomRelateAnswer = z.infer<typeof intercomRelateAnswer>;
export type MessagesRequest = z.infer<typeof messagesRequestSchema>;
export type ThreadMessage = z.infer<typeof threadMessageSchema>;
export type MessagesResponse = z.infer<typeof messagesResponseSchema>;
export type IntercomMarkersAnswer = z.infer<typeof intercomMarkersAnswer>;
export type IntercomMessagesAnswer = z.infer<typeof intercomMessagesAnswer>;
