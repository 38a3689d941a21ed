/**
 * The builders' kept tags (#29): a text tagged once is read from the cache while it is held, a text
 * that differs by a word is tagged afresh, the cache holds at most its bound of text (least recently
 * used out first), a text over the bound is never kept, and a thread that keeps none (the server's)
 * tags every time. Texts tagged together, one a line, read as each tagged alone. The item checks'
 * tag tests read as compromise's own matches do.
 */
import { afterAll, describe, expect, test } from "bun:test";
import nlp from "compromise";
import { hasTag, keepTags, opensWithTag, taggedSentences, taggedTexts } from "../../src/llm/extractive/tagging.ts";
import { sentencesOf } from "../../src/llm/extractive/text.ts";
import { corpusDocs } from "./corpus.ts";

const tagsOf = (text: string, word: string) =>
  taggedSentences(text)
    .flatMap((s) => s.terms)
    .find((t) => t.text === word)?.tags ?? [];

describe("kept tags", () => {
  afterAll(() => keepTags(0));

  test("a text tagged again is read from the cache, the same words and tags", () => {
    keepTags(10_000);
    const text = "The scheduler runs every job in turn.";
    const first = taggedSentences(text);
    expect(taggedSentences(text)).toBe(first);
    expect(tagsOf(text, "runs")).toContain("PresentTense");
  });

  test("a text changed by one word is tagged afresh, not served the tags of the text it replaced", () => {
    keepTags(10_000);
    const before = "The scheduler runs every job in turn.";
    const after = "The scheduler ran every job in turn.";
    taggedSentences(before);
    expect(tagsOf(after, "ran")).toContain("PastTense");
    expect(tagsOf(after, "ran")).not.toContain("PresentTense");
    expect(tagsOf(before, "runs")).toContain("PresentTense");
  });

  test("past its bound the cache lets go of the least recently used text first", () => {
    const a = "Heaps serve priority queues well.";
    const b = "Graphs hold vertices and edges.";
    const c = "Tries store strings by prefix.";
    keepTags(a.length + b.length + 5);
    const tagsA = taggedSentences(a);
    const tagsB = taggedSentences(b);
    // Reading a again makes b the oldest, so c's arrival pushes b out, not a.
    expect(taggedSentences(a)).toBe(tagsA);
    taggedSentences(c);
    expect(taggedSentences(a)).toBe(tagsA);
    const again = taggedSentences(b);
    expect(again).not.toBe(tagsB);
    expect(again).toEqual(tagsB);
  });

  test("a text longer than the bound is tagged but never kept", () => {
    const long = "A binary search halves the range at each step. It stops when the range is empty.";
    keepTags(long.length - 1);
    const first = taggedSentences(long);
    const second = taggedSentences(long);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
  });

  test("a thread that keeps no tags tags every time", () => {
    keepTags(0);
    const text = "The compiler inlines small functions.";
    expect(taggedSentences(text)).not.toBe(taggedSentences(text));
  });
});

test("the item checks' tag tests read as compromise's own matches", () => {
  const sentences = sentencesOf(corpusDocs.v8blog()).map((s) => s.text);
  const tested = [...sentences.slice(0, 80), "Write a function that sorts the list.", "Graphs and their edges."];
  for (const s of tested) {
    const doc = nlp(s);
    expect([s, opensWithTag(s, "Imperative")]).toEqual([s, doc.has("^#Imperative")]);
    expect([s, hasTag(s, "Verb")]).toEqual([s, doc.has("#Verb")]);
  }
  expect(opensWithTag("Write a function that sorts the list.", "Imperative")).toBe(true);
  expect(hasTag("Graphs and their edges.", "Verb")).toBe(false);
}, 60_000);

describe("texts tagged together", () => {
  afterAll(() => keepTags(0));

  test("each text reads word for word and tag for tag as it does tagged alone", () => {
    keepTags(0);
    const sentences = sentencesOf(corpusDocs.v8blog()).map((s) => s.text);
    const texts = [
      ...sentences.slice(0, 120),
      // A last word of symbols takes the line's break into its text; a trailing space leaves an empty word.
      "If a number n is not prime, it can be represented as a product a · b, where a ≤",
      "In the above scenario, the matrix is ",
      "The expression becomes )((()(.",
      // Two sentences in one text, and a text a line cannot hold.
      "Heaps serve priority queues well. Tries store strings by prefix.",
      "A list:\nfirst item",
      "Graphs hold vertices and edges.",
    ];
    const together = taggedTexts(texts);
    texts.forEach((text, i) => {
      expect([text, together[i]]).toEqual([text, taggedSentences(text)]);
    });
    expect(together.length).toBe(texts.length);
  }, 60_000);

  test("a text tagged together is kept, and a kept text is not tagged again", () => {
    keepTags(10_000);
    const kept = taggedSentences("The scheduler runs every job in turn.");
    const [again, fresh] = taggedTexts(["The scheduler runs every job in turn.", "The loader maps each page."]);
    expect(again).toBe(kept);
    expect(taggedSentences("The loader maps each page.")).toBe(fresh!);
  });
});
