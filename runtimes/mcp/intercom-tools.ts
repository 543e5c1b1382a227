// The intercom rows of the MCP tool table (message ↔ code traceability over a conversation's NDJSON
// event log): `intercom_messages_for_code` (find) and `intercom_message_relate` (relate). The seed
// names them `intercom.messages_for_code` / `intercom.message_relate`; the MCP spec (SEP-986, and the
// SDK's validateToolName) allows dots, but several hosts pass tool names to model APIs that accept
// only [a-zA-Z0-9_-] (Windsurf refuses ^[a-zA-Z0-9_-]{1,64}$ misfits, Copilot CLI's API answers 400),
// so the names use underscores and fit that stricter rule. Owns names, descriptions and the input
// adjustments (the verbs' requests, strict: relate has no `source`, the server records "mcp"); the
// schemas, calls and failure answers are the verbs' (core/service/verbs.ts; core/service/intercom.ts:
// logs only inside the workspace), what a tool is tool.ts, layout render.ts.
import { renderIntercomFind, renderIntercomRelate } from './render.ts';
import type { AnyMcpTool } from './tool.ts';

const REFS = 'code_ref: "src/Foo.cs:L10-20" (lines), "src/Foo.cs" (whole file), "L:10-20" with file, "[M:<member key>]" (from outline or resolve), "anchor:<id>" (from a match), ' +
  'or omit it and pass selection {file, line_start, line_end, text}.';

export function intercomTools(): AnyMcpTool[] {
  return [
    {
      verb: 'intercomFind',
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
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      input: (s) => s.strict(),
      render: renderIntercomFind,
      example: '{"log": ".sessions/abc.events.ndjson", "thread_id": "t1", "code_ref": "src/Foo.cs:L10-20"}',
    },
    {
      verb: 'intercomRelate',
      name: 'intercom_message_relate',
      title: 'Relate a range of messages to code',
      description:
        'Record that a contiguous range of committed messages of a conversation relates to a piece of code: appends one message_range_related event ' +
        '(with the code\'s full anchor: file, member key, lines, excerpt; source "mcp") to the NDJSON event log (log, a path inside the workspace). ' +
        'range: n, "n m" or "n:m" (1-based ordinals; scattered ordinals such as "3,7" are refused: relate them one range at a time). ' +
        `${REFS} Afterwards intercom_messages_for_code on that code returns every ordinal of the range (match_kind "explicit"). ` +
        'Each call appends a line: call it once per relation.',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      input: (s) => s.strict(),
      render: renderIntercomRelate,
      example: '{"log": ".sessions/abc.events.ndjson", "thread_id": "t1", "range": "3:5", "code_ref": "[M:Shop.OrderService.Place(int)]"}',
    },
  ];
}
