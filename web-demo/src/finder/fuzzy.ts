// Fuzzy matching for the quick file finder: the typed characters in order in the path, scored for
// matches in the file name, at word starts (after / . _ - or a capital) and in runs. Owns the
// scoring only.
export interface FuzzyHit {
  score: number;
  /** Indexes of the matched characters in the path (for marking them). */
  at: number[];
}

const isStart = (p: string, i: number) => i === 0 || '/._- '.includes(p[i - 1]) || (p[i] >= 'A' && p[i] <= 'Z' && p[i - 1] >= 'a' && p[i - 1] <= 'z');

export function fuzzyMatch(path: string, typed: string): FuzzyHit | null {
  const q = typed.replace(/\s+/g, '').toLowerCase();
  if (!q) return { score: 0, at: [] };
  const lower = path.toLowerCase();
  const nameStart = path.lastIndexOf('/') + 1;
  // Prefer matching inside the file name: try it from the name's start first, else anywhere.
  const attempt = (from: number): FuzzyHit | null => {
    const at: number[] = [];
    let i = from;
    for (const ch of q) {
      const j = lower.indexOf(ch, i);
      if (j < 0) return null;
      at.push(j);
      i = j + 1;
    }
    let score = 0;
    at.forEach((j, k) => {
      score += 1;
      if (j >= nameStart) score += 2;
      if (isStart(path, j)) score += 3;
      if (k > 0 && at[k - 1] === j - 1) score += 4;
    });
    if (lower.slice(nameStart).startsWith(q)) score += 10;
    return { score: score - path.length * 0.01, at };
  };
  const inName = attempt(nameStart);
  const anywhere = attempt(0);
  if (!inName) return anywhere;
  if (!anywhere) return inName;
  return inName.score >= anywhere.score ? inName : anywhere;
}
