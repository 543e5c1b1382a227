// What the code-model trainer takes from one repository at its pinned commit: the files an index
// of it would hold (code, markup, docs, configs; vendored, generated, minified and locale files
// left out), a deterministic sample of them up to a byte cap (files in order of a hash of their
// path, so no one repository outweighs the rest), each cut into windows of lines with its path
// first (the shape of hci's chunk texts), and the text ↔ code pairs the repository holds: doc
// comments (C# `///`, JSDoc `/** */`) with the lines they document, and commit subjects with the
// lines the commit changed. Owns selection and cutting; git I/O is mirror.ts's, counting train.ts's.
import { sha256Hex } from '../../core/index/sha256.ts';
import { commitChanges, listTree, readBlobs, type TreeEntry } from './mirror.ts';

export interface ExtractParams {
  /** Bytes of file text kept per repository (the sample's cap). */
  capBytes: number;
  maxFileBytes: number;
  windowLines: number;
  /** Lines of code after a doc comment taken as what it documents. */
  docCodeLines: number;
  commits: number;
  commitMaxFiles: number;
  /** Bytes of the blobs (before and after) a picked commit may touch in all: big rewrites say little about their subject. */
  commitMaxBlobBytes: number;
  commitMaxLines: number;
}

export const EXTRACT_PARAMS: ExtractParams = {
  capBytes: 8_000_000, maxFileBytes: 200_000, windowLines: 50, docCodeLines: 30, commits: 1500, commitMaxFiles: 8, commitMaxBlobBytes: 400_000, commitMaxLines: 200,
};

/** The extractor's version: part of every cached extract's key (bump it when what is kept changes). */
export const EXTRACTOR_VERSION = 1;

const CODE_EXT = ['.cs', '.razor', '.cshtml', '.axaml', '.xaml', '.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.vue', '.svelte', '.html', '.css', '.scss'];
const DOC_EXT = ['.md', '.mdx'];
const CONFIG_EXT = ['.json', '.yml', '.yaml', '.toml', '.csproj', '.props', '.targets', '.sln', '.slnx', '.editorconfig'];
const DOC_COMMENT_EXT = new Set(['.cs', '.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);

/** Path segments whose files are vendored, generated, build output, test snapshots or translations. */
const SKIP_SEGMENTS = new Set([
  'node_modules', 'bin', 'obj', 'dist', 'out', 'vendor', 'vendors', 'third_party', 'thirdparty', 'third-party', 'external', 'externals', '.git', '.vs',
  '__snapshots__', 'snapshots', 'fixtures', '__fixtures__', 'testdata', 'test-data', 'baselines', 'locale', 'locales', 'i18n', 'l10n', 'translations', 'coverage',
]);
const SKIP_FILES = /(\.min\.(js|css)|\.bundle\.js|\.designer\.cs|\.g\.cs|\.g\.i\.cs|\.generated\.\w+|\.snap|package-lock\.json|pnpm-lock\.yaml|yarn\.lock|\.lock|\.map|\.d\.ts\.map)$/i;

export function extOf(p: string): string {
  const base = p.slice(p.lastIndexOf('/') + 1);
  if (base === '.editorconfig') return '.editorconfig';
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot).toLowerCase();
}

/** Whether the trainer reads this path (scope `code`: no docs, for repositories whose docs carry another licence). */
export function keepPath(p: string, scope: 'all' | 'code'): boolean {
  const ext = extOf(p);
  const docs = DOC_EXT.includes(ext);
  if (!CODE_EXT.includes(ext) && !CONFIG_EXT.includes(ext) && !docs) return false;
  if (docs && scope === 'code') return false;
  if (SKIP_FILES.test(p)) return false;
  const segs = p.split('/');
  for (let i = 0; i < segs.length - 1; i++) if (SKIP_SEGMENTS.has(segs[i].toLowerCase())) return false;
  // wwwroot/lib holds client libraries copied in (jquery, bootstrap).
  return !/(^|\/)wwwroot\/lib\//i.test(p);
}

export interface RepoExtract {
  repo: string;
  commit: string;
  files: number;
  bytes: number;
  /** Line windows, path first: the co-occurrence corpus. */
  windows: string[];
  /** [doc comment text, the code it documents]. */
  docPairs: Array<[string, string]>;
  /** [commit subject, the lines it changed]. */
  commitPairs: Array<[string, string]>;
}

/** The sample: kept files in order of sha256(repo/path), until the cap. */
export function sampleFiles(repo: string, entries: readonly TreeEntry[], scope: 'all' | 'code', p: ExtractParams): TreeEntry[] {
  const kept = entries.filter((e) => e.size >= 16 && e.size <= p.maxFileBytes && keepPath(e.path, scope));
  const keyed = kept.map((e) => ({ e, k: sha256Hex(new TextEncoder().encode(`${repo}/${e.path}`)) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const out: TreeEntry[] = [];
  let bytes = 0;
  for (const { e } of keyed) {
    if (bytes + e.size > p.capBytes) continue;
    out.push(e);
    bytes += e.size;
  }
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out;
}

/** Minified or binary-ish text: a NUL, or lines that are long on average. */
function unreadable(text: string): boolean {
  if (text.includes('\0')) return true;
  let lines = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
  return text.length / lines > 300;
}

export function windowsOf(path: string, lines: readonly string[], size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i += size) {
    const body = lines.slice(i, i + size).join('\n');
    if (/[A-Za-z]{2}/.test(body)) out.push(`${path}\n${body}`);
  }
  return out;
}

const XML_REF = /<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword)="(?:[A-Z]:)?([^"]+)"\s*\/?>(?:<\/\w+>)?/g;

/** The words of a C# XML doc comment: tags dropped, referenced names kept by their last part. */
export function csharpDocText(lines: readonly string[]): string {
  const raw = lines.map((l) => l.replace(/^\s*\/\/\/\s?/, '')).join(' ');
  return raw
    .replace(XML_REF, (_, name: string) => ` ${name.replace(/\(.*$/, '').split('.').pop()} `)
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The words of a JSDoc block: the `*` gutter, tag names, types and parameter names dropped; {@link X} kept as X. */
export function jsDocText(lines: readonly string[]): string {
  const raw = lines
    .map((l) => l.replace(/^\s*\/\*\*+/, '').replace(/\*+\/\s*$/, '').replace(/^\s*\*\s?/, ''))
    .join('\n');
  return raw
    .replace(/\{@(?:link|linkcode|linkplain)\s+([^}|\s]+)[^}]*\}/g, (_, name: string) => ` ${name.split(/[.#]/).pop()} `)
    .replace(/^@(param|arg|argument|prop|property|typedef|template)\s+(\{[^}]*\}\s*)?(\[[^\]]*\]|\S+)/gm, ' ')
    .replace(/^@\w+(\s+\{[^}]*\})?/gm, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Doc comments of a C#/JS/TS file and the lines each documents (up to `maxCode`, stopping at the next comment or the end of the enclosing block). */
export function docPairsOf(lines: readonly string[], ext: string, maxCode: number): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const isCs = ext === '.cs';
  let i = 0;
  while (i < lines.length) {
    let doc: string | null = null;
    let next = i + 1;
    if (isCs && /^\s*\/\/\//.test(lines[i])) {
      let j = i;
      while (j < lines.length && /^\s*\/\/\//.test(lines[j])) j++;
      doc = csharpDocText(lines.slice(i, j));
      next = j;
    } else if (/^\s*\/\*\*(?!\/)/.test(lines[i])) {
      let j = i;
      while (j < lines.length && !/\*\//.test(lines[j])) j++;
      doc = jsDocText(lines.slice(i, Math.min(j + 1, lines.length)));
      next = j + 1;
    }
    if (doc === null) {
      i++;
      continue;
    }
    const code: string[] = [];
    const indent = next < lines.length ? /^\s*/.exec(lines[next])![0].length : 0;
    for (let k = next; k < lines.length && code.length < maxCode; k++) {
      const l = lines[k];
      if (/^\s*(\/\/\/|\/\*\*)/.test(l)) break;
      if (code.length > 0 && l.trim() && /^\s*/.exec(l)![0].length < indent) break;
      code.push(l);
    }
    const words = doc.match(/[A-Za-z]{2,}/g)?.length ?? 0;
    if (words >= 3 && code.some((l) => /[A-Za-z_]\w*/.test(l))) out.push([doc, code.join('\n')]);
    i = next;
  }
  return out;
}

const NOISY_SUBJECT = /^(merge|bump|release|version|revert|update (dependency|dependencies|deps|packages?|lock)|chore\(deps|build\(deps|\[?automated|auto-?generated|wip\b|typo)/i;

/** A commit subject as a query would say it: the conventional-commit type, PR/issue numbers and URLs dropped. */
export function cleanSubject(s: string): string | null {
  if (NOISY_SUBJECT.test(s.trim())) return null;
  const t = s
    .replace(/^\s*(\w+)(\([^)]*\))?!?:\s*/, (m, type: string, scope?: string) => (/^(feat|fix|chore|docs|refactor|perf|test|tests|style|ci|build)$/i.test(type) ? (scope ? `${scope.slice(1, -1)} ` : '') : m))
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\(?#\d+\)?/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (t.match(/[A-Za-z]{2,}/g)?.length ?? 0) >= 3 ? t : null;
}

const COMMIT_PATHSPECS = CODE_EXT.map((e) => `*${e}`);

export function extractRepo(dir: string, repo: string, commit: string, scope: 'all' | 'code', p: ExtractParams = EXTRACT_PARAMS): RepoExtract {
  const files = sampleFiles(repo, listTree(dir, commit), scope, p);
  const blobs = readBlobs(dir, files.map((f) => f.oid));
  const dec = new TextDecoder('utf-8');
  const windows: string[] = [];
  const docPairs: Array<[string, string]> = [];
  let bytes = 0;
  let kept = 0;
  files.forEach((f, i) => {
    const blob = blobs[i];
    if (!blob) return;
    const text = dec.decode(blob).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
    if (unreadable(text)) return;
    kept++;
    bytes += blob.length;
    const lines = text.split('\n');
    windows.push(...windowsOf(f.path, lines, p.windowLines));
    const ext = extOf(f.path);
    if (DOC_COMMENT_EXT.has(ext)) docPairs.push(...docPairsOf(lines, ext, p.docCodeLines));
  });
  const commitPairs: Array<[string, string]> = [];
  for (const c of commitChanges(dir, commit, { max: p.commits, maxFiles: p.commitMaxFiles, maxBlobBytes: p.commitMaxBlobBytes, maxLines: p.commitMaxLines, pathspecs: COMMIT_PATHSPECS })) {
    const subject = cleanSubject(c.subject);
    if (subject) commitPairs.push([subject, c.lines.join('\n')]);
  }
  return { repo, commit, files: kept, bytes, windows, docPairs, commitPairs };
}
