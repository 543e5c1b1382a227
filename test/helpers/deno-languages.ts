// Run by Deno for test/language-wiring.test.ts (`deno run --allow-read=test,node_modules
// test/helpers/deno-languages.ts <file>…`, paths relative to test/): loads every grammar-table entry
// and chunks each file through Deno's own grammar loader (runtimes/deno/grammars.ts, not Node's),
// noting the grammars each parse used, and prints { grammars, files } as JSON on stdout.
import { Chunker } from '../../core/chunk/chunker.ts';
import { GRAMMAR_IDS } from '../../core/languages/grammars.ts';
import { splitLines } from '../../core/scan/content.ts';
import { languageOf } from '../../core/scan/languages.ts';
import { createDenoGrammarSource } from '../../runtimes/deno/grammars.ts';
import { RecordingHost, TEST_DIR } from './language-corpus.ts';

declare const Deno: { args: string[]; readTextFile(p: string): Promise<string> };

const host = new RecordingHost(createDenoGrammarSource(), 60_000);
const grammars: Record<string, string> = {};
for (const id of GRAMMAR_IDS) {
  const tree = await host.parse(id, 'x');
  grammars[id] = tree.rootNode.type;
  tree.delete();
}
host.reset();
const chunker = new Chunker(host);
const files: Record<string, { used: string[]; result: unknown }> = {};
for (const rel of Deno.args) {
  const lines = splitLines(await Deno.readTextFile(`${TEST_DIR}/${rel}`));
  const result = await chunker.chunk({ path: rel, lang: languageOf(rel), lines, text: lines.join('\n') }, { chunkLines: 110, overlapLines: 15, maxChunkBytes: 65536 });
  files[rel] = { used: [...host.reset()].sort(), result };
}
console.log(JSON.stringify({ grammars, files }));
