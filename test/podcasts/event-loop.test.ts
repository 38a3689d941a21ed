import { expect, test } from "bun:test";
import { encodeEpisode } from "../../src/podcasts/audio/episode.ts";

test("encoding a long episode leaves the event loop free to serve requests", async () => {
  const rate = 22050;
  const seconds = 90;
  const samples = Float32Array.from(
    { length: rate * seconds },
    (_, i) => 0.3 * Math.sin((2 * Math.PI * 180 * i) / rate),
  );

  let last = performance.now();
  let worstGap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worstGap = Math.max(worstGap, now - last);
    last = now;
  }, 5);
  const started = performance.now();
  const episode = await encodeEpisode([{ samples, sampleRate: rate }]);
  const elapsed = performance.now() - started;
  clearInterval(timer);

  expect(episode.durationSeconds).toBeGreaterThan(seconds - 0.1);
  expect(episode.durationSeconds).toBeLessThan(seconds + 0.2);
  // The whole encode takes seconds; no single stretch may hold the thread for more than a fraction of that.
  expect(elapsed).toBeGreaterThan(worstGap * 5);
  expect(worstGap).toBeLessThan(250);
});
