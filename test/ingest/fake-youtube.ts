/**
 * A stand-in for YouTube on 127.0.0.1: the watch page with an innertube key, the innertube player
 * endpoint listing caption tracks (a manual and an automatic English track), and the timedtext
 * endpoint serving a real json3 caption file from the corpus.
 */
import { corpus } from "./support.ts";

export const VIDEO_WITH_CAPTIONS = "dQw4w9WgXcQ";
export const VIDEO_WITHOUT_CAPTIONS = "noCaptions1";
export const VIDEO_REMOVED = "removedVid1";

export interface FakeYoutube {
  origin: string;
  requests: string[];
  stop(): void;
}

export async function startFakeYoutube(): Promise<FakeYoutube> {
  const manual = await Bun.file(corpus("transcripts/youtube-json3-manual-speakenglishwithvanessa.json3")).text();
  const automatic = JSON.stringify({
    events: [{ tStartMs: 0, segs: [{ utf8: "automatic captions should not be chosen" }] }],
  });
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      requests.push(`${req.method} ${url.pathname}${url.search}`);
      const origin = url.origin;
      if (url.pathname === "/watch") {
        const id = url.searchParams.get("v");
        if (id === VIDEO_REMOVED)
          return new Response("<html><body>This video isn't available anymore</body></html>", {
            headers: { "content-type": "text/html" },
          });
        return new Response(
          `<html><script>ytcfg.set({"INNERTUBE_API_KEY":"fake-key","VIDEO":"${id}"});</script></html>`,
          {
            headers: { "content-type": "text/html" },
          },
        );
      }
      if (
        url.pathname === "/youtubei/v1/player" &&
        req.method === "POST" &&
        url.searchParams.get("key") === "fake-key"
      ) {
        const body = (await req.json()) as { videoId: string };
        const tracks =
          body.videoId === VIDEO_WITHOUT_CAPTIONS
            ? undefined
            : {
                playerCaptionsTracklistRenderer: {
                  captionTracks: [
                    {
                      baseUrl: `${origin}/api/timedtext?v=${body.videoId}&lang=en&kind=asr&fmt=srv3`,
                      languageCode: "en",
                      kind: "asr",
                    },
                    { baseUrl: `${origin}/api/timedtext?v=${body.videoId}&lang=en`, languageCode: "en" },
                  ],
                },
              };
        return Response.json({
          playabilityStatus: { status: "OK" },
          videoDetails: { title: "Speak English naturally" },
          captions: tracks,
        });
      }
      if (url.pathname === "/api/timedtext" && url.searchParams.get("fmt") === "json3") {
        return new Response(url.searchParams.get("kind") === "asr" ? automatic : manual, {
          headers: { "content-type": "application/json" },
        });
      }
      return new Response("not found", { status: 404 });
    },
  });
  return { origin: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}
