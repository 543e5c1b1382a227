// Run by Deno with the documented narrow permissions (plus, for relate, write access to the log's folder):
//   deno run <flags> test/helpers/deno-intercom.ts '<json>'
// where json = { root, calls: Array<{ op: 'find' | 'relate' | 'markers', req }> }. Opens an Intercom
// with the Deno adapters, makes the calls in order and prints their answers as a JSON array.
import { openIntercom } from '../../runtimes/deno/intercom.ts';
import { deno } from '../../runtimes/deno/deno-api.ts';

const cfg = JSON.parse(deno().args[0]) as { root: string; calls: Array<{ op: 'find' | 'relate' | 'markers'; req: never }> };
const ic = await openIntercom(cfg.root);
try {
  const out: unknown[] = [];
  for (const c of cfg.calls) out.push(await ic[c.op](c.req));
  deno().stdout.writeSync(new TextEncoder().encode(JSON.stringify(out)));
} finally {
  ic.close();
}
