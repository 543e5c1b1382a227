// The intercom rows of the MCP tool table (message ↔ code traceability over a conversation's NDJSON
// event log): `intercom_messages_for_code` (find) and `intercom_message_relate` (relate). The seed
// names them `intercom.messages_for_code` / `intercom.message_relate`; the MCP spec (SEP-986, and the
// SDK's validateToolName) allows dots, but several hosts pass tool names to model APIs that accept
// only [a-zA-Z0-9_-] (Windsurf refuses ^[a-zA-Z0-9_-]{1,64}$ misfits, Copilot CLI's API answers 400),
// so the names use underscores and fit that stricter rule. Owns names, descriptions and the input
// adjustments; the schemas are the contract's (core/contract/intercom.ts), the calls the service's
// (core/service/intercom.ts: logs only inside the workspace, `source: "mcp"`), layout render.ts.
import {
  INTERCOM_CONTRACT_VERSION, findRequestSchema, intercomFindAnswer, intercomRelateAnswer, relateRequestSchema, type FindRequest,
} from '../../core/contract/index.ts';
import type { IntercomRelateCall } from '../../core/service/index.ts';
import { renderIntercomFind, renderIntercomRelate } from './render.ts';
import type { ToolDef } from './tools.ts';

/** What the model sends: the contract's requests, strict; relate without `source` (the server records "mcp"). */
export const intercomFindInput = findRequestSchema.strict();
export const intercomRelateInput = relateRequestSchema.omit({ source: true }).strict();

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const base = (raw: Record<string, unknown>) => ({ contract_version: INTERCOM_CONTRACT_VERSION, thread_id: str(raw.thread_id), took_ms: 0, index: null });

const REFS = 'code_ref: "src/Foo.cs:L10-20" (lines), "src/Foo.cs" (whole file), "L:10-20" with file, "[M:<member key>]" (from outline or resolve), "anchor:<id>" (from a match), ' +
  'or omit it and pass selection {file, line_start, line_end, text}.';

export function intercomToolDefs(): ToolDef[] {
  return [
    {
      name: 'intercom_messages_for_code',
      title: 'Messages that relate to this code',
      description:
        'Which messages of a conversation relate to a piece of code: give the conversation\'s NDJSON event log (log, a path inside the workspace), ' +
        `its thread_id and the code. ${REFS} ` +
        'Returns the thread\'s message ordinals (1-based, as the conversation\'s gutter shows them), best first: same file and member key (match "member"), ' +
        'else ≥ 1 line overlap with the anchor\'s current range ("overlap"), or anywhere in a whole-file ref ("file"); ' +
        'match_kind "inferred" comes from a message\'s attachments, "explicit" from a recorded relation (intercom_message_relate). ' +
        'Anchors follow the code through edits by member key; stale: true means the code changed or went away (excerpt shows it as attached). ' +
        'status: ok | empty (nothing relates: see hint) | error (code + hint).',
      input: intercomFindInput,
      output: intercomFindAnswer,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      call: (svc, a) => svc.intercomFind(a as FindRequest) as never,
      render: (o) => renderIntercomFind(o as never),
      errorAnswer: (_svc, error, hint, raw) => ({
        ...base(raw), status: 'error', code_ref: typeof raw.code_ref === 'string' ? raw.code_ref : null, targets: [], matches: [], total: 0, truncated: false,
        log: null, sidecar: null, index_generation: null, error, hint,
      }),
      example: '{"log": ".sessions/abc.events.ndjson", "thread_id": "t1", "code_ref": "src/Foo.cs:L10-20"}',
    },
    {
      name: 'intercom_message_relate',
      title: 'Relate a range of messages to code',
      description:
        'Record that a contiguous range of committed messages of a conversation relates to a piece of code: appends one message_range_related event ' +
        '(with the code\'s full anchor: file, member key, lines, excerpt; source "mcp") to the NDJSON event log (log, a path inside the workspace). ' +
        'range: n, "n m" or "n:m" (1-based ordinals; scattered ordinals such as "3,7" are refused: relate them one range at a time). ' +
        `${REFS} Afterwards intercom_messages_for_code on that code returns every ordinal of the range (match_kind "explicit"). ` +
        'Each call appends a line: call it once per relation.',
      input: intercomRelateInput,
      output: intercomRelateAnswer,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      call: (svc, a) => svc.intercomRelate(a as IntercomRelateCall) as never,
      render: (o) => renderIntercomRelate(o as never),
      errorAnswer: (_svc, error, hint, raw) => ({ ...base(raw), status: 'error', start_ordinal: null, end_ordinal: null, ordinals: [], code_ref: null, log: null, error, hint }),
      example: '{"log": ".sessions/abc.events.ndjson", "thread_id": "t1", "range": "3:5", "code_ref": "[M:Shop.OrderService.Place(int)]"}',
    },
  ];
}
