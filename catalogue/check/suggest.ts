import { distance } from 'fastest-levenshtein';

/**
 * 'Did you mean …': the candidate closest to a misspelt name by edit distance, when it is close
 * enough to be a likely typo (two edits, or a third of a long word, never more than 4), so a
 * wholly different name gets no misleading hint.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const limit = word.length < 4 ? 1 : Math.min(4, Math.max(2, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    // Case slips (Email vs email) count as one edit whatever their number.
    const d = candidate.toLowerCase() === word.toLowerCase() ? 1 : distance(word, candidate);
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** Every dotted key with a string value in a merged locale ('login.fields.email'). */
export function flattenKeys(node: unknown, prefix = '', out: string[] = []): string[] {
  if (node === null || typeof node !== 'object') return out;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.push(path);
    else flattenKeys(value, path, out);
  }
  return out;
}
