// AXAML / XAML outlines: the root (view, application, styles, resources) keyed by its x:Class so
// the code-behind pairing finds it; top-level resources, styles, control themes, templates, named
// elements and big layout subtrees as nodes with their element path as context; heuristic facts
// for search (x:Name, x:Key, binding paths, commands, classes, avares:// URIs, includes, data types).
import type { ChunkInput } from '../input.ts';
import type { FileOutline, OutlineNode } from '../outline.ts';
import { Facts, clip, squash, stem } from './lite.ts';
import { attr, elementPath, localName, parseXml, type XElement } from './xml-util.ts';

/** Elements spanning at least this many lines with child elements are layout subtrees. */
const LAYOUT_MIN_LINES = 6;
/**
 * Inside an element bigger than this (the chunk builder's small-container size), multi-line child
 * elements become nodes of their own, so the builder packs them instead of leaving anonymous gaps.
 */
const SPLIT_PARENT_LINES = 30;
/** Element paths deeper than this keep their root and their last segments only. */
const MAX_PATH_SEGMENTS = 7;

const ROOT_KINDS: Record<string, string> = {
  Application: 'application',
  Styles: 'styles',
  ResourceDictionary: 'resources',
};

const EVENTS = new Set([
  'Click', 'Tapped', 'DoubleTapped', 'Holding', 'PointerPressed', 'PointerReleased', 'PointerMoved', 'PointerEntered',
  'PointerExited', 'PointerWheelChanged', 'KeyDown', 'KeyUp', 'TextInput', 'Loaded', 'Unloaded', 'Initialized',
  'AttachedToVisualTree', 'DetachedFromVisualTree', 'SelectionChanged', 'TextChanged', 'Checked', 'Unchecked',
  'IsCheckedChanged', 'ValueChanged', 'Opened', 'Closed', 'Closing', 'Activated', 'Deactivated', 'GotFocus',
  'LostFocus', 'DataContextChanged', 'PropertyChanged', 'MouseDown', 'MouseUp', 'MouseDoubleClick',
  'MouseLeftButtonDown', 'MouseLeftButtonUp', 'PreviewKeyDown', 'PreviewMouseDown', 'SizeChanged',
  'ContextRequested', 'DropDownOpened', 'DropDownClosed', 'ScrollChanged', 'CellEditEnding', 'RowEditEnding',
]);

const BINDING_EXT = /^\{\s*(Binding|CompiledBinding|ReflectionBinding|x:Bind|TemplateBinding|MultiBinding)\b([\s\S]*)\}$/;
const RESOURCE_EXT = /^\{\s*(StaticResource|DynamicResource|ThemeResource)\s+([^{},\s]+)\s*\}$/;

/** Splits markup-extension arguments at top-level commas (nested braces and quotes respected). */
function splitArgs(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let cur = '';
  for (const ch of s) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '{') depth++;
    else if (ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** The path of a binding markup extension: `{Binding Path=A.B, Mode=TwoWay}` → `A.B`. */
export function bindingPath(value: string): { ext: string; path: string | null } | null {
  const m = BINDING_EXT.exec(value.trim());
  if (!m) return null;
  let path: string | null = null;
  for (const [i, arg] of splitArgs(m[2]).entries()) {
    const eq = arg.indexOf('=');
    const brace = arg.indexOf('{');
    if (eq > 0 && (brace < 0 || eq < brace)) {
      if (arg.slice(0, eq).trim() === 'Path') path = arg.slice(eq + 1).trim();
    } else if (i === 0) path = arg;
  }
  return { ext: m[1], path: path && path !== '.' ? path : null };
}

interface Ctx {
  xClass: string | undefined;
  /** xmlns prefix → CLR namespace (`vm` → `Contoso.Shop.Desktop.ViewModels`). */
  namespaces: Map<string, string>;
  /** Each element's own facts (elementFacts), once worked out. */
  factsOf: Map<XElement, string[]>;
}

function clrNamespaces(root: XElement): Map<string, string> {
  const map = new Map<string, string>();
  for (const a of root.attrs) {
    if (!a.name.startsWith('xmlns:')) continue;
    const m = /^(?:using:|clr-namespace:)([\w.]+)/.exec(a.value);
    if (m) map.set(a.name.slice(6), m[1]);
  }
  return map;
}

/** `vm:OrderDetailsViewModel` → `Contoso.Shop.Desktop.ViewModels.OrderDetailsViewModel` when the prefix is known. */
function resolveType(ctx: Ctx, type: string): string {
  const t = type.replace(/^\{x:Type\s+([^}]+)\}$/, '$1').trim();
  const i = t.indexOf(':');
  if (i < 0) return t;
  const ns = ctx.namespaces.get(t.slice(0, i));
  return ns ? `${ns}.${t.slice(i + 1)}` : t;
}

function stripTypeExt(v: string): string {
  return v.replace(/^\{x:Type\s+([^}]+)\}$/, '$1').trim();
}

/**
 * Facts one element contributes by its own attributes, in order (before Facts' cap and dedupe), worked
 * out once per element: every outline node above it asks again for its subtree's facts.
 */
function elementFacts(el: XElement, ctx: Ctx): readonly string[] {
  const known = ctx.factsOf.get(el);
  if (known) return known;
  const list: string[] = [];
  ctx.factsOf.set(el, list);
  // Facts.add ignores empty facts, so they need not be kept.
  const facts = { add: (f: string | null | undefined) => void (f && list.push(f)) };
  const local = localName(el.name);
  if ((local === 'Binding' || local === 'CompiledBinding') && attr(el, 'Path')) facts.add(`Binding=${attr(el, 'Path')}`);
  for (const a of el.attrs) {
    const name = a.name;
    const v = a.value.trim();
    // x:Class and the root's x:DataType are file context already.
    if (name === 'x:Class' || (el.parent === null && (name === 'x:DataType' || name === 'DataType'))) continue;
    if (name === 'x:Name' || name === 'Name') facts.add(`x:Name=${v}`);
    else if (name === 'x:Key') facts.add(`x:Key=${v}`);
    else if (name === 'x:DataType' || name === 'DataType') facts.add(`DataType=${resolveType(ctx, v)}`);
    else if (name === 'Classes') facts.add(`Classes=${squash(v)}`);
    else if (name === 'Source' && /Include$/.test(local)) facts.add(`${local}=${v}`);
    else if (name === 'Selector') facts.add(`Selector=${squash(v)}`);
    else if (name === 'TargetType') facts.add(`TargetType=${resolveType(ctx, v)}`);
    else if (EVENTS.has(name) && /^[A-Za-z_]\w*$/.test(v)) facts.add(`${name}=${v}`);
    if (v.startsWith('{')) {
      const b = bindingPath(v);
      if (b?.path) facts.add(/Command$/.test(name) ? `Command=${b.path}` : `${b.ext === 'CompiledBinding' || b.ext === 'TemplateBinding' ? b.ext : 'Binding'}=${b.path}`);
      const r = RESOURCE_EXT.exec(v);
      if (r) facts.add(`Resource=${r[2]}`);
    }
    if (v.includes('avares://') && !(name === 'Source' && /Include$/.test(local))) {
      for (const m of v.matchAll(/avares:\/\/[^\s"'{},;]+/g)) facts.add(m[0]);
    }
  }
  return list;
}

/** Facts of an element and everything under it, capped. */
function subtreeFacts(el: XElement, ctx: Ctx, max = 40): string[] | undefined {
  const facts = new Facts(max);
  const work = [el];
  while (work.length && !facts.full) {
    const e = work.pop()!;
    for (const f of elementFacts(e, ctx)) facts.add(f);
    for (let i = e.children.length - 1; i >= 0; i--) work.push(e.children[i]);
  }
  return facts.result();
}

function isPropertyElement(name: string): boolean {
  return localName(name).includes('.');
}

/** What an element is as an outline node (kind and name), or null when it is not one. */
/** `Button.accent Refresh`: the tag, its literal classes and a short literal label. */
function describe(el: XElement): string {
  let name = el.name;
  const classes = attr(el, 'Classes');
  if (classes && !classes.startsWith('{')) name += `.${squash(classes).split(' ').join('.')}`;
  for (const a of ['Header', 'Content', 'Title', 'Text']) {
    const v = attr(el, a);
    if (v && !v.startsWith('{') && v.length <= 40) return `${name} ${squash(v)}`;
  }
  return name;
}

function classify(el: XElement, parentIsRoot: boolean, parentIsBig: boolean, ctx: Ctx): { kind: string; name: string; memberKey?: string } | null {
  const tag = el.name;
  const local = localName(tag);
  const span = el.end - el.start + 1;
  const key = attr(el, 'x:Key');
  const xName = attr(el, 'x:Name') ?? attr(el, 'Name');
  const targetType = attr(el, 'TargetType');
  if (isPropertyElement(tag)) {
    const prop = local.slice(local.lastIndexOf('.') + 1);
    const kind = prop === 'Resources' ? 'resources' : prop === 'Styles' ? 'styles' : /Templates$/.test(prop) ? 'templates' : 'property';
    if (parentIsRoot || kind !== 'property' || (span >= LAYOUT_MIN_LINES && el.children.length > 0)) return { kind, name: tag };
    return null;
  }
  if (local === 'Style') {
    const sel = attr(el, 'Selector');
    const label = sel ? squash(sel) : key ?? (targetType ? stripTypeExt(targetType) : '');
    return { kind: 'style', name: clip(`Style ${label}`.trim()) };
  }
  if (local === 'ControlTheme') return { kind: 'theme', name: clip(`ControlTheme ${key ?? (targetType ? stripTypeExt(targetType) : '')}`.trim()) };
  if (/Template$/.test(local)) {
    const dt = attr(el, 'DataType') ?? attr(el, 'x:DataType');
    const label = dt ? stripTypeExt(dt) : key ?? (targetType ? stripTypeExt(targetType) : '');
    return { kind: 'template', name: clip(`${tag} ${label}`.trim()) };
  }
  if (/^(?:Style|Resource|MergeResource)Include$/.test(local)) {
    return { kind: 'include', name: clip(`${tag} ${attr(el, 'Source') ?? ''}`.trim()) };
  }
  if (local === 'ResourceDictionary') return { kind: 'resources', name: clip(`${tag} ${key ?? attr(el, 'Source') ?? ''}`.trim()) };
  if (key) return { kind: 'resource', name: clip(`${tag} ${key}`) };
  if (xName) return { kind: 'element', name: clip(`${tag} ${xName}`), ...(ctx.xClass ? { memberKey: `${ctx.xClass}.${xName}` } : {}) };
  const header = attr(el, 'Header');
  if (el.children.length > 0 && (span >= LAYOUT_MIN_LINES || (header && !header.startsWith('{')))) return { kind: 'layout', name: clip(describe(el)) };
  if (parentIsBig && span >= 2) return { kind: 'control', name: clip(describe(el)) };
  return null;
}

function pathOf(el: XElement): string {
  const parts = elementPath(el).split(' > ');
  if (parts.length <= MAX_PATH_SEGMENTS) return parts.join(' > ');
  return [parts[0], '…', ...parts.slice(parts.length - (MAX_PATH_SEGMENTS - 2))].join(' > ');
}

function collect(el: XElement, isRoot: boolean, ctx: Ctx): OutlineNode[] {
  const out: OutlineNode[] = [];
  const big = el.end - el.start + 1 > SPLIT_PARENT_LINES;
  for (const c of el.children) {
    const what = classify(c, isRoot, big, ctx);
    if (!what) {
      out.push(...collect(c, false, ctx));
      continue;
    }
    const children = collect(c, false, ctx);
    const facts = subtreeFacts(c, ctx);
    out.push({
      kind: what.kind,
      name: what.name,
      ...(what.memberKey ? { memberKey: what.memberKey } : {}),
      startLine: c.start,
      endLine: c.end,
      role: children.length ? 'container' : 'unit',
      ...(children.length ? { context: pathOf(c) } : {}),
      ...(facts ? { facts } : {}),
      children,
    });
  }
  return out;
}

function rootNode(root: XElement, path: string): { node: OutlineNode; fileContext: string[] } {
  const ctx: Ctx = { xClass: attr(root, 'x:Class')?.trim() || undefined, namespaces: clrNamespaces(root), factsOf: new Map() };
  const local = localName(root.name);
  const kind = ROOT_KINDS[local] ?? 'view';
  const name = ctx.xClass ? ctx.xClass.slice(ctx.xClass.lastIndexOf('.') + 1) : stem(path);
  const fileContext: string[] = [];
  if (ctx.xClass) fileContext.push(`x:Class=${ctx.xClass}`);
  const dataType = attr(root, 'x:DataType') ?? attr(root, 'DataType');
  if (dataType) fileContext.push(`x:DataType=${resolveType(ctx, dataType)}`);
  const children = collect(root, true, ctx);
  const facts = subtreeFacts(root, ctx);
  return {
    node: {
      kind,
      name,
      ...(ctx.xClass ? { memberKey: ctx.xClass } : {}),
      startLine: root.start,
      endLine: root.end,
      role: 'container',
      context: root.name,
      ...(facts ? { facts } : {}),
      children,
    },
    fileContext,
  };
}

export async function extractXaml(input: ChunkInput): Promise<FileOutline | null> {
  const doc = parseXml(input.text);
  if (!doc) return null;
  const nodes: OutlineNode[] = [];
  let fileContext: string[] = [];
  for (const [i, root] of doc.roots.entries()) {
    const r = rootNode(root, input.path);
    nodes.push(r.node);
    if (i === 0) fileContext = r.fileContext;
  }
  return { nodes, ...(fileContext.length ? { fileContext } : {}) };
}
