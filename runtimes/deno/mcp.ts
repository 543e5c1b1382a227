// The hci MCP server under Deno: `hci mcp` of the shared command table (runtimes/cli/), with Deno's
// runtime pieces (mcp-server.ts) — the same tools, answers, options and HTTP guard as under Node,
// over stdio (default) or Streamable HTTP with `Deno.serve` (--http). Narrowest permissions that work
// (see docs/runtimes.md, "MCP under Deno"):
//
//   deno run --no-prompt --allow-read=<workspace>,<hci folder>/node_modules \
//     --allow-write=<workspace>/.hci --allow-sys=hostname <hci folder>/runtimes/deno/mcp.ts <workspace>
//
// and for HTTP add `--allow-net=127.0.0.1:<port>` and `--http --port <port>`. Optional:
// `--allow-env=HCI_MCP_TOKEN` (a bearer token), `--allow-run` (clear locks left by crashed processes).
// No file watcher under Deno: the `watch` tool answers `not_available`; reindex is incremental.
import { runCli } from '../cli/program.ts';
import { deno } from './deno-api.ts';
import { denoCliRuntime } from './cli.ts';

if ((import.meta as { main?: boolean }).main) deno().exit(await runCli(['mcp', ...deno().args], denoCliRuntime));
