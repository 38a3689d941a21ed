/**
 * Cheaper built-in work (#29): a long text's tagged sample is chosen by each sentence's own text,
 * so a chapter's sources read as quiz material sample the sentences its key concepts sampled; tagged
 * words are read off the tagger's terms as its json() gives them; and words stemmed, or phrases
 * compiled, once read the same every later time.
 */
import { describe, expect, test } from "bun:test";
import nlp from "compromise";
import { stemmer } from "stemmer";
import { textSample } from "../../src/llm/extractive/keyphrases.ts";
import { taggedSentences } from "../../src/llm/extractive/tagging.ts";
import { containsPhrase, sentencesOf, stem } from "../../src/llm/extractive/text.ts";
import { contentStems } from "../../src/retrieval/text.ts";
import { corpusDocs } from "./corpus.ts";

describe("a tagged sample", () => {
  const sentences = sentencesOf(corpusDocs.wikipedia()).map((s) => s.text);
  const length = (xs: string[]) => xs.reduce((n, s) => n + s.length, 0);

  test("a text within the bound is read whole", () => {
    expect(textSample(sentences, (s) => s, length(sentences))).toEqual(sentences);
  });

  test("a long text's sample holds about the bound, spread over the whole text", () => {
    const bound = Math.floor(length(sentences) / 5);
    const sample = textSample(sentences, (s) => s, bound);
    expect(length(sample)).toBeGreaterThan(bound * 0.6);
    expect(length(sample)).toBeLessThan(bound * 1.4);
    const at = sample.map((s) => sentences.indexOf(s));
    expect(Math.min(...at)).toBeLessThan(sentences.length / 4);
    expect(Math.max(...at)).toBeGreaterThan((sentences.length * 3) / 4);
  });

  test("a sentence sampled from a whole text is sampled from any shorter text holding it", () => {
    const bound = Math.floor(length(sentences) / 8);
    const whole = textSample(sentences, (s) => s, bound);
    for (const part of [sentences.slice(0, sentences.length / 2), sentences.filter((_, i) => i % 3 !== 0)]) {
      const own = new Set(textSample(part, (s) => s, bound));
      const shared = whole.filter((s) => part.includes(s));
      expect(shared.length).toBeGreaterThan(0);
      expect(shared.filter((s) => !own.has(s))).toEqual([]);
    }
  });

  test("a text of one piece longer than the bound is still read", () => {
    const one = [sentences.join(" ")];
    expect(textSample(one, (s) => s, 100)).toEqual(one);
  });
});

describe("words stemmed once", () => {
  const text = corpusDocs
    .wikipedia()
    .map((p) => p.text)
    .join(" ");
  const allWords = text.match(/[\p{L}\p{N}](?:[\p{L}\p{N}'’_-]*[\p{L}\p{N}])?/gu) ?? [];

  test("every word of a document stems as Porter's stemmer does, the first time and the next", () => {
    const porter = (w: string) => {
      const lower = w.toLowerCase().replace(/[’']s$/, "");
      return /\p{L}{2}us$/u.test(lower) ? lower : stemmer(lower);
    };
    for (let round = 0; round < 2; round++) {
      for (const w of allWords) expect(stem(w)).toBe(porter(w));
    }
    // Spelled differently, stemmed alike; the remembered stem of one spelling is not another's.
    expect([stem("Browsers"), stem("browsers"), stem("browser's"), stem("status")]).toEqual([
      "browser",
      "browser",
      "browser",
      "status",
    ]);
  });

  test("the index's stems are Porter's, the first time and the next", () => {
    const expected = contentStems(text);
    expect(contentStems(text)).toEqual(expected);
    expect(contentStems("The browsers' caches were running")).toEqual(["browser", "cach", "run"]);
    expect(contentStems("running browsers")).toEqual(["run", "browser"]);
  });
});

test("a phrase looked for again matches as it did the first time", () => {
  for (let round = 0; round < 3; round++) {
    expect(containsPhrase("Heaps serve priority queues well.", "priority queues")).toBe(true);
    expect(containsPhrase("PRIORITY QUEUES first", "priority queues")).toBe(true);
    expect(containsPhrase("priority queuesque", "priority queues")).toBe(false);
    expect(containsPhrase("call f(x) twice", "f(x)")).toBe(true);
    expect(containsPhrase("call fx twice", "f(x)")).toBe(false);
  }
});

test("tagged words read off the tagger's terms are those its json() gives", () => {
  const pieces = sentencesOf(corpusDocs.v8blog()).map((s) => s.text);
  for (const piece of pieces.slice(0, 60)) {
    const json = (nlp(piece).json() as { terms: { text: string; pre: string; post: string; tags: string[] }[] }[]).map(
      (s) => ({ terms: s.terms.map(({ text, pre, post, tags }) => ({ text, pre, post, tags })) }),
    );
    expect(taggedSentences(piece)).toEqual(json);
  }
});
