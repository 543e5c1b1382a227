// The MCP SDK modules every hci MCP server uses — the low-level Server, the protocol's request
// schemas and types, the stdio transport — re-exported from one place. This is a build seam: hci's
// build bundles exactly these SDK modules (and what they import, zod excepted) into this file's
// compiled copy (scripts/build-mcp-sdk.mjs), so an installed hci does not install the SDK package,
// its dependency tree (express, hono, jose, cors, …) or its CommonJS copy. From source (tests, Deno
// from a clone) it is a plain re-export of the SDK, a devDependency. Add an SDK import here (or in
// a sibling seam), never from the SDK package directly elsewhere in runtimes/.
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { CallToolRequestSchema, ListToolsRequestSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
export type { CallToolResult, JSONRPCMessage, Tool } from '@modelcontextprotocol/sdk/types.js';
export type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
