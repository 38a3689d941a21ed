/**
 * The SQuAD 2.0 part of bench/qa: crowd-written questions over encyclopedia articles nobody tuned
 * the engine on, about 30% of them unanswerable from the article (bench/qa/squad-ids.json). Each
 * paragraph range is indexed as a document through the API and its questions are asked through
 * POST /v2/documents/query over it. Figures per half (DEV, TEST, split by article title) and per
 * article: answer contains a gold span (answerable), abstains (unanswerable), wrongly abstains
 * (answerable).
 *
 * The abstention curve: the DEV half's figures were the engine's least key-term support
 * (answer-terms.ts MIN_SUPPORT) another value, computed in process on the passages the API
 * returned; the threshold is the grid's value where the most DEV questions are handled right (gold
 * span given, or unanswerable abstained on). Only DEV is printed: the TEST half is run, never read
 * to tune.
 */
import { existsSync } from "node:fs";
import { extractiveAnswer, scoredUnits } from "../../src/llm/extractive/answer.ts";
import type { AnswerPassage } from "../../src/llm/extractive/answer-sentences.ts";
import { MIN_SUPPORT, NOT_ANSWERED } from "../../src/llm/extractive/answer-terms.ts";
import { call } from "../../test/helpers/server.ts";
import { buildSquadSubset, SQUAD_SUBSET, SQUAD_TRAIN, type SquadSubset } from "./squad-subset.ts";

interface Source {
  text: string;
  chunk_id: string;
  heading_path: string[];
  role?: string;
  score: number;
}
interface Outcome {
  half: "dev" | "test";
  /** The document's article: its name less the part number. */
  article: string;
  answers: string[];
  question: string;
  answer: string;
  sources: Source[];
}

// SQuAD's own answer normalisation (its evaluation script): case, punctuation, articles and spacing
// ignored, so "Christoph Waltz." is found in "Christoph Waltz was cast…"; markdown escapes as well.
const norm = (s: string) =>
  s
    .replace(/\\(.)/g, "$1")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, "")
    .replace(/\b(?:a|an|the)\b/g, " ")
    .replace(/\s+/g, " ")
    .trim();
const holdsGold = (answer: string, gold: string[]) => gold.some((g) => norm(answer).includes(norm(g)));

async function subset(): Promise<SquadSubset | null> {
  if (existsSync(SQUAD_SUBSET)) return Bun.file(SQUAD_SUBSET).json();
  if (existsSync(SQUAD_TRAIN)) return buildSquadSubset(SQUAD_TRAIN);
  return null;
}

/** Indexes the documents (or reuses those `known` names) and asks every question; null without the data. */
export async function askSquad(
  url: string,
  key: string,
  known: Record<string, string>,
  save: () => Promise<void>,
): Promise<Outcome[] | null> {
  const data = await subset();
  if (!data) {
    console.error(`SQuAD 2.0 subset: neither ${SQUAD_SUBSET} nor ${SQUAD_TRAIN} exists; skipped`);
    return null;
  }
  for (const d of data.documents) {
    if (known[d.name]) continue;
    const form = new FormData();
    form.append("files", new File([d.text], d.name, { type: "text/markdown" }));
    const res = await call(url, "/v2/documents/process", { key, user: "reader", body: form });
    if (res.status !== 200 || res.body.ready !== 1)
      throw new Error(`${d.name}: indexing failed: ${res.text.slice(0, 200)}`);
    known[d.name] = res.body.documents[0].id;
    await save();
  }
  const half = new Map(data.documents.map((d) => [d.name, d.half]));
  const out: Outcome[] = [];
  for (const q of data.questions) {
    const res = await call(url, "/v2/documents/query", {
      key,
      user: "reader",
      json: { question: q.question, document_ids: [known[q.doc]] },
    });
    if (res.status !== 200) throw new Error(`query ${q.id}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
    out.push({
      half: half.get(q.doc)!,
      article: q.doc.replace(/^squad-|-+\d+\.md$/g, ""),
      answers: q.answers,
      question: q.question,
      answer: res.body.answer,
      sources: res.body.sources,
    });
  }
  return out;
}

interface Figures {
  gold: number;
  abstains: number;
  wrongly: number;
  answerable: number;
  unanswerable: number;
  /** Mean words of the answers given (abstentions aside), the passage marker left out. */
  words: number;
}

function figures(rows: { answers: string[]; answer: string }[]): Figures {
  const answerable = rows.filter((r) => r.answers.length > 0);
  const unanswerable = rows.filter((r) => r.answers.length === 0);
  const abstained = (r: { answer: string }) => r.answer === NOT_ANSWERED;
  const given = rows.filter((r) => !abstained(r));
  const words = given.reduce(
    (n, r) =>
      n +
      r.answer
        .replace(/\[\d+\]/g, "")
        .split(/\s+/)
        .filter(Boolean).length,
    0,
  );
  return {
    gold: answerable.filter((r) => !abstained(r) && holdsGold(r.answer, r.answers)).length / answerable.length,
    abstains: unanswerable.filter(abstained).length / Math.max(1, unanswerable.length),
    wrongly: answerable.filter(abstained).length / answerable.length,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    words: given.length === 0 ? 0 : words / given.length,
  };
}

/** The passages the API returned, as the engine reads them. */
const passagesOf = (o: Outcome): AnswerPassage[] =>
  o.sources.map((s) => ({
    id: s.chunk_id,
    text: s.text,
    heading: s.heading_path.length > 0 ? s.heading_path.join(" › ") : null,
    headingPath: s.heading_path,
    role: s.role as never,
    score: s.score,
  }));

const MISSES = [
  "gold in no source returned",
  "abstained: a name the question requires is in no source",
  "gold in no quotable sentence (split across sentences, or not prose)",
  "abstained: the gold sentence lacks key-term support or the question's number",
  "abstained: no candidate holds the asked kind of answer",
  "gold sentence ranked first, overtaken by the kind of answer",
  "gold sentence ranked 2nd or 3rd",
  "gold sentence ranked 4th or lower",
] as const;

/**
 * Why an answerable question's answer lacks the gold span: where the sentence that holds it stands
 * in the engine's ranking (answer.ts scoredUnits), read in process from the passages returned.
 */
function missOf(o: Outcome): (typeof MISSES)[number] {
  if (!o.sources.some((s) => holdsGold(s.text, o.answers))) return MISSES[0];
  const scored = scoredUnits({ question: o.question, passages: passagesOf(o) });
  if (scored === null) return MISSES[1];
  const gold = scored.ranked.find((x) => holdsGold(x.text, o.answers));
  if (!gold) return MISSES[2];
  if (!gold.eligible) return MISSES[3];
  if (o.answer === NOT_ANSWERED) return MISSES[4];
  const rank = scored.ranked.filter((x) => x.eligible).indexOf(gold);
  return rank === 0 ? MISSES[5] : rank < 3 ? MISSES[6] : MISSES[7];
}

function printMisses(outcomes: Outcome[]) {
  console.log("\nSQuAD answerable questions without the gold span, by where the gold sentence stands (DEV, TEST)");
  const count = (half: "dev" | "test") => {
    const misses = outcomes
      .filter((o) => o.half === half && o.answers.length > 0)
      .filter((o) => o.answer === NOT_ANSWERED || !holdsGold(o.answer, o.answers))
      .map(missOf);
    return (m: string) => misses.filter((x) => x === m).length;
  };
  const dev = count("dev");
  const test = count("test");
  for (const m of MISSES) console.log(`${String(dev(m)).padStart(4)}  ${String(test(m)).padStart(4)}  ${m}`);
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/**
 * The figures per article: SQuAD 2.0 train has unanswerable questions only in some articles, so a
 * half's abstention figure may be one article's, written by one group of crowd workers.
 */
function printArticles(outcomes: Outcome[]) {
  console.log("\nPer article: half, answerable, gold, unanswerable, abstains, wrongly abstains");
  for (const article of [...new Set(outcomes.map((o) => o.article))]) {
    const rows = outcomes.filter((o) => o.article === article);
    const f = figures(rows);
    console.log(
      `${rows[0]!.half.toUpperCase().padEnd(4)}  ${article.slice(0, 40).padEnd(40)}  ${String(f.answerable).padStart(4)}  ${pct(f.gold).padStart(6)}  ${String(f.unanswerable).padStart(4)}  ${f.unanswerable ? pct(f.abstains).padStart(6) : "     -"}  ${pct(f.wrongly).padStart(6)}`,
    );
  }
}

export function printSquad(outcomes: Outcome[], curve: boolean) {
  console.log(
    "\nSQuAD 2.0 train subset, POST /v2/documents/query (goals: gold ≥ 80%, abstains ≥ 60%, wrongly abstains ≤ 15%)",
  );
  console.log("half  questions  answerable  gold    abstains (unanswerable)  wrongly abstains  words/answer");
  for (const half of ["dev", "test"] as const) {
    const f = figures(outcomes.filter((o) => o.half === half));
    console.log(
      `${half.toUpperCase().padEnd(4)}  ${String(f.answerable + f.unanswerable).padEnd(9)}  ${String(f.answerable).padEnd(10)}  ${pct(f.gold).padEnd(6)}  ${pct(f.abstains).padEnd(23)}  ${pct(f.wrongly).padEnd(16)}  ${f.words.toFixed(1)}`,
    );
  }
  printArticles(outcomes);
  printMisses(outcomes);
  if (!curve) return;
  console.log(`\nAbstention curve, DEV half (least key-term support; the engine's is ${MIN_SUPPORT})`);
  console.log("support  gold    abstains  wrongly abstains  handled right (gold or abstained, of all)");
  const dev = outcomes.filter((o) => o.half === "dev");
  for (const t of [0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.75, 0.8, 0.9]) {
    const rows = dev.map((o) => ({
      answers: o.answers,
      answer: extractiveAnswer({ question: o.question, minSupport: t, passages: passagesOf(o) }).answer,
    }));
    const f = figures(rows);
    console.log(
      `${t.toFixed(2).padEnd(7)}  ${pct(f.gold).padEnd(6)}  ${pct(f.abstains).padEnd(8)}  ${pct(f.wrongly).padEnd(16)}  ${pct((f.gold * f.answerable + f.abstains * f.unanswerable) / (f.answerable + f.unanswerable))}`,
    );
  }
}
