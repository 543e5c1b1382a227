// Deno side of the vector parity test: reads a corpus (JSON file named on the command line), runs
// the shared fingerprint (training, embedding, KNN through both scan backends) on the core sources
// as Deno runs them, and prints the result as JSON. Needs only --allow-read of that file.
import { vectorFingerprint, type VectorCorpus } from './vector-fingerprint.ts';

declare const Deno: { args: string[]; readTextFile(path: string): Promise<string> };

const corpus = JSON.parse(await Deno.readTextFile(Deno.args[0])) as VectorCorpus;
console.log(JSON.stringify(await vectorFingerprint(corpus)));
