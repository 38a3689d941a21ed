/**
 * The RSS 2.0 document of a course's podcast feed, with the iTunes tags podcast apps read. GUIDs
 * name the course and chapter, so an episode generated again is the same item to a subscriber.
 */
import type { EpisodeRow } from "../podcasts/episodes.ts";
import { xmlDocument, xmlText } from "./xml.ts";

export interface FeedInput {
  course: { id: string; title: string; description: string | null };
  feedUrl: string;
  audioUrl: (episode: EpisodeRow) => string;
  episodes: EpisodeRow[];
  /** The feed's lastBuildDate. */
  now: Date;
}

/** HH:MM:SS, as itunes:duration takes it. */
function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, "0")).join(":");
}

const episodeGuid = (e: Pick<EpisodeRow, "course_id" | "chapter_id">) =>
  `courseforge:podcast:${e.course_id}:${e.chapter_id}`;

/** Only ready episodes are listed: an item without audio would be an error in every podcast app. */
export function feedXml(input: FeedInput): string {
  const { course } = input;
  const description = course.description?.trim() || `Podcast episodes of the course “${course.title}”.`;
  const doc = xmlDocument().ele("rss", {
    version: "2.0",
    "xmlns:itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd",
    "xmlns:atom": "http://www.w3.org/2005/Atom",
  });
  const channel = doc.ele("channel");
  channel.ele("title").txt(xmlText(course.title)).up();
  channel.ele("link").txt(xmlText(input.feedUrl)).up();
  channel.ele("description").txt(xmlText(description)).up();
  channel.ele("language").txt(xmlText("en")).up();
  channel.ele("lastBuildDate").txt(xmlText(input.now.toUTCString())).up();
  channel.ele("atom:link", { href: input.feedUrl, rel: "self", type: "application/rss+xml" }).up();
  channel.ele("itunes:author").txt(xmlText("Courseforge")).up();
  channel.ele("itunes:summary").txt(xmlText(description)).up();
  channel.ele("itunes:explicit").txt(xmlText("false")).up();
  channel.ele("itunes:type").txt(xmlText("serial")).up();
  channel.ele("itunes:category", { text: "Education" }).up();
  for (const e of input.episodes.filter((e) => e.status === "ready" && e.blob_key)) {
    const item = channel.ele("item");
    item.ele("title").txt(xmlText(e.title)).up();
    item
      .ele("description")
      .txt(xmlText(`Chapter ${e.chapter_order + 1} of “${course.title}”: ${e.title}`))
      .up();
    item
      .ele("guid", { isPermaLink: "false" })
      .txt(xmlText(episodeGuid(e)))
      .up();
    item
      .ele("pubDate")
      .txt(xmlText(new Date(e.created_at).toUTCString()))
      .up();
    item
      .ele("enclosure", {
        url: input.audioUrl(e),
        length: String(e.size_bytes ?? 0),
        type: e.content_type ?? "audio/mpeg",
      })
      .up();
    item
      .ele("itunes:duration")
      .txt(xmlText(duration(e.duration_seconds ?? 0)))
      .up();
    item
      .ele("itunes:episode")
      .txt(xmlText(String(e.chapter_order + 1)))
      .up();
    item.ele("itunes:episodeType").txt(xmlText("full")).up();
  }
  return doc.end({ prettyPrint: true });
}
