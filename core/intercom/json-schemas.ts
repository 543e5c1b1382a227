// The JSON Schema files of the log format, generated from the zod schemas of events.ts (the one
// declaration): what `core/intercom/schemas/*.schema.json` must hold, as text. Writing the files
// belongs to a script (runtimes/node/intercom-schemas.ts); a test compares them with this output.
import { z } from 'zod';
import { codeAnchorSchema, eventEnvelopeSchema, messageAddedSchema, messageEditedSchema, messageRangeRelatedSchema } from './events.ts';

/** Where the committed files live, relative to the repository root. */
export const SCHEMA_DIR = 'core/intercom/schemas';

const SOURCES: Record<string, z.ZodType> = {
  'code-anchor': codeAnchorSchema,
  event: eventEnvelopeSchema,
  message_added: messageAddedSchema,
  message_edited: messageEditedSchema,
  message_range_related: messageRangeRelatedSchema,
};

/** File name → JSON text (2-space indent, trailing newline) for every schema file. */
export function intercomJsonSchemas(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, schema] of Object.entries(SOURCES)) {
    // io 'input': the shape a writer must produce (defaults may be omitted).
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
    out[`${name}.schema.json`] = `${JSON.stringify(json, null, 2)}\n`;
  }
  return out;
}
