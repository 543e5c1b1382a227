// Deno side of the vector parity test: reads a corpus (JSON file named on the command line), runs
// the shared fingerprint (training, embedding, KNN through both scan backends) on the core sources
// as Deno runs them, and the shipped code model read by the Deno runtime's own loader, and prints
// the result as JSON. Needs only --allow-read of that file and of models/code-model.bin.
import { pretrainedFingerprint, vectorFingerprint, type VectorCorpus } from './vector-fingerprint.ts';
import { denoVectorHost } from '../../runtimes/deno/vector-host.ts';

declare const Deno: { args: string[]; readTextFile(path: string): Promise<string> };

const corpus = JSON.parse(await Deno.readTextFile(Deno.args[0])) as VectorCorpus;
console.log(JSON.stringify({ learned: await vectorFingerprint(corpus), pretrained: await pretrainedFingerprint(denoVectorHost.codeModel!, corpus) }));
