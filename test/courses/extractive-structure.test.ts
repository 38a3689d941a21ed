/**
 * With no model, a course follows its source's sections: one long section split into several
 * chapters names them as its parts. (A real paper's sections as chapters, each reading its own
 * pages, is tested on the TraceMonkey course built once in extractive-reading.test.ts.)
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type CourseEnv, courseEnv, filesForm, syncCourse } from "./helpers.ts";

let env: CourseEnv;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
});
afterAll(() => env.stop());

test("a source with one long section split into several chapters names them as its parts, in order", async () => {
  const topics = ["tides", "currents", "waves", "estuaries", "reefs", "sediment", "salinity", "upwelling", "lagoons"];
  const paragraphs = topics.map(
    (t) =>
      `The study of ${t} explains how coastal water behaves over a day. Observers record ${t} at fixed stations along the shore. Long records of ${t} show seasonal patterns that sailors and engineers rely on when they plan their work near the coast.`,
  );
  const abstract =
    "Coastal waters change with the moon, the wind and the rivers that feed them, and this note follows each in turn.";
  const text = `# Coastal Waters\n\n## Abstract\n\n${abstract}\n\n## Introduction\n\n${paragraphs.join("\n\n")}\n`;
  const course = await syncCourse(env, filesForm({ num_chapters: "4" }, [{ name: "coast.md", content: text }]));
  const titles = (course.chapters as { title: string }[]).map((c) => c.title);
  // The abstract is too short to stand alone, so the introduction is cut between paragraphs into all four.
  expect(titles).toEqual([1, 2, 3, 4].map((k) => `Introduction (part ${k} of 4)`));
});
