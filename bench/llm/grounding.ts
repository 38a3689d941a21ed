/**
 * The grounding check (src/llm/claim-support.ts) on real claims and on the model simulator's text.
 *
 * SciFact (../shared/corpus/qa/scifact): each claim with its evidence sentences (and their
 * neighbours, see evidenceText), labelled SUPPORT
 * or CONTRADICT, gives a supported or a contradicted pair; the same claim against the evidence of
 * the next claim citing another abstract gives an unsupported pair. The simulator's paraphrase of
 * each supporting evidence sentence must be kept, its invention about it refused. Claims are split
 * by the parity of their id: DEV (even) is where the threshold was chosen, TEST (odd) is reported.
 *
 *   nice -n 10 bun bench/llm/grounding.ts [--sweep]
 */
import { readFileSync } from "node:fs";
import { splitSentences } from "../../src/ingest/sentences.ts";
import { CLAIM_SUPPORT, claimSupport, preparePassages } from "../../src/llm/claim-support.ts";
import { invent, paraphrase } from "../../test/helpers/model-text.ts";

const DIR = new URL("../../../shared/corpus/qa/scifact/", import.meta.url);
const jsonl = <T>(name: string): T[] =>
  readFileSync(new URL(name, DIR), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

interface Claim {
  _id: string;
  text: string;
  metadata: Record<string, { sentences: number[]; label: "SUPPORT" | "CONTRADICT" }[]>;
}

type Kind = "supported" | "contradicted" | "unsupported" | "paraphrase" | "invention";
interface Pair {
  kind: Kind;
  half: "dev" | "test";
  claim: string;
  passage: string;
}

const abstracts = new Map(jsonl<{ _id: string; text: string }>("corpus.jsonl").map((d) => [d._id, d.text]));
const sentencesOf = new Map<string, string[]>();
const sentences = (doc: string) => {
  const known = sentencesOf.get(doc);
  if (known) return known;
  const s = splitSentences(abstracts.get(doc) ?? "").map((x) => x.trim());
  sentencesOf.set(doc, s);
  return s;
};

/**
 * The evidence sentences with one sentence either side. SciFact counts sentences as its own
 * splitter found them; ours may find a boundary more or fewer, and a chapter's passage is a chunk
 * of several sentences anyway.
 */
function evidenceText(doc: string, indices: number[]): string {
  const all = sentences(doc);
  return all.slice(Math.max(0, Math.min(...indices) - 1), Math.max(...indices) + 2).join(" ");
}

function pairs(): Pair[] {
  const evidence = jsonl<Claim>("queries.jsonl").flatMap((c) =>
    Object.entries(c.metadata ?? {}).flatMap(([doc, sets]) =>
      sets.map((e) => ({
        claim: c,
        doc,
        label: e.label,
        text: evidenceText(doc, e.sentences),
        sentence: sentences(doc)[e.sentences[0]!] ?? "",
      })),
    ),
  );
  const out: Pair[] = [];
  evidence.forEach((e, i) => {
    if (!e.text.trim()) return;
    const half = Number(e.claim._id) % 2 === 0 ? "dev" : "test";
    out.push({
      kind: e.label === "SUPPORT" ? "supported" : "contradicted",
      half,
      claim: e.claim.text,
      passage: e.text,
    });
    const other = evidence
      .slice(i + 1)
      .concat(evidence.slice(0, i))
      .find((o) => o.doc !== e.doc && o.text.trim());
    if (other) out.push({ kind: "unsupported", half, claim: e.claim.text, passage: other.text });
    if (e.label === "SUPPORT") {
      if (e.sentence) out.push({ kind: "paraphrase", half, claim: paraphrase(e.sentence, i), passage: e.text });
      if (other)
        out.push({
          kind: "invention",
          half,
          claim: invent(e.text, abstracts.get(other.doc) ?? "", i),
          passage: e.text,
        });
    }
  });
  return out;
}

const GOALS: Record<Kind, { goal: number; wants: "kept" | "refused" }> = {
  supported: { goal: 0.9, wants: "kept" },
  contradicted: { goal: 0.7, wants: "refused" },
  unsupported: { goal: 0.7, wants: "refused" },
  paraphrase: { goal: 0.95, wants: "kept" },
  invention: { goal: 0.9, wants: "refused" },
};

const all = pairs();
const scored = all.map((p) => ({ ...p, verdict: claimSupport(p.claim, preparePassages([p.passage]), 0) }));

function rate(kind: Kind, half: "dev" | "test", threshold: number) {
  const of = scored.filter((p) => p.kind === kind && p.half === half);
  const kept = of.filter((p) => p.verdict.contradiction === null && p.verdict.support >= threshold).length;
  return { n: of.length, share: (GOALS[kind].wants === "kept" ? kept : of.length - kept) / Math.max(1, of.length) };
}

// The threshold the dev half suggests: the one whose worst rate among the three SciFact kinds is best.
const REAL: Kind[] = ["supported", "contradicted", "unsupported"];
const thresholds = Array.from({ length: 51 }, (_, i) => 0.3 + i * 0.01);
const worst = (t: number) => Math.min(...REAL.map((k) => rate(k, "dev", t).share));
const chosen = thresholds.reduce((a, b) => (worst(b) > worst(a) ? b : a));
if (process.argv.includes("--sweep")) {
  console.log("| threshold | dev supported kept | dev contradicted refused | dev unsupported refused |");
  console.log("|---|---|---|---|");
  for (const t of thresholds.filter((_, i) => i % 5 === 0)) {
    console.log(`| ${t.toFixed(2)} | ${REAL.map((k) => rate(k, "dev", t).share.toFixed(3)).join(" | ")} |`);
  }
}
console.log(`dev-chosen threshold: ${chosen.toFixed(2)} (best worst-of-three rate, ${worst(chosen).toFixed(3)})`);
console.log(`grounding check at CLAIM_SUPPORT ${CLAIM_SUPPORT} (SciFact pairs; simulator text on SciFact evidence)`);
console.log("| pairs | goal | dev | test |");
console.log("|---|---|---|---|");
for (const kind of Object.keys(GOALS) as Kind[]) {
  const [dev, test] = (["dev", "test"] as const).map((h) => rate(kind, h, CLAIM_SUPPORT));
  const label = `${kind} ${GOALS[kind].wants}`;
  console.log(
    `| ${label} | ≥ ${GOALS[kind].goal} | ${dev!.share.toFixed(3)} (n=${dev!.n}) | ${test!.share.toFixed(3)} (n=${test!.n}) |`,
  );
}
