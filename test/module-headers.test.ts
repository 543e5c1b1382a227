// Module headers, and the comments that send a reader to a document, stay true where a machine can
// tell: every module of core/ and runtimes/ opens with its header comment; every module a header names
// (`searcher.ts`, `core/service/verbs.ts`) exists; and every document a comment cites by section
// (`docs/runtimes.md, "MCP under Deno"`, `the README, "Library"`) exists and has that heading — the
// README split left two Deno headers sending readers to a README section that had moved to
// docs/runtimes.md. Whether a header's words about what its module owns are still right is for
// review, not for this test.
// @lane unit
import { describe, it, expect } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const repoDir = path.resolve(import.meta.dirname, '..');

function files(dir: string, keep: (f: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) return [];
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p, keep) : keep(p) ? [p] : [];
  });
}

/** The comment lines a module opens with. */
export function headerOf(src: string): string {
  const out: string[] = [];
  for (const line of src.split('\n')) {
    if (!line.startsWith('//')) break;
    out.push(line);
  }
  return out.join('\n');
}

/** Every comment's text: `// …` to the end of a line (not `://` in a URL) and `/* … *\/` blocks. */
export function commentsOf(src: string): string {
  const blocks = [...src.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => m[0]);
  const lines = [...src.matchAll(/(?:^|[^:'"`\\])\/\/(.*)$/gm)].map((m) => m[1]);
  return [...blocks, ...lines].join('\n');
}

/** The module paths a header names (`x.ts`, `core/search/x.ts`); not absolute paths or URLs (`/runtimes/…`, `hci/…` examples). */
export function modulesNamed(header: string): string[] {
  return [...header.matchAll(/(?<![\w/.@-])((?:[\w-]+\/)*[\w.-]+\.ts)\b/g)].map((m) => m[1]).filter((p) => !p.startsWith('hci/'));
}

/** The documents a comment cites by a quoted section: [document, heading]. */
export function sectionsCited(comments: string): Array<[string, string]> {
  const doc = /(the README|README\.md|ARCHITECTURE\.md|(?:bench\/)?README\.md|docs\/[\w-]+\.md)(?:'s)?,?\s*\(?\s*"([^"\n]+)"/g;
  return [...comments.matchAll(doc)].map((m) => [m[1] === 'the README' ? 'README.md' : m[1], m[2]]);
}

/** The headings of a Markdown document, without their `#`s. */
function headings(doc: string): Set<string> {
  return new Set([...readFileSync(path.join(repoDir, doc), 'utf8').matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1]));
}

const sources = [...files(path.join(repoDir, 'core'), (f) => f.endsWith('.ts')), ...files(path.join(repoDir, 'runtimes'), (f) => f.endsWith('.ts'))].filter(
  (f) => !f.endsWith('.d.ts'),
);
const everyTs = files(repoDir, (f) => f.endsWith('.ts') || f.endsWith('.tsx')).map((f) => path.relative(repoDir, f));

/** Whether a module a header names in `from` exists: beside it, from the repository root, or as the end of a repository path. */
function exists(from: string, named: string): boolean {
  if (existsSync(path.resolve(path.dirname(from), named)) || existsSync(path.join(repoDir, named))) return true;
  return everyTs.some((f) => f === named || f.endsWith(`/${named}`));
}

describe('module headers', () => {
  it('every module of core/ and runtimes/ opens with a header; the modules headers name exist; cited doc sections exist', () => {
    expect(sources.length).toBeGreaterThan(200);
    const noHeader: string[] = [];
    const missing: string[] = [];
    const sections: string[] = [];
    let cited = 0;
    for (const f of sources) {
      const src = readFileSync(f, 'utf8');
      const rel = path.relative(repoDir, f);
      const header = headerOf(src);
      if (!header) noHeader.push(rel);
      for (const m of modulesNamed(header)) if (!exists(f, m)) missing.push(`${rel} names ${m}`);
      for (const [doc, heading] of sectionsCited(commentsOf(src))) {
        cited++;
        if (!existsSync(path.join(repoDir, doc)) || !headings(doc).has(heading)) sections.push(`${rel} cites ${doc}, "${heading}"`);
      }
    }
    expect(noHeader).toEqual([]);
    expect(missing).toEqual([]);
    expect(sections).toEqual([]);
    expect(cited, 'some comments cite a document section (the check above is not empty)').toBeGreaterThan(0);
  });

  it('finds headers, named modules and cited sections (the checker itself works)', () => {
    const src = [
      '// What this owns; the rest is searcher.ts, core/service/verbs.ts and (see the README, "Deno and the browser").',
      '// Examples: deno run hci/runtimes/deno/cli.ts, https://example.com/runtimes/deno/mcp.ts',
      'import { x } from "./y.ts"; // a line comment citing docs/runtimes.md, "MCP under Deno"',
      'const url = "https://a.b/c"; /* block: ARCHITECTURE.md ("How to add a verb") */',
    ].join('\n');
    expect(headerOf(src).split('\n')).toHaveLength(2);
    expect(modulesNamed(headerOf(src))).toEqual(['searcher.ts', 'core/service/verbs.ts']);
    expect(sectionsCited(commentsOf(src))).toEqual([
      ['ARCHITECTURE.md', 'How to add a verb'],
      ['README.md', 'Deno and the browser'],
      ['docs/runtimes.md', 'MCP under Deno'],
    ]);
    expect(headings('README.md').has('Deno and the browser')).toBe(false);
    expect(headings('docs/runtimes.md').has('MCP under Deno')).toBe(true);
    expect(exists(path.join(repoDir, 'core/search/pipeline.ts'), 'searcher.ts')).toBe(true);
    expect(exists(path.join(repoDir, 'core/search/pipeline.ts'), 'worker-api-old.ts')).toBe(false);
  });
});
