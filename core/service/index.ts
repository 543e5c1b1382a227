// The host-neutral service layer: the calls every surface makes (search, explain, outline, resolve,
// status, index/reindex, watch, intercom find/relate) with background tasks, first build on search,
// freshness with pending changes and hints worded per surface. Runtimes implement ServiceHost; protocols (runtimes/mcp,
// runtimes/cli, the browser Worker) turn requests into these calls and answers into their wire form.
export { HciService, type StatusAnswer } from './service.ts';
export { SURFACES, type CallContext, type HostWatcher, type ServiceHost, type ServiceOptions, type SurfacePolicy, type WatchPreference, type WatcherParams } from './host.ts';
export { normalizeRelative, outsideWorkspace, relativePathGuard, type PathGuard } from './paths.ts';
export { toErrorInfo, viewTask } from './views.ts';
export type { RunOptions } from './indexing.ts';
export type { IntercomRelateCall } from './intercom.ts';
