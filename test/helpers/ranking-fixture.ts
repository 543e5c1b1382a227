// Shared by the ranking tests: a temp workspace opened with any settings (every workspace opened is
// closed in `close`), and C# sources that say a word a chosen number of times in bodies of one length.
import { openWorkspace } from '../../runtimes/node/index.ts';
import type { HciWorkspace } from '../../core/workspace.ts';
import { createTmpWorkspace, type TmpWorkspace } from './tmp-workspace.ts';

export const cs = (ns: string, body: string) => `namespace Contoso.${ns};\n\n${body}\n`;

/** A class whose one method body mentions `word` `times` times, padded to `length` lines so bodies compare. */
export function mentions(ns: string, cls: string, method: string, word: string, times: number, length = 6): string {
  const lines = Array.from({ length }, (_, i) => (i < times ? `        // step ${i}: the ${word} runs here` : `        // step ${i}: nothing special runs here`));
  return cs(ns, `public sealed class ${cls}\n{\n    public void ${method}()\n    {\n${lines.join('\n')}\n    }\n}`);
}

export class RankingFixture {
  private ws: TmpWorkspace | null = null;
  private readonly opened: HciWorkspace[] = [];
  /** Settings every workspace of this fixture is opened with (chunking ones must not change between opens). */
  private base: Record<string, unknown> = {};

  /** Writes the files and indexes them (with default settings, or `base` and defaults); returns the first workspace. */
  async create(files: Record<string, string>, base: Record<string, unknown> = {}): Promise<HciWorkspace> {
    this.base = base;
    this.ws = await createTmpWorkspace(files);
    const w = await this.open();
    await w.index();
    return w;
  }

  /** The same workspace opened again with other settings (its index is shared). */
  async open(settings: Record<string, unknown> = {}): Promise<HciWorkspace> {
    const w = await openWorkspace(this.ws!.root, { settings: { ...this.base, ...settings } });
    this.opened.push(w);
    return w;
  }

  /** The workspace folder (after create). */
  get root(): string {
    return this.ws!.root;
  }

  async close(): Promise<void> {
    for (const w of this.opened) w.close();
    await this.ws?.cleanup();
  }
}
