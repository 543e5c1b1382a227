// One file's stored text as a literal or regex search checks it: the text (lines joined by \n) and
// what the checks derive from it — whether it is ASCII, its lowercase form, where its lines start,
// the file's and its chunks' rows once it matched — each made on first use and kept with the text, so a cached file (text-cache.ts) pays for them once.
// Owns those derived forms only; which lines match is matcher.ts's and line-filter.ts's.

const ASCII = /^[\x00-\x7f]*$/;

/** A chunk's row as a search reads it: id, ordinal, start line, end line, symbol kind, symbol name. */
export type ChunkFacts = [id: number, ordinal: number, startLine: number, endLine: number, symbolKind: string | null, symbolName: string | null];

/** The rows a search reads about a file once it matches (its files row and its chunks, by ordinal). */
export interface FileFacts {
  path: string;
  hash: string;
  lang: string;
  flags: number;
  chunks: ChunkFacts[];
}

/** Code units a chunk's row is counted as (the cache's bound is in code units). */
const CHUNK_ROW_CHARS = 64;

/** One file's stored text (lines joined by \n) and what searches derive from it, made once. */
export class FileText {
  private isAscii: boolean | undefined;
  private lowerText: string | undefined;
  private lineStarts: number[] | undefined;
  private fileFacts: FileFacts | undefined;
  /** Code units held: the text and the derived forms made so far. */
  held: number;
  /** Called with the code units a derived form adds (the cache's bookkeeping). */
  onGrow: ((chars: number) => void) | null = null;

  /** `ascii`: whether the text is all ASCII, when the reader knows it (file-data.ts: from the byte count). */
  constructor(
    readonly text: string,
    ascii?: boolean,
  ) {
    this.held = text.length;
    this.isAscii = ascii;
  }

  private grew(chars: number): void {
    this.held += chars;
    this.onGrow?.(chars);
  }

  /** Whether every character is ASCII (then lowercasing and RE2's case folding agree). */
  get ascii(): boolean {
    return (this.isAscii ??= ASCII.test(this.text));
  }

  /** The text with ASCII letters lowercased (toLowerCase: only meaningful for matching when `ascii`). */
  get lower(): string {
    if (this.lowerText === undefined) {
      this.lowerText = this.text.toLowerCase();
      this.grew(this.lowerText.length);
    }
    return this.lowerText;
  }

  /** Offset of each line's first character (line n, 1-based, starts at starts[n - 1]). */
  get starts(): number[] {
    if (this.lineStarts === undefined) {
      const starts = [0];
      const t = this.text;
      for (let nl = t.indexOf('\n'); nl >= 0; nl = t.indexOf('\n', nl + 1)) starts.push(nl + 1);
      this.lineStarts = starts;
      this.grew(starts.length * 2);
    }
    return this.lineStarts;
  }

  /** The file's rows, once a search has read them (`facts` then keeps them with the text). */
  get facts(): FileFacts | undefined {
    return this.fileFacts;
  }

  set facts(f: FileFacts | undefined) {
    if (this.fileFacts || !f) return;
    this.fileFacts = f;
    this.grew(f.path.length + f.chunks.length * CHUNK_ROW_CHARS);
  }
}
