// Text ↔ code pairs that carry the words code does not contain (issue 33), for the code model's
// discriminative experiments (dual.ts): (a) a commit subject with the NAMES of what the commit
// changed — each hunk of the patch mapped to the declarations enclosing it in the file at that
// commit (the member's signature line and its type's), never the changed lines' text (extract.ts
// keeps those); (b) a README/docs section's prose (code spans and code blocks taken out) with the
// code of the declarations its code spans name (signature and first lines of the body). The
// outline is a line-based reading of C#, TypeScript and JavaScript declarations (type, member and
// function heads), not hci's tree-sitter chunker: it runs over every picked commit's files, and
// only the names matter. Owns the outline, the hunk → declaration mapping, the section reading and
// this stage's cache (work/names/); git I/O is mirror.ts's, selection of files extract.ts's.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { sha256Hex } from '../../core/index/sha256.ts';
import { cleanSubject, EXTRACT_PARAMS, extOf, sampleFiles } from './extract.ts';
import { commitPatches, listTree, pickCommits, readBlobs } from './mirror.ts';

/** This stage's version: part of every cached file's key (bump it when what is kept changes). */
export const NAMES_VERSION = 1;

export interface NamesParams {
  commits: number;
  commitMaxFiles: number;
  commitMaxBlobBytes: number;
  /** Declarations kept per commit (the first ones in patch order). */
  maxDecls: number;
  /** Declarations a section's code side holds, and lines of each. */
  sectionDecls: number;
  declLines: number;
  /** A code-span name must be declared at most this often in the sample to count (else it names nothing in particular). */
  maxDeclsPerName: number;
  /** Words of prose a section needs. */
  minWords: number;
}

export const NAMES_PARAMS: NamesParams = { commits: 1500, commitMaxFiles: 8, commitMaxBlobBytes: 400_000, maxDecls: 12, sectionDecls: 4, declLines: 12, maxDeclsPerName: 2, minWords: 6 };

const OUTLINE_EXT = new Set(['.cs', '.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);
const PATHSPECS = [...OUTLINE_EXT].map((e) => `*${e}`);

export interface Decl { line: number; indent: number; name: string; type: boolean; head: string }

const CS_MODS = '(?:(?:public|private|protected|internal|static|sealed|abstract|partial|readonly|unsafe|file|new|ref|virtual|override|async|extern|required|const|volatile|event|implicit|explicit)\\s+)';
const CS_TYPE = new RegExp(`^\\s*(?:\\[[^\\]]*\\]\\s*)*${CS_MODS}*(?:class|struct|interface|enum|record(?:\\s+(?:class|struct))?)\\s+([A-Za-z_]\\w*)`);
const CS_MEMBER = new RegExp(`^\\s*(?:\\[[^\\]]*\\]\\s*)*${CS_MODS}+(?:[\\w.<>\\[\\],?()\\s]+?\\s+)?(?:operator\\s*\\S+|([A-Za-z_]\\w*))\\s*(?:<[^>]*>\\s*)?(?:\\(|\\{|=>|=|;|$)`);
const JS_TYPE = /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:class|interface|enum|type|namespace)\s+([A-Za-z_$][\w$]*)\s*(?:[<={]|extends\b|implements\b|$)/;
const JS_FUNC = /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/;
const JS_CONST = /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:\([^()]*\)\s*(?::[^=]*)?=>|function\b|[A-Za-z_$][\w$]*\s*=>)/;
const JS_METHOD = /^\s+(?:(?:public|private|protected|static|readonly|async|override|abstract|get|set|declare)\s+)*\*?\s*(#?[A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^()]*\)\s*(?::[^{=]*)?\{\s*$/;
const NOT_NAMES = new Set(['if', 'for', 'foreach', 'while', 'switch', 'catch', 'return', 'using', 'lock', 'else', 'new', 'await', 'throw', 'var', 'get', 'set', 'init', 'add', 'remove', 'base', 'this', 'constructor', 'function', 'typeof', 'nameof', 'sizeof', 'default', 'case', 'do', 'try', 'finally', 'yield']);

/** The declaration heads of a C#/TS/JS file, in line order (0-based lines). */
export function outline(text: string, ext: string): Decl[] {
  const cs = ext === '.cs';
  const out: Decl[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    const t = l.trim();
    if (!t || t.startsWith('//') || t.startsWith('*') || t.startsWith('/*') || t.startsWith('[') && cs && t.endsWith(']')) continue;
    const indent = /^\s*/.exec(l)![0].replace(/\t/g, '    ').length;
    let m: RegExpExecArray | null;
    let name: string | undefined;
    let type = false;
    if (cs) {
      if (/^new\s+[\w.<>?]+\s*[({[]/.test(t)) continue;
      if ((m = CS_TYPE.exec(l))) { name = m[1]; type = true; }
      else if ((m = CS_MEMBER.exec(l)) && m[1]) name = m[1];
    } else if ((m = JS_TYPE.exec(l))) { name = m[1]; type = true; }
    else if ((m = JS_FUNC.exec(l)) || (m = JS_CONST.exec(l)) || (m = JS_METHOD.exec(l))) name = m[1];
    if (!name || NOT_NAMES.has(name)) continue;
    out.push({ line: i, indent, name, type, head: t.length > 200 ? t.slice(0, 200) : t });
  }
  return out;
}

/** The declarations enclosing a line: the last head at or before it, and the last type head less indented than that. */
export function enclosing(decls: readonly Decl[], line: number): Decl[] {
  let k = -1;
  for (let lo = 0, hi = decls.length - 1; lo <= hi;) {
    const mid = (lo + hi) >> 1;
    if (decls[mid].line <= line) { k = mid; lo = mid + 1; } else hi = mid - 1;
  }
  if (k < 0) return [];
  const out = [decls[k]];
  for (let j = k - 1; j >= 0; j--) if (decls[j].type && decls[j].indent < decls[k].indent) { out.unshift(decls[j]); break; }
  return out;
}

/** One file's part of a `--unified=0 --full-index` patch: its path, the new blob and the new-side line of each hunk. */
export interface FileHunks { path: string; oid: string | null; starts: number[] }

export function patchHunks(patch: string): FileHunks[] {
  const out: FileHunks[] = [];
  let cur: FileHunks | null = null;
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) {
      cur = { path: '', oid: null, starts: [] };
      out.push(cur);
    } else if (!cur) continue;
    else if (line.startsWith('index ')) {
      const b = /\.\.([0-9a-f]{40,64})/.exec(line);
      cur.oid = b && !/^0+$/.test(b[1]) ? b[1] : null;
    } else if (line.startsWith('+++ ')) cur.path = line.startsWith('+++ b/') ? line.slice(6) : '';
    else if (line.startsWith('@@ ')) {
      const h = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
      // A pure removal's new-side line is the one before the gap (0: at the top).
      if (h) cur.starts.push(Math.max(0, Number(h[1]) - (h[2] === '0' ? 0 : 1)));
    }
  }
  return out.filter((f) => f.path && f.oid && f.starts.length);
}

/** A commit's code side: each changed file's path, then the heads of the declarations its hunks fall in (distinct, at most `max`). */
export function changedNames(files: readonly FileHunks[], texts: ReadonlyMap<string, string>, max: number): string | null {
  const parts: string[] = [];
  const seen = new Set<string>();
  let heads = 0;
  for (const f of files) {
    const text = texts.get(f.oid!);
    if (text === undefined) continue;
    const decls = outline(text, extOf(f.path));
    const mine: string[] = [];
    for (const s of f.starts) {
      for (const d of enclosing(decls, s)) {
        const key = `${f.path}\n${d.line}`;
        if (seen.has(key) || heads >= max) continue;
        seen.add(key);
        mine.push(d.head);
        heads++;
      }
    }
    if (mine.length) parts.push(f.path, ...mine);
  }
  return heads ? parts.join('\n') : null;
}

/** A markdown file's sections: the heading (with its parents') and the body lines up to the next heading. */
export function sections(text: string): Array<{ heading: string; body: string }> {
  const out: Array<{ heading: string; body: string }> = [];
  const trail: string[] = [];
  let body: string[] = [];
  let heading = '';
  let fenced = false;
  const flush = () => {
    if (body.some((l) => l.trim())) out.push({ heading, body: body.join('\n') });
    body = [];
  };
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const h = !fenced && /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      flush();
      trail.length = h[1].length - 1;
      trail[h[1].length - 1] = h[2];
      heading = trail.filter(Boolean).join(' / ');
    } else body.push(line);
  }
  flush();
  return out;
}

/** The identifiers a section's code spans name (`Foo.Bar()`, `<MudButton>`, `useThing`), in order. */
export function spanNames(body: string): string[] {
  const names: string[] = [];
  const noFences = body.replace(/^\s*(```|~~~)[\s\S]*?^\s*\1.*$/gm, ' ');
  for (const m of noFences.matchAll(/`([^`\n]{2,80})`/g)) for (const id of m[1].match(/[A-Za-z_$][\w$]{3,}/g) ?? []) names.push(id);
  return names;
}

/** A section's prose as a query would say it: code blocks, code spans, links' targets, HTML and markup taken out. */
export function prose(heading: string, body: string): string {
  const t = body
    .replace(/^\s*(```|~~~)[\s\S]*?^\s*\1.*$/gm, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[|*_>#=-]{2,}/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `${heading.replace(/`/g, '')} ${t}`.trim();
}

export interface NamePairs {
  repo: string;
  commit: string;
  /** [commit subject, changed files' paths and enclosing declaration heads]. */
  commitNamePairs: Array<[string, string]>;
  /** [section heading and prose, the code of the declarations its code spans name]. */
  sectionPairs: Array<[string, string]>;
}

export function namePairsOf(dir: string, repo: string, commit: string, scope: 'all' | 'code', p: NamesParams = NAMES_PARAMS): NamePairs {
  const dec = new TextDecoder('utf-8');
  const norm = (b: Buffer | null) => (b ? dec.decode(b).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n') : null);
  // (a) commits.
  const picked = pickCommits(dir, commit, { max: p.commits, maxFiles: p.commitMaxFiles, maxBlobBytes: p.commitMaxBlobBytes, pathspecs: PATHSPECS });
  const patches = commitPatches(dir, picked.map((c) => c.hash), PATHSPECS);
  const hunks = new Map(picked.map((c) => [c.hash, patchHunks(patches.get(c.hash) ?? '')]));
  const oids = [...new Set([...hunks.values()].flatMap((fs) => fs.map((f) => f.oid!)))];
  const texts = new Map<string, string>();
  readBlobs(dir, oids).forEach((b, i) => {
    const t = norm(b);
    if (t !== null && !t.includes('\0')) texts.set(oids[i], t);
  });
  const commitNamePairs: Array<[string, string]> = [];
  for (const c of picked) {
    const subject = cleanSubject(c.subject);
    const names = subject && changedNames(hunks.get(c.hash)!, texts, p.maxDecls);
    if (subject && names) commitNamePairs.push([subject, names]);
  }
  // (b) docs sections ↔ the declarations they name, over extract.ts's sample of the tree.
  const files = sampleFiles(repo, listTree(dir, commit), scope, EXTRACT_PARAMS);
  const blobs = readBlobs(dir, files.map((f) => f.oid));
  const declared = new Map<string, string[]>();
  const docs: string[] = [];
  files.forEach((f, i) => {
    const text = norm(blobs[i]);
    if (text === null || text.includes('\0')) return;
    const ext = extOf(f.path);
    if (ext === '.md' || ext === '.mdx') docs.push(text);
    if (!OUTLINE_EXT.has(ext)) return;
    const lines = text.split('\n');
    for (const d of outline(text, ext)) {
      const code = `${f.path}\n${lines.slice(d.line, d.line + p.declLines).join('\n')}`;
      (declared.get(d.name) ?? declared.set(d.name, []).get(d.name)!).push(code);
    }
  });
  const sectionPairs: Array<[string, string]> = [];
  for (const doc of docs) {
    for (const s of sections(doc)) {
      const q = prose(s.heading, s.body);
      if ((q.match(/[A-Za-z]{2,}/g)?.length ?? 0) < p.minWords) continue;
      const code: string[] = [];
      const used = new Set<string>();
      for (const name of spanNames(s.body)) {
        const at = declared.get(name);
        if (!at || at.length > p.maxDeclsPerName || used.has(name) || code.length >= p.sectionDecls) continue;
        used.add(name);
        code.push(at[0]);
      }
      if (code.length) sectionPairs.push([q, code.join('\n')]);
    }
  }
  return { repo, commit, commitNamePairs, sectionPairs };
}

/** This stage's cache: work/names/<owner>+<name>@<commit>-<key>.json.gz, written once. */
export function ensureNamePairs(work: string, r: { repo: string; commit: string; scope?: 'all' | 'code' }, dir: string, log: (s: string) => void): string {
  const key = sha256Hex(new TextEncoder().encode(JSON.stringify({ v: NAMES_VERSION, p: NAMES_PARAMS, x: EXTRACT_PARAMS, scope: r.scope ?? 'all' })), 12);
  const file = path.join(work, 'names', `${r.repo.replace('/', '+')}@${r.commit.slice(0, 12)}-${key}.json.gz`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const c0 = process.cpuUsage();
  const x = namePairsOf(dir, r.repo, r.commit, r.scope ?? 'all');
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, zlib.gzipSync(JSON.stringify(x)));
  fs.renameSync(tmp, file);
  const cpu = process.cpuUsage(c0);
  log(`names ${r.repo}: ${x.commitNamePairs.length} commit-name pairs, ${x.sectionPairs.length} section pairs (${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU)`);
  return file;
}

export function readNamePairs(file: string): NamePairs {
  return JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8')) as NamePairs;
}
