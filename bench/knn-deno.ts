// Deno entry of the KNN benchmark: `deno run bench/knn-deno.ts '<options JSON>'` prints the result
// of bench/lib/knn-run.ts as JSON (bench/knn-bench.ts starts it).
import { runKnn, type KnnRunOptions } from './lib/knn-run.ts';

declare const Deno: { args: string[] };

console.log(JSON.stringify(await runKnn(JSON.parse(Deno.args[0]) as KnnRunOptions)));
