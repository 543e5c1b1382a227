// Writes the JSON Schema files of the intercom log format (core/intercom/schemas/*.schema.json) from
// their zod declarations (core/intercom/json-schemas.ts). Run after changing core/intercom/events.ts:
//   npm run build && node dist/runtimes/node/intercom-schemas.js
// test/intercom-schemas.test.ts fails while the committed files differ from this output.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { intercomJsonSchemas, SCHEMA_DIR } from '../../core/intercom/json-schemas.ts';

/** The repository root, from this file in runtimes/node/ or dist/runtimes/node/. */
function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

export function writeIntercomSchemas(root = repoRoot()): string[] {
  const dir = path.join(root, SCHEMA_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of Object.entries(intercomJsonSchemas())) {
    fs.writeFileSync(path.join(dir, name), text);
    written.push(path.join(SCHEMA_DIR, name));
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const f of writeIntercomSchemas()) process.stdout.write(`wrote ${f}\n`);
}
