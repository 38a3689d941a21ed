/**
 * The built-in engine's work made cheaper (#29) reads the same: TextRank on flat arrays scores as
 * the plain power iteration does, a chapter read once serves every position it is asked at, the
 * tagger runs only on the role candidates that could be kept (the facts found are those found
 * before), the outline's objectives come from the chapter's own text, and answers read with fewer
 * sets built per question are the answers given before.
 */
import { describe, expect, test } from "bun:test";
import { extractiveAnswer } from "../../src/llm/extractive/answer.ts";
import { keyPhrases } from "../../src/llm/extractive/keyphrases.ts";
import { chapterMaterial, materialsOf } from "../../src/llm/extractive/material.ts";
import { extractiveOutline } from "../../src/llm/extractive/outline.ts";
import { rankSentences, textRank } from "../../src/llm/extractive/rank.ts";
import { roleFacts } from "../../src/llm/extractive/roles.ts";
import { containsPhrase, type Sentence, sentencesOf } from "../../src/llm/extractive/text.ts";
import { corpusDocs } from "./corpus.ts";

/** TextRank as the paper writes it, on a dense matrix: the reference the sparse version must match. */
function denseTextRank(sentences: Sentence[], iterations = 30, damping = 0.85): number[] {
  const n = sentences.length;
  const sets = sentences.map((s) => new Set(s.stems));
  const w = sets.map((a, i) =>
    sets.map((b, j) => {
      if (i === j || a.size < 2 || b.size < 2) return 0;
      const shared = [...a].filter((x) => b.has(x)).length;
      return shared / (Math.log(a.size) + Math.log(b.size));
    }),
  );
  const out = w.map((row) => row.reduce((x, y) => x + y, 0));
  let score = new Array<number>(n).fill(1 / n);
  for (let it = 0; it < iterations; it++) {
    score = score.map((_, i) =>
      score.reduce((acc, sj, j) => (out[j]! > 0 ? acc + (damping * sj * w[j]![i]!) / out[j]! : acc), (1 - damping) / n),
    );
  }
  const total = score.reduce((a, b) => a + b, 0);
  return score.map((s) => s / total);
}

describe("TextRank", () => {
  test("scores every sentence of a real document as the dense power iteration does, and ranks by them", () => {
    const sentences = sentencesOf(corpusDocs.wikipedia());
    const fast = textRank(sentences);
    const dense = denseTextRank(sentences);
    expect(fast.length).toBe(sentences.length);
    fast.forEach((s, i) => {
      expect(s).toBeCloseTo(dense[i]!, 12);
    });
    const byDense = sentences
      .map((s, i) => ({ s, r: dense[i]! }))
      .sort((a, b) => b.r - a.r || a.s.index - b.s.index)
      .map((x) => x.s.text);
    // Ties a rounding apart could swap; the leading sentences are clear of them.
    expect(
      rankSentences(sentences)
        .slice(0, 20)
        .map((s) => s.text),
    ).toEqual(byDense.slice(0, 20));
  });
});

describe("chapter material", () => {
  const text = corpusDocs
    .v8blog()
    .map((p) => p.text)
    .join("\n\n");
  const chapter = { title: "WebAssembly in V8", content: text, key_concepts: ["WebAssembly"] };

  test("a chapter read at another position holds the same reading, cited as the chapter asked for", () => {
    const first = chapterMaterial(chapter, 0);
    const later = chapterMaterial(chapter, 3);
    expect(later.sentences.map((s) => s.text)).toEqual(first.sentences.map((s) => s.text));
    expect(later.phrases).toEqual(first.phrases);
    expect(later.roles.map((r) => r.term)).toEqual(first.roles.map((r) => r.term));
    expect(later.index).toBe(3);
    expect(first.cite(first.sentences[0]!)).toBe("Chapter 1: WebAssembly in V8");
    expect(later.cite(later.sentences[0]!)).toBe("Chapter 4: WebAssembly in V8");
  });

  test("the same chapter with its sources given cites them, not the reading kept from before", () => {
    chapterMaterial(chapter, 0);
    const sourced = chapterMaterial({ ...chapter, sources: [{ text, filename: "v8.html", page: 2 }] }, 0);
    expect(sourced.cite(sourced.sentences[0]!)).toBe("v8.html, p. 2");
  });

  test("two chapters' sentences belong to different passages (the study guide groups a section by them)", () => {
    const a = chapterMaterial(chapter, 0);
    const b = chapterMaterial({ ...chapter, content: text.slice(0, Math.floor(text.length / 2)) }, 1);
    expect(a.sentences[0]!.passageId).not.toBe(b.sentences[0]!.passageId);
  });
});

test("role facts found with the tagger run only on kept candidates are those found before", () => {
  // Recorded with the code before the change (every candidate tagged, then filtered).
  const expected: Record<"redbook" | "wikipedia" | "v8blog", string[]> = {
    redbook: ["businesses|make|35"],
    wikipedia: [
      "Mozilla|produce|3",
      "Yagan|claim|33",
      "Firefox|use|44",
      "Firefox Mobile|use|53",
      "Mozilla Foundation|provide|68",
      "Rhino|work|84",
      "program|provide|119",
      "event|revolve|130",
    ],
    v8blog: ["Emscripten|uses|22"],
  };
  for (const name of ["redbook", "wikipedia", "v8blog"] as const) {
    const sentences = sentencesOf(corpusDocs[name]());
    const terms = keyPhrases(sentences.map((s) => s.text).join(" "), 20).map((p) => p.phrase);
    const facts = roleFacts(sentences, terms).map((f) => `${f.term}|${f.verb}|${f.sentence.index}`);
    expect(facts).toEqual(expected[name]);
  }
});

test("each chapter's objectives name terms of that chapter's own text", () => {
  const passages = corpusDocs.wikipedia();
  const half = Math.floor(passages.length / 2);
  const chapters = [
    { title: "Early history", passages: passages.slice(0, half) },
    { title: "Later history", passages: passages.slice(half) },
  ];
  const outline = extractiveOutline({ numChapters: 2, passages, chapters });
  expect(outline.chapters.map((c) => c.title)).toEqual(["Early history", "Later history"]);
  outline.chapters.forEach((c, i) => {
    const own = chapters[i]!.passages.map((p) => p.text).join("\n");
    expect(c.objectives.length).toBe(3);
    for (const objective of c.objectives) {
      const phrase = objective.replace(/^(Explain|Describe|Identify the role of|Apply) /, "");
      expect(containsPhrase(own, phrase)).toBe(true);
    }
  });
});

test("answers read once per passage, contractions expanded only where written, are those given before", () => {
  // Recorded with the code before the change: the first 70 characters of each answer.
  const expected: [string, string][] = [
    ["What is Rhino written in?", "Mozilla is a free-software community, created in 1998 by members of Ne"],
    // Abstains since the answer evidence of #29: no passage says when Firefox 1.0 came out (the
    // sentence once given was about the Mozilla Suite in 2005).
    ["When did Mozilla release Firefox 1.0?", "The provided sources do not answer this question."],
    // Answered since the "who did" deed requirement went (#29: it cost 12 gold answers on SQuAD's
    // dev half for 4 abstentions); neither that sentence nor this one, chosen since words WordNet
    // relates to the question's count in part (#29), names who launched the Foundation.
    ["Who launched the Mozilla Foundation?", "The Mozilla community uses, develops, spreads and supports Mozilla pro"],
    ["What's the Mozilla Manifesto about?", "According to Mozilla's manifesto, which outlines goals, principles, an"],
    ["How many employees did Mozilla Corporation have?", "The provided sources do not answer this question."],
    [
      "Why didn't Mozilla support the H.264 codec?",
      "At the end of 2013, Mozilla announced a deal with Cisco Systems whereb",
    ],
    ["What does SpiderMonkey implement?", "Firefox uses the Gecko layout engine to render web pages, which implem"],
    ["Who was the CEO of Mozilla in 2014?", "On March 24, 2014, Mozilla promoted Brendan Eich to the role of CEO. ["],
  ];
  const passages = corpusDocs.wikipedia().slice(0, 12);
  const answers = expected.map(([question]) => extractiveAnswer({ question, passages }).answer.slice(0, 70));
  expect(answers).toEqual(expected.map(([, answer]) => answer));
});

test("a source passage cut inside a code block does not hide the next passage's prose", () => {
  const chapter = {
    title: "Heaps",
    content: "A heap keeps the smallest element at its root. Heaps serve priority queues well.",
    key_concepts: ["heap"],
    sources: [
      {
        text: "Heaps are stored in arrays, with each parent before its children.\n\n```cpp\nint parent(int i) {",
        filename: "book.pdf",
        page: 3,
      },
      {
        text: "A priority queue returns the element with the highest priority first. Dijkstra's algorithm uses a priority queue to pick the nearest vertex.\n\n```cpp\npriority_queue<int> q;\n```",
        filename: "book.pdf",
        page: 4,
      },
    ],
  };
  const read = materialsOf(chapter, 0)[1]!.sentences.map((s) => s.text);
  expect(read.join(" ")).toContain("Dijkstra's algorithm uses a priority queue to pick the nearest vertex");
  expect(read.join(" ")).not.toContain("int parent");
});
