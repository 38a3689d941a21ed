import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cuesToBlocks, formatTimestamp, parseCaptionTrack } from "../../src/ingest/captions.ts";
import { extractUrl, isYoutubeUrl, youtubeVideoId } from "../../src/ingest/index.ts";
import { resultOf } from "../../src/ingest/result.ts";
import { pickTrack } from "../../src/ingest/youtube.ts";
import {
  type FakeYoutube,
  startFakeYoutube,
  VIDEO_REMOVED,
  VIDEO_WITH_CAPTIONS,
  VIDEO_WITHOUT_CAPTIONS,
} from "./fake-youtube.ts";
import { corpus, failure, ingestConfig, scratch } from "./support.ts";

const tmp = scratch();
let yt: FakeYoutube;
beforeAll(async () => {
  yt = await startFakeYoutube();
});
afterAll(() => {
  yt.stop();
  tmp.remove();
});

describe("YouTube URLs", () => {
  test.each([
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=42", "dQw4w9WgXcQ"],
    ["https://m.youtube.com/watch?v=dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ?si=abc", "dQw4w9WgXcQ"],
    ["https://www.youtube.com/shorts/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://www.youtube.com/embed/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://www.youtube.com/live/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
  ])("%s is video %s", (url, id) => {
    expect(youtubeVideoId(url)).toBe(id);
    expect(isYoutubeUrl(url)).toBe(true);
  });

  test.each([
    "https://www.youtube.com/channel/UC123",
    "https://example.com/watch?v=dQw4w9WgXcQ",
    "https://youtu.be/short",
    "not a url",
  ])("%s is not a video URL", (url) => expect(isYoutubeUrl(url)).toBe(false));

  test("manual captions are preferred to automatic ones, English first", () => {
    const asr = { base_url: "a", language_code: "en", kind: "asr" };
    const manualDe = { base_url: "b", language_code: "de" };
    const manualEn = { base_url: "c", language_code: "en-GB" };
    expect(pickTrack([asr, manualDe, manualEn])).toBe(manualEn);
    expect(pickTrack([asr, manualDe])).toBe(manualDe);
    expect(pickTrack([asr])).toBe(asr);
    expect(pickTrack([])).toBeNull();
  });
});

describe("caption formats", () => {
  test("json3 from a real video: timestamps and paragraphs", async () => {
    const cues = parseCaptionTrack(
      await Bun.file(corpus("transcripts/youtube-json3-manual-speakenglishwithvanessa.json3")).text(),
    );
    expect(cues).toHaveLength(151);
    expect(cues[1]).toEqual({ start: 4.04, text: "Today, I have some good news and some bad news." });
    const segments = resultOf(
      cuesToBlocks(cues),
      { title: null, mimeType: "video/youtube", pages: null },
      "timestamp",
    ).segments;
    expect(
      segments[0]!.markdown.startsWith("[00:00] Hi, I'm Vanessa from SpeakEnglishWithVanessa.com. Today, I have"),
    ).toBe(true);
    expect(segments.every((s) => /^\[\d\d:\d\d\] /.test(s.markdown))).toBe(true);
    expect(segments.map((s) => s.timestamp)).toEqual([...segments.map((s) => s.timestamp)].sort((a, b) => a! - b!));
    // Every caption word survives: compare with the reference SRT's text.
    const srt = await Bun.file(corpus("transcripts/youtube-json3-manual-speakenglishwithvanessa.expected.srt")).text();
    const words = (text: string) => text.replace(/\s+/g, " ").trim();
    const srtText = words(
      srt
        .split(/\r?\n\r?\n/)
        .map((block) => block.split(/\r?\n/).slice(2).join(" "))
        .join(" "),
    );
    expect(words(segments.map((s) => s.markdown.replace(/^\[[\d:]+\] /, "")).join(" "))).toBe(srtText);
  });

  test("timedtext XML (seconds) with escaped markup", async () => {
    const cues = parseCaptionTrack(await Bun.file(corpus("transcripts/youtube-timedtext-sample.xml")).text());
    expect(cues.map((c) => c.text)).toEqual([
      "Hey, this is just a test",
      "this is not the original transcript",
      "just something shorter, I made up for testing",
    ]);
    expect(cues[2]!.start).toBe(5.7);
  });

  test("timedtext format 3 (milliseconds) with doubly escaped entities", () => {
    const cues = parseCaptionTrack(
      '<timedtext format="3"><body><p t="61500" d="900">Tom &amp;amp; Jerry&amp;#39;s show</p></body></timedtext>',
    );
    expect(cues).toEqual([{ start: 61.5, text: "Tom & Jerry's show" }]);
  });

  test("timestamps", () => {
    expect(formatTimestamp(0)).toBe("00:00");
    expect(formatTimestamp(75.9)).toBe("01:15");
    expect(formatTimestamp(3723)).toBe("1:02:03");
  });
});

describe("extractUrl on YouTube (fake YouTube on loopback, allowed by OUTBOUND_ALLOW)", () => {
  const cfg = () => ingestConfig(tmp.dir, { youtubeBaseUrl: yt.origin, outboundAllow: ["127.0.0.1"] });

  test("the manual caption track becomes timestamped markdown, pages null", async () => {
    const r = await extractUrl(`https://youtu.be/${VIDEO_WITH_CAPTIONS}`, cfg());
    expect(r.sourceType).toBe("youtube");
    expect(r.pages).toBeNull();
    expect(r.title).toBe("Speak English naturally");
    expect(r.mimeType).toBe("video/youtube");
    expect(r.markdown.startsWith("[00:00] Hi, I'm Vanessa")).toBe(true);
    expect(r.markdown).not.toContain("automatic captions");
    expect(r.segments[1]!.timestamp).toBe(41);
    expect(yt.requests).toContain(`GET /api/timedtext?v=${VIDEO_WITH_CAPTIONS}&lang=en&fmt=json3`);
    // youtubei.js's player request reached the fake through safeFetch, naming the video.
    expect(yt.players.map((p) => p.videoId)).toContain(VIDEO_WITH_CAPTIONS);
  });

  test("a video without captions is a clear error", async () => {
    const err = await failure(extractUrl(`https://www.youtube.com/watch?v=${VIDEO_WITHOUT_CAPTIONS}`, cfg()));
    expect(err.code).toBe("VIDEO_UNAVAILABLE");
    expect(err.message).toContain(VIDEO_WITHOUT_CAPTIONS);
    expect(err.message).toContain("has no captions");
  });

  test("a removed video is a clear error", async () => {
    const err = await failure(extractUrl(`https://www.youtube.com/watch?v=${VIDEO_REMOVED}`, cfg()));
    expect(err.message).toContain("could not be fetched");
    expect(err.message).toContain("unavailable");
  });

  test("YouTube unreachable is a clear error", async () => {
    const down = ingestConfig(tmp.dir, { youtubeBaseUrl: "http://127.0.0.1:9", outboundAllow: ["127.0.0.1"] });
    const err = await failure(extractUrl(`https://youtu.be/${VIDEO_WITH_CAPTIONS}`, down));
    expect(err.code).toBe("VIDEO_UNAVAILABLE");
    expect(err.message).toContain(`YouTube video ${VIDEO_WITH_CAPTIONS} could not be fetched`);
    expect(err.message).toContain("ECONNREFUSED");
  });

  test("without OUTBOUND_ALLOW the loopback fake is refused by the SSRF guard", async () => {
    const strict = ingestConfig(tmp.dir, { youtubeBaseUrl: yt.origin });
    const err = await failure(extractUrl(`https://youtu.be/${VIDEO_WITH_CAPTIONS}`, strict));
    expect(err.message).toContain("OUTBOUND_ALLOW");
  });
});
