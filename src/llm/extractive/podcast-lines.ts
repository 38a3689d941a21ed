/**
 * A chapter's sentences as a podcast guest can say them: out loud, on their own, in nobody's name.
 * A sentence is rewritten where that is safe (citation markers dropped, a paper's "we" and "our"
 * turned into "the authors" or, for "we can…", the listener's "you") and left out where it is not
 * (it points at a figure or section, starts by referring back, or narrates the document itself).
 */
import { pointsElsewhere } from "./text.ts";

/** Numbered parts of a document: "Figure 3", "Table 2", "Section 4.1", "line 12", "Eq. 5". */
const NUMBERED_PART =
  /\b(figures?|fig\.|tables?|sections?|sec\.|chapters?|appendix|appendices|equations?|eqs?\.|listings?|algorithms?|lines?|pages?|pp?\.|footnotes?|slides?|steps?)\s*\(?\d/i;
/** Words that only make sense with the page in front of you. */
const ON_THE_PAGE = new RegExp(
  [
    /\b(as follows|the following|aforementioned|hereafter|herein|see also|cf\.|overleaf)\b/,
    /\bsee\s+(sections?|chapters?|figures?|tables?|appendix|pages?|the)\b/,
    /\b(shown|described|discussed|mentioned|explained|seen|defined|noted|listed|given|illustrated|introduced|presented|outlined)\s+(above|below|earlier|later|before|previously|next|here)\b/,
    /\bthe (above|below)\b|\b(above|below)\s*[:.]|\b(above|below)\s+(figures?|tables?|examples?|code|listings?|list|sections?|diagrams?|screenshots?|images?)\b/,
    /\b(previous|next|last|preceding|subsequent|following)\s+(sections?|chapters?|paragraphs?|pages?|figures?|tables?|examples?)\b/,
  ]
    .map((r) => r.source)
    .join("|"),
  "i",
);
/** Openings that refer back to what came before the sentence. */
const REFERS_BACK =
  /^((if|when|because|since|although|though|while|as|unless|whereas|so that|once)\s+)?(this|these|that|those|it|its|it's|they|them|their|such|he|she|his|her|here|another|the latter|the former|the same|the other|the above|both of|each of them|in this case|in that case|in both cases|to do so|to this end|for this reason|as such)\b/i;
/** Words anywhere that point at something said before ("both of these expectations", "such functions"). */
const DEMONSTRATIVE = /\b(this|these|those|similarly|likewise|recall)\b|\bsuch\s+(?!as\b)\w/i;
/** Connectives that tie a sentence to the one before; dropped, since the sentence holds without them. */
const LEADING_CONNECTIVE =
  /^(?:(?:however|moreover|furthermore|in addition|additionally|finally|consequently|similarly|likewise|instead|indeed|in particular|in fact|of course|nevertheless|nonetheless|first(?:ly)?|second(?:ly)?|third(?:ly)?|next|then|lastly|still|again|as a result|in contrast|on the other hand|for example|for instance|overall|in short|in summary|to summari[sz]e|in general|specifically|clearly|obviously|notably|importantly|note that|in practice|in theory|at this point),\s+|note:\s+|(?:but|and|or|so|yet|hence|thus|therefore|also|note that|in particular|here(?=,?\s+we\b)),?\s+)/i;
/** The document narrating itself: "we now describe…", "we will discuss…", "we explain…". */
const NARRATES =
  /\bwe\s+(?:(?:will|shall|now|next|then|first|briefly|also|further|later|finally|here)\s+)*(?:describe|discuss|explain|outline|review|summari[sz]e|detail|turn|begin|conclude|focus|start|examine|illustrate|sketch|recall|revisit|elaborate)\b|\b(?:will|shall|now|next|later)\s+(?:describe|discuss|explain|present|show|introduce|consider)\b/i;
/** First person that cannot be reassigned safely (contractions, "let us", the singular). */
const UNSAFE_FIRST_PERSON = /\b(we['’]re|we['’]ve|we['’]ll|we['’]d|let['’]s|let us|ours)\b|\b(my|me|mine)\b/i;
/** The singular "I" (case matters: "i" is no word, and "I" inside other words is excluded by \b). */
const FIRST_PERSON_SINGULAR = /\bI(['’](m|ve|d|ll))?\b/;
/** "us" is matched in lower case only: "US" is a country. */
const FIRST_PLURAL = /\b([Ww]e|[Oo]ur|us|[Oo]urselves)\b/;
/** "We can…", "we need…", "we see…": the reader is meant, so the listener ("you") is. */
const GENERIC_WE =
  /\bwe\s+(?:can|cannot|can't|could|may|might|must|should|need|needs|have to|would|will|see|notice|get|find|observe)\b/gi;
/** Code, markup, addresses and formulas read badly aloud. */
const UNSPEAKABLE = /https?:|www\.|@|[{}<>=|\\_^~#$`[\]]|\w\(|\s[+*/]\s/;
/** Symbols of a formula: "the set R of values v". */
const SYMBOL = /(^|\s)[b-z](?=[\s,.;:)])/;
/** Citations: "[12]", "(16)", "(3, 7)", "(Smith, 2001)", "(Smith et al. 2001; Jones 1999)". */
const CITATION =
  /\s*\[\d+(?:\s*[,–-]\s*\d+)*\]|\s*\(\d+(?:\s*[,–-]\s*\d+)*\)|\s*\((?:(?:see\s+)?[A-Z][\p{L}'’-]+(?:\s+(?:et al\.?|and|&)\s*(?:[A-Z][\p{L}'’-]+)?)?,?\s+\d{4}[a-z]?(?:;\s*)?)+\)/gu;
/** Parentheses that send the listener elsewhere: "(see Section 3)", "(Figure 2)", "(cf. …)". */
const POINTER_ASIDE =
  /\s*\((?:see|cf\.|e\.g\.,?\s*(?:figure|section|table)|fig(?:ure)?\.?|table|section|sec\.|eq(?:uation)?\.?|appendix|chapter|page|p\.)[^)]*\)/gi;
/** A footnote number glued to the end of a sentence word: "to a double.1 Clearly". */
const FOOTNOTE_MARK = /([a-z]{2,}[.,;:])\d{1,2}(?=\s|$)/g;

const SPOKEN_ABBREVIATIONS: [RegExp, string][] = [
  [/\be\.g\.,?/g, "for example,"],
  [/\bi\.e\.,?/g, "that is,"],
  [/\betc\./g, "and so on."],
  [/\bvs\./g, "versus"],
  [/\bet al\.?/g, "and colleagues"],
  [/\bapprox\./g, "approximately"],
];

/** Longest sentence a listener can follow in one go. */
const MAX_WORDS = 45;

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function stripConnectives(s: string): string {
  let out = s;
  for (let m = LEADING_CONNECTIVE.exec(out); m; m = LEADING_CONNECTIVE.exec(out)) out = out.slice(m[0].length);
  return capitalise(out);
}

/**
 * "we" and "our" of a document, spoken by someone else: "the authors" when the writers speak of
 * their own work (then "they", "their" within the same sentence), "you" when "we can…" addresses the
 * reader. Agreement is kept: all are plural.
 */
function reassignFirstPerson(s: string): string {
  if (!FIRST_PLURAL.test(s)) return s;
  const we = s.match(/\bwe\b/gi)?.length ?? 0;
  const generic = (we > 0 && we === (s.match(GENERIC_WE)?.length ?? 0)) || /\bus\b/.test(s);
  let named = false;
  return s.replace(new RegExp(FIRST_PLURAL.source, "g"), (word: string, _w, offset: number) => {
    const w = word.toLowerCase();
    let spoken: string;
    if (generic) spoken = { we: "you", our: "your", us: "you" }[w] ?? "yourselves";
    else if (named) spoken = { we: "they", our: "their", us: "them" }[w] ?? "themselves";
    else spoken = { we: "the authors", our: "the authors'", us: "the authors" }[w] ?? "themselves";
    named ||= !generic;
    return offset === 0 ? capitalise(spoken) : spoken;
  });
}

const balanced = (s: string) =>
  (s.match(/\(/g)?.length ?? 0) === (s.match(/\)/g)?.length ?? 0) && (s.match(/["“”]/g)?.length ?? 0) % 2 === 0;

/** `sentence` as a guest can say it on its own, or null when it cannot stand alone. */
export function spokenSentence(sentence: string): string | null {
  if (
    pointsElsewhere(sentence) ||
    NARRATES.test(sentence) ||
    UNSAFE_FIRST_PERSON.test(sentence) ||
    FIRST_PERSON_SINGULAR.test(sentence)
  ) {
    return null;
  }
  let s = sentence.replace(CITATION, "").replace(POINTER_ASIDE, "").replace(FOOTNOTE_MARK, "$1");
  for (const [pattern, spoken] of SPOKEN_ABBREVIATIONS) s = s.replace(pattern, spoken);
  s = s
    .replace(/\s+([,.;:!?])/g, "$1")
    .replace(/\s{2,}/g, " ")
    .trim();
  if (NUMBERED_PART.test(s) || ON_THE_PAGE.test(s) || UNSPEAKABLE.test(s) || SYMBOL.test(s) || !balanced(s))
    return null;
  s = stripConnectives(s);
  if (REFERS_BACK.test(s) || DEMONSTRATIVE.test(s) || !/^\p{Lu}/u.test(s) || !/[.!?]$/.test(s) || s.endsWith(":"))
    return null;
  s = reassignFirstPerson(s);
  const words = s.split(/\s+/).length;
  return words >= 6 && words <= MAX_WORDS ? s : null;
}
