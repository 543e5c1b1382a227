// A text as one model's token ids: the token stream ModelTokenizer gives (tokens.ts), each token
// looked up in the model's vocabulary, without cutting a string per identifier or per part. The
// identifier-like runs are scanned with a hash of their code units (word-table.ts forEachRun) and
// found in an open-addressing table of runs seen before, whose value is the run's offset in a pool
// holding its part count, then each kept part's id (-1: a part the vocabulary lacks). A run is
// split and its parts looked up once; an index pass embeds ~40k chunk texts whose runs repeat
// endlessly. Owns that lookup (the table and its records are word-table.ts's RunTable and RunParts);
// the splitting is the tokenizer's, the vocabulary the model's.
import { ModelTokenizer } from './tokens.ts';
import { forEachRun, RunParts, RunTable } from './word-table.ts';

/** Runs kept before the table starts over (bounds memory on a corpus of many distinct names). */
const MAX_RUNS = 200_000;

/** What ids() found in one text: `n` ids in `ids[0 … n)`, of `tokens` tokens kept, `oov` of them unknown. */
export interface TokenIdRun {
  ids: Int32Array;
  n: number;
  tokens: number;
  oov: number;
}

export class TokenIds {
  private readonly tokenizer = new ModelTokenizer();
  private runs = new RunTable();
  private readonly pool = new RunParts();
  private readonly out: TokenIdRun = { ids: new Int32Array(256), n: 0, tokens: 0, oov: 0 };

  /** `maxRuns`: distinct runs kept before the table starts over. */
  constructor(private readonly idOf: (token: string) => number | undefined, private readonly maxRuns = MAX_RUNS) {}

  /**
   * The ids of `text`'s known tokens, in order, with the counts of kept and unknown tokens. The
   * answer (and its `ids` array) is reused by the next call: read it before calling again.
   */
  ids(text: string): TokenIdRun {
    const out = this.out;
    out.n = 0;
    out.tokens = 0;
    out.oov = 0;
    forEachRun(text, (start, end, h) => {
      let at = this.runs.get(text, start, end - start, h);
      if (at < 0) at = this.add(text, start, end, h);
      const pool = this.pool.data;
      const stop = at + 1 + pool[at];
      out.tokens += pool[at];
      for (let i = at + 1; i < stop; i++) {
        const id = pool[i];
        if (id < 0) {
          out.oov++;
          continue;
        }
        if (out.n === out.ids.length) {
          const grown = new Int32Array(out.ids.length * 2);
          grown.set(out.ids);
          out.ids = grown;
        }
        out.ids[out.n++] = id;
      }
    });
    return out;
  }

  /** Splits a run not seen before, stores its parts' ids, and returns their offset in the pool. */
  private add(text: string, start: number, end: number, h: number): number {
    if (this.runs.size >= this.maxRuns) {
      this.runs = new RunTable();
      this.pool.reset();
    }
    const at = this.pool.append(this.tokenizer.split(text.slice(start, end)), (part) => this.idOf(part) ?? -1);
    this.runs.set(text, start, end - start, h, at);
    return at;
  }
}
