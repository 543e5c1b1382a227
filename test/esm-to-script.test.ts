// The CLI bundle's stand-in modules (scripts/esm-to-script.mjs standIn) re-export a script's values
// under the names the bundler gave them. A bundler's short export names reach reserved words (`in`,
// `do`, `if`) once a chunk exports enough: the stand-in must still be a module that parses and exports
// every name — `export const { in } = …` was a SyntaxError that broke every `hci` command.
// @lane unit
import { describe, it, expect } from 'vitest';
import { parseAst } from 'rolldown/parseAst';
// @ts-expect-error a build script in plain JavaScript, without types
import { standIn } from '../scripts/esm-to-script.mjs';

describe('standIn', () => {
  it('re-exports names that are reserved words, and parses as a module', () => {
    const names = ['a', 'in', 'do', 'if', 'zt', 'default'];
    const text: string = standIn({ specifiers: ['node:fs'], exports: names }, { scriptFile: 'x.script.js', codeCache: './code-cache.js' });
    const ast = parseAst(text);
    const exported: string[] = [];
    for (const node of ast.body) {
      if (node.type === 'ExportNamedDeclaration') for (const s of node.specifiers) exported.push(s.exported.type === 'Identifier' ? s.exported.name : String(s.exported.value));
      if (node.type === 'ExportDefaultDeclaration') exported.push('default');
    }
    expect(exported.sort()).toEqual([...names].sort());
  });
});
