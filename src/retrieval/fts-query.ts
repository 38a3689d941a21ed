/** The FTS5 MATCH expression for a free-text question. */
import type { Database } from "bun:sqlite";
import { stemmer } from "stemmer";
import { STOPWORDS, words } from "./text.ts";

const MAX_TERMS = 64;

/**
 * Postings a search may read. BM25 scores every chunk matching any term, so a question full of
 * common words would read most of a large index; past this budget the commonest terms (which add
 * least to BM25, having the lowest IDF) are left out. The rarest MIN_TERMS always stay.
 */
const POSTINGS_BUDGET = 12_000;
const MIN_TERMS = 2;

/** The question's content words (all its words when it has none but stopwords). */
export function questionTerms(question: string): string[] {
  const all = [...new Set(words(question))];
  const content = all.filter((w) => !STOPWORDS.has(w));
  return (content.length > 0 ? content : all).slice(0, MAX_TERMS);
}

/** Chunks containing each term, read from the FTS5 vocabulary (terms are stored Porter-stemmed). */
function documentFrequencies(sqlite: Database, terms: string[]): Map<string, number> {
  const stems = terms.map((t) => stemmer(t));
  const rows = sqlite
    .query<{ term: string; doc: number }, [string]>(
      "SELECT term, doc FROM retrieval_fts_vocab WHERE term IN (SELECT value FROM json_each(?))",
    )
    .all(JSON.stringify(stems));
  const byStem = new Map(rows.map((r) => [r.term, r.doc]));
  // A term the vocabulary does not know (a phrase like "covid-19", or a stem FTS5 spells otherwise) counts as rare.
  return new Map(terms.map((t, i) => [t, byStem.get(stems[i]!) ?? 0]));
}

/** The terms to search with: all of them, or the rarest that fit the postings budget. */
export function selectTerms(sqlite: Database, terms: string[]): string[] {
  return withinPostingsBudget(terms, documentFrequencies(sqlite, terms));
}

/**
 * All the terms, or the rarest whose postings fit the budget, by each term's document frequency
 * (both engines: FTS5's vocabulary here, PostgreSQL's term statistics in postgres-search.ts).
 */
export function withinPostingsBudget(terms: string[], df: ReadonlyMap<string, number>): string[] {
  const total = terms.reduce((s, t) => s + df.get(t)!, 0);
  if (total <= POSTINGS_BUDGET) return terms;
  const byRarity = [...terms].sort((a, b) => df.get(a)! - df.get(b)!);
  const kept: string[] = [];
  let used = 0;
  for (const t of byRarity) {
    if (kept.length >= MIN_TERMS && used + df.get(t)! > POSTINGS_BUDGET) break;
    kept.push(t);
    used += df.get(t)!;
  }
  return kept;
}

/**
 * Any of the terms (BM25 ranks chunks matching more and rarer ones first). Every term is a quoted
 * string, so nothing a user types is read as FTS5 query syntax.
 */
export function anyOf(terms: string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(" OR ");
}
