// The SDK's Streamable HTTP transport for node:http (runtimes/node/mcp/http.ts), a build seam like
// server.ts: bundled into this file's compiled copy at build time, a plain re-export from source.
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
