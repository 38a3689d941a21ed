/**
 * Where a book's front matter ends when its text is not running prose (#28): a reference manual of
 * terse entries (GCL's SI manual: "SINH (number) [Function] Package:LISP Returns the hyperbolic
 * sine of NUMBER.") has no paragraph of forty words for many pages; its first chapter's heading
 * says its text has begun. A document the test builds, as the ingest pipeline reads it.
 */
import { expect, test } from "bun:test";
import { type Block, block } from "../../src/ingest/document.ts";
import { resultOf } from "../../src/ingest/result.ts";
import { headingRole } from "../../src/ingest/roles.ts";

const FUNCTIONS = ["SINH", "COSH", "TANH", "LOGAND", "LOGIOR", "ISQRT", "FLOOR", "CEILING", "MINUSP", "PLUSP"];

/** A page of entries: each a label line, the signature, the package line and one short sentence. */
const entriesPage = (page: number, offset: number): Block[] =>
  FUNCTIONS.flatMap((name, i) => [
    block("paragraph", "[Function]", { page }),
    block("paragraph", `${name}-${offset + i} (number)`, { page }),
    block("paragraph", "Package:LISP", { page }),
    block("paragraph", `Returns the value of ${name.toLowerCase()} for NUMBER, as entry ${offset + i} says.`, { page }),
  ]);

function manual(): Block[] {
  const blocks: Block[] = [block("heading", "GCL SI Manual", { page: 1 }, { level: 1 })];
  const chapters = ["1 Numbers", "2 Sequences and Arrays", "3 Characters", "4 Lists"];
  chapters.forEach((title, c) => {
    for (let k = 0; k < 3; k++) {
      const page = 2 + c * 3 + k;
      if (k === 0) blocks.push(block("heading", title, { page }, { level: 2 }));
      // The manual's first page of running prose stands pages into it: a chapter's introduction.
      if (page !== 6) blocks.push(...entriesPage(page, page * 100));
      else
        for (const kind of ["vectors", "lists"])
          blocks.push(
            block(
              "paragraph",
              `Sequences in this implementation are stored as ${kind}, and every function of this chapter accepts them, copying its argument only when the result must be fresh; the keyword arguments start and end bound the part of the sequence that is read, and key names a function applied to each element before it is compared with the item sought.`,
              { page },
            ),
          );
    }
  });
  return resultOf(blocks, { title: null, mimeType: "application/pdf", pages: 14 }, "page").blocks;
}

test("a manual's entries from its first chapter on are taught, though no paragraph is long", () => {
  const blocks = manual();
  const entries = blocks.filter((b) => b.kind === "paragraph" && (b.page ?? 0) >= 2);
  expect(entries.length).toBeGreaterThan(400);
  expect(entries.filter((b) => b.role !== "body").map((b) => `${b.page}: ${b.text} (${b.role})`)).toEqual([]);
  expect(blocks.find((b) => b.text === "1 Numbers")?.role).toBe("body");
});

test("a heading that only begins with 'Permissions' is text; 'Permissions' alone is a notice", () => {
  expect(headingRole("1.2.5 Permissions for groups of users (group)")).toBeNull();
  expect(headingRole("Permissions")).toBe("boilerplate");
});
