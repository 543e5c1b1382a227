// Run by Deno for test/language-wiring.test.ts (`deno run --allow-read=test,node_modules
// test/helpers/deno-languages.ts <file>…`, paths relative to test/): the wiring check of
// language-corpus.ts through Deno's own grammar loader (runtimes/deno/grammars.ts, not Node's),
// printed as JSON on stdout.
import { createDenoGrammarSource } from '../../runtimes/deno/grammars.ts';
import { wiringCheck } from './language-corpus.ts';

declare const Deno: { args: string[] };

console.log(JSON.stringify(await wiringCheck(createDenoGrammarSource(), Deno.args)));
