/**
 * Sentences that lean on the sentence before them. The list follows the cohesive ties of Halliday
 * and Hasan (Cohesion in English, 1976) that point backwards from a sentence's opening:
 *   - conjunction: a conjunctive adverbial that links to what was just said, additive ("Also",
 *     "Moreover"), adversative ("However", "Instead,"), causal ("Thus", "As a result") or sequential
 *     ("Then", "Finally"), and the exemplifying "For example"; a conjunctive adverb set off after
 *     the opening words ("Note, however, …", "Python, moreover, …") links the same way;
 *   - reference: a demonstrative ("This", "These instructions", "In this case", "At that point"), a
 *     third-person pronoun ("It", "They", "Its") or a comparative ("Another", "The other", "The
 *     latter") in the opening words;
 *   - substitution: a bare "do" for a verb phrase said before ("If you did, …");
 *   - a continuative or a response opening a line of dialogue ("Well, …", "Haha, but I have learnt
 *     that …", "Yes, …"): an interjection set off by a comma answers what was said before it;
 *   - "this" or "these" anywhere, as a pronoun ("Arrays are worse than this.") or a determiner
 *     ("…then checks this flag"): out of their document, sentences use them for what came before;
 *     but a lead-in ending on a colon uses them for what follows ("Follow these steps:").
 * An additive "also" after a sentence's subject ("Debian also has developed …") adds to something said
 * before as well, but only loosely: `addsToPrevious` tells it apart, for the sentence a section opens on.
 * Openers that point forward or at nothing are not ties: an expletive "It is hard to…", "Those who…",
 * "Such as", "In addition to X", "As a result of X", "Instead of X". Hand-listed: the taggers at
 * hand (compromise) read "This" in "This represents…" and "than this" as a determiner either way.
 */
import { taggedSentences } from "./tagging.ts";

const CONNECTIVE =
  /^(also|moreover|furthermore|besides|additionally|likewise|similarly|again|however|nevertheless|nonetheless|conversely|still|yet|but|and|or|nor|otherwise|instead,|rather,|thus|hence|therefore|consequently|accordingly|so|then|next|finally|lastly|second(ly)?|third(ly)?|meanwhile|here|in (addition|particular|turn|contrast|short|sum|summary|other words|this|that|these|those|such)|by contrast|on the other hand|as (a result|a consequence|such|well)|that is|for (example|instance|this reason|that reason|one thing|another)|even so|after all)(?![\p{L}\p{N}-])/iu;

// Conjunctive adverbs that still link back when set off after an opening word or two.
const MEDIAL =
  /\s(however|moreover|furthermore|additionally|likewise|similarly|nevertheless|nonetheless|therefore|thus|hence|consequently|accordingly|instead|though|too|also)\W*$/i;
// Substitution: a bare "do" standing for a verb phrase said before ("If you did, …", "As they do, …").
const SUBSTITUTE = /^(if|when|unless|as) \p{L}+ (do|does|did|don't|doesn't|didn't)(\s+(not|so))?\s*,/iu;
const DEMONSTRATIVE = /\b(those|such)\b/i;
const THIS = /\b(this|these)\b/i;
// "Those who…", "such as", "such that" point forward, not back.
const FORWARD = /\b(those (who|which|that|whose|where|of|with|in)|such (as|that))\b/gi;
const PERSONAL = /\b(it|its|they|them|their|theirs|he|him|his|she|her|hers)\b/i;
const COMPARATIVE = /^(another|the (other|former|latter|same|remaining|rest))\b/i;
// "That" opens a back-reference as a pronoun ("That is why…") or after a preposition ("At that point").
const THAT = /^(that|(at|in|for|by|from|after|before|on|of|with|to) that)\b/i;
const NOT_TIES = /^(in addition to|as a result of|instead of|as well as)\b/i;
// "It is/should be <word> to/that…", "In some cases, it is useful to…": an expletive "it" stands for the clause after it.
const EXPLETIVE_IT =
  /(^|,\s*)it (is|was|has been|should be|must be|can be|could be|may be|might be|would be|will be|seems|appears|follows|turns out)( not)?( \w+)? (to|that|whether|if|for|how|why)\b/i;
// A citation mark left at a sentence's start by the splitter ("(12) For example, …") is not its opening.
const LEADING_MARK = /^(\(\d+([,–-]\s*\d+)*\)|\[\d+([,–-]\s*\d+)*\])\s*/;

// A first word set off by a comma or an exclamation mark, which the tagger reads as an interjection.
const SET_OFF = /^(\p{L}+)\s*[,!]/u;
const responds = (s: string) => {
  const word = SET_OFF.exec(s)?.[1];
  return word !== undefined && (taggedSentences(`${word},`)[0]?.terms[0]?.tags.includes("Expression") ?? false);
};

/** The sentence's opening: its first words, up to the first comma when that comes early. */
function opening(sentence: string): string {
  const words = sentence.split(/\s+/);
  const head = words.slice(0, 6).join(" ");
  const comma = head.indexOf(",");
  // A short opening phrase ("In one implementation,") hands the reference to the word after it.
  if (comma < 0) return head;
  const before = head.slice(0, comma);
  const next = words[before.split(/\s+/).length]?.replace(/^[^\p{L}]+/u, "") ?? "";
  return before.split(/\s+/).length <= 4 ? `${before} ${next}` : before;
}

/** Whether `sentence` depends on the sentence before it for its sense. */
export function leansOnPrevious(sentence: string): boolean {
  const s = sentence.replace(LEADING_MARK, "").replace(/^["'“‘(\s]+/, "");
  // Before a colon, "these steps" and "this command" point forward, at what the colon introduces
  // ("Follow these steps:"); an opening "This" still points back ("This is done as follows:").
  if (THIS.test(/:["”’)]?$/.test(s) ? s.replace(/(\s)(this|these)\b/gi, "$1the") : s)) return true;
  if (NOT_TIES.test(s)) return false;
  if (CONNECTIVE.test(s) || COMPARATIVE.test(s) || THAT.test(s) || SUBSTITUTE.test(s) || responds(s)) return true;
  const open = opening(s).replace(FORWARD, "");
  if (DEMONSTRATIVE.test(open) || MEDIAL.test(open)) return true;
  return PERSONAL.test(open) && !EXPLETIVE_IT.test(s);
}

// "also" among the first words, in the clause that opens the sentence; "not only … but also" and a
// second name ("also known as", "also called") add to nothing said before.
const ADDITIVE = /^[^,;:]{0,60}?\balso\b(?! (known|called|referred|named|spelled|written)\b)/i;

/** Whether `sentence` says what it says in addition to something before it ("Bash also supports …"). */
export function addsToPrevious(sentence: string): boolean {
  return ADDITIVE.test(sentence) && !/\bnot only\b/i.test(sentence);
}
