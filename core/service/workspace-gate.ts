// The service's one workspace: opened on first use (a bad settings file is retried on every call
// until fixed), and the gate for calls that may be the first to open its index store — until the
// store is open such calls run one at a time (two concurrent first opens would each create a
// connection); afterwards freely. Owns only that.
import type { HciWorkspace } from '../workspace.ts';

export class WorkspaceGate {
  private ws: HciWorkspace | null = null;
  private opening: Promise<HciWorkspace> | null = null;
  /** Set once this process has the index store open: from then on calls may run concurrently. */
  private storeOpen = false;
  private gate: Promise<unknown> = Promise.resolve();

  constructor(private readonly open: () => Promise<HciWorkspace>) {}

  /** The workspace, opened on first use. */
  workspace(): Promise<HciWorkspace> {
    if (this.ws) return Promise.resolve(this.ws);
    this.opening ??= this.open().then(
      (ws) => {
        this.ws = ws;
        this.opening = null;
        return ws;
      },
      (e) => {
        this.opening = null;
        throw e;
      },
    );
    return this.opening;
  }

  /** Progress from an indexing run comes after the store is open and the indexer claimed. */
  markStoreOpen(): void {
    this.storeOpen = true;
  }

  /**
   * Runs a call that may be the first to open the index store (see the module comment). `opened`
   * says whether the answer shows an open store (default: any answer with an index).
   */
  async serialized<T>(fn: () => Promise<T>, opened?: (r: T) => boolean): Promise<T> {
    if (this.storeOpen) return fn();
    const prev = this.gate;
    let release!: () => void;
    this.gate = new Promise<void>((r) => (release = r));
    try {
      await prev;
      const out = await fn();
      if (opened ? opened(out) : true) this.storeOpen = this.storeOpen || storeLooksOpen(out);
      return out;
    } finally {
      release();
    }
  }

  close(): void {
    this.ws?.close();
    this.ws = null;
  }
}

function storeLooksOpen(out: unknown): boolean {
  const s = (out as { status?: string; index?: unknown } | null)?.status;
  return s !== 'no_index' && s !== 'error' && (out as { index?: unknown }).index != null;
}
