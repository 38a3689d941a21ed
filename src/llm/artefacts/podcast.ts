import { AppError } from "../../errors.ts";
import { promptWithin } from "../context-budget.ts";
import { isLlmError } from "../errors.ts";
import { wordCount } from "../extractive/text.ts";
import { usesExtractive } from "../models.ts";
import { render, templates } from "../prompts/index.ts";
import { type PodcastScript, PodcastScriptSchema } from "../schemas.ts";
import type { Llm } from "../types.ts";
import { type ArtefactOptions, extractive } from "./common.ts";

export interface PodcastInput extends ArtefactOptions {
  courseTitle: string;
  chapterTitle: string;
  content: string;
  key_concepts: string[];
}

const CONTENT_LIMIT = 10_000;
// 3 minutes of speech at ~150 words a minute, with some slack for a terse model.
const MIN_WORDS = 400;
/** Turns once consecutive lines of one speaker are joined: fewer is not a conversation. */
const MIN_TURNS = 8;

/** A host/guest script teaching the chapter's key concepts, turns strictly alternating. */
export async function writePodcastScript(llm: Llm, input: PodcastInput): Promise<PodcastScript> {
  if (usesExtractive(llm, input.model)) return extractive(llm, "extractivePodcast", input);
  const frame = (content: string) =>
    render(templates.podcast, {
      courseTitle: input.courseTitle,
      chapterTitle: input.chapterTitle,
      keyConcepts: input.key_concepts.join("; "),
      content,
    });
  const prompt = promptWithin(llm, "podcast", frame, input.content, CONTENT_LIMIT);
  let script: PodcastScript;
  try {
    script = await llm.generateObject(PodcastScriptSchema, prompt, {
      task: "podcast",
      model: input.model,
      meter: input.meter,
      refine: scriptProblems,
    });
  } catch (err) {
    // The re-asks are spent: an episode-specific code and what the last script still lacked.
    if (isLlmError(err, "MODEL_OUTPUT_INVALID")) {
      const errors = (err.details as { errors?: string[] } | undefined)?.errors ?? [];
      throw new AppError(
        "PODCAST_SCRIPT_INVALID",
        `The model did not write a usable two-speaker script for "${input.chapterTitle}" after its re-asks: ${errors.join("; ")}`,
        { errors },
      );
    }
    throw err;
  }
  return { title: script.title, turns: alternate(script.turns) };
}

/** What a script needs beyond its schema: both speakers, taking enough turns, and enough words. */
function scriptProblems(s: PodcastScript): string[] {
  const problems: string[] = [];
  const speakers = new Set(s.turns.map((t) => t.speaker));
  if (speakers.size < 2) {
    const only = [...speakers][0] ?? "nobody";
    problems.push(`/turns: every turn is spoken by "${only}"; the host and the guest must both speak, taking turns`);
  } else {
    const turns = alternate(s.turns).length;
    if (turns < MIN_TURNS) {
      problems.push(
        `/turns: the speaker changes only ${turns - 1} times; alternate host and guest for at least ${MIN_TURNS} turns`,
      );
    }
  }
  const words = s.turns.reduce((n, t) => n + wordCount(t.text), 0);
  if (words < MIN_WORDS) problems.push(`/turns: the script has ${words} words; write at least 600`);
  return problems;
}

/**
 * Joins consecutive lines of one speaker (a model sometimes splits a speech across entries), so
 * speakers alternate. scriptProblems has made sure that this leaves a conversation.
 */
function alternate(turns: PodcastScript["turns"]): PodcastScript["turns"] {
  const out: PodcastScript["turns"] = [];
  for (const t of turns) {
    const last = out[out.length - 1];
    if (last && last.speaker === t.speaker) last.text = `${last.text} ${t.text}`;
    else out.push({ ...t });
  }
  return out;
}
