// Run by Deno: deno run <flags> test/helpers/deno-log-confine.ts '<json>' where json = { base, roots,
// locations }. Opens each location with the Deno log opener confined to `roots` and reads it; prints
// per location { location, bytes } or { location, code } (the HciError code) as a JSON array.
import { createDenoLogOpener } from '../../runtimes/deno/intercom-log.ts';
import { deno } from '../../runtimes/deno/deno-api.ts';

const cfg = JSON.parse(deno().args[0]) as { base: string; roots: string[]; locations: string[] };
const open = createDenoLogOpener({ base: cfg.base, roots: cfg.roots });
const out: unknown[] = [];
for (const location of cfg.locations) {
  try {
    const bytes = await open(location).read();
    out.push({ location, bytes: bytes?.length ?? null });
  } catch (e) {
    out.push({ location, code: (e as { code?: string }).code ?? String(e) });
  }
}
deno().stdout.writeSync(new TextEncoder().encode(JSON.stringify(out)));
