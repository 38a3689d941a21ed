/** Which URLs are YouTube videos (kept apart from the transcript fetcher, which loads an XML parser). */
const YOUTUBE_HOSTS = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "music.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
]);
const ID_RE = /^[A-Za-z0-9_-]{11}$/;

/** The video id of a watch, youtu.be, shorts, embed, live or /v/ URL; null for anything else. */
export function youtubeVideoId(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  let id: string | null = null;
  if (host === "youtu.be") id = url.pathname.split("/")[1] ?? null;
  else if (YOUTUBE_HOSTS.has(host)) {
    const [, first, second] = url.pathname.split("/");
    if (first === "watch") id = url.searchParams.get("v");
    else if (first && ["shorts", "embed", "live", "v"].includes(first)) id = second ?? null;
  }
  return id && ID_RE.test(id) ? id : null;
}

export const isYoutubeUrl = (url: string): boolean => youtubeVideoId(url) !== null;
