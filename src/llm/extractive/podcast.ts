/** A two-speaker script: the host asks about each key concept, the guest answers from the chapter. */
import type { PodcastScript } from "../schemas.ts";
import { chapterMaterial } from "./material.ts";
import { hash, wordCount } from "./text.ts";

// About 3 to 8 minutes of speech at ~150 words a minute.
const TARGET_WORDS = 500;
const MAX_WORDS = 1150;
const MIN_TURNS = 16;

const QUESTIONS = [
  (c: string) => `So what exactly is ${c}?`,
  (c: string) => `Why does ${c} matter here?`,
  (c: string) => `Can you walk me through ${c}?`,
  (c: string) => `How should listeners think about ${c}?`,
];
const FOLLOW_UPS = ["What else should listeners know?", "Interesting. Can you say more?", "And how does that connect to the rest?", "What's a good way to remember that?"];

export function extractivePodcast(input: {
  courseTitle: string;
  chapterTitle: string;
  content: string;
  key_concepts: string[];
}): PodcastScript {
  const m = chapterMaterial({ title: input.chapterTitle, content: input.content, key_concepts: input.key_concepts }, 0);
  const turns: PodcastScript["turns"] = [];
  let words = 0;
  const say = (speaker: "host" | "guest", text: string) => {
    turns.push({ speaker, text });
    words += wordCount(text);
  };
  const used = new Set<number>();
  const take = (n: number, about?: string) => {
    const picked = (about ? m.ranked.filter((s) => s.text.toLowerCase().includes(about.toLowerCase())) : m.ranked)
      .filter((s) => !used.has(s.index))
      .slice(0, n);
    for (const s of picked) used.add(s.index);
    return picked.sort((a, b) => a.index - b.index).map((s) => s.text).join(" ");
  };

  say("host", `Welcome back to ${input.courseTitle}. Today's episode is about ${input.chapterTitle}, and I have our expert here to explain it.`);
  say("guest", take(2) || `Thanks for having me. ${input.chapterTitle} is a topic worth understanding well.`);
  for (const [i, concept] of input.key_concepts.entries()) {
    if (words >= MAX_WORDS) break;
    const answer = take(2, concept);
    if (!answer) continue;
    say("host", QUESTIONS[(hash(concept) + i) % QUESTIONS.length]!(concept));
    say("guest", answer);
  }
  for (let i = 0; words < TARGET_WORDS; i++) {
    const more = take(2);
    if (!more) break;
    say("host", FOLLOW_UPS[i % FOLLOW_UPS.length]!);
    say("guest", more);
  }
  // Thin chapters still get a full-length exchange: recap each concept (the schema asks for 16 turns).
  for (let i = 0; turns.length < MIN_TURNS - 3; i++) {
    const concept = input.key_concepts[i % Math.max(1, input.key_concepts.length)] ?? input.chapterTitle;
    const again = m.ranked.find((s) => s.text.toLowerCase().includes(concept.toLowerCase()))?.text ?? m.ranked[i % Math.max(1, m.ranked.length)]?.text;
    say("host", `Let's recap ${concept} once more.`);
    say("guest", again ?? `${concept} is one of the central ideas of ${input.chapterTitle}.`);
  }
  const recap = input.key_concepts.slice(0, 5).join(", ");
  say("host", `That was really helpful. Could you sum up the key ideas for our listeners?`);
  say("guest", recap ? `Sure. Remember these ideas: ${recap}. Each of them came up today, and together they explain ${input.chapterTitle}.` : `The key is to revisit ${input.chapterTitle} and connect its ideas.`);
  say("host", `Thanks for joining us. That's it for ${input.chapterTitle}; see you in the next episode.`);
  return { title: `${input.chapterTitle}: a conversation`, turns };
}
