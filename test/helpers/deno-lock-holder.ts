// Run by Deno (`deno run <flags> test/helpers/deno-lock-holder.ts <lock path>…`): takes each dot-lock
// with the Deno lock code, prints `{"pid":…,"held":[…]}` and keeps them until it is killed — the
// way a Deno process in the middle of a transaction or an indexing run holds them.
import { DotLock } from '../../runtimes/deno/dot-lock.ts';
import { deno } from '../../runtimes/deno/deno-api.ts';

const held: string[] = [];
for (const p of deno().args) {
  const lock = new DotLock(p);
  if (lock.tryAcquire(p.endsWith('indexer.lock') ? 'index' : undefined)) held.push(p);
}
console.log(JSON.stringify({ pid: deno().pid, held }));
setInterval(() => {}, 60_000);
