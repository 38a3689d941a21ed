/**
 * A stand-in for YouTube on 127.0.0.1: InnerTube's player endpoint, answering as YouTube does
 * (playability, video details and the caption track list: a manual and an automatic English
 * track), and the timedtext endpoint serving a real json3 caption file from the corpus.
 */
import { corpus } from "./support.ts";

export const VIDEO_WITH_CAPTIONS = "dQw4w9WgXcQ";
export const VIDEO_WITHOUT_CAPTIONS = "noCaptions1";
export const VIDEO_REMOVED = "removedVid1";

export interface FakeYoutube {
  origin: string;
  requests: string[];
  /** The bodies of the player requests. */
  players: { videoId: string }[];
  stop(): void;
}

export async function startFakeYoutube(): Promise<FakeYoutube> {
  const manual = await Bun.file(corpus("transcripts/youtube-json3-manual-speakenglishwithvanessa.json3")).text();
  const automatic = JSON.stringify({
    events: [{ tStartMs: 0, segs: [{ utf8: "automatic captions should not be chosen" }] }],
  });
  const requests: string[] = [];
  const players: { videoId: string }[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      requests.push(`${req.method} ${url.pathname}${url.search}`);
      const origin = url.origin;
      if (url.pathname === "/youtubei/v1/player" && req.method === "POST") {
        const body = (await req.json()) as { videoId: string };
        players.push(body);
        return Response.json(playerResponse(body.videoId, origin));
      }
      if (url.pathname === "/api/timedtext" && url.searchParams.get("fmt") === "json3") {
        return new Response(url.searchParams.get("kind") === "asr" ? automatic : manual, {
          headers: { "content-type": "application/json" },
        });
      }
      return new Response("not found", { status: 404 });
    },
  });
  return { origin: `http://127.0.0.1:${server.port}`, requests, players, stop: () => server.stop(true) };
}

/** InnerTube's player answer, in the shape (and field names) of YouTube's for a public video. */
function playerResponse(videoId: string, origin: string) {
  if (videoId === VIDEO_REMOVED)
    return {
      responseContext: { visitorData: "CgtmYWtlLXZpc2l0b3I%3D" },
      playabilityStatus: {
        status: "ERROR",
        reason: "This video isn't available anymore",
        contextParams: "Q0FFU0FnZ0I=",
      },
    };
  const track = (lang: string, name: string, kind?: string) => ({
    baseUrl: `${origin}/api/timedtext?v=${videoId}&lang=${lang}${kind ? `&kind=${kind}` : ""}${kind ? "&fmt=srv3" : ""}`,
    name: { runs: [{ text: name }] },
    vssId: `${kind === "asr" ? "a" : ""}.${lang}`,
    languageCode: lang,
    ...(kind ? { kind } : {}),
    isTranslatable: true,
    trackName: "",
  });
  return {
    responseContext: { visitorData: "CgtmYWtlLXZpc2l0b3I%3D" },
    playabilityStatus: { status: "OK", playableInEmbed: true, contextParams: "Q0FFU0FnZ0I=" },
    videoDetails: {
      videoId,
      title: "Speak English naturally",
      lengthSeconds: "612",
      channelId: "UCxJGMJbjokfnr2-s4_RXPxQ",
      author: "Speak English With Vanessa",
      isLiveContent: false,
      viewCount: "1000",
    },
    ...(videoId === VIDEO_WITHOUT_CAPTIONS
      ? {}
      : {
          captions: {
            playerCaptionsTracklistRenderer: {
              captionTracks: [track("en", "English (auto-generated)", "asr"), track("en", "English")],
              audioTracks: [{ captionTrackIndices: [0, 1] }],
              translationLanguages: [{ languageCode: "de", languageName: { simpleText: "German" } }],
              defaultAudioTrackIndex: 0,
            },
          },
        }),
  };
}
