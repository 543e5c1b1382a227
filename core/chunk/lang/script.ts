// JavaScript / TypeScript outlines (JSX and TSX too) through their grammars: functions and
// components, classes with their members (`Class.method` member keys), consts holding functions,
// wrapped functions (`memo(…)`, `forwardRef(…)`) or classes, exported consts, big top-level
// declarations, TS interfaces, type aliases, enums and namespaces, CommonJS/prototype assignments,
// object literals of functions (`module.exports = { get body() … }`, `export default { methods: … }`,
// `Foo.prototype = { … }`, `const api = { save() … }`: their methods, accessors and function-valued
// keys, one level of nested objects as containers), and describe/it/test blocks in test files.
// Leading comments (JSDoc) belong to the node they precede. Syntax the grammar does not know is
// repaired around (script-repair.ts) and counted in the outline's `parseErrors`.
import type { ChunkInput } from '../input.ts';
import type { FileOutline, OutlineNode } from '../outline.ts';
import type { GrammarName, TreeSitterHost } from '../treesitter.ts';
import { childByField, clip, firstLine, lastLine, squash, toLite, type LiteNode } from './lite.ts';
import { parseScript } from './script-repair.ts';

/** A top-level declaration that is neither exported nor a function/class is a node only when this big. */
const BIG_DECLARATION_LINES = 6;
const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const CLASS_VALUES = new Set(['class', 'class_expression']);
const TEST_CALLS = new Set(['describe', 'it', 'test', 'suite', 'context', 'beforeEach', 'afterEach', 'beforeAll', 'afterAll']);
const NO_DESCEND = new Set(['string', 'template_string', 'regex', 'comment']);

interface Scope {
  /** Member-key prefix (`NS.`), empty at top level. */
  prefix: string;
  src: string;
  /** What an object literal without a name of its own is called (`module.exports = {…}`, `export default {…}`): the file's stem. */
  owner: string;
}

function textOf(n: LiteNode | undefined, src: string): string {
  return n ? src.slice(n.startIndex, n.endIndex) : '';
}

function nameOf(n: LiteNode | undefined, src: string): string {
  if (!n) return '';
  if (n.type === 'string') return textOf(n, src).slice(1, -1);
  return squash(textOf(n, src));
}

/**
 * Where a node starts once the comments right above it (no blank line between) are included; a doc
 * comment (`/** … *\/`) right above may sit one blank line away (`/** Return the socket. *\/`, blank,
 * `get socket () {`, as many CommonJS libraries write it).
 */
function withLeadingComments(siblings: LiteNode[], index: number, src: string): number {
  let start = firstLine(siblings[index]);
  for (let i = index - 1; i >= 0; i--) {
    const c = siblings[i];
    if (c.type !== 'comment') break;
    const gap = i === index - 1 && src.startsWith('/**', c.startIndex) ? 2 : 1;
    if (lastLine(c) < start - gap) break;
    // A trailing comment on the previous statement's line is not a leading comment.
    if (i > 0 && siblings[i - 1].type !== 'comment' && lastLine(siblings[i - 1]) === firstLine(c)) break;
    start = firstLine(c);
  }
  return start;
}

function node(kind: string, name: string, key: string | undefined, start: number, end: number, children: OutlineNode[] = [], context?: string): OutlineNode {
  return {
    kind,
    name: clip(name),
    ...(key ? { memberKey: key } : {}),
    startLine: start,
    endLine: end,
    role: children.length ? 'container' : 'unit',
    ...(children.length && context ? { context } : {}),
    children,
  };
}

function classHeader(cls: LiteNode, src: string): string {
  const body = childByField(cls, 'body');
  const head = src.slice(cls.startIndex, body ? body.startIndex : cls.endIndex);
  return clip(squash(head.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '')), 200);
}

/** A method definition's kind and name: `constructor`, an accessor (`property`, named `get total`) or a `method`. */
function methodMember(m: LiteNode, src: string): { kind: string; name: string } {
  const name = keyName(childByField(m, 'name'), src);
  const accessor = m.children.find((c) => !c.named && (c.type === 'get' || c.type === 'set'));
  if (name === 'constructor') return { kind: 'constructor', name };
  return accessor ? { kind: 'property', name: `${accessor.type} ${name}` } : { kind: 'method', name };
}

function classMembers(cls: LiteNode, className: string, scope: Scope): OutlineNode[] {
  const body = childByField(cls, 'body');
  if (!body) return [];
  const out: OutlineNode[] = [];
  const members = body.children.filter((c) => c.named);
  for (let i = 0; i < members.length; i++) {
    const m = members[i];
    if (m.type === 'comment') continue;
    const start = withLeadingComments(members, i, scope.src);
    const end = lastLine(m);
    let kind = 'method';
    let name = '';
    switch (m.type) {
      case 'method_definition':
      case 'method_signature':
      case 'abstract_method_signature': {
        ({ kind, name } = methodMember(m, scope.src));
        break;
      }
      case 'field_definition':
      case 'public_field_definition': {
        name = nameOf(childByField(m, 'property') ?? childByField(m, 'name'), scope.src);
        const value = childByField(m, 'value');
        kind = value && FUNCTION_VALUES.has(value.type) ? 'method' : 'field';
        break;
      }
      case 'class_static_block':
        kind = 'static';
        name = 'static';
        break;
      case 'index_signature':
        kind = 'field';
        name = clip(squash(textOf(m, scope.src)), 60);
        break;
      default:
        continue;
    }
    const prev = out[out.length - 1];
    // TS overloads: signatures followed by the implementation are one member.
    if (prev && prev.name === name && prev.kind === kind && kind === 'method') {
      prev.endLine = end;
      continue;
    }
    out.push(node(kind, name, `${scope.prefix}${className}.${name}`, start, end));
  }
  return out;
}

function classNode(cls: LiteNode, name: string, start: number, end: number, scope: Scope): OutlineNode {
  const members = classMembers(cls, name, scope);
  return node('class', name, `${scope.prefix}${name}`, start, end, members, classHeader(cls, scope.src));
}

/** A key as written (`body`, `'content-type'`, `[Symbol.iterator]`). */
function keyName(k: LiteNode | undefined, src: string): string {
  if (!k) return '';
  if (k.type === 'computed_property_name') return clip(squash(textOf(k, src)), 60);
  return nameOf(k, src);
}

/**
 * The members of an object literal that are code: methods and accessors (`save() {}`, `get body()`,
 * `set body(v)`), keys holding a function (`onClick: () => …`), and — one level down, `depth` 0
 * only — keys holding an object that itself has such members (Vue's `methods: { … }`, `computed`).
 * Plain data keys are not nodes.
 */
function objectMembers(obj: LiteNode, ownerKey: string, scope: Scope, depth = 0): OutlineNode[] {
  const out: OutlineNode[] = [];
  const members = obj.children.filter((c) => c.named);
  for (let i = 0; i < members.length; i++) {
    const m = members[i];
    if (m.type === 'comment') continue;
    const start = withLeadingComments(members, i, scope.src);
    const end = lastLine(m);
    if (m.type === 'method_definition') {
      const { kind, name } = methodMember(m, scope.src);
      out.push(node(kind, name, `${ownerKey}.${name}`, start, end));
      continue;
    }
    if (m.type !== 'pair') continue;
    const name = keyName(childByField(m, 'key'), scope.src);
    const value = childByField(m, 'value');
    if (!name || !value) continue;
    if (FUNCTION_VALUES.has(value.type) || wrapsFunction(value)) out.push(node('method', name, `${ownerKey}.${name}`, start, end));
    else if (CLASS_VALUES.has(value.type)) out.push(classNode(value, name, start, end, { ...scope, prefix: `${ownerKey}.` }));
    else if (value.type === 'object' && depth === 0) {
      const inner = objectMembers(value, `${ownerKey}.${name}`, scope, depth + 1);
      if (inner.length) out.push(node('object', name, `${ownerKey}.${name}`, start, end, inner, name));
    }
  }
  return out;
}

/** An object literal of code as a container named `name`, or null when it holds no code. */
function objectNode(obj: LiteNode, name: string, start: number, end: number, scope: Scope): OutlineNode | null {
  const key = `${scope.prefix}${name}`;
  const members = objectMembers(obj, key, scope);
  return members.length ? node('object', name, key, start, end, members, name) : null;
}

/** The object literal at the end of `a = b = { … }` (CommonJS's `const proto = module.exports = {`). */
function assignedObject(value: LiteNode | undefined): LiteNode | undefined {
  let v = value;
  for (let i = 0; v && v.type === 'assignment_expression' && i < 3; i++) v = childByField(v, 'right');
  return v?.type === 'object' ? v : undefined;
}

/** describe('x', () => { … }) and friends: a node per call, nested calls as children. */
function testCall(stmt: LiteNode, scope: Scope, start: number): OutlineNode | null {
  const call = stmt.type === 'expression_statement' ? stmt.children.find((c) => c.type === 'call_expression') : undefined;
  if (!call) return null;
  let fn = childByField(call, 'function');
  // describe.each(...)(…), it.only(…), test.skip(…)
  while (fn && (fn.type === 'member_expression' || fn.type === 'call_expression')) fn = childByField(fn, 'object') ?? childByField(fn, 'function');
  const callee = fn?.type === 'identifier' ? nameOf(fn, scope.src) : '';
  if (!TEST_CALLS.has(callee)) return null;
  const args = childByField(call, 'arguments');
  const argList = args?.children.filter((c) => c.named) ?? [];
  const title = argList[0] && (argList[0].type === 'string' || argList[0].type === 'template_string') ? nameOf(argList[0], scope.src).replace(/^`|`$/g, '') : '';
  const cb = argList.find((a) => FUNCTION_VALUES.has(a.type));
  const body = cb ? childByField(cb, 'body') : undefined;
  const children: OutlineNode[] = [];
  if (body?.type === 'statement_block') {
    const stmts = body.children.filter((c) => c.named);
    for (let i = 0; i < stmts.length; i++) {
      const t = testCall(stmts[i], scope, withLeadingComments(stmts, i, scope.src));
      if (t) children.push(t);
    }
  }
  const name = title ? `${callee} ${title}` : callee;
  return node('test', name, undefined, start, lastLine(stmt), children, name);
}

/**
 * A call whose arguments hold a function, directly or through one more such call: a wrapped
 * component or callback (`memo(function Row …)`, `forwardRef((props, ref) => …)`,
 * `React.memo(forwardRef(…))`, `debounce(() => …, 100)`). The const it initialises is a function.
 */
function wrapsFunction(value: LiteNode, depth = 0): boolean {
  if (value.type !== 'call_expression' || depth > 1) return false;
  const args = childByField(value, 'arguments');
  return args?.children.some((a) => FUNCTION_VALUES.has(a.type) || wrapsFunction(a, depth + 1)) ?? false;
}

/** Nodes for the statements of a program, namespace or module body. */
function statements(stmts: LiteNode[], scope: Scope, inExport = false): OutlineNode[] {
  const out: OutlineNode[] = [];
  const named = stmts.filter((c) => c.named);
  for (let i = 0; i < named.length; i++) {
    const s = named[i];
    if (s.type === 'comment') continue;
    const start = withLeadingComments(named, i, scope.src);
    const end = lastLine(s);
    const got = declaration(s, scope, start, end, inExport);
    const prev = out[out.length - 1];
    for (const n of got) {
      // TS overloads: `function f(a: string): void;` lines, then the implementation.
      if (prev && prev.kind === 'function' && n.kind === 'function' && prev.name === n.name && prev.endLine < n.startLine) {
        prev.endLine = n.endLine;
        continue;
      }
      out.push(n);
    }
  }
  return out;
}

function declaration(s: LiteNode, scope: Scope, start: number, end: number, exported: boolean): OutlineNode[] {
  const src = scope.src;
  switch (s.type) {
    case 'export_statement': {
      const decl = childByField(s, 'declaration') ?? childByField(s, 'value');
      if (!decl) return [];
      if (decl.type === 'function_expression' || decl.type === 'arrow_function' || decl.type === 'function') {
        return [node('function', nameOf(childByField(decl, 'name'), src) || 'default', `${scope.prefix}${nameOf(childByField(decl, 'name'), src) || 'default'}`, start, end)];
      }
      if (CLASS_VALUES.has(decl.type)) return [classNode(decl, nameOf(childByField(decl, 'name'), src) || 'default', start, end, scope)];
      if (decl.type === 'object') {
        const o = objectNode(decl, scope.owner || 'default', start, end, scope);
        return o ? [o] : [];
      }
      if (decl.named && !['identifier', 'call_expression', 'member_expression'].includes(decl.type)) return declaration(decl, scope, start, end, true);
      return [];
    }
    case 'function_declaration':
    case 'generator_function_declaration':
    case 'function_signature': {
      const name = nameOf(childByField(s, 'name'), src);
      return [node('function', name, `${scope.prefix}${name}`, start, end)];
    }
    case 'class_declaration':
    case 'abstract_class_declaration': {
      const name = nameOf(childByField(s, 'name'), src);
      return [classNode(s, name, start, end, scope)];
    }
    case 'interface_declaration':
    case 'type_alias_declaration':
    case 'enum_declaration': {
      const name = nameOf(childByField(s, 'name'), src);
      const kind = s.type === 'interface_declaration' ? 'interface' : s.type === 'enum_declaration' ? 'enum' : 'type';
      return [node(kind, name, `${scope.prefix}${name}`, start, end)];
    }
    case 'lexical_declaration':
    case 'variable_declaration': {
      const decls = s.children.filter((c) => c.type === 'variable_declarator');
      const out: OutlineNode[] = [];
      for (const d of decls) {
        const nameNode = childByField(d, 'name');
        if (!nameNode || nameNode.type !== 'identifier') continue;
        const name = nameOf(nameNode, src);
        const value = childByField(d, 'value');
        const [a, b] = decls.length === 1 ? [start, end] : [d === decls[0] ? start : firstLine(d), lastLine(d)];
        const obj = assignedObject(value);
        const objNode = obj ? objectNode(obj, name, a, b, scope) : null;
        if (value && (FUNCTION_VALUES.has(value.type) || wrapsFunction(value))) out.push(node('function', name, `${scope.prefix}${name}`, a, b));
        else if (value && CLASS_VALUES.has(value.type)) out.push(classNode(value, name, a, b, scope));
        else if (objNode) out.push(objNode);
        else if (exported || b - a + 1 >= BIG_DECLARATION_LINES) {
          const kind = s.children.some((c) => !c.named && c.type === 'const') ? 'const' : 'variable';
          out.push(node(kind, name, `${scope.prefix}${name}`, a, b));
        }
      }
      return out;
    }
    case 'ambient_declaration': {
      const inner = s.children.find((c) => c.named && c.type !== 'comment');
      return inner ? declaration(inner, scope, start, end, exported) : [];
    }
    case 'module':
    case 'internal_module': {
      const nameNode = childByField(s, 'name');
      const name = nameOf(nameNode, src) || 'global';
      const body = childByField(s, 'body');
      const inner: Scope = { prefix: `${scope.prefix}${name}.`, src, owner: scope.owner };
      const children = body ? statements(body.children, inner) : [];
      return [node('namespace', name, `${scope.prefix}${name}`, start, end, children, `namespace ${name}`)];
    }
    case 'expression_statement': {
      const ns = s.children.find((c) => c.type === 'internal_module');
      if (ns) return declaration(ns, scope, start, end, exported);
      const t = testCall(s, scope, start);
      if (t) return [t];
      const assign = s.children.find((c) => c.type === 'assignment_expression');
      const right = assign ? childByField(assign, 'right') : undefined;
      const left = assign ? childByField(assign, 'left') : undefined;
      if (left?.type === 'member_expression' && right && (FUNCTION_VALUES.has(right.type) || CLASS_VALUES.has(right.type))) {
        // exports.helper = function …; Foo.prototype.bar = function …
        const path = squash(textOf(left, src)).replace(/\.prototype\./, '.').replace(/^(?:module\.)?exports\./, '');
        if (CLASS_VALUES.has(right.type)) return [classNode(right, path, start, end, scope)];
        return [node(path.includes('.') ? 'method' : 'function', path, `${scope.prefix}${path}`, start, end)];
      }
      const obj = assignedObject(right);
      if (left?.type === 'member_expression' && obj) {
        // module.exports = { … }; exports.api = { … }; Foo.prototype = { … }
        const path = squash(textOf(left, src)).replace(/\.prototype$/, '').replace(/^(?:module\.)?exports(?:\.|$)/, '');
        const o = objectNode(obj, path || scope.owner || 'exports', start, end, scope);
        return o ? [o] : [];
      }
      return [];
    }
    default:
      return [];
  }
}

/** Outline of script source (a file, or an inline <script> whose rows were kept by padding); `owner` names its anonymous objects. */
export async function scriptOutline(ts: TreeSitterHost, grammar: GrammarName, text: string, owner = ''): Promise<OutlineNode[]> {
  return (await repairedOutline(ts, grammar, text, owner)).nodes;
}

/** The outline and the number of places the grammar did not know (0: a clean parse). Names are read from `text`. */
async function repairedOutline(ts: TreeSitterHost, grammar: GrammarName, text: string, owner: string): Promise<{ nodes: OutlineNode[]; errors: number }> {
  const { tree, errors } = await parseScript(ts, grammar, text);
  let root: LiteNode;
  try {
    root = toLite(tree, text, { descend: (t) => !NO_DESCEND.has(t) });
  } finally {
    tree.delete();
  }
  return { nodes: statements(root.children, { prefix: '', src: text, owner }), errors };
}

export async function extractScript(input: ChunkInput, ts: TreeSitterHost): Promise<FileOutline | null> {
  const grammar: GrammarName = input.lang === 'typescript' ? 'typescript' : input.lang === 'tsx' ? 'tsx' : 'javascript';
  const base = input.path.slice(input.path.lastIndexOf('/') + 1);
  const stem = base.replace(/\.[^.]*$/, '');
  const { nodes, errors } = await repairedOutline(ts, grammar, input.text, stem === 'index' ? folderName(input.path) || stem : stem);
  if (errors) return { nodes, parseErrors: errors };
  return nodes.length ? { nodes } : null;
}

/** The folder a file sits in (`src/middleware/cors/index.ts` → `cors`): an `index` file's name. */
function folderName(path: string): string {
  const parts = path.split('/');
  return parts.length > 1 ? parts[parts.length - 2]! : '';
}
