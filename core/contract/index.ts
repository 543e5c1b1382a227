// The contract of hci: one zod schema per request and answer, shared by the library, the CLI's --json,
// the MCP tools' input and output schemas and the browser Worker. TypeScript types are z.infer of
// these schemas, so the code that fills an answer cannot drift from what is declared. Owns shapes,
// their descriptions and the error table; nothing here runs a search. The intercom event log's own
// format (events, code anchors) is core/intercom/events.ts.
export * from './common.ts';
export * from './search.ts';
export * from './explain.ts';
export * from './outline.ts';
export * from './browse.ts';
export * from './status.ts';
export * from './tasks.ts';
export * from './watch.ts';
export * from './intercom.ts';
export * from './errors.ts';
export * from './similar.ts';
export * from './tree.ts';
