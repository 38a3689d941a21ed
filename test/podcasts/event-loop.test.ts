import { expect, test } from "bun:test";
import { encodeEpisode } from "../../src/podcasts/audio/episode.ts";

/** CPU milliseconds this thread has run: unlike the wall clock, it does not grow while a busy machine runs others. */
const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

test("encoding a long episode leaves the event loop free to serve requests", async () => {
  const rate = 22050;
  const seconds = 90;
  const samples = Float32Array.from(
    { length: rate * seconds },
    (_, i) => 0.3 * Math.sin((2 * Math.PI * 180 * i) / rate),
  );

  // The longest stretch the thread ran between two timer ticks: what a request would wait for.
  let last = threadCpuMs();
  let worstStretch = 0;
  const timer = setInterval(() => {
    const now = threadCpuMs();
    worstStretch = Math.max(worstStretch, now - last);
    last = now;
  }, 5);
  const started = threadCpuMs();
  const episode = await encodeEpisode([{ samples, sampleRate: rate }]);
  const spent = threadCpuMs() - started;
  clearInterval(timer);

  expect(episode.durationSeconds).toBeGreaterThan(seconds - 0.1);
  expect(episode.durationSeconds).toBeLessThan(seconds + 0.2);
  // The whole encode takes seconds of CPU; no single stretch may hold the thread for more than a fraction of that.
  expect(spent).toBeGreaterThan(worstStretch * 5);
  expect(worstStretch).toBeLessThan(250);
  // Two seconds of CPU can take a minute of wall time on a loaded machine; the bounds above are CPU time.
}, 300_000);
