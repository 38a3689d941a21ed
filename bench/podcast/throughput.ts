/**
 * Speech throughput per engine: seconds of audio produced per second of wall time, for synthesis
 * alone and for a whole episode (synthesis, joining, MP3 encoding). Engines whose voices are not
 * installed are listed with the reason.
 *
 *   npx bun bench/podcast/throughput.ts [repetitions]
 */
import { availableParallelism, cpus } from "node:os";
import { loadConfig } from "../../src/config.ts";
import { encodeEpisode } from "../../src/podcasts/audio/episode.ts";
import type { Pcm } from "../../src/podcasts/audio/pcm.ts";
import type { ScriptTurn } from "../../src/podcasts/render-audio.ts";
import { createTtsEngines } from "../../src/podcasts/tts/registry.ts";

const SCRIPT: ScriptTurn[] = [
  {
    speaker: "host",
    text: "Welcome back. Today's chapter is about how vaccines train the immune system, and why that training lasts.",
  },
  {
    speaker: "guest",
    text: "Thanks for having me. A vaccine shows the body a harmless piece of a pathogen, often a protein from its surface, so the immune system can learn its shape without facing the disease.",
  },
  { speaker: "host", text: "So what actually gets trained? Is it the antibodies?" },
  {
    speaker: "guest",
    text: "Antibodies are part of it. B cells learn to make antibodies that fit the protein, and T cells learn to recognise infected cells. Some of both become memory cells, which can live for years.",
  },
  { speaker: "host", text: "That is why a second exposure is so much milder." },
  {
    speaker: "guest",
    text: "Exactly. The memory cells respond within days instead of weeks, often before you notice any symptoms at all. Booster doses simply remind them, and raise the number of memory cells again.",
  },
];

const repetitions = Math.max(1, Number(process.argv[2] ?? 3));
const cfg = loadConfig();
const engines = createTtsEngines(cfg);

interface Row {
  engine: string;
  audio: string;
  synth: string;
  episode: string;
  note: string;
}

const rows: Row[] = [];
for (const engine of Object.values(engines)) {
  const availability = await engine.available();
  if (!availability.ok) {
    rows.push({
      engine: engine.name,
      audio: "-",
      synth: "-",
      episode: "-",
      note: availability.reason ?? "unavailable",
    });
    continue;
  }
  const voices = engine.voices();
  await engine.synthesize("Warm up.", voices.host); // loads the engine; not part of the measurement
  let audioSeconds = 0;
  let synthMs = 0;
  let episodeMs = 0;
  for (let r = 0; r < repetitions; r++) {
    const started = performance.now();
    const turns: Pcm[] = [];
    for (const turn of SCRIPT) turns.push(await engine.synthesize(turn.text, voices[turn.speaker]));
    const synthesized = performance.now();
    const episode = await encodeEpisode(turns, { bitrateKbps: cfg.podcastBitrateKbps });
    synthMs += synthesized - started;
    episodeMs += performance.now() - started;
    audioSeconds += episode.durationSeconds;
  }
  rows.push({
    engine: engine.name,
    audio: (audioSeconds / repetitions).toFixed(1),
    synth: (audioSeconds / (synthMs / 1000)).toFixed(1),
    episode: (audioSeconds / (episodeMs / 1000)).toFixed(1),
    note: `voices ${voices.host} / ${voices.guest}`,
  });
}

console.log(
  `podcast speech throughput: ${SCRIPT.length} turns, ${repetitions} repetitions, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? "unknown"})`,
);
console.log("audio seconds per wall second; higher is faster; 1.0 is real time\n");
const header: Row = {
  engine: "engine",
  audio: "episode s",
  synth: "synthesis x",
  episode: "synth+mp3 x",
  note: "note",
};
const widths = (Object.keys(header) as (keyof Row)[]).map((k) =>
  Math.max(...[header, ...rows].map((r) => r[k].length)),
);
for (const row of [header, ...rows]) {
  console.log(
    (Object.keys(header) as (keyof Row)[])
      .map((k, i) => (k === "note" ? row[k] : row[k].padEnd(widths[i] ?? 0)))
      .join("  "),
  );
}
