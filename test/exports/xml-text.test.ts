/**
 * Text from documents in export XML: a PDF's form feed or a NUL in a title or a question would make
 * the file ill-formed XML 1.0, which an LMS or a podcast app refuses whole. They are dropped;
 * markup characters are escaped. Checked with xmllint, as the consumers' parsers would read it.
 */
import { expect, test } from "bun:test";
import { feedXml } from "../../src/exports/podcast-rss.ts";
import { qtiAssessment } from "../../src/exports/qti.ts";

const wellFormed = (xml: string) =>
  Bun.spawnSync(["xmllint", "--noout", "-"], { stdin: new TextEncoder().encode(xml) });

test("control characters from documents are dropped and markup escaped, so the XML stays well-formed", () => {
  const qti = qtiAssessment({
    ident: "q1",
    title: "Tides\f and <b>moons</b>",
    kind: "quiz",
    questions: [
      {
        type: "mcq",
        prompt: "Which\u0000 body pulls the tides? & why",
        choices: ["The Moon\u000b", "Mars"],
        answer: 0,
        explanation: "Page 3\f says so.",
      } as never,
    ],
  });
  const rss = feedXml({
    course: { id: "c1", title: "Tides\u0001 course", description: "A\fB <script>" },
    feedUrl: "http://127.0.0.1/feeds/x/rss",
    audioUrl: () => "",
    episodes: [],
    now: new Date(),
  });
  for (const xml of [qti, rss]) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 forbids are what is looked for
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    const check = wellFormed(xml);
    expect({ code: check.exitCode, err: check.stderr.toString() }).toEqual({ code: 0, err: "" });
  }
  expect(qti).toContain("&lt;b&gt;moons&lt;/b&gt;");
  expect(rss).toContain("AB &lt;script&gt;");
});
