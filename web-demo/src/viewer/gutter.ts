// The viewer's gutter: columns left of the code, drawn per line. Line numbers are the first column;
// other features add theirs with addGutterColumn (conversation/markers.tsx puts the message markers
// there) without touching the viewer. Owns the column interface and the registry.
import type { ComponentChild } from 'preact';

export interface GutterContext {
  workspace: string;
  path: string;
  /** The marked range, if any. */
  lines?: [number, number];
}

export interface GutterColumn {
  id: string;
  /** CSS width of the column, e.g. "1.2em". */
  width: string;
  /** Draws one line's cell (null: empty). Called for every visible line: keep it cheap. */
  cell(line: number, ctx: GutterContext): ComponentChild;
  /** Called once per file shown, before any cell (load what the cells need). */
  prepare?(ctx: GutterContext): void | Promise<void>;
}

const columns: GutterColumn[] = [];
const listeners = new Set<() => void>();

export function addGutterColumn(c: GutterColumn): () => void {
  columns.push(c);
  listeners.forEach((l) => l());
  return () => {
    columns.splice(columns.indexOf(c), 1);
    listeners.forEach((l) => l());
  };
}

export function gutterColumns(): readonly GutterColumn[] {
  return columns;
}

export function onGutterChange(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
