/**
 * YouTube transcripts. The watch page yields the innertube API key; the innertube player
 * endpoint lists the caption tracks; the chosen track (manual captions first, then automatic,
 * English preferred within each) is fetched as json3. Every request goes through safeFetch, and
 * any failure is one clear error for that video.
 */
import { AppError } from "../errors.ts";
import { type SafeResponse, safeFetch } from "../net/safe-fetch.ts";
import { cuesToBlocks, parseCaptionTrack } from "./captions.ts";
import { resultOf } from "./result.ts";
import type { ExtractResult, IngestConfig } from "./types.ts";
import { youtubeVideoId } from "./youtube-url.ts";

/** The innertube client whose player answers include caption tracks without a signed-in session. */
const INNERTUBE_CLIENT = { clientName: "ANDROID", clientVersion: "20.10.38" };
const BROWSER_HEADERS = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
  "accept-language": "en-US,en;q=0.9",
};

interface CaptionTrack {
  baseUrl: string;
  languageCode?: string;
  kind?: string;
}

interface PlayerResponse {
  playabilityStatus?: { status?: string; reason?: string };
  videoDetails?: { title?: string };
  captions?: { playerCaptionsTracklistRenderer?: { captionTracks?: CaptionTrack[] } };
}

const unavailable = (videoId: string, why: string) =>
  new AppError("VIDEO_UNAVAILABLE", `the transcript of YouTube video ${videoId} could not be fetched: ${why}`);

async function fetchOk(
  url: string,
  cfg: IngestConfig,
  videoId: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<SafeResponse> {
  let res: SafeResponse;
  try {
    res = await safeFetch(url, { ...init, headers: { ...BROWSER_HEADERS, ...init.headers }, allow: cfg.outboundAllow });
  } catch (err) {
    throw unavailable(videoId, err instanceof Error ? err.message : String(err));
  }
  if (res.status === 429)
    throw unavailable(videoId, "YouTube is rate-limiting this server (HTTP 429); try again later");
  if (!res.ok) throw unavailable(videoId, `YouTube answered HTTP ${res.status}`);
  return res;
}

/** Manual captions before automatic ones (kind "asr"), English before other languages. */
export function pickTrack(tracks: CaptionTrack[]): CaptionTrack | null {
  const rank = (t: CaptionTrack) => (t.kind === "asr" ? 2 : 0) + (t.languageCode?.startsWith("en") ? 0 : 1);
  return [...tracks].sort((a, b) => rank(a) - rank(b))[0] ?? null;
}

function json3Url(baseUrl: string, origin: string): string {
  const url = new URL(baseUrl, origin);
  url.searchParams.set("fmt", "json3");
  return url.href;
}

export async function extractYoutube(input: string, cfg: IngestConfig): Promise<ExtractResult> {
  const videoId = youtubeVideoId(input);
  if (!videoId) throw new AppError("INVALID_URL", `"${input}" is not a YouTube video URL`);
  const origin = cfg.youtubeBaseUrl.replace(/\/+$/, "");

  const page = (await fetchOk(`${origin}/watch?v=${videoId}`, cfg, videoId)).text();
  if (page.includes('class="g-recaptcha"'))
    throw unavailable(videoId, "YouTube asked for a captcha; too many requests from this server");
  const apiKey = /"INNERTUBE_API_KEY":\s*"([^"]+)"/.exec(page)?.[1];
  if (!apiKey) throw unavailable(videoId, "the watch page did not load (the video may be private or removed)");

  const player = (
    await fetchOk(`${origin}/youtubei/v1/player?key=${encodeURIComponent(apiKey)}`, cfg, videoId, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ context: { client: INNERTUBE_CLIENT }, videoId }),
    })
  ).json<PlayerResponse>();
  const playability = player.playabilityStatus?.status;
  if (playability && playability !== "OK")
    throw unavailable(videoId, player.playabilityStatus?.reason ?? `the video is ${playability.toLowerCase()}`);

  const track = pickTrack(player.captions?.playerCaptionsTracklistRenderer?.captionTracks ?? []);
  if (!track) throw unavailable(videoId, "the video has no captions");
  const cues = parseCaptionTrack((await fetchOk(json3Url(track.baseUrl, origin), cfg, videoId)).text());
  if (cues.length === 0) throw unavailable(videoId, "its caption track is empty");

  return resultOf(
    cuesToBlocks(cues),
    { title: player.videoDetails?.title ?? null, mimeType: "video/youtube", pages: null },
    "timestamp",
  );
}
