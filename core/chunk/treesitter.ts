// Tree-sitter for the chunkers: initialises web-tree-sitter once from wasm bytes the runtime
// supplies, loads grammars on demand, and parses within a work budget. Owns no file access — the
// runtime's GrammarSource reads the wasm files (node:fs in Node and Deno, fetch in the browser) that
// the grammar table (core/languages/grammars.ts) names. A source may hand over gzip bytes (the
// installed package ships its grammars gzipped, see grammars.ts): they are inflated here, once, with
// the standard DecompressionStream every runtime has, so no loader needs to know.
import { Language, Parser, type Range, type Tree } from 'web-tree-sitter';
import type { GrammarId } from '../languages/grammars.ts';

/** A grammar-table id (kept under this name for the library's exported type). */
export type GrammarName = GrammarId;

export interface GrammarSource {
  /** The bytes of web-tree-sitter's own runtime wasm (tree-sitter.wasm). */
  runtime(): Promise<Uint8Array>;
  grammar(name: GrammarName): Promise<Uint8Array>;
  /**
   * Wraps each grammar's compilation (optional): Node compiles grammars without V8's tier-up
   * (runtimes/node/wasm-tiering.ts), whose compile of a grammar's huge lexer function cost seconds
   * and hundreds of MB.
   */
  compileGrammar?<T>(compile: () => Promise<T>): Promise<T>;
}

/** The bytes as they are, or inflated when they are a gzip stream (magic 1f 8b; wasm starts with 00 61 73 6d). */
export async function inflateIfGzip(bytes: Uint8Array): Promise<Uint8Array> {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * A parse's work budget, in calls of tree-sitter's progress callback: the parser makes them at fixed
 * points of its own work, so their count is a property of the text and the grammar, not of the
 * machine (test/parse-budget.test.ts: the same text counts the same on every parse). A wall-clock
 * limit made the index depend on load: the same tree, indexed at load ~20 on 2 cores, lost files to
 * line windows that a quiet run parsed (MudBlazor 14,419 vs 14,430 chunks, Avalonia 41,189 vs 41,265,
 * RadzenBlazor 21,771 vs 21,826). Four of the largest C# files of the dev and broad corpora (347 KB to
 * 1.2 MB) took 70 to 6,554 calls, at 1,600 to 25,000 calls a second on this project's 2-core machine
 * (a one-off probe, not a recorded benchmark), so 100,000 leaves them 15x room and stops only a
 * pathological parse.
 */
export const PARSE_STEP_BUDGET = 100_000;

/** A parse that went past its work budget (the file is indexed as line windows: a parse fallback). */
export class ParseOverBudget extends Error {
  constructor(steps: number) {
    super(`parse went past its budget of ${steps} progress checks`);
  }
}

let initialised: Promise<void> | null = null;
/** The options object web-tree-sitter's Emscripten module was started with: it sets HEAP8 (the wasm memory's view) on it, also after each growth. */
let emscripten: { wasmBinary: Uint8Array; HEAP8?: Int8Array } | null = null;

/**
 * Bytes of tree-sitter's WebAssembly memory in this thread (0 before it starts). It grows to hold the
 * largest tree parsed so far and never shrinks: a runtime can end the thread after it grew (Node's
 * parse pool retires its worker).
 */
export function treeSitterMemoryBytes(): number {
  return emscripten?.HEAP8?.buffer.byteLength ?? 0;
}

export class TreeSitterHost {
  private readonly languages = new Map<GrammarName, Promise<Language>>();
  private readonly parsers = new Map<GrammarName, Parser>();

  constructor(
    private readonly source: GrammarSource,
    readonly parseStepBudget = PARSE_STEP_BUDGET,
  ) {}

  /** Progress checks the last parse took (a machine-independent measure of its work). */
  lastParseSteps = 0;

  private async init(): Promise<void> {
    initialised ??= this.source.runtime().then((wasmBinary) => Parser.init((emscripten = { wasmBinary }) as never));
    try {
      await initialised;
    } catch (e) {
      initialised = null;
      throw e;
    }
  }

  /**
   * Loads the runtime and these grammars ahead of their first parse (a parse worker warming up while
   * the indexer scans), all at once. A failure is left for the parse that needs the grammar to meet.
   */
  async preload(names: readonly GrammarName[]): Promise<void> {
    try {
      await this.init();
      await Promise.all(names.map((n) => this.parser(n)));
    } catch {
      // reported by the parse that needs it
    }
  }

  async parser(name: GrammarName): Promise<Parser> {
    await this.init();
    let parser = this.parsers.get(name);
    if (!parser) {
      let lang = this.languages.get(name);
      if (!lang) {
        const compile = (bytes: Uint8Array) => (this.source.compileGrammar ? this.source.compileGrammar(() => Language.load(bytes)) : Language.load(bytes));
        lang = this.source.grammar(name).then(inflateIfGzip).then(compile);
        this.languages.set(name, lang);
        lang.catch(() => this.languages.delete(name));
      }
      parser = new Parser();
      parser.setLanguage(await lang);
      this.parsers.set(name, parser);
    }
    return parser;
  }

  /**
   * Parses text (rows are \n-separated lines); throws ParseOverBudget past the work budget. `old`: an
   * earlier tree of this text, already `edit`ed to match it, that tree-sitter re-parses incrementally.
   * `ranges`: parse only these ranges of the text (tree-sitter's included ranges; offsets and
   * positions stay the text's own), e.g. C# without its member bodies (lang/csharp-bodies.ts).
   */
  async parse(name: GrammarName, text: string, old?: Tree, ranges?: Range[]): Promise<Tree> {
    const parser = await this.parser(name);
    const budget = this.parseStepBudget;
    let steps = 0;
    const tree = parser.parse(text, old ?? null, {
      progressCallback: () => ++steps > budget,
      ...(ranges ? { includedRanges: ranges } : {}),
    } as never);
    this.lastParseSteps = steps;
    if (!tree || steps > budget) {
      tree?.delete();
      throw new ParseOverBudget(budget);
    }
    return tree;
  }
}
