// Build helper of scripts/build-cli-bundle.mjs: turns an ES module's source into a script that
// runtimes/node/code-cache.ts runs as a `vm.Script` (whose V8 code cache can be made after the run,
// which a module's cannot), plus the small ES module that stands in for it. Owns only that rewrite.
//
// The script is one function expression, `(function (deps, dynamicImport, meta) { … })`: the
// module's static imports become constants taken from `deps` (the stand-in imports them, in order,
// and passes their namespaces), `import(x)` becomes `dynamicImport(x)` and `import.meta` becomes
// `meta` (the stand-in passes its own `import()` and `import.meta`, or the original file's, so a
// relative URL resolves as it did), and the exports become the object it returns. The stand-in
// re-exports that object's values: fine for what a bundle exports (functions, classes, constants),
// so an export that is assigned again after its declaration is refused rather than turned into a snapshot.
import { parseAst } from 'rolldown/parseAst';

const DEPS = '__hci$deps';
const IMPORT = '__hci$import';
const META = '__hci$meta';

function walk(node, visit) {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) walk(n, visit);
    return;
  }
  if (typeof node.type === 'string' && visit(node) === false) return;
  for (const key of Object.keys(node)) if (key !== 'type' && key !== 'start' && key !== 'end') walk(node[key], visit);
}

// A builtin comes as its exports object (process.getBuiltinModule), which is also its default export.
const isBuiltin = (specifier) => specifier.startsWith('node:');
const keyName = (n) => (n.type === 'Identifier' ? n.name : String(n.value));

/**
 * `source` (an ES module) → { script, specifiers, exports }: the function-expression source, the
 * specifiers of its static imports in the order `deps` holds them, and its export names.
 */
export function esmToScript(source, label) {
  const ast = parseAst(source);
  const edits = []; // [start, end, text]
  const specifiers = [];
  const bindings = [];
  const exported = []; // [exported name, local expression]
  const topLevelKinds = new Map();
  for (const node of ast.body) {
    if (node.type === 'VariableDeclaration') for (const d of node.declarations) walk(d.id, (n) => void (n.type === 'Identifier' && topLevelKinds.set(n.name, node.kind)));
  }
  for (const node of ast.body) {
    if (node.type === 'ImportDeclaration') {
      const dep = `${DEPS}[${specifiers.length}]`;
      specifiers.push(node.source.value);
      for (const s of node.specifiers) {
        if (s.type === 'ImportNamespaceSpecifier') bindings.push(`const ${s.local.name} = ${dep};`);
        else if (s.type === 'ImportDefaultSpecifier') bindings.push(`const ${s.local.name} = ${dep}${isBuiltin(node.source.value) ? '' : '.default'};`);
        else bindings.push(`const ${s.local.name} = ${dep}[${JSON.stringify(keyName(s.imported))}];`);
      }
      edits.push([node.start, node.end, '']);
    } else if (node.type === 'ExportNamedDeclaration' && !node.source && !node.declaration) {
      for (const s of node.specifiers) {
        const local = keyName(s.local);
        exported.push([keyName(s.exported), local]);
      }
      edits.push([node.start, node.end, '']);
    } else if (node.type === 'ExportDefaultDeclaration' && node.declaration.type === 'Identifier') {
      exported.push(['default', node.declaration.name]);
      edits.push([node.start, node.end, '']);
    } else if (/^Export/.test(node.type)) {
      throw new Error(`${label}: ${node.type} is not supported (only \`export { … }\` and \`export default <name>\`)`);
    }
  }
  walk(ast.body, (n) => {
    if (n.type === 'ImportExpression') {
      // `import(` → `__hci$import(`: the callee only; the argument keeps its own edits.
      if (n.options) throw new Error(`${label}: import() with options is not supported`);
      edits.push([n.start, n.start + 'import'.length, IMPORT]);
    } else if (n.type === 'MetaProperty' && n.meta.name === 'import') {
      edits.push([n.start, n.end, META]);
    }
  });
  // A `let`/`var` export (rolldown declares classes `var X = class …`) is fine unless assigned again.
  const mutable = new Set(exported.map(([, local]) => local).filter((l) => topLevelKinds.get(l) && topLevelKinds.get(l) !== 'const'));
  walk(ast.body, (n) => {
    const target = n.type === 'AssignmentExpression' ? n.left : n.type === 'UpdateExpression' ? n.argument : null;
    if (target?.type === 'Identifier' && mutable.has(target.name)) throw new Error(`${label}: export ${target.name} is assigned after its declaration, would be a snapshot`);
  });
  walk(ast.body, (n) => {
    if (/Function/.test(n.type)) return false; // an await inside a function is that function's
    if (n.type === 'AwaitExpression' || (n.type === 'ForOfStatement' && n.await)) throw new Error(`${label}: top-level await is not supported`);
  });
  edits.sort((a, b) => a[0] - b[0]);
  let body = '';
  let at = 0;
  for (const [start, end, text] of edits) {
    if (start < at) throw new Error(`${label}: overlapping edits at ${start}`);
    body += source.slice(at, start) + text;
    at = end;
  }
  body += source.slice(at);
  // Non-ASCII (in comments, strings, regular expressions) as \u escapes: an ASCII source is a one-byte
  // string, half the memory and faster to read and scan than the two-byte one a single `—` makes.
  // Valid wherever such a character can stand but in a tagged template's raw text or after a backslash,
  // which are refused.
  if (/[^\x00-\x7f]/.test(body)) {
    if (/\\[^\x00-\x7f]/.test(body)) throw new Error(`${label}: an escaped non-ASCII character`);
    walk(ast.body, (n) => {
      if (n.type === 'TaggedTemplateExpression' && /[^\x00-\x7f]/.test(source.slice(n.quasi.start, n.quasi.end))) throw new Error(`${label}: a tagged template with non-ASCII text`);
    });
    body = body.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  const returned = exported.map(([name, local]) => `${JSON.stringify(name)}: ${local}`).join(', ');
  const script = `(function (${DEPS}, ${IMPORT}, ${META}) {"use strict";\n${bindings.join('\n')}\n${body}\nreturn { ${returned} };\n})`;
  return { script, specifiers, exports: exported.map(([name]) => name) };
}

/**
 * The ES module that stands in for the script: imports its dependencies and code-cache.ts, runs the
 * script and re-exports its values. Its `import.meta` is the stand-in's own (it sits where the original
 * module did), unless `original` names the module the script was made from — a package file, by its
 * specifier: then that file's URL is the script's `import.meta.url`, and if the file is not the one the
 * script was made from (its size differs: a reinstall without a build) the stand-in imports it instead.
 */
export function standIn({ specifiers, exports }, { scriptFile, codeCache, original, banner = '' }) {
  const lines = [banner];
  // Builtins by process.getBuiltinModule: an ES import of one makes its ES module facade, which copies
  // every export (node:fs's stream getters load the streams): ~2.5 ms for the base's nine.
  specifiers.forEach((s, i) => lines.push(isBuiltin(s) ? `const __hci$d${i} = process.getBuiltinModule(${JSON.stringify(s)});` : `import * as __hci$d${i} from ${JSON.stringify(s)};`));
  lines.push(`import { runCachedScript } from ${JSON.stringify(codeCache)};`);
  const run = (meta) => `runCachedScript(new URL(${JSON.stringify(`./${scriptFile}`)}, import.meta.url), [[${specifiers.map((_, i) => `__hci$d${i}`).join(', ')}], (s) => import(s), ${meta}])`;
  if (original) {
    // By process.getBuiltinModule too: `import { statSync } from 'node:fs'` made node:fs's facade and
    // loaded its streams (ReadStream, Utf8Stream) on every search, ~2.5 ms.
    lines.push("const { statSync } = process.getBuiltinModule('node:fs');", "const { fileURLToPath } = process.getBuiltinModule('node:url');");
    lines.push(`const __hci$original = import.meta.resolve(${JSON.stringify(original.specifier)});`);
    lines.push(`const __hci$m = statSync(fileURLToPath(__hci$original), { throwIfNoEntry: false })?.size === ${original.size} ? ${run('{ url: __hci$original }')} : await import(__hci$original);`);
  } else {
    lines.push(`const __hci$m = ${run('import.meta')};`);
  }
  const named = exports.filter((e) => e !== 'default');
  const safe = (e) => /^[A-Za-z_$][\w$]*$/.test(e) && !e.startsWith('__hci$');
  if (named.some((e) => !safe(e))) throw new Error(`standIn: export names must be identifiers: ${named.filter((e) => !safe(e)).join(', ')}`);
  // Each through a local of its own: an export name may be a reserved word (a bundler's short names
  // reach `in`, `do`, `if`), which `export const { in } = …` cannot bind; `{ in: local }` and
  // `export { local as in }` can.
  if (named.length) {
    lines.push(`const { ${named.map((e, i) => `${e}: __hci$e${i}`).join(', ')} } = __hci$m;`);
    lines.push(`export { ${named.map((e, i) => `__hci$e${i} as ${e}`).join(', ')} };`);
  }
  if (exports.includes('default')) lines.push('export default __hci$m.default;');
  return `${lines.filter(Boolean).join('\n')}\n`;
}
