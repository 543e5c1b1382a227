// How long ago a timestamp was, in the short words every text rendering uses ("5s ago", "3h ago").
// Owns that wording only; shared by the CLI's formatters (runtimes/cli/format.ts) and the MCP text
// renderings (runtimes/mcp/render.ts). Pure: no platform API.

export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}
