// Handing a workspace from one tab to another. A workspace's OPFS area can be held by one Worker of the
// origin at a time (opfs-storage.ts); a tab that wants it anyway asks on a BroadcastChannel, and the
// Worker holding it closes it (the page there hears `released`). Owns only the asking and hearing; the
// taking (Web Lock, access handles, waiting) is opfs-storage.ts, what closing means sessions.ts.
const CHANNEL = 'hci-workspaces';

interface ReleaseRequest {
  type: 'release';
  key: string;
}

export class TakeOverChannel {
  private readonly channel: BroadcastChannel | null;

  /** `release(key)` runs when another tab asks for a workspace (it does nothing when `key` is not open here). */
  constructor(readonly release: (key: string) => Promise<void>) {
    this.channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
    this.channel?.addEventListener('message', (ev: MessageEvent) => {
      const m = ev.data as Partial<ReleaseRequest> | null;
      if (m?.type === 'release' && typeof m.key === 'string') void release(m.key).catch(() => {});
    });
  }

  /** Asks every other Worker of this origin to let go of `key` (this one never hears its own message). */
  ask(key: string): void {
    this.channel?.postMessage({ type: 'release', key } satisfies ReleaseRequest);
  }
}
