/**
 * A built-in two-speaker episode: the host introduces the chapter, asks about its terms (defined
 * ones first, then its key concepts, then its sections), reacts to each answer and closes with a
 * recap; the guest answers with the chapter's own sentences, each made to stand alone when spoken
 * (see podcast-lines.ts). The length aims at about five minutes of speech at eSpeak NG's pace, and
 * a thin chapter gets a shorter episode rather than repeats.
 */
import type { PodcastScript } from "../schemas.ts";
import { findDefinitions } from "./definitions.ts";
import { keyPhrases } from "./keyphrases.ts";
import { chapterMaterial } from "./material.ts";
import { Host, namesAThing, spokenList, type Term, termOf } from "./podcast-host.ts";
import { spokenSentence } from "./podcast-lines.ts";
import { hash, wordCount } from "./text.ts";

/** Questions are added until the script has this many words (about 5 minutes at 165 words a minute)… */
const TARGET_WORDS = 700;
/** …and none that would take it past this (8 minutes with the pauses between sentences and turns). */
const MAX_WORDS = 1050;
/** One answer: enough to explain, short enough to listen to. */
const ANSWER_WORDS = 45;
const ANSWER_MAX_WORDS = 85;
const ANSWER_SENTENCES = 3;
/** Answers longer than this are split by a question from the host. */
const SPLIT_WORDS = 55;
/** Words of the host's introduction and of a reaction with its question, for the length estimate. */
const INTRO_WORDS = 40;
const QUESTION_WORDS = 15;

type Turn = PodcastScript["turns"][number];

/** A term worth a question; `definition` is the index of the sentence defining it, if one does. */
interface TermTopic {
  term: Term;
  definition?: number;
  priority: number;
}
/** What the host asks about: a term of the chapter, or one of its sections. */
type Topic = TermTopic | { section: string };

interface Exchange {
  topic: Topic;
  sentences: number[];
}

export function extractivePodcast(input: {
  courseTitle: string;
  chapterTitle: string;
  content: string;
  key_concepts: string[];
}): PodcastScript {
  const course = spokenTitle(input.courseTitle);
  const chapter = spokenTitle(input.chapterTitle);
  const m = chapterMaterial({ title: input.chapterTitle, content: input.content, key_concepts: input.key_concepts }, 0);
  const chapterText = m.sentences.map((s) => s.text).join(" ");
  const spoken = new Map<number, string>();
  for (const s of m.sentences) {
    const line = spokenSentence(s.text);
    if (line) spoken.set(s.index, line);
  }
  const used = new Set<number>();
  const free = (i: number) => spoken.has(i) && !used.has(i);
  const words = (indexes: number[]) => indexes.reduce((n, i) => n + wordCount(spoken.get(i) ?? ""), 0);

  const termTopics = termsOf(
    input.key_concepts,
    findDefinitions(m.sentences),
    keyPhrases(chapterText, 12).map((p) => p.phrase),
    chapterText,
    spoken,
  );
  const sectionTopics = [...new Set(m.sentences.map((s) => s.heading))]
    .map((h) => sectionTitle(h, input.chapterTitle))
    .filter((h): h is string => h !== null)
    .map((section) => ({ section }));
  const terms = termTopics.map((t) => t.term);

  // The guest's opening: the chapter's most central sentences that can be said on their own.
  const overview: number[] = [];
  for (const s of m.ranked) {
    if (overview.length === 2 || words(overview) > 40) break;
    if (free(s.index) && words([...overview, s.index]) <= 60) overview.push(s.index);
  }
  overview.forEach((i) => {
    used.add(i);
  });

  const about = (topic: Topic) => {
    if ("section" in topic)
      return (i: number) => sectionTitle(m.sentences[i]?.heading ?? null, input.chapterTitle) === topic.section;
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${topic.term.text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "iu");
    return (i: number) => pattern.test(m.sentences[i]?.text ?? "");
  };
  const answerFor = (topic: Topic): number[] => {
    const definition =
      "term" in topic && topic.definition !== undefined && free(topic.definition) ? topic.definition : undefined;
    const picked = definition !== undefined ? [definition] : [];
    const relevant = about(topic);
    for (const s of m.ranked) {
      if (picked.length === ANSWER_SENTENCES || words(picked) >= ANSWER_WORDS) break;
      if (
        free(s.index) &&
        !picked.includes(s.index) &&
        relevant(s.index) &&
        words([...picked, s.index]) <= ANSWER_MAX_WORDS
      )
        picked.push(s.index);
    }
    // A definition leads; the rest follow the chapter's order.
    const rest = picked.filter((i) => i !== definition).sort((a, b) => a - b);
    return definition !== undefined ? [definition, ...rest] : rest;
  };

  let total = INTRO_WORDS + words(overview);
  const exchanges: Exchange[] = [];
  for (const topic of [...termTopics, ...sectionTopics]) {
    if (total >= TARGET_WORDS) break;
    const sentences = answerFor(topic);
    const cost = words(sentences) + QUESTION_WORDS;
    if (sentences.length === 0 || total + cost > MAX_WORDS) continue;
    sentences.forEach((i) => {
      used.add(i);
    });
    exchanges.push({ topic, sentences });
    total += cost;
  }
  // The introduction and the recap name the best terms; the conversation follows the chapter's order.
  const named = exchanges.flatMap((e) => ("term" in e.topic ? [e.topic.term] : [])).slice(0, 4);
  exchanges.sort((a, b) => (a.sentences[0] ?? 0) - (b.sentences[0] ?? 0));

  const host = new Host(hash(`${input.courseTitle}\n${input.chapterTitle}`));
  const turns: Turn[] = [];
  const say = (speaker: Turn["speaker"], ...parts: string[]) =>
    turns.push({ speaker, text: parts.filter(Boolean).join(" ") });
  const label = (t: Term) => (t.countable ? `the ${t.text}` : t.np);
  const lines = (indexes: number[]) => indexes.map((i) => spoken.get(i)!).join(" ");
  const highlights = named.map(label);

  say("host", ...introduction(course, chapter, highlights.slice(0, 3), hash(input.chapterTitle)));
  let last = lines(overview);
  say("guest", "Thanks for having me.", last || `${chapter} is a short chapter, so this will be a quick one.`);
  let asked: Term | undefined;
  for (const e of exchanges) {
    const question =
      "term" in e.topic
        ? host.question(e.topic.term, e.sentences[0] === e.topic.definition)
        : host.sectionQuestion(e.topic.section);
    say("host", last ? host.reaction(last, terms, asked) : "", question);
    const split = e.sentences.length > 1 && words(e.sentences) > SPLIT_WORDS ? 1 : e.sentences.length;
    say("guest", lines(e.sentences.slice(0, split)));
    if (split < e.sentences.length) {
      say("host", host.followUp());
      say("guest", lines(e.sentences.slice(split)));
    }
    last = lines(e.sentences);
    asked = "term" in e.topic ? e.topic.term : undefined;
  }

  const thesis = overview.length > 0 ? spoken.get(overview[0]!)! : "";
  say(
    "host",
    last ? host.reaction(last, terms, asked) : "",
    "Before we wrap up, what should listeners remember from this chapter?",
  );
  say(
    "guest",
    highlights.length > 0
      ? `The key ideas were ${spokenList(highlights.slice(0, 4))}.`
      : terms.length > 0
        ? `The chapter's key terms are ${spokenList(terms.slice(0, 4).map(label))}.`
        : "",
    thesis
      ? `If you remember one thing, make it this: ${thesis}`
      : `${chapter} is short, so it is worth reading in full.`,
  );
  say("host", `Thanks for walking us through ${chapter}. That's all for this episode of ${course}. See you next time!`);
  say("guest", "It was a pleasure. Bye, everyone!");
  return { title: `${input.chapterTitle}: a conversation`, turns };
}

/**
 * The terms worth a question, best first: defined ones, then the chapter's key concepts (multi-word
 * terms and names first), then noun phrases extracted from its text.
 */
function termsOf(
  keyConcepts: string[],
  definitions: ReturnType<typeof findDefinitions>,
  phrases: string[],
  chapterText: string,
  spoken: Map<number, string>,
): TermTopic[] {
  const byKey = new Map<string, TermTopic>();
  const add = (raw: string, base: number, definition?: number) => {
    const known = byKey.get(raw.toLowerCase());
    if (known) {
      known.definition ??= definition;
      known.priority = Math.max(known.priority, base);
    } else {
      byKey.set(raw.toLowerCase(), { term: termOf(raw, chapterText), definition, priority: base });
    }
  };
  keyConcepts.forEach((c) => {
    add(c, 0);
  });
  // Extracted phrases are a fallback, and only those that name a thing in more than one word.
  for (const p of phrases) if (p.includes(" ") && namesAThing(p)) add(p, -1);
  for (const d of definitions)
    if (spoken.has(d.sentence.index) && wordCount(d.term) <= 4) add(d.term, 0, d.sentence.index);
  const all = [...byKey.values()];
  for (const c of all) {
    const multiWord = c.term.text.includes(" ");
    const name = /[A-Z]/.test(c.term.text.split(/\s+/).at(-1) ?? "");
    // A lone common word ("value", "program") makes a vague question unless the chapter defines it.
    c.priority +=
      (c.definition !== undefined ? 3 : 0) +
      (multiWord ? 1 : 0) +
      (name ? 1 : 0) -
      (!multiWord && !name && c.definition === undefined ? 2 : 0);
  }
  // Stable: equal priorities keep the order the chapter's key concepts were given in.
  return all.sort((a, b) => b.priority - a.priority);
}

/** Headings too generic to ask about ("Let's move on to Introduction"). */
const GENERIC_HEADING = /^(abstract|introduction|overview|summary|conclusions?|background|preface|foreword|contents)$/i;

/** A section heading as the host names it: numbering dropped; null for the chapter's own or a generic one. */
function sectionTitle(heading: string | null, chapterTitle: string): string | null {
  const title = spokenTitle(
    (heading ?? "").replace(/^(?:\d+(?:\.\d+)*\.?|[A-Z](?:\.\d+)+\.?|[A-Z]\.|[IVX]+\.)\s+/, ""),
  );
  if (!title || GENERIC_HEADING.test(title) || title.toLowerCase() === spokenTitle(chapterTitle).toLowerCase())
    return null;
  return title;
}

/** A title inside a spoken sentence: without its own closing punctuation. */
const spokenTitle = (title: string) => title.trim().replace(/[\s.!?:;,]+$/, "");

const INTRODUCTIONS = [
  (course: string, chapter: string) => [`Welcome to ${course}.`, `This episode covers the chapter called ${chapter}.`],
  (course: string, chapter: string) => [`Hello, and welcome to ${course}.`, `Today we're talking about ${chapter}.`],
  (course: string, chapter: string) => [`Welcome back to ${course}.`, `In this episode: ${chapter}.`],
];

function introduction(course: string, chapter: string, named: string[], seed: number): string[] {
  const [welcome, topic] = INTRODUCTIONS[seed % INTRODUCTIONS.length]!(course, chapter);
  const parts = course.toLowerCase() === chapter.toLowerCase() ? [welcome!] : [welcome!, topic!];
  if (named.length > 0) parts.push(`My guest will walk us through ${spokenList(named)}.`);
  return parts;
}
