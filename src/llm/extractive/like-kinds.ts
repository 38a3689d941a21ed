/**
 * Whether two terms name things of one kind, so one can stand in the other's place as a wrong
 * choice, in a blank or anywhere in a wrong statement, subject or object. Two kinds a reader tells
 * apart at a glance, so a choice of the other kind gives itself away:
 *   - people: "benefit for the users" may become "for the programmers", never "for the patents".
 *     Read from WordNet (its lexicographer file noun.person) on each term's head noun: a term whose
 *     frequent senses are all people is alike only with one that can be a person. WordNet's other
 *     kinds are not used: they are general English's, and a technical text's "integer" and "string",
 *     "list" and "vector" fall in different ones;
 *   - names of the document's code: "ploth", "nfinit", written by its code as called or assigned
 *     ("ploth(…)", "bnf = …") and no English word, never stand for a concept ("algebra").
 */
import type { ItemSource } from "../artefacts/item-checks.ts";
import { nounKinds } from "../wordnet.ts";

// WordNet's lexicographer file noun.person.
const PERSON = 18;

/** A term's head noun, lower case: the word before its "of" ("piece of software"), else its last word. */
function headOf(term: string): string {
  const words = term.toLowerCase().split(/\s+/);
  const of = words.indexOf("of");
  return (of > 0 ? words[of - 1]! : words.at(-1)!).replace(/[^\p{L}-]/gu, "");
}

type Kind = "person" | "could be a person" | "code" | "other";

function kindOf(term: string, source?: ItemSource): Kind {
  const head = headOf(term);
  const kinds = nounKinds(head);
  if (kinds === null) return source && !/\s/.test(term.trim()) && source.writesAsCode(term) ? "code" : "other";
  // "server", "client", "compiler" are people in one sense and things in another: only a word that is
  // a person in all its frequent senses ("users", "authors") is one for sure.
  if (kinds.every((k) => k === PERSON)) return "person";
  return kinds.includes(PERSON) ? "could be a person" : "other";
}

export function likeKinds(a: string, b: string, source?: ItemSource): boolean {
  const [ka, kb] = [kindOf(a, source), kindOf(b, source)];
  if (ka === "code" || kb === "code") return ka === kb;
  if (ka === "person") return kb !== "other";
  if (kb === "person") return ka !== "other";
  return true;
}
