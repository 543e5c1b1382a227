// The SDK's web-standard Streamable HTTP transport (Request/Response; the Deno server,
// runtimes/deno/mcp-server.ts), a build seam like server.ts: bundled into this file's compiled copy
// at build time, a plain re-export from source.
export { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
