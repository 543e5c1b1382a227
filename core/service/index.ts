// The host-neutral service layer: the verbs every surface offers (the verb table, verbs.ts: search,
// similar, explain, outline, resolve, the browse calls, status, reindex, watch, intercom) and the
// indexing run, with background tasks, first build on search, freshness with pending changes and
// hints worded per surface. Runtimes implement ServiceHost; protocols (runtimes/mcp, runtimes/cli,
// the browser Worker) derive their calls from the verb table and turn answers into their wire form.
export { HciService } from './service.ts';
export { Federation, repoName, repoNames, type FederationMember, type FederationOptions, type VerbService } from './federation.ts';
export { LocalRepoSearch, type RepoSearch, type RepoSearchPool } from './repo-search.ts';
export { VERBS, VERB_NAMES, type VerbName, type VerbInput, type VerbOutput, type VerbInputSchema, type VerbOutputSchema, type VerbRow, type Failure } from './verbs.ts';
export { SURFACES, type CallContext, type HostWatcher, type ServiceHost, type ServiceOptions, type SurfacePolicy, type WatchPreference, type WatcherParams } from './host.ts';
export { normalizeRelative, outsideWorkspace, relativePathGuard, type PathGuard } from './paths.ts';
export { toErrorInfo, viewTask } from './views.ts';
export type { RunOptions } from './indexing.ts';
