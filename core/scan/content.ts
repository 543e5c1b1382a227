// Byte → text classification (binary probe, BOMs, UTF-8/UTF-16 decoding) and the one line-splitting
// rule every line number in the product is based on. Reading bytes and acting on the result
// (counting 'binary' skips, chunking) belong to the indexer.

export type ContentClass =
  | { kind: 'binary' }
  | {
      kind: 'text';
      text: string;
      /** The bytes were not valid in their encoding (UTF-8, or UTF-16 when a UTF-16 BOM is present); bad sequences became U+FFFD. */
      invalidUtf8: boolean;
      /** A byte-order mark (UTF-8 or UTF-16) was present and stripped. */
      bom: boolean;
    };

const utf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const utf8Fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decode(encoding: 'utf-8' | 'utf-16le' | 'utf-16be', bytes: Uint8Array): { text: string; invalid: boolean } {
  const loose = encoding === 'utf-8' ? utf8 : new TextDecoder(encoding, { fatal: false, ignoreBOM: true });
  const text = loose.decode(bytes);
  // Only a U+FFFD in the output can mean invalid input; confirm with a strict decoder only then.
  if (!text.includes('\uFFFD')) return { text, invalid: false };
  const strict = encoding === 'utf-8' ? utf8Fatal : new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
  try {
    strict.decode(bytes);
    return { text, invalid: false };
  } catch {
    return { text, invalid: true };
  }
}

/**
 * Binary when a NUL byte occurs within the first probeBytes (UTF-16 files with a BOM are text, not
 * binary; UTF-32 is treated as binary). The returned text keeps its line endings.
 */
export function classifyContent(bytes: Uint8Array, probeBytes: number): ContentClass {
  const b0 = bytes[0], b1 = bytes[1];
  if (b0 === 0xff && b1 === 0xfe) {
    if (bytes[2] === 0 && bytes[3] === 0) return { kind: 'binary' }; // UTF-32 LE
    const { text, invalid } = decode('utf-16le', bytes.subarray(2));
    return { kind: 'text', text, invalidUtf8: invalid, bom: true };
  }
  if (b0 === 0xfe && b1 === 0xff) {
    const { text, invalid } = decode('utf-16be', bytes.subarray(2));
    return { kind: 'text', text, invalidUtf8: invalid, bom: true };
  }
  const bom = b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  const probe = Math.min(body.length, Math.max(0, probeBytes));
  for (let i = 0; i < probe; i++) {
    if (body[i] === 0) return { kind: 'binary' };
  }
  const { text, invalid } = decode('utf-8', body);
  return { kind: 'text', text, invalidUtf8: invalid, bom };
}

/**
 * Splits on \r\n, \n or \r. A trailing line break does not add an empty last line; '' has no
 * lines. Line i (1-based) of the product is element i - 1.
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Offsets where each line (as splitLines counts them) starts; use with lineAt to turn a character
 * offset into a 1-based line number without splitting the text.
 */
export function lineStarts(text: string): number[] {
  const starts = [0];
  if (!text.includes('\r')) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** 1-based line number of a character offset, given lineStarts(text). */
export function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0, hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
