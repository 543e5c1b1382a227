// Run by Deno (`deno run -A test/helpers/deno-chunks.ts <root> <file>…`): chunks each file with the
// same core chunker and the same grammar files as Node, and prints the result as JSON on stdout.
import { Chunker } from '../../core/chunk/chunker.ts';
import { TreeSitterHost } from '../../core/chunk/treesitter.ts';
import { splitLines } from '../../core/scan/content.ts';
import { languageOf } from '../../core/scan/languages.ts';
import { createNodeGrammarSource } from '../../runtimes/node/grammars.ts';

declare const Deno: { args: string[]; readTextFile(p: string): Promise<string> };

const [root, ...files] = Deno.args;
const chunker = new Chunker(new TreeSitterHost(createNodeGrammarSource()));
const out: Record<string, unknown> = {};
for (const rel of files) {
  const lines = splitLines(await Deno.readTextFile(`${root}/${rel}`));
  const r = await chunker.chunk({ path: rel, lang: languageOf(rel), lines, text: lines.join('\n') }, { chunkLines: 110, overlapLines: 15, maxChunkBytes: 65536 });
  out[rel] = r;
}
console.log(JSON.stringify(out));
