// The intercom calls of the service (message ↔ code: find, relate, markers, messages) for every surface: one Intercom
// over the service's own workspace, opened on first use through the runtime's ServiceHost, with the
// surface's policy — where logs may be (MCP: only inside the workspace), who a relation is recorded
// as (`source`: cli, mcp, agent), hints worded for the surface, index freshness in every answer.
// Owns that policy only; matching and the log are core/intercom/, the shapes core/contract/intercom.ts.
import type { Intercom } from '../intercom/intercom.ts';
import { INTERCOM_CONTRACT_VERSION } from '../contract/version.ts';
import type {
  FindRequest, IntercomFindAnswer, IntercomMarkersAnswer, IntercomMessagesAnswer, IntercomRelateAnswer, MarkersRequest, MessagesRequest, RelateRequest,
} from '../contract/intercom.ts';
import type { IndexFreshness } from '../contract/common.ts';
import type { Surface } from '../contract/errors.ts';
import { HciError } from '../platform.ts';
import type { ServiceHost, SurfacePolicy } from './host.ts';
import type { WorkspaceGate } from './workspace-gate.ts';
import { errorFields, tidyHint } from './views.ts';

/** A relate request as a surface passes it: who declares it is the surface's to say. */
export type IntercomRelateCall = Omit<RelateRequest, 'source'>;

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
    return this.ask<IntercomFindAnswer>((ic) => ic.find(req), () => ({
      contract_version: INTERCOM_CONTRACT_VERSION, status: 'error', thread_id: String(req?.thread_id ?? ''), code_ref: typeof req?.code_ref === 'string' ? req.code_ref : null,
      targets: [], matches: [], total: 0, truncated: false, log: null, sidecar: null, index_generation: null, took_ms: 0, index: null,
    }));
  }

  /** The gutter of one file: a marker per related line range, with the ordinals there. */
  markers(req: MarkersRequest): Promise<IntercomMarkersAnswer> {
    return this.ask<IntercomMarkersAnswer>((ic) => ic.markers(req), () => ({
      contract_version: INTERCOM_CONTRACT_VERSION, status: 'error', thread_id: String(req?.thread_id ?? ''), file: String(req?.file ?? ''),
      markers: [], log: null, sidecar: null, index_generation: null, took_ms: 0, index: null,
    }));
  }

  /** A thread's messages with their text (a conversation panel). */
  messages(req: MessagesRequest): Promise<IntercomMessagesAnswer> {
    return this.ask<IntercomMessagesAnswer>((ic) => ic.messages(req), () => ({
      contract_version: INTERCOM_CONTRACT_VERSION, status: 'error', thread_id: String(req?.thread_id ?? ''),
      messages: [], total: 0, threads: [], log: null, took_ms: 0, index: null,
    }));
  }

  /** Appends one message_range_related event for the surface (its `source`). */
  relate(req: IntercomRelateCall): Promise<IntercomRelateAnswer> {
    return this.ask<IntercomRelateAnswer>((ic) => ic.relate({ ...req, source: this.d.policy.relateSource }), () => ({
      contract_version: INTERCOM_CONTRACT_VERSION, status: 'error', thread_id: String(req?.thread_id ?? ''),
      start_ordinal: null, end_ordinal: null, ordinals: [], code_ref: null, log: null, took_ms: 0, index: null,
    }));
  }

  /** Runs one call on the Intercom and makes its answer this surface's: hint wording, freshness. */
  private async ask<R extends { index: IndexFreshness | null; hint?: string }>(
    call: (ic: Intercom) => Promise<Omit<R, 'index'>>,
    failed: () => R,
  ): Promise<R> {
    const t0 = Date.now();
    let res: R;
    try {
      const ic = await this.open();
      // Intercom reads the index through the workspace: the gate keeps a first open of the store single.
      res = { ...(await this.d.gate.serialized(() => call(ic), () => false)), index: null } as R;
      res.hint = this.d.hint(res.hint);
    } catch (e) {
      res = { ...failed(), took_ms: Date.now() - t0, ...errorFields(e, this.d.surface) };
    }
    res.index = await this.d.freshness();
    return tidyHint(res);
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
