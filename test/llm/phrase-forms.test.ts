/**
 * The one reader of a phrase's form (#29): the storing checks, the choices set beside an answer and
 * the entries paired with their heading's term all ask phraseForm, so a description one of them
 * takes for a noun phrase the others do too. The cases are those each of the former readers held.
 */
import { expect, test } from "bun:test";
import { subjectless } from "../../src/llm/extractive/entry-descriptions.ts";
import { type PhraseForm, phraseForm } from "../../src/llm/extractive/phrase-forms.ts";

const cases: [string, PhraseForm][] = [
  // Genera of definitions, with the clauses and participles that qualify them.
  ["a function that maps from a time to the probability of surviving past it", "noun phrase"],
  ["routines written in C++ that process music expressions", "noun phrase"],
  ["A network not controlled by the organization", "noun phrase"],
  ["the supported interface for calling out to the operating system", "noun phrase"],
  ["A credential that a client presents to reach a protected resource.", "noun phrase"],
  ["a version control system that tracks changes and lets users revert them", "noun phrase"],
  ["the right to copy and distribute the program", "noun phrase"],
  [
    "The safeguards or countermeasures prescribed for an information system to protect its confidentiality.",
    "noun phrase",
  ],
  // "as" with a verb of its own opens a clause qualifying the phrase; "such as", "as well as" do not.
  ["a movable pointer to a commit that grows as new commits are added to it", "noun phrase"],
  ["a fixed name for one commit, such as the commit that a release was built from", "noun phrase"],
  ["a list of values as well as their names", "noun phrase"],
  // Participles joined to one that qualifies the noun qualify it too.
  ["A key used for one communication session only, then discarded.", "noun phrase"],
  // Reference entries' descriptions, a relative clause opening on its own subject ("contact relative").
  ["The version number of the current instance of Bash.", "noun phrase"],
  ["A colon-separated list of directories in which the shell looks for commands.", "noun phrase"],
  [
    "The number of pressure readings the logger averages into one stored height, from one to sixty, so that a higher rate smooths the waves out of the record.",
    "noun phrase",
  ],
  // What a term does, with no subject before its verb.
  ["Expands to a string describing the version of this instance of Bash.", "does"],
  ["Holds the output stream for error messages", "does"],
  ["Rotates an imagedata image by the given number of degrees.", "does"],
  ["Used to substitute another function", "does"],
  ["Places the numbering", "does"],
  ["allows you to tune the system simplifier to your application", "does"],
  // Clauses of their own, and fragments cut from one.
  ["The remote end hung up unexpectedly.", "clause"],
  // A verb before any qualifying clause is the sentence's own, whatever clauses follow it.
  ["A security policy is what defines whether the system and its settings are secure (or not).", "clause"],
  ["the page number in the header, as the footer remains empty", "clause"],
  ["When the conditions are met the image shall be converted to this format.", "clause"],
  ["The shell reads its input from a file or from the terminal.", "clause"],
  ["TEX as we use it today was released in 1982.", "clause"],
  ["The file that you edit is read by the shell.", "clause"],
  ["A for loop reads a file line by line, because a file handle is a sequence of lines.", "clause"],
  ["A file is a named location on a disk that keeps data between two runs of a program.", "clause"],
  ["The mode is a string that tells the program whether to read the file or to write the file.", "clause"],
  [
    "The fancyhdr package, written by Piet van Oostrum, provides a few simple commands that allow you to customize the header.",
    "clause",
  ],
  ["The program needs to run", "clause"],
  ["into account the sampling weights, unlike the estimated curve", "clause"],
  ["the website only uses chapters and sections; no subsections", "clause"],
  ["a purely administrative one and no programming skill or judgement is assumed or required", "clause"],
  ["(“regtests”) are available in precompiled form", "clause"],
  // A subordinate clause with no verb of its own to attach to, and one opening on a gerund (no clause).
  [
    "the current chapter heading and the page number in the header on each page, while the footer remains empty",
    "clause",
  ],
  ["the text better if these ideas are well-structured", "clause"],
  ["The number of seconds to wait if the server is busy.", "noun phrase"],
  ["Expands to the name of the shell if it is set.", "does"],
  [
    "The first information LaTeX needs to know when processing an input file is the type of document the author wants to create.",
    "clause",
  ],
  // An object with the purpose its verb gives it, after the phrase's comma.
  ["these integers, called hash values, to store and look up key-value pairs", "clause"],
];

test("a phrase is read as a noun phrase, what something does, or a clause", () => {
  expect(cases.filter(([text, form]) => phraseForm(text) !== form).map(([text]) => text)).toEqual([]);
}, 60_000);

test("a description without a subject is one the entry pairing takes, and a clause is not", () => {
  const described = cases.filter(([text, form]) => form !== "clause" && /^\p{Lu}/u.test(text)).map(([t]) => t);
  expect(described.filter((t) => !subjectless(t))).toEqual([]);
  expect(cases.filter(([text, form]) => form === "clause" && subjectless(text)).map(([t]) => t)).toEqual([]);
  // An entry already names what it describes.
  expect(subjectless("BASH_VERSION — The version number of the current instance of Bash.")).toBe(false);
}, 60_000);
