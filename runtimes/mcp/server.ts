// One MCP protocol endpoint over the shared service (core/service/): tools/list and tools/call, the
// same for every runtime and transport (runtimes/node and runtimes/deno own stdio and HTTP). Built on the SDK's
// low-level Server (not McpServer) on purpose: McpServer validates arguments itself and answers a bad
// one with a bare text error, while hci must answer every failure — invalid arguments included — with
// its structured shape (status error, a stable code, the zod issues, a hint: the verb's failure
// answer). So this module lists the tools with JSON schemas generated from the same zod schemas it
// then validates with — the verb table's, as each tool presents its verb (tool.ts, tools.ts).
import { CallToolRequestSchema, ListToolsRequestSchema, Server, type CallToolResult, type Tool } from './sdk/server.ts';
import type { CallContext, VerbService } from '../../core/service/index.ts';
import { toolDefs, type WatcherPlan } from './tools.ts';
import { boundTool, describeIssues, type BoundTool } from './tool.ts';

export const SERVER_NAME = 'hci';

/** The server's instructions, saying only what this server does (a watcher only where there is one). */
export function serverInstructions(root: string, watcher: WatcherPlan = 'on'): string {
  const freshness = {
    on: 'a watcher re-indexes changed files within about a second.',
    off: 'the file watcher is off (the watch tool turns it on): call `reindex` after editing files.',
    unavailable: 'this server has no file watcher: call `reindex` after editing files (it is incremental and quick).',
  }[watcher];
  return [
    `hci is a code index of the workspace ${root} (C#, Razor, AXAML, configs, docs, web files).`,
    'To find where something is, call `search` first and then read only the returned line ranges: it costs far less context than listing or reading files.',
    'Hits are text evidence, and hit_kind says which: text_fts (keyword match), text_literal (the exact text or regex), text_vector or hybrid (near in meaning, semantic search on); ' +
      'for C#, confirm symbol facts (usages, overrides, renames) with the compiler or language server.',
    `An empty answer has a status and a hint: it is not proof of absence. Every answer says how fresh the index is; ${freshness}`,
    'For a conversation kept as an NDJSON event log in the workspace, intercom_messages_for_code says which of its messages relate to some code, and intercom_message_relate records that a range of them does.',
  ].join('\n');
}

export interface McpServerOptions {
  version: string;
  /** Validate each answer against its output schema before sending (tests; cheap enough to keep on). */
  checkOutput?: boolean;
  log?: (msg: string) => void;
}

/** The tool table and its listing (JSON schemas), made once per service: every HTTP session shares them (~10 ms each to build). */
const toolTables = new WeakMap<VerbService, { defs: BoundTool[]; byName: Map<string, BoundTool>; tools: Tool[] }>();

function toolTable(svc: VerbService): { defs: BoundTool[]; byName: Map<string, BoundTool>; tools: Tool[] } {
  let t = toolTables.get(svc);
  if (!t) {
    const defs = toolDefs(svc.root, svc.watcherPlan).map(boundTool);
    t = { defs, byName: new Map(defs.map((d) => [d.name, d])), tools: defs.map((d) => d.listing) };
    toolTables.set(svc, t);
  }
  return t;
}

export function createMcpServer(svc: VerbService, opts: McpServerOptions): Server {
  const { defs, byName, tools } = toolTable(svc);

  const server = new Server(
    { name: SERVER_NAME, title: 'hci — hybrid code index', version: opts.version },
    { capabilities: { tools: { listChanged: false } }, instructions: serverInstructions(svc.root, svc.watcherPlan) },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const def = byName.get(req.params.name);
    if (!def) {
      return {
        isError: true,
        content: [{ type: 'text', text: `error unknown_tool: no tool "${req.params.name}"\nhint: the tools are ${defs.map((d) => d.name).join(', ')}` }],
      };
    }
    const token = req.params._meta?.progressToken;
    const ctx: CallContext = { signal: extra.signal };
    if (token !== undefined) {
      ctx.progress = (p) => {
        void extra
          .sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...p } })
          .catch(() => {});
      };
    }
    const { out, text } = await def.call(svc, req.params.arguments ?? {}, ctx);
    if (opts.checkOutput) checkOutput(def, out, opts.log);
    return {
      content: [{ type: 'text', text }],
      structuredContent: out,
      ...(out.status === 'error' ? { isError: true } : {}),
    };
  });

  return server;
}

/** Logs (never throws) when an answer does not fit its declared output schema: a bug to fix. */
function checkOutput(def: BoundTool, out: unknown, log?: (msg: string) => void): void {
  const r = def.output.safeParse(out);
  if (!r.success) log?.(`tool ${def.name}: answer does not match its output schema: ${describeIssues(r.error).map((i) => `${i.path}: ${i.message}`).join('; ')}`);
}
