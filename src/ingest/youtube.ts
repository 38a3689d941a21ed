/**
 * YouTube transcripts. youtubei.js speaks InnerTube (it follows YouTube's client changes, which a
 * hand-written client with a fixed client version did not): its player answer lists the caption
 * tracks, and the chosen one (manual captions first, then automatic, English preferred within
 * each) is fetched as json3. Every request, youtubei.js's included, goes through safeFetch, and any
 * failure is one clear error for that video.
 */
import { Innertube } from "youtubei.js";
import { AppError } from "../errors.ts";
import { type SafeResponse, safeFetch } from "../net/safe-fetch.ts";
import { cuesToBlocks, parseCaptionTrack } from "./captions.ts";
import { resultOf } from "./result.ts";
import type { ExtractResult, IngestConfig } from "./types.ts";
import { youtubeVideoId } from "./youtube-url.ts";

const BROWSER_HEADERS = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
  "accept-language": "en-US,en;q=0.9",
};

export interface CaptionTrack {
  base_url: string;
  language_code?: string;
  kind?: string;
}

const unavailable = (videoId: string, why: string) =>
  new AppError("VIDEO_UNAVAILABLE", `the transcript of YouTube video ${videoId} could not be fetched: ${why}`);

async function fetchOk(
  url: string,
  cfg: IngestConfig,
  videoId: string,
  init: { method?: string; body?: Uint8Array; headers?: Record<string, string> } = {},
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

/** A URL of YouTube's on `origin` (YOUTUBE_BASE_URL), path and query kept. */
const onOrigin = (url: string, origin: string) => {
  const parsed = new URL(url, origin);
  return `${origin}${parsed.pathname}${parsed.search}`;
};

/**
 * youtubei.js's fetch: safeFetch to YOUTUBE_BASE_URL. Its own errors would hide why a request
 * failed, so the first failure is kept and reported instead.
 */
function youtubeClient(cfg: IngestConfig, origin: string, videoId: string) {
  let failure: AppError | null = null;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const body = request.method === "GET" ? undefined : new Uint8Array(await request.arrayBuffer());
    try {
      const res = await fetchOk(onOrigin(request.url, origin), cfg, videoId, {
        method: request.method,
        headers: Object.fromEntries(request.headers),
        body,
      });
      return new Response(res.body as Uint8Array<ArrayBuffer>, { status: res.status, headers: res.headers });
    } catch (err) {
      failure ??= err as AppError;
      throw err;
    }
  };
  return { fetch: fetch as typeof globalThis.fetch, failure: () => failure };
}

/** Manual captions before automatic ones (kind "asr"), English before other languages. */
export function pickTrack<T extends CaptionTrack>(tracks: T[]): T | null {
  const rank = (t: CaptionTrack) => (t.kind === "asr" ? 2 : 0) + (t.language_code?.startsWith("en") ? 0 : 1);
  return [...tracks].sort((a, b) => rank(a) - rank(b))[0] ?? null;
}

function json3Url(baseUrl: string, origin: string): string {
  const url = new URL(onOrigin(baseUrl, origin));
  url.searchParams.set("fmt", "json3");
  return url.href;
}

async function playerOf(cfg: IngestConfig, origin: string, videoId: string) {
  const client = youtubeClient(cfg, origin, videoId);
  try {
    // A session made here, with no request: no player script (captions need no deciphering).
    const youtube = await Innertube.create({
      fetch: client.fetch,
      generate_session_locally: true,
      retrieve_innertube_config: false,
      retrieve_player: false,
      lang: "en",
    });
    return await youtube.getBasicInfo(videoId);
  } catch (err) {
    throw client.failure() ?? unavailable(videoId, err instanceof Error ? err.message : String(err));
  }
}

export async function extractYoutube(input: string, cfg: IngestConfig): Promise<ExtractResult> {
  const videoId = youtubeVideoId(input);
  if (!videoId) throw new AppError("INVALID_URL", `"${input}" is not a YouTube video URL`);
  const origin = cfg.youtubeBaseUrl.replace(/\/+$/, "");

  const info = await playerOf(cfg, origin, videoId);
  const playability = info.playability_status;
  if (playability?.status && playability.status !== "OK")
    throw unavailable(videoId, playability.reason || `the video is ${playability.status.toLowerCase()}`);

  const track = pickTrack(info.captions?.caption_tracks ?? []);
  if (!track) throw unavailable(videoId, "the video has no captions");
  const cues = parseCaptionTrack((await fetchOk(json3Url(track.base_url, origin), cfg, videoId)).text());
  if (cues.length === 0) throw unavailable(videoId, "its caption track is empty");

  return resultOf(
    cuesToBlocks(cues),
    { title: info.basic_info.title ?? null, mimeType: "video/youtube", pages: null },
    "timestamp",
  );
}
