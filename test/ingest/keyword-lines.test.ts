/**
 * A report's keyword list with no heading of its own ("Keywords: a, b, c" after its abstract, as
 * NIST standards print it on a page of its own) is indexing metadata of its opening, never text to
 * teach (#28). Found before the contents page; a "Keywords:" line in the body (a language's
 * reserved words) stays text.
 */
import { expect, test } from "bun:test";
import { type Block, block } from "../../src/ingest/document.ts";
import { resultOf } from "../../src/ingest/result.ts";

const paged = (blocks: Block[]) =>
  resultOf(blocks, { title: null, mimeType: "application/pdf", pages: 12 }, "page").blocks;
const p = (text: string, page: number) => block("paragraph", text, { page });
const h = (text: string, page: number) => block("heading", text, { page }, { level: 1 });
const roleOf = (blocks: Block[], start: string) => blocks.find((b) => b.text.startsWith(start))?.role;

const KEYWORDS =
  "Keywords: architecture, authentication, authorization, biometrics, credential, cryptography, Federal Information Processing Standards (FIPS), identity, public key infrastructure, validation.";
const ABSTRACT =
  "This Standard specifies the architecture and technical requirements for a common identification standard for employees and contractors, so that their identity can be verified by any agency that relies on it.";
const CONTENTS = [
  "1 Introduction ........ 1",
  "1.1 Purpose ........ 1",
  "1.2 Scope ........ 2",
  "2 Requirements ........ 3",
];
const BODY =
  "Identity proofing establishes that an applicant is who they claim to be before a credential is issued, and it is repeated whenever the credential is renewed after a long absence.";

test("a keyword list before the contents page is title matter; the abstract before it and the body after it are taught", () => {
  const blocks = paged([
    p("Personal Identity Verification of Employees and Contractors", 1),
    p("ABSTRACT", 2),
    p(ABSTRACT, 2),
    p(KEYWORDS, 3),
    ...CONTENTS.map((c) => p(c, 4)),
    h("1 Introduction", 5),
    p(BODY, 5),
  ]);
  expect(roleOf(blocks, "Keywords:")).toBe("title_page");
  expect(roleOf(blocks, "This Standard specifies")).not.toBe("title_page");
  expect(roleOf(blocks, "Identity proofing")).toBe("body");
});

test("a document without contents: the keyword list before its first heading is title matter", () => {
  const blocks = paged([p("ABSTRACT", 2), p(ABSTRACT, 2), p(KEYWORDS, 3), h("1 Introduction", 5), p(BODY, 5)]);
  expect(roleOf(blocks, "Keywords:")).toBe("title_page");
  expect(roleOf(blocks, "Identity proofing")).toBe("body");
});

test("a manual's keyword line in its body, and a sentence after the label, stay text", () => {
  const blocks = paged([
    h("1 Introduction", 1),
    p(BODY, 1),
    h("2 Lexical structure", 2),
    p("Keywords: if, else, while, return, and break are reserved and cannot name a variable.", 2),
  ]);
  expect(roleOf(blocks, "Keywords: if")).toBe("body");
  const opening = paged([
    p(ABSTRACT, 2),
    p("Keywords: this report uses the words of the standard with the meanings given in its glossary.", 3),
    ...CONTENTS.map((c) => p(c, 4)),
    h("1 Introduction", 5),
    p(BODY, 5),
  ]);
  expect(roleOf(opening, "Keywords: this report")).toBe("body");
});
