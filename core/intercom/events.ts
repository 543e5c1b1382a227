// The intercom event log's format, declared once: zod schemas for a code anchor and for every event
// hci reads or writes (message_added, message_edited, message_range_related). TypeScript types come
// from z.infer; the JSON Schema files in core/intercom/schemas/ are generated from these
// (json-schemas.ts) and a test keeps them equal. Reading lines, projecting threads and resolving
// anchors belong to log.ts, projection.ts and anchors.ts.
//
// Objects are loose (unknown fields pass through): a host's log carries its own fields, and a later
// schema_version may add some; hci ignores what it does not know and rewrites nothing.
import { z } from 'zod';

/** The event format version this build writes and the highest it reads. */
export const EVENT_SCHEMA_VERSION = 1;

const lineNumber = z.number().int().min(1);

export const codeAnchorSchema = z
  .looseObject({
    id: z.string().min(1).optional().describe('stable id of this anchor, for `anchor:<id>` code refs (default: `<message_id>#<n>`, n 1-based)'),
    file: z.string().min(1).describe('workspace-relative path, forward slashes'),
    line_start: lineNumber.optional().describe('1-based first line when attached: a hint, not an identity (lines drift)'),
    line_end: lineNumber.optional().describe('1-based last line (inclusive) when attached'),
    member_key: z.string().min(1).nullable().optional().describe("hci's member key of the code (outline); null: inferred from the line range"),
    syntax_scope: z.string().nullable().optional().describe('outline kind of that member (method, class, property, …); null: none'),
    shape: z.enum(['lines', 'member', 'file']).optional().describe('what was attached: a line selection, a whole member, a whole file'),
    excerpt: z.string().optional().describe('the attached text (may be cut short, ending in …): tells a drifted or stale anchor'),
  })
  .refine((a) => a.line_start === undefined || a.line_end === undefined || a.line_end >= a.line_start, {
    message: 'line_end must not be before line_start',
    path: ['line_end'],
  })
  .meta({ title: 'Code anchor', description: 'A place in the code as attached or related: file, member key, syntax scope and shape, excerpt, line range as a hint.' });

const eventBase = {
  schema_version: z.number().int().min(1).describe(`event format version (this build writes ${EVENT_SCHEMA_VERSION})`),
  thread_id: z.string().min(1).describe('the conversation (branch) the event belongs to'),
  at: z.string().optional().describe('when it happened (ISO 8601); informational'),
};

export const messageAddedSchema = z
  .looseObject({
    type: z.literal('message_added'),
    ...eventBase,
    message_id: z.string().min(1),
    role: z.string().min(1).describe('user, assistant, system, tool, …'),
    text: z.string().default(''),
    attachments: z.array(codeAnchorSchema).default([]).describe('code anchors attached when the message was committed'),
  })
  .meta({
    title: 'message_added',
    description: "A committed message. Its ordinal is its 1-based position among the thread's message_added events.",
  });

export const messageEditedSchema = z
  .looseObject({
    type: z.literal('message_edited'),
    ...eventBase,
    message_id: z.string().min(1),
    text: z.string().optional(),
    attachments: z.array(codeAnchorSchema).optional().describe('when present, replaces the message\'s attachments'),
  })
  .meta({ title: 'message_edited', description: 'A change to a committed message; its ordinal stays.' });

export const relateSourceSchema = z.enum(['cli', 'mcp', 'agent']);

export const messageRangeRelatedSchema = z
  .looseObject({
    type: z.literal('message_range_related'),
    ...eventBase,
    start_ordinal: lineNumber.describe('first message of the range (1-based ordinal)'),
    end_ordinal: lineNumber.describe('last message of the range (inclusive)'),
    code_ref: codeAnchorSchema.describe('the full anchor at declare time (never bare line numbers)'),
    source: relateSourceSchema.describe('who declared it'),
  })
  .refine((e) => e.end_ordinal >= e.start_ordinal, { message: 'end_ordinal must not be before start_ordinal', path: ['end_ordinal'] })
  .meta({

    title: 'message_range_related',
    description: 'An explicit relation: messages start_ordinal..end_ordinal (contiguous, committed) relate to code_ref.',
  });

/** The event types hci understands, by `type`. Other types in a host's log are skipped and counted. */
export const EVENT_SCHEMAS = {
  message_added: messageAddedSchema,
  message_edited: messageEditedSchema,
  message_range_related: messageRangeRelatedSchema,
} as const;

export type EventType = keyof typeof EVENT_SCHEMAS;
export type CodeAnchor = z.infer<typeof codeAnchorSchema>;
export type MessageAdded = z.infer<typeof messageAddedSchema>;
export type MessageEdited = z.infer<typeof messageEditedSchema>;
export type MessageRangeRelated = z.infer<typeof messageRangeRelatedSchema>;
export type RelateSource = z.infer<typeof relateSourceSchema>;
export type IntercomEvent = MessageAdded | MessageEdited | MessageRangeRelated;

/** The envelope every line has (checked before the type's own schema). */
export const eventEnvelopeSchema = z
  .looseObject({ type: z.string().min(1), ...eventBase })
  .meta({ title: 'Intercom event', description: 'One line of the log: a JSON object with type, schema_version and thread_id.' });
