// The handlers of the verbs that read the index without ranking (rows of verbs.ts): a file's outline,
// where a symbol is (resolve), and the browse calls (files, file, facets, tree: core/browse/), as the
// service answers them — paths checked against the root, freshness with pending changes, hints
// worded for the surface. Each throws on failure: the table's caller answers with the verb's failure
// answer. The reads are the workspace's (core/workspace.ts) and core/browse/'s.
import { HciError } from '../platform.ts';
import type { OutlineRequest, OutlineResponse, ResolveRequest, ResolveResponse } from '../contract/outline.ts';
import type { FacetsRequest, FacetsResponse, FileRequest, FileResponse, FilesRequest, FilesResponse } from '../contract/browse.ts';
import type { TreeRequest, TreeResponse } from '../contract/tree.ts';
import type { ServiceContext } from './context.ts';

export async function outline(cx: ServiceContext, args: OutlineRequest): Promise<OutlineResponse> {
  const rel = cx.paths.toRelative(args.path);
  if (rel === '' || rel.endsWith('/')) {
    throw new HciError('invalid_arguments', 'outline needs a file path, not a folder', 'pass one file, e.g. src/Web/Program.cs; use search with path:<folder> to explore a folder');
  }
  const ws = await cx.gate.workspace();
  const res = cx.current(await cx.gate.serialized(() => ws.outline(rel)));
  // Only a guard that keeps `\` as a name character (POSIX) lets one through: say how it was read.
  if (res.error?.code === 'not_indexed' && rel.includes('\\')) res.hint = [res.hint, '\\ is part of a file name here: separate folders with /'].filter(Boolean).join('; ');
  return res;
}

/** Where a member key is now; symbols defined with a name; or, with path and line, the innermost member there. */
export async function resolve(cx: ServiceContext, args: ResolveRequest): Promise<ResolveResponse> {
  let query: { member_key: string } | { name: string } | { path: string; line: number };
  const given = [args.member_key !== undefined, args.name !== undefined, args.path !== undefined || args.line !== undefined].filter(Boolean).length;
  if (given === 1 && args.member_key !== undefined) query = { member_key: args.member_key };
  else if (given === 1 && args.name !== undefined) query = { name: args.name };
  else if (given === 1 && args.path !== undefined && args.line !== undefined) query = { path: cx.paths.toRelative(args.path), line: args.line };
  else throw new HciError('invalid_request', 'resolve takes a member_key, a name, or a path and a line', 'e.g. {"member_key": "Shop.OrderService.Place(int)"}, {"name": "OrderService"} or {"path": "src/OrderService.cs", "line": 12}');
  const ws = await cx.gate.workspace();
  return cx.current(await cx.gate.serialized(() => ws.resolve(query)));
}

/** The indexed files under a folder (a quick file finder). */
export async function files(cx: ServiceContext, args: FilesRequest): Promise<FilesResponse> {
  const prefix = args.prefix === undefined ? undefined : cx.paths.toRelative(args.prefix, 'prefix');
  const [ws, { listFiles }] = await Promise.all([cx.gate.workspace(), import('../browse/files.ts')]);
  const { value, index } = await cx.gate.serialized(() => ws.read((db) => listFiles(db, { ...args, prefix })));
  return cx.current({ ...value, index });
}

/** One file's indexed text, kinds and paired files (a viewer). */
export async function file(cx: ServiceContext, args: FileRequest): Promise<FileResponse> {
  const path = cx.paths.toRelative(args.path);
  const [ws, { readIndexedFile }] = await Promise.all([cx.gate.workspace(), import('../browse/files.ts')]);
  const { value, index } = await cx.gate.serialized(() => ws.read((db, codec) => readIndexedFile(db, { ...args, path }, codec)));
  return cx.current({ ...value, index });
}

/** How a query's matches spread over extensions and languages (filter chips with counts). */
export async function facets(cx: ServiceContext, args: FacetsRequest): Promise<FacetsResponse> {
  const req: FacetsRequest = {
    ...args,
    paths: args.paths?.map((p) => cx.paths.toRelative(p, 'paths filter')),
    exclude_paths: args.exclude_paths?.map((p) => cx.paths.toRelative(p, 'exclude_paths filter')),
  };
  const [ws, { countFacets, prepareFacets }] = await Promise.all([cx.gate.workspace(), import('../browse/facets.ts')]);
  await prepareFacets(req);
  const { value, index } = await cx.gate.serialized(() => ws.read((db) => countFacets(db, req)));
  return cx.current({ ...value, index });
}

/** One folder of the index, a level at a time: its subfolders with counts and its own files (a file tree). */
export async function tree(cx: ServiceContext, args: TreeRequest): Promise<TreeResponse> {
  const folder = args.folder === undefined ? undefined : cx.paths.toRelative(args.folder, 'folder');
  const [ws, { listFolder }] = await Promise.all([cx.gate.workspace(), import('../browse/tree.ts')]);
  const { value, index } = await cx.gate.serialized(() => ws.read((db) => listFolder(db, { ...args, folder })));
  return cx.current({ ...value, index });
}
