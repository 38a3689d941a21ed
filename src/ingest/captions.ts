/**
 * YouTube caption tracks to markdown. Two wire formats are read: json3 (what we ask for) and the
 * timedtext XML (`<text start dur>` in seconds, or `<p t d>` in milliseconds) that older endpoints
 * still return. Cues are grouped into paragraphs of about half a minute, each led by `[mm:ss]`.
 */
import { DOMParser, parseHTML } from "linkedom";
import { type Block, block, escapeInline } from "./document.ts";

export interface Cue {
  /** Seconds from the start. */
  start: number;
  text: string;
}

/** Entities that were escaped twice (`&amp;#39;`) are left after XML parsing; HTML decodes them. */
const decodeEntities = (text: string): string =>
  text.includes("&") ? (parseHTML(`<html><body><p>${text}</p></body></html>`).document.body.textContent ?? text) : text;

const clean = (text: string): string =>
  decodeEntities(text.replace(/<[^>]*>/g, ""))
    .replace(/<[^>]*>/g, "")
    .replace(/\s+/g, " ")
    .trim();

export function parseJson3(json: string): Cue[] {
  const data = JSON.parse(json) as { events?: { tStartMs?: number; segs?: { utf8?: string }[] }[] };
  const cues: Cue[] = [];
  for (const event of data.events ?? []) {
    const text = clean((event.segs ?? []).map((s) => s.utf8 ?? "").join(""));
    if (text) cues.push({ start: (event.tStartMs ?? 0) / 1000, text });
  }
  return cues;
}

export function parseTimedTextXml(xml: string): Cue[] {
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const cues: Cue[] = [];
  for (const el of doc.querySelectorAll("text")) {
    const text = clean(el.textContent ?? "");
    if (text) cues.push({ start: Number(el.getAttribute("start") ?? 0), text });
  }
  for (const el of doc.querySelectorAll("p")) {
    const text = clean(el.textContent ?? "");
    if (text) cues.push({ start: Number(el.getAttribute("t") ?? 0) / 1000, text });
  }
  return cues.sort((a, b) => a.start - b.start);
}

export function parseCaptionTrack(body: string): Cue[] {
  return body.trimStart().startsWith("{") ? parseJson3(body) : parseTimedTextXml(body);
}

export function formatTimestamp(seconds: number): string {
  const s = Math.floor(seconds);
  const hh = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return hh > 0 ? `${hh}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** A paragraph closes at a sentence end once it spans this long, or anywhere past the hard limit. */
const PARAGRAPH_SECONDS = 30;
const PARAGRAPH_HARD_SECONDS = 60;

/** Caption paragraphs as blocks, each with the time it starts at (shown as `[mm:ss]` in markdown). */
export function cuesToBlocks(cues: Cue[]): Block[] {
  const blocks: Block[] = [];
  let start = 0;
  let parts: string[] = [];
  const flush = () => {
    if (parts.length === 0) return;
    const text = parts.join(" ");
    blocks.push(
      block(
        "paragraph",
        text,
        { timestamp: Math.floor(start) },
        { markdown: `[${formatTimestamp(start)}] ${escapeInline(text)}` },
      ),
    );
    parts = [];
  };
  for (const cue of cues) {
    if (parts.length === 0) start = cue.start;
    parts.push(cue.text);
    const span = cue.start - start;
    if ((span >= PARAGRAPH_SECONDS && /[.!?…]["')\]]?$/.test(cue.text)) || span >= PARAGRAPH_HARD_SECONDS) flush();
  }
  flush();
  return blocks;
}
