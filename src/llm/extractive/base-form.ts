/**
 * The infinitive of an irregular past form ("taken" → "take", "written" → "write"), from a
 * WordNet-derived list, so that "the representation taken at the token" matches "take the
 * representation at the token": Porter stemming leaves irregular forms as they are. Forms that are
 * more often a noun or an adjective than the verb ("left", "found", "saw", "felt", "ground") are
 * left alone: mapping them would make "the left column" match "leave".
 */
import verbs from "english-verbs-irregular/dist/verbs.json" with { type: "json" };

const HOMOGRAPHS = new Set([
  "left",
  "found",
  "saw",
  "felt",
  "ground",
  "bound",
  "wound",
  "lay",
  "lain",
  "rose",
  "fell",
  "bore",
  "spoke",
  "lit",
  "lie",
  "hung",
  "shed",
  "sank",
  "cast",
  "bit",
  "ring",
  "rung",
  "sung",
  "spat",
  "slid",
  "stole",
  "tore",
  "wore",
  "wove",
  "bred",
  "fed",
  "fled",
  "led",
  "meant",
  "pled",
  "sped",
  "swung",
  "clung",
  "strung",
  "stung",
  "flung",
  "dove",
  "rent",
  "dealt",
]);

const BASE = new Map<string, string>();
for (const [infinitive, forms] of Object.entries(verbs as Record<string, string[][]>)) {
  for (const form of forms.flat()) {
    if (form !== infinitive && !HOMOGRAPHS.has(form) && !BASE.has(form)) BASE.set(form, infinitive);
  }
}

/** `word` (lower case) as its verb's infinitive when it is an irregular past form, else unchanged. */
export const baseForm = (word: string): string => BASE.get(word) ?? word;

// Porter2's rule for adverbs in "-ly" (Porter's own stemmer, used here, leaves "jointli" apart from
// "joint"): the suffix goes after one of these letters, except in the words it lists.
const LY_AFTER = /[cdeghkmnrt]ly$/;
const NOT_ADVERBS = new Set(["early", "only", "gently", "ugly", "idly", "singly", "likely", "rely", "reply", "apply"]);

/**
 * `word` (lower case) without the "-ly" that makes an adverb of it ("jointly" → "joint",
 * "non-interactively" → "interactive"), so that "trained jointly" meets "joint training".
 */
export const adverbBase = (word: string): string =>
  word.length > 5 && LY_AFTER.test(word) && !NOT_ADVERBS.has(word) ? word.slice(0, -2) : word;
