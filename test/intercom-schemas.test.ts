// The log format's JSON Schema files are generated from the zod declarations (core/intercom/events.ts)
// and committed: this fails while a committed file differs from the generator's output, or one is
// missing or left over. Regenerate with `npm run build && node dist/runtimes/node/intercom-schemas.js`.
// @lane cli
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { intercomJsonSchemas, SCHEMA_DIR } from '../core/intercom/json-schemas.ts';
import { EVENT_SCHEMAS } from '../core/intercom/events.ts';
import { REPO } from './helpers/deno.ts';

const REGENERATE = 'regenerate: npm run build && node dist/runtimes/node/intercom-schemas.js';

describe('intercom JSON Schema files', () => {
  const generated = intercomJsonSchemas();
  const dir = path.join(REPO, SCHEMA_DIR);

  it('cover the anchor, the envelope and every event type hci reads', () => {
    expect(Object.keys(generated).sort()).toEqual(['code-anchor.schema.json', 'event.schema.json', ...Object.keys(EVENT_SCHEMAS).map((t) => `${t}.schema.json`)].sort());
    const relate = JSON.parse(generated['message_range_related.schema.json']);
    expect(relate.required).toEqual(expect.arrayContaining(['type', 'schema_version', 'thread_id', 'start_ordinal', 'end_ordinal', 'code_ref', 'source']));
    expect(relate.properties.source.enum).toEqual(['cli', 'mcp', 'agent']);
    expect(relate.properties.code_ref.required).toEqual(['file']);
  });

  it('are committed exactly as generated', () => {
    const committed = fs.readdirSync(dir).filter((n) => n.endsWith('.schema.json')).sort();
    expect(committed, REGENERATE).toEqual(Object.keys(generated).sort());
    for (const [name, text] of Object.entries(generated)) {
      expect(fs.readFileSync(path.join(dir, name), 'utf8'), `${name} differs from the zod schema; ${REGENERATE}`).toBe(text);
    }
  });
});
