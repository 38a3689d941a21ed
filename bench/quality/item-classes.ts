/**
 * The reader's item classes (#29, session 9) counted where they start, in each document's own text:
 * what the item builders would draw on before and after each class's rule, over the documents of one
 * half (the fixed split; the test half is run for figures, never read).
 *   1. run-dependent output: typed lines with their printed output (sessions.ts), and those whose
 *      output depends on chance, the clock or the machine (run-dependent.ts); figures in sentences
 *      quoting such code (facts.ts)
 *   2. numbered lists (steps.ts) and those of them that are procedures: a list of things or of
 *      questions set to the reader is asked neither as an order nor as a worked problem
 *   4. definitions (definitions.ts) and those telling of the one value shown just before them (instances.ts)
 * Usage: bun bench/quality/item-classes.ts [--half dev|test] [--only NAME] [--show FILE]
 * (--show writes each list, line and definition a rule leaves out to FILE, for reading: dev half only.
 * A book takes minutes to extract on a loaded machine: raise INGEST_TIMEOUT_MS, as the items bench does.)
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config.ts";
import { extractFile, stopExtractionWorkers } from "../../src/ingest/index.ts";
import { findDefinitions } from "../../src/llm/extractive/definitions.ts";
import { tellsOfOneInstance } from "../../src/llm/extractive/instances.ts";
import { quotesRunDependentCode, variesByRun } from "../../src/llm/extractive/run-dependent.ts";
import { typedLines } from "../../src/llm/extractive/sessions.ts";
import { isProcedure, numberedLists } from "../../src/llm/extractive/steps.ts";
import { sentencesOf } from "../../src/llm/extractive/text.ts";
import { tempDir } from "../../test/helpers/server.ts";
import { type Half, selectDocuments } from "../structure/documents.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { half: { type: "string", default: "dev" }, only: { type: "string" }, show: { type: "string" } },
});
const half = values.half as Half;
if (values.show && half !== "dev") throw new Error("--show reads the dev half only");

interface Counts {
  typed: number;
  runDependent: number;
  runFigures: number;
  lists: number;
  procedures: number;
  definitions: number;
  instances: number;
}
const COLUMNS: (keyof Counts)[] = [
  "typed",
  "runDependent",
  "runFigures",
  "lists",
  "procedures",
  "definitions",
  "instances",
];

/** Sections of a document's markdown, each from one heading to the next, as a chapter would hold them. */
const sections = (markdown: string) => markdown.split(/\n(?=#{1,6} )/);

const shown: string[] = [];
const zero = () => Object.fromEntries(COLUMNS.map((c) => [c, 0])) as unknown as Counts;
const total = zero();
console.log(`document | ${COLUMNS.join(" | ")}`);
for (const doc of selectDocuments(half, values.only)) {
  const counts = zero();
  try {
    const { markdown } = await extractFile(doc.path, doc.path.split("/").pop()!, {
      ...loadConfig(),
      dataDir: tempDir("cf-item-classes-"),
    });
    for (const [i, text] of sections(markdown).entries()) {
      for (const l of typedLines(text)) {
        counts.typed++;
        if (!variesByRun([...l.setup, l.input].join("\n"))) continue;
        counts.runDependent++;
        shown.push(`${doc.name} run-dependent: ${l.input} → ${l.output}`);
      }
      const sentences = sentencesOf([{ id: `s${i}`, text, heading: null }]);
      for (const s of sentences.filter((x) => /\d/.test(x.text) && quotesRunDependentCode(x.text))) {
        counts.runFigures++;
        shown.push(`${doc.name} run figure: ${s.text}`);
      }
      for (const list of numberedLists(text)) {
        counts.lists++;
        if (isProcedure(list)) counts.procedures++;
        else shown.push(`${doc.name} not a procedure: “${list.title}”: ${list.steps.join(" / ").slice(0, 300)}`);
      }
      for (const d of findDefinitions(sentences, text)) {
        counts.definitions++;
        if (!tellsOfOneInstance(d, text)) continue;
        counts.instances++;
        shown.push(`${doc.name} instance: ${d.definition}`);
      }
    }
  } catch (err) {
    console.log(`${doc.name} | failed: ${String(err).slice(0, 80)}`);
    continue;
  }
  for (const c of COLUMNS) total[c] += counts[c];
  console.log(`${doc.name} | ${COLUMNS.map((c) => counts[c]).join(" | ")}`);
}
console.log(`${half.toUpperCase()} total | ${COLUMNS.map((c) => total[c]).join(" | ")}`);
if (values.show) await Bun.write(values.show, shown.join("\n"));
await stopExtractionWorkers();
