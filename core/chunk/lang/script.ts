// JavaScript / TypeScript outlines (JSX and TSX too) through their grammars: functions and
// components, classes with their members (`Class.method` member keys), consts holding functions,
// wrapped functions (`memo(…)`, `forwardRef(…)`) or classes, exported consts, big top-level
// declarations, TS interfaces, type aliases, enums and namespaces, CommonJS/prototype assignments,
// and describe/it/test blocks in test files. Leading comments (JSDoc) belong to the node they precede.
import type { ChunkInput } from '../input.ts';
import type { FileOutline, OutlineNode } from '../outline.ts';
import type { GrammarName, TreeSitterHost } from '../treesitter.ts';
import { childByField, clip, firstLine, lastLine, squash, toLite, type LiteNode } from './lite.ts';

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
}

function textOf(n: LiteNode | undefined, src: string): string {
  return n ? src.slice(n.startIndex, n.endIndex) : '';
}

function nameOf(n: LiteNode | undefined, src: string): string {
  if (!n) return '';
  if (n.type === 'string') return textOf(n, src).slice(1, -1);
  return squash(textOf(n, src));
}

/** Where a node starts once the comments right above it (no blank line between) are included. */
function withLeadingComments(siblings: LiteNode[], index: number): number {
  let start = firstLine(siblings[index]);
  for (let i = index - 1; i >= 0; i--) {
    const c = siblings[i];
    if (c.type !== 'comment') break;
    if (lastLine(c) < start - 1) break;
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

function classMembers(cls: LiteNode, className: string, scope: Scope): OutlineNode[] {
  const body = childByField(cls, 'body');
  if (!body) return [];
  const out: OutlineNode[] = [];
  const members = body.children.filter((c) => c.named);
  for (let i = 0; i < members.length; i++) {
    const m = members[i];
    if (m.type === 'comment') continue;
    const start = withLeadingComments(members, i);
    const end = lastLine(m);
    let kind = 'method';
    let name = '';
    switch (m.type) {
      case 'method_definition':
      case 'method_signature':
      case 'abstract_method_signature': {
        name = nameOf(childByField(m, 'name'), scope.src);
        const accessor = m.children.find((c) => !c.named && (c.type === 'get' || c.type === 'set'));
        if (name === 'constructor') kind = 'constructor';
        else if (accessor) {
          kind = 'property';
          name = `${accessor.type} ${name}`;
        }
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
      const t = testCall(stmts[i], scope, withLeadingComments(stmts, i));
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
    const start = withLeadingComments(named, i);
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
      if (decl.named && !['identifier', 'object', 'call_expression', 'member_expression'].includes(decl.type)) return declaration(decl, scope, start, end, true);
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
        if (value && (FUNCTION_VALUES.has(value.type) || wrapsFunction(value))) out.push(node('function', name, `${scope.prefix}${name}`, a, b));
        else if (value && CLASS_VALUES.has(value.type)) out.push(classNode(value, name, a, b, scope));
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
      const inner: Scope = { prefix: `${scope.prefix}${name}.`, src };
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
      return [];
    }
    default:
      return [];
  }
}

/** Outline of script source (a file, or an inline <script> whose rows were kept by padding). */
export async function scriptOutline(ts: TreeSitterHost, grammar: GrammarName, text: string): Promise<OutlineNode[]> {
  const tree = await ts.parse(grammar, text);
  let root: LiteNode;
  try {
    root = toLite(tree, text, { descend: (t) => !NO_DESCEND.has(t) });
  } finally {
    tree.delete();
  }
  return statements(root.children, { prefix: '', src: text });
}

export async function extractScript(input: ChunkInput, ts: TreeSitterHost): Promise<FileOutline | null> {
  const grammar: GrammarName = input.lang === 'typescript' ? 'typescript' : input.lang === 'tsx' ? 'tsx' : 'javascript';
  const nodes = await scriptOutline(ts, grammar, input.text);
  return nodes.length ? { nodes } : null;
}
