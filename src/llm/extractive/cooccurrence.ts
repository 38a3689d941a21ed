/**
 * Terms that stand together in the document count as related (#29). A question names a thing one
 * way ("Frédéric", "the Duchy") and the sentence that answers it another ("Chopin", "Normandy");
 * where the passages found keep writing the two in the same sentences, the one stands for the
 * other. Read from the passages themselves, so it holds for any document and any wording, and costs
 * one pass over sentences already split.
 */

// A pair must share this many sentences, and this share of the sentences of each, to be companions:
// mutual, so a word every sentence has ("film" in an article about a film) is nobody's companion.
const MIN_SHARED = 2;
const MIN_SHARE = 0.3;

/** For each of `terms`, the terms that stand with it in `sentences` (each a sentence's term set). */
export function companions(terms: string[], sentences: Set<string>[]): Map<string, Set<string>> {
  const df = new Map<string, number>();
  for (const s of sentences) for (const t of s) df.set(t, (df.get(t) ?? 0) + 1);
  const out = new Map<string, Set<string>>();
  for (const q of terms) {
    const own = sentences.filter((s) => s.has(q));
    if (own.length < MIN_SHARED) continue;
    const shared = new Map<string, number>();
    for (const s of own) for (const t of s) if (t !== q) shared.set(t, (shared.get(t) ?? 0) + 1);
    const mates = [...shared]
      .filter(([t, n]) => n >= MIN_SHARED && n >= MIN_SHARE * own.length && n >= MIN_SHARE * df.get(t)!)
      .map(([t]) => t);
    if (mates.length > 0) out.set(q, new Set(mates));
  }
  return out;
}

/** `have` with each term whose companion it holds: what a question term may be found as. */
export function withCompanions(have: Set<string>, mates: Map<string, Set<string>>): Set<string> {
  const out = new Set(have);
  for (const [q, set] of mates) if (!have.has(q) && [...set].some((t) => have.has(t))) out.add(q);
  return out;
}
