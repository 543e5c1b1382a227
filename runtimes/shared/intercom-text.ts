// Words the CLI's and the MCP server's renderings of intercom answers share: a find target as a
// code ref (`src/Foo.cs:L10-20 [M:Demo.Foo.Add(int)]`) and a message range (`#3-#5`). Owns only
// these phrases; each surface lays out the rest (runtimes/cli/format.ts, runtimes/mcp/render.ts).
import type { FindTarget } from '../../core/contract/intercom.ts';

export function targetText(t: FindTarget): string {
  const lines = t.line_start !== null ? `:L${t.line_start}${t.line_end !== null && t.line_end !== t.line_start ? `-${t.line_end}` : ''}` : '';
  const key = t.member_key ? ` [M:${t.member_key}]` : '';
  return `${t.file ?? '(any file)'}${lines}${key}`;
}

export function targetsText(targets: readonly FindTarget[], codeRef: string | null): string {
  return targets.length ? targets.map(targetText).join(', ') : (codeRef ?? 'the code ref');
}

export function rangeText(start: number | null, end: number | null): string {
  if (start === null) return '#?';
  return end === null || end === start ? `#${start}` : `#${start}-#${end}`;
}
