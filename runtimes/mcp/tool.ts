// What an MCP tool is: the presentation of one verb of the verb table (core/service/verbs.ts) — its
// tool name, title, description written for a model, annotations, how its arguments may tighten the
// contract's request schema (bounds a model needs, unknown arguments refused) or be coerced before
// validation, the surface's defaults, the example a bad call's hint shows, and its text rendering.
// Everything else comes from the verb: the schemas, the call, the failure answer. Owns that shape
// and `boundTool`, which joins a presenter to its verb for the server (server.ts); the rows are
// tools.ts and intercom-tools.ts.
import { z } from 'zod';
import * as contract from '../../core/contract/index.ts';
import { VERBS, type CallContext, type VerbService, type VerbInput, type VerbInputSchema, type VerbName, type VerbOutput } from '../../core/service/index.ts';
import type { Tool } from './sdk/server.ts';

export type Annotations = { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };

export interface McpTool<V extends VerbName> {
  verb: V;
  /** The tool's stable name (never changes silently). */
  name: string;
  title: string;
  description: string;
  annotations: Annotations;
  /** The verb's request schema as a model sends it: the contract's (`(s) => s`), or tighter (never wider). */
  input(schema: VerbInputSchema<V>): z.ZodType<VerbInput<V>>;
  /** The answer schema the tool declares, when it says more than the verb's (status: the host fields are always there). */
  output?(c: typeof contract): z.ZodType<VerbOutput<V>>;
  /** Arguments as a model sends them, made to fit the schema before validation (a lone string for a list). */
  coerce?(raw: Record<string, unknown>): Record<string, unknown>;
  /** The surface's defaults, on a valid request. */
  prepare?(req: VerbInput<V>): VerbInput<V>;
  /** Arguments that show the call, for the hint of a bad call. */
  example: string;
  /** The answer as compact text (render.ts). */
  render(out: VerbOutput<V>): string;
}

/** Any tool of the table. */
export type AnyMcpTool = { [V in VerbName]: McpTool<V> }[VerbName];

export const readOnly: Annotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
export const writes: Annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A list argument: an array in the schema (never `string | array`: a union defeats generic clients), at most 50 entries. */
export const stringList = (of: z.ZodOptional<z.ZodArray<z.ZodString>>) => z.array(z.string()).max(50).optional().describe(of.description ?? '');

/** Lone strings under `keys` as one-item lists; everything else as sent (the schema judges it). */
export const coerceLists = (keys: readonly string[]) => (raw: Record<string, unknown>): Record<string, unknown> => {
  const out = { ...raw };
  for (const k of keys) if (typeof out[k] === 'string') out[k] = [out[k]];
  return out;
};

/** A tool joined to its verb: its listing, and one call from raw arguments to the answer and its text. */
export interface BoundTool {
  name: string;
  listing: Tool;
  /** The declared answer schema (the server checks answers against it). */
  output: z.ZodType;
  call(svc: VerbService, raw: Record<string, unknown>, ctx: CallContext): Promise<{ out: Record<string, unknown> & { status: string }; text: string }>;
}

export function boundTool<V extends VerbName>(t: McpTool<V>): BoundTool {
  const schemas = VERBS[t.verb].schemas(contract);
  const input = t.input(schemas.input);
  const output: z.ZodType = t.output ? t.output(contract) : schemas.output;
  return {
    name: t.name,
    listing: {
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: jsonSchema(input, 'input') as Tool['inputSchema'],
      outputSchema: jsonSchema(output, 'output') as Tool['outputSchema'],
      annotations: { title: t.title, ...t.annotations },
    },
    output,
    async call(svc, raw, ctx) {
      const parsed = input.safeParse(t.coerce ? t.coerce(raw) : raw);
      let out: VerbOutput<V>;
      if (parsed.success) out = await svc.call(t.verb, t.prepare ? t.prepare(parsed.data) : parsed.data, ctx);
      else {
        const issues = describeIssues(parsed.error);
        const error = { code: 'invalid_arguments', message: `invalid arguments for ${t.name}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`, issues };
        out = await svc.failure(t.verb, { error, hint: `see the ${t.name} input schema; e.g. ${t.example}` }, raw);
      }
      // Every answer says how fresh the index is, errors included (null only when there is no index).
      if (out.index === null) out.index = await svc.freshness();
      return { out, text: t.render(out) };
    },
  };
}

/**
 * JSON Schema for a tool list entry (draft-7, as the MCP SDK itself emits). Outputs are open: every
 * object admits fields it does not declare, so a newer server's additions never fail an older host.
 */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, {
    target: 'draft-7', io, unrepresentable: 'any',
    override: io === 'output' ? (ctx) => void (ctx.jsonSchema.additionalProperties === false && delete ctx.jsonSchema.additionalProperties) : undefined,
  }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

/** zod issues as a short list a model can act on. */
export function describeIssues(err: z.ZodError): Array<{ path: string; message: string }> {
  return err.issues.map((i) => {
    const where = i.path.map(String).join('.');
    let message = i.message;
    if (i.code === 'unrecognized_keys') message = `unknown argument${i.keys.length > 1 ? 's' : ''}: ${i.keys.join(', ')}`;
    else if (i.code === 'invalid_type' && /received undefined/.test(i.message)) message = `required (${i.expected})`;
    return { path: where, message };
  });
}
