// What a file's size does to it: indexed whole (parsed into its structure), indexed as plain line
// windows, or skipped as too large. A file up to `max_indexed_file_bytes` is parsed as usual; one of
// a `large_file_langs` language up to `large_file_max_bytes` (the hard cap) is cut into line windows
// without a parse, so a big resource dictionary, icon set or generated file still answers for the
// keys it defines (FluentAvalonia's 559 KiB theme dictionary holds 4,743 resource keys); the rest is
// skipped (`too_large`). Owns the rule only: the walk applies it to sizes, the indexer to bytes read.
import type { Settings } from '../settings.ts';

export type SizeVerdict = 'whole' | 'windows' | 'too_large';

export type SizeSettings = Pick<Settings, 'max_indexed_file_bytes' | 'large_file_max_bytes' | 'large_file_langs'>;

export function sizeVerdict(s: SizeSettings, lang: string, bytes: number): SizeVerdict {
  if (bytes <= s.max_indexed_file_bytes) return 'whole';
  return bytes <= s.large_file_max_bytes && s.large_file_langs.includes(lang) ? 'windows' : 'too_large';
}

/** The most bytes a pass reads of one file (one more byte tells a file that grew past it). */
export function maxReadBytes(s: SizeSettings): number {
  return s.large_file_langs.length ? Math.max(s.max_indexed_file_bytes, s.large_file_max_bytes) : s.max_indexed_file_bytes;
}
