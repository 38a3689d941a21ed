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

/**
 * The tagged words of `text`, for reading its terms' tags: compromise's pipeline without its last
 * step, chunking (grouping words into noun and verb phrases), which sets no tag and was a tenth of
 * a course's tagging. The document's phrase queries (nouns(), verbs()) read chunks: use `nlp` for those.
 */
export function tagWords(text: string): ReturnType<typeof Nlp> {
  const world = compromise().world() as { hooks: string[] };
  const hooks = world.hooks;
  world.hooks = hooks.filter((h) => h !== "chunks");
  try {
    return compromise()(text);
  } finally {
    world.hooks = hooks;
  }
}
