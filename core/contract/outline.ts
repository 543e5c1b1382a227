// A file's symbol tree and where a symbol is now: the outline request and answer, and resolve (a
// member key to its current location, or a file and line to the innermost member there). Owns these
// shapes; the lookups are core/search/symbols.ts.
import { z } from 'zod';
import { answerFields } from './common.ts';

export interface OutlineSymbol {
  kind: string;
  name: string;
  member_key?: string;
  start_line: number;
  end_line: number;
  children?: OutlineSymbol[];
}

export const outlineSymbol: z.ZodType<OutlineSymbol> = z.object({
  kind: z.string(),
  name: z.string(),
  member_key: z.string().optional(),
  start_line: z.number(),
  end_line: z.number(),
  get children() {
    return z.array(outlineSymbol).optional();
  },
});

export const outlineRequest = z.strictObject({
  path: z.string().min(1).describe('one file, workspace-relative (src/Web/Program.cs) or absolute inside the workspace'),
});

export const outlineResponse = z.object({
  status: z.enum(['ok', 'error']),
  path: z.string(),
  lang: z.string().optional(),
  symbols: z.array(outlineSymbol),
  ...answerFields,
});

export const symbolLocation = z.object({
  path: z.string(),
  kind: z.string(),
  name: z.string(),
  member_key: z.string().nullable(),
  start_line: z.number().describe('1-based, inclusive'),
  end_line: z.number().describe('1-based, inclusive'),
});

/** One of: member_key; name; or path and line. */
export const resolveRequest = z
  .strictObject({
    member_key: z.string().min(1).optional().describe('a member key from an outline or a hit (e.g. "Contoso.Shop.Catalog.CatalogService.GetAsync(int)"): where is it now?'),
    name: z.string().min(1).max(200).optional().describe('an identifier as written in code (CatalogService, GetAsync): every symbol defined with that name (go to definition)'),
    path: z.string().min(1).optional().describe('with line: a file, workspace-relative or absolute inside the workspace'),
    line: z.number().int().min(1).optional().describe('with path: a 1-based line; answers the innermost member that holds it'),
  })
  .refine((r) => [r.member_key !== undefined, r.name !== undefined, r.path !== undefined || r.line !== undefined].filter(Boolean).length === 1, {
    message: 'pass one of member_key, name, or path and line',
  })
  .refine((r) => (r.path === undefined) === (r.line === undefined), { message: 'path and line go together' });

export const resolveResponse = z.object({
  status: z.enum(['ok', 'empty', 'error']),
  locations: z.array(symbolLocation),
  ...answerFields,
});

export type OutlineRequest = z.infer<typeof outlineRequest>;
export type OutlineResponse = z.infer<typeof outlineResponse>;
export type SymbolLocation = z.infer<typeof symbolLocation>;
export type ResolveRequest = z.infer<typeof resolveRequest>;
export type ResolveResponse = z.infer<typeof resolveResponse>;
