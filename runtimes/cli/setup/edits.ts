// The text edits of `hci setup`: a server entry put into (or taken out of) a host's JSON/JSONC or TOML
// configuration, and the instructions block put into (or taken out of) an agent file, each from a
// file's text to its new text, with the file's other content kept (JSONC comments and the TOML around
// the table included). Also what a setup run recorded (setup-state), so that `--remove` gives back a
// file byte for byte when nobody edited it since; when someone did, these edits take out only hci's
// part. Owns the edits; which files a host has is hosts.ts, reading and writing them the command.
import { applyEdits, findNodeAtLocation, modify, parse, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { HciError } from '../../../core/platform.ts';
import type { ServerCommand } from './hosts.ts';

export const BEGIN = 'hci setup: begin';
export const END = 'hci setup: end';

/** A block marked for hci in a Markdown file (HTML comments) or a TOML file (# comments). */
const markers = (kind: 'md' | 'toml') => (kind === 'md' ? { begin: `<!-- ${BEGIN} -->`, end: `<!-- ${END} -->` } : { begin: `# ${BEGIN}`, end: `# ${END}` });

/** The separator a block appended to `text` starts with: none for an empty file, else a blank line before it. */
function separator(text: string): string {
  if (text === '') return '';
  return text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
}

/** `text` with the marked block replaced by `body` (its markers kept), or appended when it has none; unchanged when `body` is already there. */
export function putBlock(text: string, body: string, kind: 'md' | 'toml'): string {
  const { begin, end } = markers(kind);
  const block = `${begin}\n${body.endsWith('\n') ? body : `${body}\n`}${end}\n`;
  const at = text.indexOf(begin);
  if (at >= 0) {
    const stop = text.indexOf(end, at);
    if (stop < 0) throw new HciError('invalid_request', `an hci block in this file has no end marker (${end})`, `remove the lines from "${begin}" on, or add "${end}" after them, then run hci setup again`);
    const after = stop + end.length + (text[stop + end.length] === '\n' ? 1 : 0);
    return text.slice(0, at) + block + text.slice(after);
  }
  return text + separator(text) + block;
}

/** `text` without the marked block and the separator putBlock put before it; unchanged when it has none. */
export function dropBlock(text: string, kind: 'md' | 'toml'): string {
  const { begin, end } = markers(kind);
  const at = text.indexOf(begin);
  if (at < 0) return text;
  const stop = text.indexOf(end, at);
  const after = stop < 0 ? text.length : stop + end.length + (text[stop + end.length] === '\n' ? 1 : 0);
  let head = text.slice(0, at);
  const tail = text.slice(after);
  // The blank line putBlock added before a block at the end of the file (not one that was there before: see setup-state for exact restores).
  if (tail === '' && head.endsWith('\n\n')) head = head.slice(0, -1);
  return head + tail;
}

// ── JSON / JSONC ───────────────────────────────────────────────────────────────────────────────

/** The indentation a JSON text uses (its first indented line), for the lines hci adds. */
function formatting(text: string): { insertSpaces: boolean; tabSize: number; eol: string } {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return { insertSpaces: !indent.startsWith('\t'), tabSize: indent.startsWith('\t') ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

function parseJson(text: string, file: string): object {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    const e = errors[0];
    throw new HciError('invalid_request', `${file} is not valid JSON (${printParseErrorCode(e.error)} at offset ${e.offset})`, 'fix the file or move it away, then run hci setup again');
  }
  if ((value === null || typeof value !== 'object' || Array.isArray(value))) {
    throw new HciError('invalid_request', `${file} does not hold a JSON object`, 'fix the file or move it away, then run hci setup again');
  }
  return value;
}

/** The entry `name` under `key` of a parsed JSON object, or undefined. */
function jsonEntry(root: object, key: string, name: string): unknown {
  const servers: unknown = Reflect.get(root, key);
  return servers && typeof servers === 'object' ? Reflect.get(servers, name) : undefined;
}

/** The text with `entry` as `<key>.<name>` (a new file when `text` is empty); other members and comments kept. */
export function putJson(text: string, key: string, name: string, entry: Record<string, unknown>, file: string): string {
  const root = parseJson(text, file);
  if (text.trim() === '') return `${JSON.stringify({ [key]: { [name]: entry } }, null, 2)}\n`;
  if (JSON.stringify(jsonEntry(root, key, name)) === JSON.stringify(entry)) return text;
  return applyEdits(text, modify(text, [key, name], entry, { formattingOptions: formatting(text) }));
}

/** The text without `<key>.<name>`, and without `key` when hci's entry was all it held; '' when nothing else is left. */
export function dropJson(text: string, key: string, name: string, file: string): string {
  if (jsonEntry(parseJson(text, file), key, name) === undefined) return text;
  const fmt = { formattingOptions: formatting(text) };
  let out = applyEdits(text, modify(text, [key, name], undefined, fmt));
  const container = findNodeAtLocation(parseTree(out)!, [key]);
  if (container?.type === 'object' && !container.children?.length) out = applyEdits(out, modify(out, [key], undefined, fmt));
  const rest = parseTree(out);
  return rest?.type === 'object' && !rest.children?.length && !/\/[/*]/.test(out) ? '' : out;
}

// ── TOML ───────────────────────────────────────────────────────────────────────────────────────

function parseTomlText(text: string, file: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (e) {
    throw new HciError('invalid_request', `${file} is not valid TOML (${(e as Error).message.split('\n')[0]})`, 'fix the file or move it away, then run hci setup again');
  }
}

/** The TOML text with a marked `[<table>.<name>]` block for the server (replacing hci's earlier block). */
export function putToml(text: string, table: string, name: string, cmd: ServerCommand, file: string): string {
  const before = parseTomlText(dropBlock(text, 'toml'), file);
  const tables = before[table];
  if (tables && typeof tables === 'object' && name in tables) {
    throw new HciError('invalid_request', `${file} already has a server named ${name} that hci setup did not write`, `remove its [${table}.${name}] table, or pass --name <other> for hci's`);
  }
  const out = putBlock(text, stringifyToml({ [table]: { [name]: { command: cmd.command, args: cmd.args } } }), 'toml');
  parseTomlText(out, file);
  return out;
}

/** The TOML text without hci's marked block. */
export function dropToml(text: string): string {
  return dropBlock(text, 'toml');
}

// ── what a run recorded ────────────────────────────────────────────────────────────────────────

/** Per file hci setup wrote: its text before hci first touched it (null: hci made it) and the text hci left. */
export interface SetupRecord {
  original: string | null;
  written: string;
  /**
   * The hosts whose setup put hci's part in this file: AGENTS.md's block serves Codex and Windsurf,
   * so removing one host keeps it while another is still set up (absent in records before this field).
   */
  hosts?: string[];
}

export type SetupState = Record<string, SetupRecord>;

export function readState(text: string | null): SetupState {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    const files = v && typeof v === 'object' ? Reflect.get(v, 'files') : undefined;
    return files && typeof files === 'object' ? (files as SetupState) : {};
  } catch {
    return {};
  }
}

export function writeState(state: SetupState): string | null {
  return Object.keys(state).length ? `${JSON.stringify({ note: 'written by `hci setup` so that `hci setup --remove` restores these files', files: state }, null, 2)}\n` : null;
}
