// The traceability library surface (message ↔ code): the facade, its contract, the log seam and
// format, and the pieces a host or a surface may want on their own (code-ref parsing, the reader).
export { Intercom, type IntercomHost, type IntercomOptions, type RebuildSummary } from './intercom.ts';
export * from '../contract/intercom.ts';
export {
  EVENT_SCHEMA_VERSION, EVENT_SCHEMAS, codeAnchorSchema, messageAddedSchema, messageEditedSchema, messageRangeRelatedSchema,
  type CodeAnchor, type IntercomEvent, type MessageAdded, type MessageEdited, type MessageRangeRelated, type RelateSource,
} from './events.ts';
export { readLogEvents, createMemoryIntercomLog, type IntercomLogFile, type IntercomLogOpener, type LogReadStats, type LogStat, type LoggedEvent } from './log.ts';
export { parseCodeRef, parseMessageRange, workspacePath, type CodeRef, type Selection } from './code-ref.ts';
export { SIDECAR_FILE, SIDECAR_FORMAT } from './sidecar.ts';
export { intercomJsonSchemas, SCHEMA_DIR } from './json-schemas.ts';
