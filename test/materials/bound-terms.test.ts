/**
 * A statement question swaps one of its sentence's terms for another of the course's, and a term
 * bound to the words around it is never the one swapped: a name with its number ("Executive Order
 * 13556" made "FIPS Publication 13556"), an abbreviation in parentheses after what it stands for
 * ("personally identifiable information (PII)" made "… (SDLC)"), a designator ("Tables E-1").
 * Nor is a designator ever swapped in ("systems containing E-17").
 */
import { expect, test } from "bun:test";
import { chapterMaterial } from "../../src/llm/extractive/material.ts";
import { mcqCandidates, poolOf } from "../../src/llm/extractive/questions.ts";

const SENTENCES = [
  "The National Archives and Records Administration oversees agency actions to comply with Executive Order 13556 for every federal agency.",
  "Agencies protect personally identifiable information (PII) in every system that stores records about individuals.",
  "The security requirements in this chapter are derived from FIPS Publication 200 and the moderate security control baseline.",
  "Tables E-1 through E-17 contain the specific tailoring actions carried out on the security controls by each agency.",
  "The CUI Registry lists every category of controlled unclassified information that an agency handles in its systems.",
  "Nonfederal organizations protect controlled unclassified information in their systems with the security requirements of the registry.",
  "An incident response plan tells each agency how it detects, reports and contains a security incident in its systems.",
  "The system development life cycle (SDLC) includes the security requirements from the first design to the disposal of a system.",
  "Every agency reviews its security controls each year and reports the results to the senior agency official for privacy.",
  "A firewall filters the network traffic between the systems of an agency and the networks outside it.",
  "An auditor examines the audit records of each system to find actions that the security policy forbids.",
  "A privileged user can change the configuration settings of a system and the accounts of other users.",
];

test("no statement swaps a term bound to a number, a designator or its expansion, nor swaps one in", () => {
  const chapter = {
    title: "Protecting information",
    content: SENTENCES.join(" "),
    key_concepts: [
      "Executive Order",
      "FIPS Publication",
      "CUI Registry",
      "PII",
      "SDLC",
      "Tables E-1",
      "security requirements",
      "security controls",
      "controlled unclassified information",
      "incident response plan",
      "firewall",
      "auditor",
      "network traffic",
      "audit records",
      "configuration settings",
      "privileged user",
    ],
  };
  const m = chapterMaterial(chapter, 0);
  const statements = mcqCandidates(m, poolOf([m])).filter((c) => c.kind === "statement");
  expect(statements.length).toBeGreaterThan(0);
  const bound = ["Executive Order 13556", "(PII)", "(SDLC)", "Tables E-1", "FIPS Publication 200"];
  for (const c of statements) {
    const answer = c.question.choices[c.question.answer]!;
    for (const phrase of bound.filter((b) => answer.includes(b)))
      for (const choice of c.question.choices) expect(choice).toContain(phrase);
    for (const choice of c.question.choices) expect(choice).not.toMatch(/\bE-17\b.*\bE-17\b|containing E-\d/);
  }
});
