// Razor / Blazor outline extractor (.razor, .cshtml). The block splitter (razor-blocks.ts) finds
// directives, markup and `@code`/`@functions` blocks; each code block is parsed with the C# grammar
// inside a wrapper class and its members keyed under the component; each markup region is parsed
// with the HTML grammar for its top-level elements and search facts (components used, event
// handlers, bindings, form models).
//
// Outline shape:
//   page | component | view  (root container; name = file name without extension, memberKey = component key)
//     directives  (unit; facts: routes, injected services, usings, …; children: `inject` nodes keyed `<Key>.Name`)
//     markup      (container; children: top-level `element`s, elements over 100 lines split into theirs;
//                  facts per element: `components: …`, `handlers: …`, `bindings: …`, `form: …`)
//     code        (container `@code` / `@functions`; children: C# members keyed `<Key>.Member(…)`, nested types `<Key>+Type`)
//
// Component key: `@namespace` + class name when the file says so; else the namespace of the paired
// code-behind when the caller passes it (`options.codeBehind`); else the namespace Blazor derives from
// the folders below the project folder (the nearest dotted folder name such as `Contoso.Shop.Web`, or
// the folder above `Components`/`Pages`/`Shared`/…); else just the class name. MVC views and Razor
// Pages (.cshtml) are keyed by their generated class: `AspNetCoreGeneratedDocument.Views_Home_Index`.
// A generic component (`@typeparam TItem`) is keyed `Ns.Grid<TItem>`, like its generic partial class.
import type { Node } from 'web-tree-sitter';
import type { ChunkInput } from '../input.ts';
import type { FileOutline, OutlineNode } from '../outline.ts';
import { ParseOverBudget, type TreeSitterHost } from '../treesitter.ts';
import { CSharpWalker, clipOutline, rollUpFacts } from './csharp.ts';
import { blank, parseCSharp } from './csharp-repair.ts';
import { normalizeSpelling } from './csharp-keys.ts';
import { splitRazor, type RazorCodeBlock, type RazorDirective, type RazorRegion } from './razor-blocks.ts';

export interface RazorExtractOptions {
  /** Text of the paired code-behind (`X.razor.cs`): its namespace decides the component key. */
  codeBehind?: string;
}

/** Elements longer than this are split into their child elements. */
const ELEMENT_UNIT_MAX_LINES = 100;
const WRAPPER_CLASS = '__RazorCode';
const MAX_LIST = 12;
const MAX_VALUE_CHARS = 60;
const PROJECT_SUBFOLDERS = new Set(['Components', 'Pages', 'Shared', 'Layout', 'Views', 'Areas', 'Features', 'Client', 'Server']);

/** `Checkout.razor` → `Checkout`; `_Imports.razor` → `_Imports`. */
export function razorClassName(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.(?:razor|cshtml)$/i, '');
  const name = base.replace(/[^\w]/g, '_');
  return /^\d/.test(name) ? `_${name}` : name || '_';
}

/** Index of the project folder among a path's folders (see the header comment); -1 when unknown. */
function projectRoot(dirs: readonly string[]): number {
  for (let i = dirs.length - 1; i >= 0; i--) if (/^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/.test(dirs[i])) return i;
  const k = dirs.findIndex((d) => PROJECT_SUBFOLDERS.has(d));
  return k > 0 ? k - 1 : -1;
}

const identifierSegment = (d: string) => d.replace(/[^\w]/g, '_').replace(/^(\d)/, '_$1');

/** The namespace Blazor derives from the folders (see the header comment); null when unknown. */
export function folderNamespace(path: string): string | null {
  const dirs = path.split('/').slice(0, -1);
  const root = projectRoot(dirs);
  if (root < 0) return null;
  return [dirs[root].replace(/[^\w.]/g, '_'), ...dirs.slice(root + 1).map(identifierSegment)].join('.');
}

/** The first `namespace X` (block or file-scoped) of a C# text. */
export function csharpNamespaceOf(text: string): string | null {
  return /^\s*namespace\s+([A-Za-z_][\w.]*)/m.exec(text)?.[1] ?? null;
}

/** The component (or generated view) class key of a Razor file; see the header comment. */
export function razorComponentKey(path: string, directives: readonly RazorDirective[], codeBehind?: string): string {
  const name = razorClassName(path);
  if (/\.cshtml$/i.test(path)) {
    const dirs = path.split('/').slice(0, -1);
    const root = projectRoot(dirs);
    return root < 0 ? name : `AspNetCoreGeneratedDocument.${[...dirs.slice(root + 1).map(identifierSegment), name].join('_')}`;
  }
  const declared = directives.find((d) => d.keyword === 'namespace')?.value.trim();
  const ns = declared || (codeBehind ? csharpNamespaceOf(codeBehind) : null) || folderNamespace(path);
  // A generic component is a generic class: `@typeparam TItem where TItem : class` → `Grid<TItem>`.
  const params = directives.filter((d) => d.keyword === 'typeparam').map((d) => /^[A-Za-z_]\w*/.exec(d.value)?.[0]).filter(Boolean);
  const type = params.length ? `${name}<${params.join(',')}>` : name;
  return ns ? `${ns}.${type}` : type;
}

/**
 * The route of a `@page` directive. Blazor routes are absolute; a Razor Page (.cshtml) with no template
 * or a relative one is routed by its path under `Pages/` (`Pages/Orders/Index.cshtml` + `"{id:int}"` →
 * `/Orders/{id:int}`).
 */
export function pageRoute(path: string, value: string): string {
  const template = unquote(value);
  if (template.startsWith('/') || !/\.cshtml$/i.test(path)) return template;
  const segs = path.split('/');
  const pages = segs.lastIndexOf('Pages');
  const rest = segs.slice(pages + 1);
  const name = (rest.pop() ?? '').replace(/\.cshtml$/i, '');
  if (name !== 'Index') rest.push(name);
  const base = `/${rest.join('/')}`;
  return template ? `${base.replace(/\/$/, '')}/${template}` : base;
}

function directiveFacts(path: string, list: readonly RazorDirective[]): string[] {
  const facts: string[] = [];
  const usings: string[] = [];
  for (const d of list) {
    const v = d.value;
    switch (d.keyword) {
      case 'page':
        facts.push(`route ${pageRoute(path, v)}`);
        break;
      case 'inject': {
        const inj = parseInject(v);
        facts.push(inj ? `inject ${inj.type} ${inj.name}` : `inject ${v}`);
        break;
      }
      case 'using':
        usings.push(v);
        break;
      case 'inherits':
      case 'implements':
      case 'layout':
      case 'attribute':
      case 'typeparam':
      case 'rendermode':
      case 'namespace':
        facts.push(`${d.keyword} ${v}`);
        break;
    }
  }
  if (usings.length) facts.push(`usings: ${usings.join(', ')}`);
  return facts;
}

function unquote(v: string): string {
  const m = /^"(.*)"$/.exec(v.trim());
  return m ? m[1] : v.trim();
}

/** `IOptions<CheckoutOptions> CheckoutOptions` → type and property name. */
export function parseInject(value: string): { type: string; name: string } | null {
  const m = /^(.*\S)\s+([A-Za-z_]\w*)$/.exec(value.trim());
  return m ? { type: normalizeSpelling(m[1]), name: m[2] } : null;
}

// ---- markup ----

interface MarkupFacts {
  components: string[];
  handlers: string[];
  bindings: string[];
  forms: string[];
}

function emptyFacts(): MarkupFacts {
  return { components: [], handlers: [], bindings: [], forms: [] };
}

function addUnique(list: string[], v: string): void {
  if (list.length < MAX_LIST && !list.includes(v)) list.push(v);
}

function cleanValue(v: string): string {
  let s = v.trim();
  if (s.startsWith('@(') && s.endsWith(')')) s = s.slice(2, -1);
  else if (s.startsWith('@')) s = s.slice(1);
  s = s.replace(/\s+/g, ' ').trim();
  return s.length > MAX_VALUE_CHARS ? `${s.slice(0, MAX_VALUE_CHARS - 1)}…` : s;
}

function attributesOf(tag: Node): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = [];
  // A node's `type` is a call into the wasm: each is read once.
  for (const a of tag.namedChildren) {
    if (!a || a.type !== 'attribute') continue;
    let name = '';
    let value = '';
    for (const ch of a.namedChildren) {
      if (!ch) continue;
      const t = ch.type;
      if (t === 'attribute_name') name = ch.text;
      else if (t === 'quoted_attribute_value') value = ch.text.slice(1, -1);
      else if (t === 'attribute_value') value = ch.text;
    }
    if (name) out.push({ name, value });
  }
  return out;
}

/** `List<Order>` or `GetValues<OrderStatus>()` in Razor code reads as a tag to the HTML grammar. */
function isGenericArgument(tag: Node, src: string): boolean {
  return tag.startIndex > 0 && /[\w.?]/.test(src[tag.startIndex - 1]);
}

function tagFacts(tag: Node, acc: MarkupFacts): void {
  const tagName = tag.namedChildren.find((x) => x && x.type === 'tag_name')?.text ?? '';
  const component = /^[A-Z][\w.]*$/.test(tagName);
  if (component) addUnique(acc.components, tagName);
  const attrs = attributesOf(tag);
  for (const { name, value } of attrs) {
    if (/^@on\w+$/.test(name) || /^@bind(?:-\w+)?:after$/.test(name) || (component && /^On[A-Z]\w*$/.test(name))) {
      addUnique(acc.handlers, `${name}=${cleanValue(value)}`);
    } else if (/^@bind(?:-\w+)?$/.test(name) || name === 'asp-for') {
      addUnique(acc.bindings, `${name}=${cleanValue(value)}`);
    }
  }
  if (tagName === 'EditForm' || (tagName === 'form' && attrs.some((a) => /^(?:@onsubmit|asp-action|asp-page-handler|asp-page|action)$/.test(a.name)))) {
    const parts = attrs.filter((a) => /^(?:Model|EditContext|On\w*Submit|FormName|@onsubmit|asp-action|asp-controller|asp-page|asp-page-handler|action|method)$/.test(a.name));
    addUnique(acc.forms, [tagName, ...parts.map((a) => `${a.name}=${cleanValue(a.value)}`)].join(' '));
  }
}

/** Facts of every tag in a subtree (iterative: markup can nest deeply; each node's type is read once, a wasm call). */
function subtreeFacts(root: Node, src: string, acc: MarkupFacts): MarkupFacts {
  const stack: Node[] = [root];
  const types: string[] = [root.type];
  while (stack.length) {
    const n = stack.pop()!;
    if (isTag(types.pop()!)) {
      if (!isGenericArgument(n, src)) tagFacts(n, acc);
      continue;
    }
    const kids = n.namedChildren;
    for (let i = kids.length - 1; i >= 0; i--) {
      const k = kids[i];
      if (!k) continue;
      const kt = k.type;
      if (kt !== 'text' && kt !== 'attribute_value') {
        stack.push(k);
        types.push(kt);
      }
    }
  }
  return acc;
}

function factLines(f: MarkupFacts): string[] {
  const out: string[] = [];
  if (f.components.length) out.push(`components: ${f.components.join(', ')}`);
  if (f.handlers.length) out.push(`handlers: ${f.handlers.join(', ')}`);
  if (f.bindings.length) out.push(`bindings: ${f.bindings.join(', ')}`);
  for (const form of f.forms) out.push(`form: ${form}`);
  return out;
}

function isTag(type: string): boolean {
  return type === 'start_tag' || type === 'self_closing_tag';
}

const ELEMENT_TYPES = new Set(['element', 'script_element', 'style_element']);

function* childElements(n: Node): Generator<Node> {
  for (const c of n.namedChildren) {
    if (!c) continue;
    const t = c.type;
    if (ELEMENT_TYPES.has(t)) yield c;
    else if (t === 'ERROR') yield* childElements(c);
  }
}

function elementName(el: Node): string {
  const tag = el.namedChildren.find((x) => x && isTag(x.type)) ?? null;
  const tagName = tag?.namedChildren.find((x) => x && x.type === 'tag_name')?.text ?? el.type.replace(/_element$/, '');
  if (!tag || /^[A-Z]/.test(tagName)) return tagName;
  const attrs = attributesOf(tag);
  const id = attrs.find((a) => a.name === 'id')?.value;
  if (id && /^[\w-]+$/.test(id)) return `${tagName}#${id}`;
  const cls = attrs.find((a) => a.name === 'class')?.value.trim().split(/\s+/)[0];
  return cls && /^[\w-]+$/.test(cls) ? `${tagName}.${cls}` : tagName;
}

function elementNode(el: Node, src: string, lineBase: number, first: number, last: number): OutlineNode {
  const clip = (l: number) => Math.max(first, Math.min(last, l));
  const e = el.endPosition;
  const endRow = e.column === 0 && e.row > el.startPosition.row ? e.row - 1 : e.row;
  const node: OutlineNode = {
    kind: 'element',
    name: elementName(el),
    startLine: clip(el.startPosition.row + 1 + lineBase),
    endLine: clip(endRow + 1 + lineBase),
    role: 'unit',
    children: [],
  };
  let facts: string[];
  const kids = node.endLine - node.startLine + 1 > ELEMENT_UNIT_MAX_LINES ? [...childElements(el)] : [];
  if (kids.length) {
    // A container's own facts go to the first chunk it is cut into: only its own tag's, then.
    node.role = 'container';
    node.children = kids.map((k) => elementNode(k, src, lineBase, node.startLine, node.endLine));
    const acc = emptyFacts();
    const tag = el.namedChildren.find((x) => x && isTag(x.type));
    if (tag && !isGenericArgument(tag, src)) tagFacts(tag, acc);
    facts = factLines(acc);
  } else {
    facts = factLines(subtreeFacts(el, src, emptyFacts()));
  }
  if (facts.length) node.facts = facts;
  return node;
}

async function markupNode(region: RazorRegion, lines: readonly string[], ts: TreeSitterHost): Promise<OutlineNode> {
  const node: OutlineNode = { kind: 'markup', name: 'markup', startLine: region.startLine, endLine: region.endLine, role: 'unit', children: [] };
  const src = lines.slice(region.startLine - 1, region.endLine).join('\n');
  let tree;
  try {
    tree = await ts.parse('html', src);
  } catch (e) {
    if (e instanceof ParseOverBudget) throw e; // counted as a parse fallback, like any parse past its budget
    return node; // no HTML grammar in this runtime: the region stays one unit without facts
  }
  try {
    const base = region.startLine - 1;
    const kids = [...childElements(tree.rootNode)];
    node.children = kids.map((k) => elementNode(k, src, base, region.startLine, region.endLine));
    if (node.children.length) {
      node.role = 'container'; // its facts are its elements' (rolled up when the region is one chunk)
    } else {
      const facts = factLines(subtreeFacts(tree.rootNode, src, emptyFacts()));
      if (facts.length) node.facts = facts;
    }
  } finally {
    tree.delete();
  }
  return node;
}

// ---- code blocks ----

const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/**
 * C# with each Razor template expression (`@<MudText Typo="@Typo.h6">Hi</MudText>`, `@<br/>`) turned
 * into `0` and spaces, line breaks kept: an expression the C# grammar parses, at the same offsets.
 */
export function blankRazorTemplates(code: string): string {
  let out = code;
  for (let at = code.indexOf('@<'), from = 0; at >= 0; at = code.indexOf('@<', from)) {
    const end = templateEnd(code, at + 1);
    if (end < 0) break;
    out = out.slice(0, at) + '0' + blank(code.slice(at + 1, end)) + out.slice(end);
    from = end;
  }
  return out;
}

/** Where the markup element starting at `<` (offset i) ends, nested elements included; -1 if it does not. */
function templateEnd(s: string, i: number): number {
  let depth = 0;
  while (i < s.length) {
    if (s[i] !== '<') {
      i++;
      continue;
    }
    let j = i + 1;
    for (let quote = ''; j < s.length; j++) {
      const c = s[j];
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '>') break;
    }
    if (j >= s.length) return -1;
    const name = /^\/?([\w.:-]*)/.exec(s.slice(i + 1, j))![1].toLowerCase();
    if (s[i + 1] === '/') depth--;
    else if (s[j - 1] !== '/' && !VOID_ELEMENTS.has(name)) depth++;
    i = j + 1;
    if (depth <= 0) return i;
  }
  return -1;
}

/** A code block's outline node, and the places its C# needed repair (csharp-repair.ts). */
async function codeNode(block: RazorCodeBlock, text: string, key: string, className: string, ts: TreeSitterHost): Promise<{ node: OutlineNode; errors: number }> {
  const node: OutlineNode = {
    kind: 'code',
    name: `@${block.keyword}`,
    startLine: block.startLine,
    endLine: block.endLine,
    role: 'container',
    context: `@${block.keyword}`,
    children: [],
  };
  // Row 0 of the wrapper is the line of the opening brace, so rows shift by openLine - 1.
  const wrapped = `class ${WRAPPER_CLASS} {${text.slice(block.bodyStart, block.bodyEnd)}\n}`;
  // Razor templates (`@<b>…</b>`) are not C#: the parse sees `0` and blanks there (same offsets), the walker the block as written.
  const { tree, errors } = await parseCSharp(ts, blankRazorTemplates(wrapped)); // a failure here falls the file back to line windows
  try {
    const walker = new CSharpWalker(wrapped, { lineBase: block.openLine - 1, firstLine: block.startLine, lastLine: block.endLine, transparentType: WRAPPER_CLASS });
    node.children = clipOutline(walker.walkMembers(tree.rootNode, key, className), block.startLine, block.endLine);
  } finally {
    tree.delete();
  }
  return { node, errors };
}

/** Outline of a Razor file. `options.codeBehind` (the `.razor.cs` text) lets its namespace decide the key. */
export async function extractRazor(input: ChunkInput, ts: TreeSitterHost, options: RazorExtractOptions = {}): Promise<FileOutline | null> {
  const total = input.lines.length;
  if (total === 0) return null;
  const split = splitRazor(input.text);
  const className = razorClassName(input.path);
  const key = razorComponentKey(input.path, split.directives, options.codeBehind);
  const cshtml = /\.cshtml$/i.test(input.path);
  const routes = split.directives.filter((d) => d.keyword === 'page');
  const kind = routes.length ? 'page' : cshtml ? 'view' : 'component';

  const children: OutlineNode[] = [];
  let parseErrors = 0;
  for (const region of split.regions) {
    if (region.kind === 'directives') {
      const list = region.directives ?? [];
      const node: OutlineNode = { kind: 'directives', name: 'directives', startLine: region.startLine, endLine: region.endLine, role: 'unit', children: [] };
      for (const d of list) {
        if (d.keyword !== 'inject') continue;
        const inj = parseInject(d.value);
        if (inj) node.children.push({ kind: 'inject', name: inj.name, memberKey: `${key}.${inj.name}`, startLine: d.line, endLine: d.line, role: 'unit', children: [] });
      }
      const facts = directiveFacts(input.path, list);
      if (facts.length) node.facts = facts;
      children.push(node);
    } else if (region.kind === 'markup') {
      children.push(await markupNode(region, input.lines, ts));
    } else if (region.block) {
      const code = await codeNode(region.block, input.text, key, className, ts);
      children.push(code.node);
      parseErrors += code.errors;
    }
  }

  const root: OutlineNode = { kind, name: className, memberKey: key, startLine: 1, endLine: total, role: 'container', children };
  const nodes = clipOutline([root], 1, total);
  rollUpFacts(nodes);

  const fileContext: string[] = routes.slice(0, 3).map((r) => (r.value ? `@page ${r.value}` : `@page (${pageRoute(input.path, '')})`));
  fileContext.push(cshtml ? `${kind} ${className}` : `component ${key}`);
  const model = split.directives.find((d) => d.keyword === 'model');
  if (model) fileContext.push(`@model ${model.value}`);
  return parseErrors ? { nodes, fileContext, parseErrors } : { nodes, fileContext };
}
