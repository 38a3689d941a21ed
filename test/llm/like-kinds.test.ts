/**
 * Wrong choices of the answer's kind (#29, found reading DEV's fsfs and PARI/GP tutorial: "benefit
 * for the patents" beside "for the users"; "a multiplication table for the ploth" beside "for the
 * algebra"): people stand for people, and names of the document's code for names of its code.
 */
import { expect, test } from "bun:test";
import { ItemSource } from "../../src/llm/artefacts/item-checks.ts";
import { termDistractors } from "../../src/llm/extractive/distractors.ts";

const source = new ItemSource([
  "The Supreme Court has affirmed that promoting progress means benefit for the users of copyrighted works.",
  "Programmers, administrators and authors run software; patents, restrictions and versions apply to it.",
  "During the initialization, gp computes an integral multiplication table for the algebra.",
  "Type ploth(X = -1, 1, sin(X)) to plot, polred(x^2 + 1) for a simpler polynomial, and nf = nfinit(T).",
  "A computation in a number field starts from a polynomial: bnf = bnfinit(T), E = ellinit([0, 0, 0, -1, 0]).",
]);
const draws = (answer: string, terms: string[]) =>
  new Set(Array.from({ length: 20 }, (_, seed) => termDistractors(answer, terms, "", seed, source)).flat());

test("people are offered beside people, and things beside things", () => {
  const terms = ["patents", "restrictions", "versions", "programmers", "administrators", "authors"];
  expect([...draws("users", terms)].sort()).toEqual(["administrators", "authors", "programmers"]);
  expect([...draws("licences", terms)].sort()).toEqual(["patents", "restrictions", "versions"]);
});

test("a name the document's code calls or assigns is offered beside such names only", () => {
  const terms = ["ploth", "polred", "nfinit", "computation", "number field", "polynomial"];
  expect([...draws("algebra", terms)].sort()).toEqual(["computation", "number field", "polynomial"]);
  const code = draws("bnfinit", [...terms, "ellinit"]);
  expect([...code].every((t) => ["ploth", "polred", "nfinit", "ellinit"].includes(t))).toBe(true);
});

test("an arrow is no assignment: 'wasm => function …' leaves Wasm a word of the prose", () => {
  expect(new ItemSource(["wasm   =>   function musl_writev(..) {"]).writesAsCode("Wasm")).toBe(false);
  expect(new ItemSource(["nf = nfinit(T)"]).writesAsCode("nf")).toBe(true);
});
