// The intercom calls of the service (message ↔ code: find, relate, markers, messages) for every surface: one Intercom
// over the service's own workspace, opened on first use through the runtime's ServiceHost, with the
// surface's policy — where logs may be (MCP: only inside the workspace), who a relation is recorded
// as (`source`: cli, mcp, agent), hints worded for the surface, index freshness in every answer.
// The calls throw on failure (the verb table's caller answers with the verb's failure answer). Owns
// that policy only; matching and the log are core/intercom/, the shapes core/contract/intercom.ts.
import type { Intercom } from '../intercom/intercom.ts';
import type {
  FindRequest, IntercomFindAnswer, IntercomMarkersAnswer, IntercomMessagesAnswer, IntercomRelateAnswer, MarkersRequest, MessagesRequest, RelateCall,
} from '../contract/intercom.ts';
import type { IndexFreshness } from '../contract/common.ts';
import type { Surface } from '../contract/errors.ts';
import { HciError } from '../platform.ts';
import type { ServiceHost, SurfacePolicy } from './host.ts';
import type { WorkspaceGate } from './workspace-gate.ts';
import { tidyHint } from './views.ts';

export interface IntercomDeps {
  root: string;
  host: ServiceHost;
  surface: Surface;
  policy: SurfacePolicy;
  gate: WorkspaceGate;
  /** How current the index is, as the service reports it (pending changes included). */
  freshness(): Promise<IndexFreshness | null>;
  hint(h: string | undefined): string | undefined;
}

export class IntercomCalls {
  private opening: Promise<Intercom> | null = null;
  private intercom: Intercom | null = null;

  constructor(private readonly d: IntercomDeps) {}

  close(): void {
    this.intercom?.close();
    this.intercom = null;
  }

  /** Which messages of a thread relate to a code ref, best first. */
  find(req: FindRequest): Promise<IntercomFindAnswer> {
    return this.ask((ic) => ic.find(req));
  }

  /** The gutter of one file: a marker per related line range, with the ordinals there. */
  markers(req: MarkersRequest): Promise<IntercomMarkersAnswer> {
    return this.ask((ic) => ic.markers(req));
  }

  /** A thread's messages with their text (a conversation panel). */
  messages(req: MessagesRequest): Promise<IntercomMessagesAnswer> {
    return this.ask((ic) => ic.messages(req));
  }

  /** Appends one message_range_related event for the surface (its `source`). */
  relate(req: RelateCall): Promise<IntercomRelateAnswer> {
    return this.ask((ic) => ic.relate({ ...req, source: this.d.policy.relateSource }));
  }

  /** Runs one call on the Intercom and makes its answer this surface's: hint wording, freshness. Throws on failure. */
  private async ask<R extends { hint?: string }>(call: (ic: Intercom) => Promise<R>): Promise<R & { index: IndexFreshness | null }> {
    const ic = await this.open();
    // Intercom reads the index through the workspace: the gate keeps a first open of the store single.
    const res = await this.d.gate.serialized(() => call(ic), () => false);
    res.hint = this.d.hint(res.hint);
    return tidyHint({ ...res, index: await this.d.freshness() });
  }

  private open(): Promise<Intercom> {
    if (this.intercom) return Promise.resolve(this.intercom);
    const create = this.d.host.createIntercom;
    if (!create) return Promise.reject(new HciError('not_available', `intercom is not available under ${this.d.host.name}`, 'use the Node or Deno command line or MCP server'));
    this.opening ??= this.d.gate
      .workspace()
      .then((ws) => create(ws, this.d.root, { roots: this.d.policy.confineLogs ? [this.d.root] : undefined }))
      .then((ic) => (this.intercom = ic))
      .finally(() => (this.opening = null));
    return this.opening;
  }
}
