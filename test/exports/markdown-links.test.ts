/**
 * Links in exported markdown (#32): only http(s), mailto and in-package targets stay links. A
 * document's `javascript:` link reaches a course chapter as the document wrote it; the markdown
 * export keeps its words and drops its target, while a safe link keeps working.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { safeMarkdownLinks } from "../../src/exports/markdown-links.ts";
import { type ModelServer, startModelServer } from "../helpers/fake-model.ts";
import { call } from "../helpers/server.ts";
import { openZip, text } from "./unzip.ts";

test("unsafe link targets lose their target and keep their words, wherever the link stands", () => {
  const md = [
    "See [the demo](javascript:alert(1)), [again](JaVaScRiPt&#58;alert(2)), <javascript:alert(3)> and [a ref][r].",
    "",
    "[r]: vbscript:msgbox",
    "",
    "- a list [item](data:text/html,<script>x</script>)",
    "",
    "| cell |",
    "|---|",
    "| [in a table](javascript:x) |",
    "",
    "Safe: [site](https://example.org/a), [mail](mailto:a@example.org), [next](chapter-02.md#top) and ![img](https://example.org/i.png).",
  ].join("\n");
  const out = safeMarkdownLinks(md);
  expect(out).not.toMatch(/\]\((javascript|vbscript|data)|<javascript|\]: vbscript/i);
  expect(out).toContain("`javascript:alert(3)`");
  for (const words of ["the demo", "again", "a ref", "item", "in a table"]) expect(out).toContain(words);
  for (const link of [
    "[site](https://example.org/a)",
    "[mail](mailto:a@example.org)",
    "[next](chapter-02.md#top)",
    "![img](https://example.org/i.png)",
  ]) {
    expect(out).toContain(link);
  }
});

let model: ModelServer;

beforeAll(async () => {
  model = await startModelServer();
  // Every chapter the model writes links a script and a real page.
  model.fake.respondWith(({ body }) => {
    if (!JSON.stringify(body.format ?? "").includes("key_concepts")) return undefined;
    const paragraph = (topic: string) => ({
      text: `The ${topic} of the tides is shown in [the tide demo](javascript:alert(document.cookie)) and in [the survey's notes](https://example.org/tides). Tides rise and fall twice a day because the Moon's gravity pulls the oceans toward it.`,
    });
    const question = (prompt: string, right: string, wrong: string[]) => ({
      type: "mcq",
      prompt,
      choices: [right, ...wrong],
      answer: 0,
      explanation: `The chapter says so: ${right}.`,
    });
    return JSON.stringify({
      sections: [
        { heading: "Causes", paragraphs: [paragraph("cause")] },
        { heading: "Effects", paragraphs: [paragraph("effect")] },
      ],
      key_concepts: ["tides", "gravity", "spring tides"],
      quiz: {
        questions: [
          question("What pulls the oceans toward the Moon?", "Its gravity", ["The wind", "The rivers"]),
          question("How often do tides rise in a day?", "Twice", ["Once", "Four times"]),
          question("Which body adds a smaller pull?", "The Sun", ["Mars", "The Earth's core"]),
        ],
      },
    });
  });
});
afterAll(() => model?.stop());

test("the markdown export of a model-written course keeps no javascript: link", async () => {
  const { srv, key } = model;
  const gen = await call(srv, "/v2/courses/generate?mode=sync", {
    key,
    user: "reader",
    json: { topic: "Tides and their causes", num_chapters: 1 },
  });
  expect({ status: gen.status, text: gen.status === 200 ? "" : gen.text }).toEqual({ status: 200, text: "" });
  const res = await srv.fetch(`/v2/courses/${gen.body.course.id}/export?format=markdown`, {
    headers: { "x-api-key": key, "x-external-user-id": "reader" },
  });
  expect(res.status).toBe(200);
  const files = openZip(new Uint8Array(await res.arrayBuffer()));
  const markdown = Object.entries(files)
    .filter(([name]) => name.endsWith(".md"))
    .map(([, data]) => text(data))
    .join("\n");
  expect(markdown).toContain("the tide demo");
  expect(markdown).not.toContain("javascript:");
  expect(markdown).toContain("[the survey's notes](https://example.org/tides)");
});
