// C# parsed without member bodies (core/chunk/lang/csharp-bodies.ts): which braces the scan leaves
// out (method, constructor, operator, accessor bodies — never a type's, a primary constructor's or
// an extension block's), which texts it refuses (conditional directives, literals left open), that
// strings, comments and interpolations of every kind do not confuse it, and that the chunker's
// parse of a clean file is one parse over fewer nodes with the outline a whole parse gives.
// @lane unit
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Chunker } from '../core/chunk/chunker.ts';
import { TreeSitterHost } from '../core/chunk/treesitter.ts';
import { memberBodyRanges } from '../core/chunk/lang/csharp-bodies.ts';
import { outlineFromCSharpTree } from '../core/chunk/lang/csharp.ts';
import { splitLines } from '../core/scan/content.ts';
import { createNodeGrammarSource } from '../runtimes/node/grammars.ts';

/** The text the ranges leave out, one entry per gap, trimmed. */
function leftOut(text: string): string[] | null {
  const ranges = memberBodyRanges(text);
  if (!ranges) return null;
  const gaps: string[] = [];
  for (let k = 0; k + 1 < ranges.length; k++) gaps.push(text.slice(ranges[k].endIndex, ranges[k + 1].startIndex).trim());
  // The ranges' positions are the text's own rows and columns.
  const lines = text.split('\n');
  for (const r of ranges) {
    expect(lines[r.startPosition.row].length).toBeGreaterThanOrEqual(r.startPosition.column);
    expect(text.split('\n').slice(0, r.startPosition.row).join('\n').length + (r.startPosition.row ? 1 : 0) + r.startPosition.column).toBe(r.startIndex);
  }
  return gaps;
}

const SAMPLE = [
  'namespace Demo;',
  'public sealed class Box<T>(int size) : Base(size) where T : class',
  '{',
  '    private readonly string _s = $"{{ {size} }}" + @"}" + """{ raw }""" + $$"""{{{size}}} }""" + \'{\';',
  '    // a comment with { a brace',
  '    public int Size { get { return size; /* } */ } private set { _ = value; } }',
  '    public Box() : this(1) { Init("}"); }',
  '    public static Box<T> operator +(Box<T> a, Box<T> b) { return a; }',
  '    public event System.EventHandler Changed { add { } remove { Log($"{value}"); } }',
  '    void M<U>() where U : struct { if (true) { Local(); } void Local() { } }',
  '    public record Inner(int X) { public int Y() { return X; } }',
  '    int Expr() => size;',
  '}',
].join('\n');

describe('C# member bodies a parse can leave out', () => {
  it('leaves out method, constructor, operator and accessor bodies; keeps type, primary-constructor and record bodies', () => {
    expect(leftOut(SAMPLE)).toEqual([
      'return size; /* } */', // get
      '_ = value;', // set
      'Init("}");', // constructor
      'return a;', // operator
      'Log($"{value}");', // remove (add's body is empty: nothing to leave out)
      'if (true) { Local(); } void Local() { }', // a generic method with a constraint
      'return X;', // a method of the nested record
    ]);
  });

  it('keeps a C# 14 extension block, and gives up on conditional directives and literals left open', () => {
    // The block's members are left whole (the grammar does not know the block: the parse of the whole text repairs it).
    const ext = 'static class E\n{\n    extension(string s)\n    {\n        public bool Empty() { return s.Length == 0; }\n    }\n    static void F() { G(); }\n}\n';
    expect(leftOut(ext)).toEqual(['G();']);
    expect(memberBodyRanges('class A\n{\n#if DEBUG\n    void M() {\n#else\n    void M(int x) {\n#endif\n        Call();\n    }\n}\n')).toBeNull();
    expect(memberBodyRanges('class A\n{\n    void M() { var s = "open;\n    }\n}\n')).toBeNull();
    expect(memberBodyRanges('class A\n{\n    void M() { /* open\n    }\n}\n')).toBeNull();
    expect(memberBodyRanges('class A\n{\n    void M() { }\n')).toBeNull(); // a brace left open
    // #region lines are not code, even with a brace in their name.
    expect(leftOut('class A\n{\n    #region Members {\n    void M() { Call(); }\n    #endregion\n}\n')).toEqual(['Call();']);
  });

  it('parses a clean file once, over fewer nodes, to the outline a parse of the whole text gives', async () => {
    class CountingHost extends TreeSitterHost {
      readonly ranged: boolean[] = [];
      override async parse(...args: Parameters<TreeSitterHost['parse']>) {
        this.ranged.push(!!args[3]);
        return super.parse(...args);
      }
    }
    const host = new CountingHost(createNodeGrammarSource());
    const text = fs.readFileSync(path.resolve(import.meta.dirname, 'fixtures/chunking/csharp/InvoiceLedger.cs'), 'utf8');
    const lines = splitLines(text);
    const joined = lines.join('\n');
    const res = await new Chunker(host).chunk({ path: 'src/InvoiceLedger.cs', lang: 'csharp', lines, text: joined }, { chunkLines: 110, overlapLines: 15, maxChunkBytes: 65536 });
    expect(host.ranged).toEqual([true]);
    const whole = await host.parse('c_sharp', joined);
    const skim = await host.parse('c_sharp', joined, undefined, memberBodyRanges(joined)!);
    try {
      expect(skim.rootNode.hasError).toBe(false);
      expect(skim.rootNode.descendantCount).toBeLessThan(whole.rootNode.descendantCount);
      expect(res.outline).toEqual(outlineFromCSharpTree(whole.rootNode, joined, lines.length));
      // The included ranges do not stay with the parser: a plain parse after a ranged one reads the whole text.
      const again = await host.parse('c_sharp', joined);
      expect(again.rootNode.descendantCount).toBe(whole.rootNode.descendantCount);
      again.delete();
    } finally {
      whole.delete();
      skim.delete();
    }
  });
});
