/** One episode's audio: the speakers' turns joined with short pauses, loudness-normalised, as a speech-bitrate MP3. */
import { encodeMp3 } from "./mp3.ts";
import { type Normalised, normaliseLoudness } from "./normalise.ts";
import { joinWithPauses, outputRate, type Pcm } from "./pcm.ts";

export interface EncodeEpisodeOptions {
  /** Constant bitrate; 48 kbps mono is transparent for synthetic speech at 22.05 kHz. */
  bitrateKbps?: number;
  /** Silence between consecutive turns. */
  pauseSeconds?: number;
}

export interface EncodedEpisode {
  bytes: Uint8Array;
  durationSeconds: number;
  contentType: "audio/mpeg";
  /** Loudness of the joined turns, of the result, and the gain that brought them there. */
  loudness: Omit<Normalised, "samples">;
}

const DEFAULT_BITRATE_KBPS = 48;
export const DEFAULT_TURN_PAUSE_SECONDS = 0.45;

export async function encodeEpisode(
  turnsAudio: readonly Pcm[],
  opts: EncodeEpisodeOptions = {},
): Promise<EncodedEpisode> {
  if (turnsAudio.length === 0) throw new Error("an episode needs at least one turn of audio");
  const rate = outputRate(turnsAudio);
  const pcm = joinWithPauses(turnsAudio, rate, opts.pauseSeconds ?? DEFAULT_TURN_PAUSE_SECONDS);
  // Measured on the whole episode, as a listener hears it: the pauses fall under the gates.
  const { samples, ...loudness } = await normaliseLoudness(pcm, rate);
  const mp3 = await encodeMp3(samples, rate, opts.bitrateKbps ?? DEFAULT_BITRATE_KBPS);
  return { bytes: mp3.bytes, durationSeconds: mp3.durationSeconds, contentType: "audio/mpeg", loudness };
}
