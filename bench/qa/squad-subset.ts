/**
 * Builds the SQuAD 2.0 subset bench/qa asks (bench/qa/squad-ids.json) from the train file.
 * Usage: bun bench/qa/squad-subset.ts [--source FILE] [--out FILE]
 *
 * Reads SQuAD 2.0 train (by default ../shared/corpus/qa/squad2/train-v2.0.json beside the
 * checkout) and writes, by default to bench/.cache/squad2/train-subset.json, one Markdown document
 * per paragraph range (the article's title as its heading, each paragraph as one) and the chosen
 * questions, with their gold answers (none for an unanswerable one) and their article's half.
 */
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";

interface SquadQuestion {
  id: string;
  question: string;
  answers: { text: string }[];
  is_impossible?: boolean;
}
interface SquadFile {
  data: { title: string; paragraphs: { context: string; qas: SquadQuestion[] }[] }[];
}
interface Chosen {
  articles: {
    title: string;
    half: "dev" | "test";
    documents: { paragraphs: [number, number]; questions: string[] }[];
  }[];
}

export interface SquadSubset {
  documents: { name: string; half: "dev" | "test"; text: string }[];
  questions: { id: string; doc: string; question: string; answers: string[] }[];
}

const ROOT = resolve(import.meta.dir, "../..");
export const SQUAD_SUBSET = join(ROOT, "bench/.cache/squad2/train-subset.json");
export const SQUAD_TRAIN = resolve(ROOT, "../shared/corpus/qa/squad2/train-v2.0.json");

/** The documents and questions squad-ids.json names, read from the train file; a missing one is an error. */
export async function buildSquadSubset(source: string): Promise<SquadSubset> {
  const train = (await Bun.file(source).json()) as SquadFile;
  const chosen = (await Bun.file(join(import.meta.dir, "squad-ids.json")).json()) as Chosen;
  const out: SquadSubset = { documents: [], questions: [] };
  for (const article of chosen.articles) {
    const found = train.data.find((a) => a.title === article.title);
    if (!found) throw new Error(`${article.title}: not in ${source}`);
    article.documents.forEach((d, part) => {
      const paragraphs = found.paragraphs.slice(d.paragraphs[0], d.paragraphs[1]);
      const name = `squad-${article.title.replace(/[^\p{L}\p{N}]+/gu, "-").toLowerCase()}-${part + 1}.md`;
      const heading = article.title.replace(/_/g, " ");
      out.documents.push({
        name,
        half: article.half,
        text: `# ${heading}\n\n${paragraphs.map((p) => p.context.trim()).join("\n\n")}\n`,
      });
      const byId = new Map(paragraphs.flatMap((p) => p.qas.map((q) => [q.id, q] as const)));
      for (const id of d.questions) {
        const q = byId.get(id);
        if (!q) throw new Error(`${article.title}: question ${id} not in paragraphs ${d.paragraphs.join("-")}`);
        out.questions.push({
          id,
          doc: name,
          question: q.question.trim(),
          answers: q.is_impossible ? [] : [...new Set(q.answers.map((a) => a.text.trim()))],
        });
      }
    });
  }
  return out;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { source: { type: "string", default: SQUAD_TRAIN }, out: { type: "string", default: SQUAD_SUBSET } },
  });
  const subset = await buildSquadSubset(resolve(values.source));
  mkdirSync(dirname(resolve(values.out)), { recursive: true });
  await Bun.write(resolve(values.out), JSON.stringify(subset));
  const unanswerable = subset.questions.filter((q) => q.answers.length === 0).length;
  console.log(
    `${values.out}: ${subset.documents.length} documents, ${subset.questions.length} questions (${unanswerable} unanswerable)`,
  );
}
