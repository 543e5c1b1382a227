// Markdown outlines with a line scanner (CommonMark block rules that matter for headings): one node
// per heading section — the heading and its body up to the next heading of the same or a higher
// level — nested h1 > h2 > h3, with the heading path as context and member key. Front matter and
// text before the first heading are nodes of their own. Fenced code (``` and ~~~, any length),
// indented code and HTML comments never yield headings, so `# comment` in a shell block is safe.
//
// Why a scanner rather than the markdown grammar: heading structure is line-local once fences,
// front matter and comments are tracked; the scanner is linear with no WASM round trips, and it
// tolerates MDX, templating and front matter that the block grammar reports as errors.
import type { ChunkInput } from '../input.ts';
import type { FileOutline, OutlineNode } from '../outline.ts';
import { lastContentLine } from './lite.ts';

interface Heading {
  level: number;
  text: string;
  /** 1-based line where the section starts (the text line of a setext heading). */
  line: number;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const NOT_PARAGRAPH = /^ {0,3}(?:[-+*>|]|\d{1,9}[.)]|#|`{3}|~{3}|<)|^ {4}|^\s*$/;

/** Heading text without inline markup: `**Bold** \`code\` [link](url)` → `Bold code link`. */
export function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(\*\*|__|\*|_|~~)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/** GitHub-style anchor of a heading: `Ordering flow` → `ordering-flow`. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

function frontMatterEnd(lines: readonly string[]): number {
  const first = lines[0]?.trim();
  if (first !== '---' && first !== '+++') return 0;
  for (let i = 1; i < lines.length; i++) {
    const t = lines[i].trim();
    if (t === first || (first === '---' && t === '...')) return i + 1;
  }
  return 0;
}

export function scanHeadings(lines: readonly string[], from: number): Heading[] {
  const out: Heading[] = [];
  let fence: { ch: string; len: number } | null = null;
  let comment = false;
  let prevParagraph = false;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i];
    if (fence) {
      const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
      if (m && m[1][0] === fence.ch && m[1].length >= fence.len) fence = null;
      prevParagraph = false;
      continue;
    }
    if (comment) {
      if (line.includes('-->')) comment = false;
      prevParagraph = false;
      continue;
    }
    const f = FENCE_OPEN.exec(line);
    if (f && !(f[1][0] === '`' && f[2].includes('`'))) {
      fence = { ch: f[1][0], len: f[1].length };
      prevParagraph = false;
      continue;
    }
    if (/^ {0,3}<!--/.test(line) && !line.includes('-->')) {
      comment = true;
      prevParagraph = false;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      out.push({ level: atx[1].length, text: headingText(atx[2] ?? ''), line: i + 1 });
      prevParagraph = false;
      continue;
    }
    const s = SETEXT.exec(line);
    if (s && prevParagraph) {
      out.push({ level: s[1][0] === '=' ? 1 : 2, text: headingText(lines[i - 1]), line: i });
      prevParagraph = false;
      continue;
    }
    prevParagraph = !NOT_PARAGRAPH.test(line);
  }
  return out;
}

export async function extractMarkdown(input: ChunkInput): Promise<FileOutline | null> {
  const lines = input.lines;
  const nodes: OutlineNode[] = [];
  const fm = frontMatterEnd(lines);
  if (fm) nodes.push({ kind: 'frontmatter', name: 'front matter', startLine: 1, endLine: fm, role: 'unit', children: [] });
  const headings = scanHeadings(lines, fm);
  const firstHeading = headings.length ? headings[0].line : lines.length + 1;
  if (firstHeading - 1 > fm) {
    const end = lastContentLine(lines, firstHeading - 1, fm);
    if (end > fm && lines.slice(fm, end).some((l) => l.trim() !== '')) {
      let start = fm + 1;
      while (lines[start - 1].trim() === '') start++;
      nodes.push({ kind: 'preamble', name: '(preamble)', startLine: start, endLine: end, role: 'unit', children: [] });
    }
  }
  const stack: Array<{ node: OutlineNode; level: number; path: string }> = [];
  const keys = new Map<string, number>();
  for (let k = 0; k < headings.length; k++) {
    const h = headings[k];
    // The section runs to the next heading of the same or a higher level.
    let next = lines.length + 1;
    for (let j = k + 1; j < headings.length; j++) {
      if (headings[j].level <= h.level) {
        next = headings[j].line;
        break;
      }
    }
    while (stack.length && stack[stack.length - 1].level >= h.level) stack.pop();
    const parent = stack[stack.length - 1];
    const name = h.text || `(h${h.level})`;
    const path = parent ? `${parent.path} > ${name}` : name;
    const seen = (keys.get(path) ?? 0) + 1;
    keys.set(path, seen);
    const node: OutlineNode = {
      kind: 'section',
      name,
      memberKey: seen > 1 ? `${path} #${seen}` : path,
      startLine: h.line,
      // Up to the next heading, blank lines included: a container's intro then starts right where
      // its own range does, so the builder gives that intro the section as its symbol.
      endLine: Math.max(h.line, next - 1),
      role: 'unit',
      ...(h.text ? { facts: [`#${slug(h.text)}`] } : {}),
      children: [],
    };
    if (parent) {
      parent.node.children.push(node);
      parent.node.role = 'container';
      parent.node.context = parent.path;
    } else nodes.push(node);
    stack.push({ node, level: h.level, path });
  }
  return nodes.length ? { nodes } : null;
}
