/**
 * compromise, the part-of-speech tagger, loaded on its first use: building its lexicon took half a
 * second of CPU at every server start (and every test server's), though most requests never tag.
 * `require` with a literal name keeps it in the compiled executable (build.ts).
 */
import type Nlp from "compromise";

let loaded: typeof Nlp | undefined;
const compromise = (): typeof Nlp => (loaded ??= require("compromise") as typeof Nlp);

/** The tagged document of `text`: compromise's `nlp(text)`. */
export const nlp = (text: string): ReturnType<typeof Nlp> => compromise()(text);

/** compromise's lexicon: each word's tag before its context is read. */
export const lexicon = (): Record<string, string> =>
  (compromise() as unknown as { model(): { one: { lexicon: Record<string, string> } } }).model().one.lexicon;
