// One line for the CLI's and the MCP server's status: what the size rule (core/scan/size-policy.ts)
// did with files too large to parse. Owns that wording only.
import type { StatusReport } from '../../core/contract/index.ts';

/** What the size rule did: `2 files over 512 KiB indexed as line windows (csharp, json up to 4 MiB); larger ones skipped`. */
export function largeFilesText(l: NonNullable<StatusReport['large_files']>): string {
  const kib = (b: number) => (b >= 1024 * 1024 ? `${+(b / 1024 / 1024).toFixed(1)} MiB` : `${Math.round(b / 1024)} KiB`);
  if (l.max_bytes <= l.over_bytes || !l.langs.length) return `files over ${kib(l.over_bytes)} are skipped`;
  return `${l.windowed} file${l.windowed === 1 ? '' : 's'} over ${kib(l.over_bytes)} indexed as line windows (${l.langs.join(', ')} up to ${kib(l.max_bytes)}); larger ones skipped`;
}
