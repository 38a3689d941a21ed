import { wordCount } from "../extractive/text.ts";
import { usesExtractive } from "../models.ts";
import { render, templates } from "../prompts/index.ts";
import { PodcastScriptSchema, type PodcastScript } from "../schemas.ts";
import type { Llm } from "../types.ts";
import { extractive, type ArtefactOptions } from "./common.ts";

export interface PodcastInput extends ArtefactOptions {
  courseTitle: string;
  chapterTitle: string;
  content: string;
  key_concepts: string[];
}

const CONTENT_LIMIT = 10_000;
// 3 minutes of speech at ~150 words a minute, with some slack for a terse model.
const MIN_WORDS = 400;

/** A host/guest script teaching the chapter's key concepts, turns strictly alternating. */
export async function writePodcastScript(llm: Llm, input: PodcastInput): Promise<PodcastScript> {
  if (usesExtractive(llm, input.model)) return extractive(input.meter, (e) => e.extractivePodcast(input));
  const prompt = render(templates.podcast, {
    courseTitle: input.courseTitle,
    chapterTitle: input.chapterTitle,
    keyConcepts: input.key_concepts.join("; "),
    content: input.content.slice(0, CONTENT_LIMIT),
  });
  const script = await llm.generateObject(PodcastScriptSchema, prompt, {
    task: "podcast",
    model: input.model,
    meter: input.meter,
    refine: (s) => {
      const words = s.turns.reduce((n, t) => n + wordCount(t.text), 0);
      return words < MIN_WORDS ? [`/turns: the script has ${words} words; write at least 600`] : [];
    },
  });
  return { title: script.title, turns: alternate(script.turns) };
}

/** Merges consecutive turns of one speaker, so speakers alternate whatever the model did. */
function alternate(turns: PodcastScript["turns"]): PodcastScript["turns"] {
  const out: PodcastScript["turns"] = [];
  for (const t of turns) {
    const last = out[out.length - 1];
    if (last && last.speaker === t.speaker) last.text = `${last.text} ${t.text}`;
    else out.push({ ...t });
  }
  return out;
}
