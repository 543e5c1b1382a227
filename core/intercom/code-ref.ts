// The text syntax of code refs and message ranges, parsed into values (nothing is resolved here):
//   code refs  `src/Foo.cs:L10-20` · `src/Foo.cs:L10` · `src/Foo.cs#L10-L20` · `src/Foo.cs` (the whole
//              file) · `L:10-20` / `L:10 20` / `L:10:20` with a file given apart · `[M:<member key>]` ·
//              `anchor:<id>` · `selection` (or nothing) with a selection passed by the caller;
//   ranges     `n` · `n m` · `n:m` (also `n-m`, `#n`) — contiguous only.
// Owns path normalisation too: workspace-relative, forward slashes, never leaving the workspace.
// Resolving a ref against the index belongs to anchors.ts.
import { HciError } from '../platform.ts';

export interface Selection {
  file: string;
  line_start: number;
  line_end?: number;
  /** The selected text, kept as the excerpt. */
  text?: string;
}

export type CodeRef =
  | { kind: 'lines'; file: string; line_start: number; line_end: number; text?: string }
  | { kind: 'file'; file: string }
  | { kind: 'member'; member_key: string; file?: string }
  | { kind: 'anchor'; anchor_id: string };

export interface CodeRefContext {
  /** The file a bare `L:10-20` refers to (the open file). */
  file?: string;
  selection?: Selection;
  /** The workspace root as WorkspaceFs.rootLabel names it: absolute paths below it are accepted. */
  rootLabel?: string;
}

const EMPTY_HINT = 'pass a code ref (src/Foo.cs:L10-20, [M:<member key>], anchor:<id>) or a selection with a file and lines';

/**
 * A workspace-relative path with forward slashes. Throws HciError `path_outside_workspace` for a path
 * that leaves the workspace ('..', or absolute and not below rootLabel).
 */
export function workspacePath(p: string, rootLabel?: string): string {
  let rel = String(p).trim().replace(/\\/g, '/');
  const root = rootLabel?.replace(/\\/g, '/').replace(/\/+$/, '');
  if (root && (root.startsWith('/') || /^[a-zA-Z]:\//.test(root)) && rel.startsWith(`${root}/`)) rel = rel.slice(root.length + 1);
  rel = rel.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (!rel || rel.startsWith('/') || /^[a-zA-Z]:/.test(rel) || rel.split('/').some((s) => s === '..')) {
    throw new HciError('path_outside_workspace', `"${p}" is not a path inside the workspace`, 'pass a workspace-relative path such as src/Foo.cs');
  }
  return rel.split('/').filter((s) => s !== '.' && s !== '').join('/');
}

function lineRange(a: string, b: string | undefined, ref: string): { line_start: number; line_end: number } {
  const start = Number(a);
  const end = b === undefined ? start : Number(b);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 1 || end < start) {
    throw new HciError('invalid_code_ref', `"${ref}": lines must be 1-based with the end not before the start`, 'e.g. src/Foo.cs:L10-20');
  }
  return { line_start: start, line_end: end };
}

/** Parses a code ref (see the module comment). An empty ref or selection is an explicit error. */
export function parseCodeRef(ref: string | undefined | null, ctx: CodeRefContext = {}): CodeRef {
  const text = typeof ref === 'string' ? ref.trim() : '';
  if (text === '' || text === 'selection') {
    const sel = ctx.selection;
    if (!sel || typeof sel.file !== 'string' || sel.file.trim() === '' || !Number.isSafeInteger(sel.line_start)) {
      throw new HciError('empty_selection', text === 'selection' ? 'the code ref is `selection`, but no selection was passed' : 'no code ref and no selection: nothing to look up', EMPTY_HINT);
    }
    const end = sel.line_end ?? sel.line_start;
    if (sel.line_start < 1 || !Number.isSafeInteger(end) || end < sel.line_start) {
      throw new HciError('empty_selection', `the selection L${sel.line_start}-${end} holds no line`, 'a selection needs 1-based lines with line_end ≥ line_start');
    }
    return { kind: 'lines', file: workspacePath(sel.file, ctx.rootLabel), line_start: sel.line_start, line_end: end, text: sel.text };
  }
  let m = /^anchor:(.+)$/.exec(text);
  if (m) return { kind: 'anchor', anchor_id: m[1].trim() };
  m = /^\[M:(.+)\]$/s.exec(text);
  if (m) {
    const key = m[1].trim();
    return ctx.file ? { kind: 'member', member_key: key, file: workspacePath(ctx.file, ctx.rootLabel) } : { kind: 'member', member_key: key };
  }
  m = /^L:(\d+)(?:\s*[-: ]\s*(\d+))?$/.exec(text);
  if (m) {
    if (!ctx.file) throw new HciError('invalid_code_ref', `"${text}" names lines but no file`, 'pass the file too (--file src/Foo.cs), or write src/Foo.cs:L10-20');
    return { kind: 'lines', file: workspacePath(ctx.file, ctx.rootLabel), ...lineRange(m[1], m[2], text) };
  }
  m = /^(.+?)(?::L|#L)(\d+)(?:\s*(?:-L?|:)\s*(\d+))?$/.exec(text);
  if (m) return { kind: 'lines', file: workspacePath(m[1], ctx.rootLabel), ...lineRange(m[2], m[3], text) };
  if (/^L\d|^\d+(\s*[-:]\s*\d+)?$/.test(text)) {
    throw new HciError('invalid_code_ref', `"${text}" is not a code ref`, 'write src/Foo.cs:L10-20, or L:10-20 with a file');
  }
  return { kind: 'file', file: workspacePath(text, ctx.rootLabel) };
}

/** A contiguous range of message ordinals: `n`, `n m`, `n:m` (and `n-m`, `#n`). */
export function parseMessageRange(range: string | number | { start: number; end?: number }): { start: number; end: number } {
  if (typeof range === 'number') return checkRange(range, range, String(range));
  if (range && typeof range === 'object') return checkRange(range.start, range.end ?? range.start, JSON.stringify(range));
  const text = String(range ?? '').trim();
  if (text === '') throw new HciError('invalid_range', 'no message range given', 'pass n, "n m" or n:m (1-based ordinals)');
  if (/[,;+&]/.test(text) || (text.match(/\d+/g) ?? []).length > 2) {
    throw new HciError('range_not_contiguous', `"${text}" is not one contiguous range`, 'relate one range n, "n m" or n:m; relate scattered messages one range at a time');
  }
  const m = /^#?(\d+)(?:\s*[:-]\s*#?|\s+#?)?(\d+)?$/.exec(text);
  if (!m || (m[2] === undefined && /\D/.test(text.replace(/^#/, '')))) {
    throw new HciError('invalid_range', `"${text}" is not a message range`, 'pass n, "n m" or n:m (1-based ordinals)');
  }
  return checkRange(Number(m[1]), Number(m[2] ?? m[1]), text);
}

function checkRange(start: number, end: number, text: string): { start: number; end: number } {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 1) {
    throw new HciError('invalid_range', `"${text}": ordinals are whole numbers from 1`, 'pass n, "n m" or n:m (1-based ordinals)');
  }
  if (end < start) throw new HciError('invalid_range', `"${text}": the range ends before it starts`, `write ${end}:${start}`);
  return { start, end };
}
