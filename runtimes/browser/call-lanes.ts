// Lanes of calls to the hci Worker where only the newest matters: a page typing into the search box
// sends every keystroke's search at once, in its lane, and a call still waiting to run when a newer
// one of its lane arrives answers `superseded` without running (the page shows the newest
// keystroke's answer only). Owns that rule; which calls share a lane is the page's (it names the
// lane), running them is worker-api.ts's.
import { HciError } from '../../core/platform.ts';

/** The next task of this thread's event loop: a message already posted to the Worker is handled before it. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

export class CallLanes {
  /** The newest call of each lane (its sequence number) not yet run. */
  private readonly newest = new Map<string, number>();
  private seq = 0;

  /**
   * Waits for a call of `lane` to take its turn: one task later, so that calls posted meanwhile (keys
   * typed while an earlier search ran) are seen first; rejects with `superseded` when a newer call of
   * the lane came in by then.
   */
  async turn(lane: string): Promise<void> {
    const mine = ++this.seq;
    this.newest.set(lane, mine);
    await nextTask();
    if (this.newest.get(lane) !== mine) {
      throw new HciError('superseded', `a newer call in lane "${lane}" came before this one ran: it did not run`, 'only the newest call of a lane answers; nothing to do');
    }
    this.newest.delete(lane);
  }
}
