// One folder of the index, a level at a time: the request (a folder) and the answer (its subfolders,
// each with the number of indexed files below it, and its own files), for a file tree that opens a
// folder when asked (the explorer) or an agent looking around a repository before it searches. Owns
// these shapes; the read is core/browse/tree.ts, the verb's row core/service/verbs.ts.
import { z } from 'zod';
import { answerFields } from './common.ts';
import { fileEntry } from './browse.ts';
import { FILES_LIMIT } from './limits.ts';

export const treeRequest = z.strictObject({
  folder: z.string().optional().describe('a workspace-relative folder, e.g. "src/Web/" (default: the workspace root)'),
  limit: z.number().int().min(1).max(FILES_LIMIT.max).optional().describe(`at most this many of the folder's own files, in path order (default ${FILES_LIMIT.default}); subfolders are always all listed`),
});

export const treeFolder = z.object({
  path: z.string().describe('workspace-relative, with a trailing slash: pass it as folder to open it'),
  name: z.string(),
  files: z.number().describe('indexed files below it, at any depth'),
});

export const treeResponse = z.object({
  status: z.enum(['ok', 'empty', 'error']),
  folder: z.string().describe('the folder listed: "" for the root, else with a trailing slash'),
  folders: z.array(treeFolder).describe('its subfolders that hold indexed files, by name'),
  files: z.array(fileEntry).describe('its own indexed files, by name'),
  total: z.number().describe('indexed files below the folder, at any depth'),
  truncated: z.boolean().describe('true when limit cut its own files'),
  ...answerFields,
});

export type TreeRequest = z.infer<typeof treeRequest>;
export type TreeFolder = z.infer<typeof treeFolder>;
export type TreeResponse = z.infer<typeof treeResponse>;
