// The page's one connection to the hci Worker (runtimes/browser, used from source): started once,
// shared by every part of the app. Owns starting it and fanning its events out; what to call is the
// controllers' business.
import { connectHci, type HciClient, type WorkerEvent } from '../../../runtimes/browser/client.ts';

const worker = new Worker(new URL('../../../runtimes/browser/worker.ts', import.meta.url), { type: 'module', name: 'hci' });

export const hci: Promise<HciClient> = connectHci(worker);

const listeners = new Set<(e: WorkerEvent) => void>();

void hci.then((c) => c.onEvent((e) => listeners.forEach((l) => l(e))));

export function onWorkerEvent(l: (e: WorkerEvent) => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
