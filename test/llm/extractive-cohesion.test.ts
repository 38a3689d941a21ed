/**
 * Built-in chapters read without their missing context: a sentence whose opening leans on the one
 * before it is kept with that one or not at all, and figure walkthroughs are left out.
 */
import { expect, test } from "bun:test";
import { addsToPrevious, leansOnPrevious } from "../../src/llm/extractive/back-reference.ts";
import { extractiveChapter } from "../../src/llm/extractive/chapter.ts";
import { condensedChapter } from "../../src/llm/extractive/condense.ts";
import { pointsElsewhere } from "../../src/llm/extractive/text.ts";
import { sectionChapter } from "./section-chapter.ts";

test("openers that point back at the previous sentence, and openers that do not", () => {
  for (const s of [
    "These instructions exit from the trace if the control flow differs.",
    "This represents a mis-speculation of the variable type.",
    "Arrays are actually worse than this: the index is converted twice.",
    "However, the loop keeps running for a while.",
    "As a result, the recorded trace becomes type-unstable.",
    "In this case, the VM falls back to the interpreter.",
    "At this point, the compiler stops recording the trace.",
    "In one implementation, they generated a specialized method online.",
    "Another problem is that external functions can reenter the interpreter.",
    "The other choice is to continue tracing the outer loop.",
    "(12) For example, loop counters stay integers for all iterations.",
    "Thus, a small number of traces per loop is sufficient.",
    "It extends only if the side exit is for a control-flow branch.",
    "Note, however, that the trace is recorded twice.",
    "Python, moreover, checks the type of every operand.",
    "For one thing, the recorder needs no type annotations.",
    "If you did, the trace would be recorded again.",
    // DEV PARI/GP tutorial: a line of dialogue answering the one before.
    "Haha, but I have learnt that if you do not take exponents which are integers, you obtain a power series.",
    "Well, the result depends on the precision you set.",
    "This is done in three steps:",
  ])
    expect({ s, leans: leansOnPrevious(s) }).toEqual({ s, leans: true });
  for (const s of [
    "It is important to note that traces are compiled lazily.",
    "In some cases, it is useful to add symbols to a plot.",
    "Dynamic languages such as JavaScript are popular with beginners.",
    "Those who write loops benefit from the trace compiler.",
    "In addition to dot product, the paper uses the L2 distance.",
    "As a result of better retrieval, the reader answers more questions.",
    "Instead of aborting the recording, the VM could suspend it.",
    "Second-order effects are small for most programs.",
    "Each compiled trace covers one path through the program.",
    "Indeed, the result is a rational number.",
    "Unfortunately, the recorder cannot trace recursive calls.",
    // A lead-in points forward, at the list its colon introduces.
    "Follow these steps:",
    "To build the package from source, run these commands:",
  ])
    expect({ s, leans: leansOnPrevious(s) }).toEqual({ s, leans: false });
});

test("sentences walking through a figure, table or listing point elsewhere; a single term-like label does not", () => {
  for (const s of [
    "TraceMonkey calls T16, which in turn calls the nested trace T45.",
    "So a trace T23,1 is recorded that returns to the loop header.",
    "When recording reaches line 4, the monitor nests the inner loop.",
    "The narrative should be read along with Figure 2, which describes the run.",
    "The left column lists the benchmarks in the order they ran.",
    "We also add hard negative passages to the batch (the bottom block).",
    "In the first example, the top scoring passage from BM25 is irrelevant.",
    "The diagram gives the states the monitor passes through.",
  ])
    expect({ s, elsewhere: pointsElsewhere(s) }).toEqual({ s, elsewhere: true });
  for (const s of [
    "We also experiment with the Euclidean L2 distance and the triplet loss.",
    "Readers such as T5 generate the answer rather than extract it.",
    "The left-hand side of a formula names the response variable.",
  ])
    expect({ s, elsewhere: pointsElsewhere(s) }).toEqual({ s, elsewhere: false });
});

const SECTION = [
  "Trace compilers record the hot loops of a program as typed traces of machine instructions.",
  "For every branch in the loop, the trace recorder emits a guard instruction on the trace. These guard instructions exit from the trace when the branch goes the other way at run time.",
  "Section 4 describes how the trace recorder places the guards. These guards keep a counter of their exits for the monitor.",
  "A hot side exit starts a branch trace that the trace compiler attaches to the trace tree.",
].join("\n\n");

const LATER = [
  "This makes the nested trace trees of the compiler cheap to call from their outer loops.",
  "Nested loops get one trace tree per loop, so outer loops call inner trees rather than copying them.",
  "TraceMonkey calls T16, which in turn calls the nested trace T45 of the inner loop.",
  "When recording reaches line 4, the trace compiler nests the inner loop inside the current trace.",
].join("\n\n");

const passages = [
  { id: "p1", text: SECTION, headingPath: ["Trace trees"] },
  { id: "p2", text: LATER, headingPath: ["Nesting"] },
];

test("a condensed chapter keeps a leaning sentence only with the one before it, and no figure walkthrough", () => {
  const { content } = condensedChapter({ chapterTitle: "Trace trees", objectives: [], passages, sectionDepth: 0 });
  // The budget fits every sentence here: what is left out is left out by the rules.
  expect(content).toContain("emits a guard instruction on the trace. These guard instructions exit from the trace");
  // The sentence before it only points elsewhere and is left out: read alone, "These guards" point at nothing.
  expect(content).not.toContain("These guards keep a counter");
  // A section's first sentence leaning back would lean on another section.
  expect(content).not.toContain("This makes the nested trace trees");
  expect(content).toContain("Nested loops get one trace tree per loop");
  expect(content).not.toMatch(/T16|line 4/);
});

test("a chapter picked by relevance keeps a leaning sentence only with the one before it, and no figure walkthrough", () => {
  const { content } = extractiveChapter({ chapterTitle: "Trace trees", objectives: [], passages });
  expect(content).toContain("emits a guard instruction on the trace. These guard instructions exit from the trace");
  expect(content).not.toContain("These guards keep a counter");
  expect(content).not.toContain("This makes the nested trace trees");
  expect(content).not.toMatch(/T16|line 4/);
});

test("an additive 'also' after the subject adds to what was said before; a second name or 'not only' does not", () => {
  const adding = [
    "Debian also has developed a huge array of packaging tools for its maintainers.",
    "The shell can also read commands from a file.",
  ];
  const standing = [
    "The Bourne-Again shell, also known as Bash, reads commands from a terminal.",
    "The archive keeps not only the binary packages but also their sources.",
    "A package is an archive of files with the scripts that install them.",
  ];
  expect([...adding, ...standing].filter(addsToPrevious)).toEqual(adding);
});

const PACKAGING = [
  "As described in Section 2, the control file lists the fields of a package.",
  "Debian also has developed a huge array of packaging tools that check and build its packages. Lintian checks a built package against the policy of the archive and reports every violation it finds.",
  "A maintainer builds a package in a clean chroot, so that the build depends only on the packages it declares.",
].join("\n\n");

const chapterOf = (text: string) => sectionChapter("Packaging tools", text);

test("a section's first kept sentence does not add to a sentence left out before it", () => {
  const content = chapterOf(PACKAGING);
  // The sentence before it only points elsewhere and is left out: "also" would add to nothing.
  expect(content).not.toContain("Debian also has developed");
  expect(content).toContain("Lintian checks a built package");
});

test("a section's first kept sentence that adds to the one before it comes with that one", () => {
  // Sentences on single tools fill the budget before the plain first sentence would be kept on its own.
  const tools =
    "dpkg apt debhelper pbuilder sbuild reprepro dput debsign piuparts autopkgtest lintian dh-make quilt gbp cowbuilder mini-dinstall".split(
      " ",
    );
  const more = tools.map((t) => `The ${t} program is one of the tools a maintainer runs on source packages.`);
  const content = chapterOf(
    [
      "Our volunteers keep a free operating system. Debian also has developed a huge array of packaging tools that check and build Debian packages.",
      more.join(" "),
    ].join("\n\n"),
  );
  expect(content).toContain("Debian also has developed");
  expect(content).toContain("Our volunteers keep a free operating system. Debian also has developed");
});
