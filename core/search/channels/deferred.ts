// A channel whose code is loaded on first use: its name, hit kind and score field are known up
// front (the mode table and explain need them), its search code is imported by `prepare`, which the
// pipeline awaits before the synchronous read transaction (pipeline.ts prepareSearch). So a keyword
// search, the browser Worker's start chunk and a CLI start never load the literal channel's code.
// Owns the stand-in only; what the loaded channel does is its own file's.
import type { Channel, ChannelEntry } from './channel.ts';
import type { ParsedQuery } from '../query.ts';

type Shape = Pick<Channel, 'name' | 'hitKind' | 'scoreField'>;

export function deferredChannel(shape: Shape, load: () => Promise<Channel>): Channel {
  let loaded: Channel | null = null;
  const ready = (): Channel => {
    if (!loaded) throw new Error(`the ${shape.name} channel was asked before prepare() loaded it`);
    return loaded;
  };
  return {
    ...shape,
    async prepare(q: ParsedQuery) {
      loaded ??= await load();
      await loaded.prepare?.(q);
    },
    search: (session, q, pool) => ready().search(session, q, pool),
    widen: (session, q, pool, page) => ready().widen?.(session, q, pool, page) ?? null,
    explain: (entry: ChannelEntry) => ready().explain?.(entry) ?? {},
  };
}
