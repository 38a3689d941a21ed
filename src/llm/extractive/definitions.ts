/**
 * Definitions stated by the text: "X is a …" / "X are …", "X refers to / means / denotes …",
 * "… is called X" / "… is known as X", "X (ABC)" expansions, and glossary lines "X: …". Each keeps
 * the whole sentence (what a learner reads) and the defining part on its own (what a question asks
 * for or offers as a choice).
 */
import { cutShort, definesTerm } from "../artefacts/item-checks.ts";
import { usualClass } from "../wordnet.ts";
import { COMMON_ZIPF, zipf } from "./background.ts";
import { nounPhrase, phraseForm } from "./phrase-forms.ts";
import { taggedSentences } from "./tagging.ts";
import { setsTask } from "./tasks.ts";
import { containsPhrase, escapeRegExp, isStopword, type Sentence, wordCount } from "./text.ts";

export interface Definition {
  /** The term as written ("trace tree", "R"). */
  term: string;
  /** The whole source sentence. */
  definition: string;
  /** What the term is said to be, without the term ("a tree of native code traces …"). */
  predicate: string;
  /** The verb joining them, so a question reads as the text does ("is", "are", "refers to"). */
  copula: string;
  /** The article the text gives the term ("A trace tree is …" → "a"), or "". */
  article: string;
  kind: "copula" | "called" | "named" | "glossary" | "acronym";
  sentence: Sentence;
}

// "X is/are <determiner or noun phrase>", "X refers to …": the verb of a definition, not of any statement.
const COPULA =
  /^(?:(A|An|The)\s+)?(.{2,60}?)\s+(is|are|refers to|refer to|means|is defined as|are defined as|denotes|denote|is the name for|stands for)\s+(.{12,})$/;
const CALLED =
  /^(?:(A|An|The)\s+)?(.{12,}?)\s+(is|are)\s+(?:called|known as|referred to as|termed)\s+(?:an?\s+|the\s+)?["“]?([^,;"”()]{2,50}?)["”]?[.!]?$/;
// "…, a shared structural description, called the object shape, that maps …": a name given in passing.
const NAMED =
  /\b(an?|the)\s+([\p{L}][\p{L}\s-]{2,50}?),?\s+(?:called|known as|which we call|that we call|we call|termed)\s+(?:an?\s+|the\s+)?["“]?([\p{L}][\p{L}\s-]{1,40}?)["”]?(?:,\s*|\s+)?((?:that|which|whose)\s[^,;]{8,}?)?(?=[,.;:]|$)/u;
// A line opening on a label and a colon ("Expected Outputs: …", "Comments: A comment is …").
const LABEL = /^([\p{Lu}][^:;,.]{1,50}?):\s+(\p{Lu}.*)$/u;
const GLOSSARY = /^([\p{Lu}][^:;,.]{1,50}?):\s+((?:an?|the)\s.{20,})$/iu;
/**
 * A definition list's or a glossary's entry, as ingest writes it ("adequate security — Security
 * protections commensurate with …"); a cross-reference ("— See control baseline.") defines nothing.
 */
const ENTRY = /^([\p{L}\p{N}][^:;,.—]{1,50}?)\s+—\s+(?!See\b)(\p{Lu}[^—]{20,})$/u;
const ACRONYM = /\b((?:[\p{Lu}][\p{L}-]*\s+){1,5}[\p{Lu}][\p{L}-]*)\s+\(([\p{Lu}][\p{Lu}\d]{1,7}s?)\)/gu;

// A count opens a statement about some things ("Two words are a reverse pair if …"), not a term.
const NOT_A_TERM =
  /^(two|three|third|four|fourth|five|fifth|six|several|previous|current|final|latter|former|few|note|notes|warning|example|examples|tip|caution|important|level|levels|indeed|once|even|further|after|before|however|suppose|technically|normally|generally|usually|typically|simplest|same|following|former|latter|it|this|that|these|those|there|here|he|she|they|we|i|you|which|what|who|one|each|all|some|such|its|their|our|his|her|also|then|now|so|but|and|if|when|while|for|in|on|at|by|with|from|to|of|as|because|although|since|another|other|most|many|much|more|less|only|both|first|second|last|next|result|problem|goal|idea|main|key|reason|answer|question|difference|advantage|disadvantage|solution|approach)\b/i;
// The document pointing at itself ("Section 3 is …", "Figure 2 shows …", "This paper …") defines nothing.
const SELF_REFERENCE =
  /^(?:(?:this|the|our)\s+)?(section|chapter|figure|fig\.|table|appendix|paper|article|report|equation|listing|algorithm|slide|page|part|work|study)s?\b(?:\s+[\dIVXivx.]+\b)?/i;
// A relative clause or a verb inside the subject means the copula belongs to a longer sentence.
const CLAUSE =
  /\b(which|that|who|whom|where|when|whose|is|are|was|were|can|will|has|have|not|be|been|do|does|did|of|on|for|in|to|with|by|from|at|as|if)\b/i;
// A predicate that describes a state or a judgement ("is faster", "are not", "is used to") is not a definition.
const NOT_A_GENUS =
  /^(not|also|very|more|less|much|often|usually|always|never|sometimes|still|only|just|now|then|so|too|quite|rather|likely|unlikely|able|unable|used|shown|given|based|done|made|needed|required|possible|important|similar|different|available|faster|slower|better|worse|larger|smaller|higher|lower|easy|hard|difficult|simple|true|false|correct|present|absent|responsible|set|passed|stored|called|known|described|discussed|introduced|presented|implemented|defined|typically|generally|currently|already|expected|designed|likely|about|in|on|at|by|for|to|from|with|as|that|than|what|how|why|where|when|because|if|being|still|[\d])\b/i;

function termOk(term: string): boolean {
  const n = wordCount(term);
  return (
    n > 0 &&
    n <= 5 &&
    /\p{L}/u.test(term) &&
    !NOT_A_TERM.test(term) &&
    !SELF_REFERENCE.test(term) &&
    !CLAUSE.test(term) &&
    !/[,;:()"“”$]/.test(term) &&
    !/^\p{L}+(ly|est)\b/iu.test(term) &&
    !term.split(/\s+/).every(isStopword) &&
    !isStopword(term.split(/\s+/).at(-1)!)
  );
}

// "is" must lead to a noun phrase with its determiner ("is a …", "is the …"); "are" may lead to a
// bare plural ("are arrays of …") but not to a participle or an adverb ("are separated", "are effectively").
function genusOk(copula: string, predicate: string): boolean {
  if (copula !== "is" && copula !== "are") return true;
  if (/^(an?|the|one|any|each)\s/i.test(predicate))
    return !/^the (same|following|first|last|only|best|case|result|reason|number)\b/i.test(predicate);
  return copula === "are" && /^\p{Ll}+s\b/u.test(predicate) && !/^\p{L}+(ed|ly|ing)\b/u.test(predicate);
}

// A name the document's code gives a value ("blank = Point()", "x <- c(1, 2)", "pair p = (0, 0);").
const ASSIGNED = /(?<![\p{L}\p{N}_.$])([\p{L}_][\p{L}\p{N}_]*)\s*(?:<-|=(?!=))/gu;

/** The names a document's code gives its values: a variable, one object of one program. */
export const assignedNames = (text: string) => new Set([...text.matchAll(ASSIGNED)].map((m) => m[1]!));

/**
 * Whether a sentence names one object of the document's code as a variable: the term is a type and
 * its variable ("Point c", "vector x"), or the predicate hands the object to a variable as a bare
 * noun ("… which we assign to blank"; "a blank line" is the everyday word, after its article).
 */
function namesVariable(term: string, predicate: string, names: Set<string>): boolean {
  const last = term.split(/\s+/);
  if (last.length > 1 && (/^\p{Ll}$/u.test(last.at(-1)!) || names.has(last.at(-1)!))) return true;
  const used = (predicate.match(/[\p{L}_][\p{L}\p{N}_]+/gu) ?? []).filter((w) => names.has(w) && !isStopword(w));
  return used.some((n) =>
    new RegExp(
      `(?<!\\b(?:an?|the|this|that|each|every|its|their)\\s+)(?<![\\p{L}\\p{N}_$.])${escapeRegExp(n)}(?![\\p{L}\\p{N}_(\\[]|\\.\\p{L})`,
      "u",
    ).test(predicate),
  );
}

/**
 * Whether "a <Name> <noun> called x" names one object of a product or a program ("a PTree object
 * called ptre", "a Maxima package called dimension"), not a kind: the name given is written in
 * lower case or is a variable of the document's code.
 */
const namedInstance = (genus: string, term: string, names: Set<string>) =>
  names.has(term) || (/(?:^|\s)\p{Lu}\S*\s+\p{Ll}+$/u.test(genus.trim()) && /^\p{Ll}+$/u.test(term));

/**
 * Whether "the X is …" tells of one instance of X rather than what an X is: its predicate points
 * back at what the text just showed ("the product of these values"), names one object of the
 * document's code by its variable (namesVariable), or, the term written with "the", names one
 * program or object of the text by a code word no dictionary holds ("The return value is the final
 * status of the ls process").
 */
function instanceOnly(term: string, article: string, predicate: string, names: Set<string>): boolean {
  if (/\b(?:these|those|this|above|previous|preceding)\b/i.test(predicate)) return true;
  if (namesVariable(term, predicate, names)) return true;
  if (article.toLowerCase() !== "the") return false;
  const named = /\b(?:of|in|for|from|by) the (\p{Ll}[\p{Ll}\d_]*)\s+\p{Ll}/u.exec(predicate)?.[1];
  // A code word is short or marked as code ("ls", "argv", "x_1"); a long word no dictionary holds is
  // more often a domain word ("in the mitochondrial matrix") than a program's name.
  return named !== undefined && (named.length <= 4 || /[\d_]/.test(named)) && usualClass(named) === null;
}

const SINGLE_WORD_ZIPF = 3.7;

const AUXILIARY = /^(?:has|have|had|does|do|did)$/i;

/**
 * Whether a glossary line's text after its label is a clause of its own, a run-in heading and its
 * prose ("Byte-code compilation: the same compiler can be used to …", "Beware: an assignment … is
 * not undone …"), rather than what the label is, a noun phrase ("a sequence of statements that …").
 * Read by the tags of its head, the words before any relative clause or aside: a copula, a modal or
 * an auxiliary there is the clause's own verb.
 */
function clauseAfterLabel(description: string): boolean {
  const head = description.split(/\b(?:that|which|who|whom|whose|where|when|while)\b|[,;(]/)[0]!;
  return taggedSentences(head).some((s) =>
    s.terms.some(
      (t) =>
        t.tags.includes("Copula") ||
        t.tags.includes("Modal") ||
        (t.tags.includes("Auxiliary") && AUXILIARY.test(t.text)),
    ),
  );
}

/**
 * Whether an entry's text after its dash says what its term is: a noun phrase or a description
 * ("Security protections commensurate with …"). A clause of its own is a run-in heading's prose
 * ("The GNU Project — A non-free library … acts as a trap …"), or tells of the term ("Output — The
 * output is …"), restating it, which defines nothing.
 */
const entryDefines = (text: string) => phraseForm(text) !== "clause";

const trimEnd = (s: string) => s.replace(/[\s.!]+$/, "");

// A preposition opening a noun phrase of its own inside a longer one ("the relationship between one
// set of variables"); "a sequence of characters" goes on the same phrase, with no determiner.
const INNER_PHRASE =
  /^(.*?)\s+(of|between|among|in|on|for|with|from|to|by|into|over|under|at|about|across|within|without|through|using|via)\s+((an?|the|one|two|three|some|each|every|another|any|this|these|that|those|its|their|our|his|her|several|many|all|both)\s+[\p{L}][\p{L}\s-]*)$/iu;

/** Whether the tagger reads the last word of a phrase as a plural noun. */
const pluralHead = (phrase: string) => taggedSentences(phrase).at(-1)?.terms.at(-1)?.tags.includes("Plural") ?? false;

/**
 * What ", called Y" names: the noun phrase right before it, which agrees with Y in number. When the
 * phrase before holds another noun phrase with its own determiner after a preposition, and the
 * outer phrase's head does not agree with Y ("the relationship between one set of variables,
 * called the dependent variables"), the name goes to the inner phrase, not to the whole: it is the
 * definition only when it says what a Y is ("a …", "the …"); a count ("one set of variables") says
 * which, not what, and defines nothing. Returns the genus with its article, or null.
 */
function namedPhrase(article: string, genus: string, term: string): string | null {
  const whole = `${article.toLowerCase()} ${genus.trim()}`;
  const inner = INNER_PHRASE.exec(genus.trim());
  // After a verb's participle ("makes the function efficient using a technique, called memoization")
  // the phrase is that verb's object, and the name is its own.
  if (!inner || (inner[2] !== "using" && pluralHead(inner[1]!) === pluralHead(term))) return whole;
  return /^(?:an?|the)$/i.test(inner[4]!) ? inner[3]!.trim() : null;
}

/**
 * What "… is called Y" names: the noun phrase before it, after the clause before a ";" ("A function
 * that calls itself is recursive; the process of executing it is called recursion") or an opening
 * phrase and its comma ("In Python, a function that …"). Null when that is a clause of its own
 * ("For whimsical reasons, programming errors are called bugs and the process of tracking them
 * down is called debugging": the whole is no name of the last conjunct).
 */
function calledPhrase(article: string, before: string): string | null {
  const phrase = before.includes(";")
    ? before.split(/;\s*/).at(-1)!
    : `${article ? `${article.toLowerCase()} ` : ""}${before}`;
  return [phrase, phrase.replace(/^[^,]{2,40},\s+/, "")].find(nounPhrase) ?? null;
}

function definitionIn(s: Sentence, names: Set<string>): Omit<Definition, "sentence">[] {
  const text = s.text;
  const out: Omit<Definition, "sentence">[] = [];
  const called = CALLED.exec(text);
  const named = called ? null : NAMED.exec(text);
  const genus = named?.[2] && named[3] ? namedPhrase(named[1]!, named[2], named[3]) : null;
  const calledWhat = called?.[2] ? calledPhrase(called[1] ?? "", called[2]) : null;
  if (calledWhat && called?.[4] && termOk(called[4]) && !/[()]|\b(can|be|used)\b/.test(called[2]!)) {
    out.push({
      term: called[4].trim(),
      definition: text,
      predicate: trimEnd(calledWhat),
      copula: called[3]!,
      article: "",
      kind: "called",
    });
  } else if (
    named?.[2] &&
    named[3] &&
    genus &&
    termOk(named[3].trim()) &&
    !namedInstance(named[2], named[3].trim(), names) &&
    wordCount(`${genus} ${named[4] ?? ""}`) >= 4 &&
    !/\b(is|are|was|were|be|been|can|could|will|would|may|might|must|should)\b/.test(named[2])
  ) {
    const predicate = `${genus}${named[4] ? ` ${named[4].trim()}` : ""}`;
    out.push({
      term: named[3].trim(),
      definition: text,
      predicate: trimEnd(predicate),
      copula: "is",
      article: "",
      kind: "named",
    });
  } else {
    const m = COPULA.exec(text);
    const term = m?.[2]?.replace(/^[^\p{L}\p{N}]+/u, "").trim();
    if (
      m &&
      term &&
      m[4] &&
      termOk(term) &&
      !NOT_A_GENUS.test(m[4]) &&
      genusOk(m[3]!, m[4]) &&
      !instanceOnly(term, m[1] ?? "", m[4], names)
    ) {
      out.push({
        term,
        definition: text,
        predicate: trimEnd(m[4]),
        copula: m[3]!,
        article: (m[1] ?? "").toLowerCase(),
        kind: "copula",
      });
    }
  }
  const labelled = out.length === 0 ? GLOSSARY.exec(text) : null;
  const entry = out.length === 0 ? ENTRY.exec(text) : null;
  const glossary =
    labelled && !clauseAfterLabel(labelled[2]!) ? labelled : entry && entryDefines(entry[2]!) ? entry : null;
  if (glossary?.[1] && glossary[2] && termOk(glossary[1])) {
    out.push({
      term: glossary[1].trim(),
      definition: text,
      predicate: trimEnd(glossary[2]),
      copula: "is",
      article: "",
      kind: "glossary",
    });
  }
  for (const a of text.matchAll(ACRONYM)) {
    const [, expansion, short] = a;
    const initials = expansion!
      .split(/[\s-]+/)
      .map((w) => w[0]!.toUpperCase())
      .join("");
    // Only a real expansion: its initials spell the abbreviation ("Document Object Model (DOM)").
    if (
      !initials.startsWith(short!.replace(/s$/, "").slice(0, 2)) ||
      !initials.includes(short!.replace(/s$/, "").slice(-1))
    )
      continue;
    out.push({
      term: short!,
      definition: text,
      predicate: expansion!,
      copula: "stands for",
      article: "",
      kind: "acronym",
    });
  }
  return out;
}

/**
 * Whether a found definition is worth teaching: a lowercase term the text never uses again is a
 * passing remark ("the third number is …"), a single everyday word is not a term ("value is …"),
 * and a predicate that restates the term or opens a new clause defines nothing.
 */
function worthTeaching(d: Omit<Definition, "sentence">, text: string, original: string): boolean {
  const words = d.term.split(/\s+/);
  if (
    d.term.replace(/[^\p{L}]/gu, "").length < 3 ||
    words.some((w) => /\d/.test(w) && /^\p{Ll}/u.test(w)) ||
    words.some((w) => /^\d+$/.test(w))
  )
    return false;
  // A name keeps its capital inside a sentence too ("… uses Gecko"); a sentence's first word need not.
  const proper =
    /\p{Lu}{2}|\p{Ll}\p{Lu}/u.test(d.term) ||
    (/^\p{Lu}/u.test(d.term) && new RegExp(`[\\p{Ll},;]\\s+${escapeRegExp(d.term)}(?![\\p{L}])`, "u").test(original));
  // An explicit naming ("… are called free variables", a glossary's entry) is a definition whatever
  // the word, however often the text uses it; a bare
  // "Values are …" is one only for a word everyday English does not use.
  // "A factor is a …" is the textbook form of a definition, and trusted up to fairly common words.
  const textbook = (d.article === "a" || d.article === "an") && /^an?\s/i.test(d.predicate);
  if (
    words.length === 1 &&
    !proper &&
    d.kind !== "called" &&
    d.kind !== "named" &&
    d.kind !== "glossary" &&
    zipf(d.term) >= (textbook ? COMMON_ZIPF : SINGLE_WORD_ZIPF)
  )
    return false;
  if (/^the (most|least|best|worst|fastest|slowest|first|last|only|main)\b|^the \p{L}+est\b/iu.test(d.predicate))
    return false;
  if (
    wordCount(d.predicate) < 3 ||
    /^(this|these|it|they|that)\b/i.test(d.predicate) ||
    /^(an? (little|bit|lot|good|great|related)|the one|the ones)\b/i.test(d.predicate)
  )
    return false;
  if (containsPhrase(d.predicate, d.term)) return false;
  return (
    proper ||
    d.kind === "glossary" ||
    (text.match(new RegExp(`(?<![\\p{L}])${escapeRegExp(d.term.toLowerCase())}`, "gu"))?.length ?? 0) >= 2
  );
}

/**
 * A definition a learner can study from: not an exercise ("Write a function called square …"),
 * not cut short (trailing off on ":" or mid-list), and with the term as what the sentence is about
 * (item-checks.ts `definesTerm`), not a sentence that merely uses it.
 */
const whole = (d: Omit<Definition, "sentence">) =>
  d.kind === "acronym" ||
  d.kind === "glossary" ||
  (!setsTask(d.definition) && !cutShort(d.predicate) && definesTerm({ front: d.term, back: d.definition }));

/**
 * What a definition says its term is, to set beside the term: its sentence, or for a glossary's line
 * the definition alone, without the label or the term and dash before it ("integer: A type …" → "A type …").
 */
export function definitionText(d: Definition): string {
  const text = d.sentence.text;
  const at = d.kind === "glossary" ? text.indexOf(d.predicate) : -1;
  return at > 0 ? text.charAt(at).toUpperCase() + text.slice(at + 1) : text;
}

/**
 * Definitions in reading order, one per term (the first the text gives). `text`, the whole text the
 * sentences come from with its code, tells the names its code gives (a sentence about one of them
 * tells of one object, not of a kind).
 */
export function findDefinitions(sentences: Sentence[], text = ""): Definition[] {
  const names = assignedNames(text);
  const seen = new Set<string>();
  const out: Definition[] = [];
  const original = sentences.map((s) => s.text).join(" ");
  const lower = original.toLowerCase();
  const labels = new Map<string, number>();
  for (const s of sentences) {
    const label = LABEL.exec(s.text)?.[1]?.toLowerCase();
    if (label) labels.set(label, (labels.get(label) ?? 0) + 1);
  }
  for (const line of sentences) {
    // "Comments: A comment is a remark …": a label heading a whole sentence; the sentence defines.
    const rest = LABEL.exec(line.text)?.[2];
    const s = rest && definitionIn({ ...line, text: rest }, names).length > 0 ? { ...line, text: rest } : line;
    for (const d of definitionIn(s, names)) {
      const key = d.term.toLowerCase();
      // A label heading several lines ("Expected Outputs: …" in every task) is a form's field, not a term.
      if (d.kind === "glossary" && (labels.get(key) ?? 0) > 1) continue;
      if (seen.has(key) || !worthTeaching(d, lower, original) || !whole(d)) continue;
      seen.add(key);
      out.push({ ...d, sentence: s });
    }
  }
  return out;
}
