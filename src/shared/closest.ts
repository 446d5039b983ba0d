/**
 * "Did you mean …?": the candidate nearest to what someone typed, for messages that refuse an unknown id
 * (a requirement, a control, a framework). Pure, so the daemon and the clients can both use it.
 *
 * Distance is the optimal string alignment form of Damerau–Levenshtein (insertions, deletions, substitutions
 * and swaps of two neighbours each cost 1), compared without case so that `a.2.3` finds `A.2.3`. A candidate
 * is offered only when it is near enough to be a slip rather than another id: at most a third of the longer
 * of the two strings, and never more than `maxDistance`.
 */

/** The edit distance between two strings (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  // Three rows suffice: the one before the previous is needed for a swap.
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, before[j - 2] + 1);
      }
      current[j] = best;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length];
}

/**
 * The candidate nearest to `typed` (ties: the first in the candidates' order), or undefined when none is
 * near enough to be a slip. `typed` itself, if among the candidates, is never offered.
 */
export function closest(
  typed: string,
  candidates: Iterable<string>,
  options: { maxDistance?: number } = {},
): string | undefined {
  const wanted = typed.trim().toLowerCase();
  if (wanted.length === 0) return undefined;
  const ceiling = options.maxDistance ?? 3;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === typed) continue;
    const lowered = candidate.toLowerCase();
    // Not worth computing when the lengths alone put it out of reach.
    if (Math.abs(lowered.length - wanted.length) > Math.min(ceiling, bestDistance)) continue;
    const distance = editDistance(wanted, lowered);
    const limit = Math.min(ceiling, Math.max(1, Math.floor(Math.max(wanted.length, lowered.length) / 3)));
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
