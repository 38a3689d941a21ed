/**
 * With no model, a course keeps what carries meaning in its sources: a manual's code examples stay
 * whole code blocks after the sentences that introduce them, a sentence that only its missing
 * example would complete is left out, definition lists read "term — definition", and numbered
 * lists keep their numbers. Read as a learner reads them: the chapters' markdown over HTTP. The R
 * manual's code examples are checked on the course extractive-reading.test.ts builds of it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { manualPdf } from "../ingest/build-fixtures.ts";
import { type CourseEnv, courseEnv, filesForm, syncCourse } from "./helpers.ts";

let env: CourseEnv;
beforeAll(async () => {
  env = await courseEnv({ extractive: true });
});
afterAll(() => env.stop());

const contentOf = (course: { chapters: { content: string }[] }) => course.chapters.map((c) => c.content).join("\n\n");

test("a manual's examples stay whole code blocks after the sentences that introduce them", async () => {
  const pdf = await manualPdf([
    [
      { text: "1 Vectors", heading: true },
      { text: "A vector is an ordered collection of numbers that the language treats as one object in every" },
      { text: "expression, so arithmetic on a vector works element by element without any explicit loop." },
      { text: "A vector is made with the function c(), which joins all of its arguments into one vector:" },
      { text: "> x <- c(10.4, 5.6, 3.1, 6.4, 21.7)", code: true },
      { text: "The assignment gives the name x to a vector of five numbers, which later commands can use." },
      { text: "The elements of a vector can also be picked out one by one by their position, as follows:" },
    ],
    [
      { text: "2 Functions", heading: true },
      { text: "A function packages a computation so that it can be called again with other arguments, and it" },
      { text: "returns the value of the last expression that it evaluates to the caller of the function." },
      { text: "As a first example, consider a function that computes the mean of a vector, showing all steps." },
      { text: "The function is defined as follows:" },
      { text: "> average <- function(x) {", code: true },
      { text: "total <- sum(x)", code: true },
      { text: "total / length(x)", code: true },
      { text: "}", code: true },
      { text: "With this function defined, the mean of any vector is one call away, as in average(x)." },
    ],
    [
      { text: "3 Loops", heading: true },
      { text: "A loop repeats a group of commands once for every element of a sequence, which suits work that" },
      { text: "cannot be written as arithmetic on whole vectors at once, such as reading files one by one." },
      { text: "For example, the following loop prints the square of each of the first three numbers:" },
      { text: "> for (i in 1:3) print(i^2)", code: true },
      { text: "Loops are slower than vector arithmetic, so most programs use them only when they must." },
    ],
  ]);
  const course = await syncCourse(
    env,
    filesForm({ num_chapters: "3" }, [{ name: "manual.pdf", content: pdf, type: "application/pdf" }]),
  );
  const content = contentOf(course);
  expect(content).toContain(
    "The function is defined as follows:\n\n```\n> average <- function(x) {\ntotal <- sum(x)\ntotal / length(x)\n}\n```",
  );
  expect(content).toContain(
    "For example, the following loop prints the square of each of the first three numbers:\n\n```\n> for (i in 1:3) print(i^2)\n```",
  );
  expect(content).toContain(
    "which joins all of its arguments into one vector:\n\n```\n> x <- c(10.4, 5.6, 3.1, 6.4, 21.7)\n```",
  );
  // Its example lost with the page, "… as follows:" would announce nothing: it is left out.
  expect(content).not.toContain("picked out one by one");
  for (const ch of course.chapters)
    expect(ch.content.match(/^```/gm)?.length ?? 0).toSatisfy((n: number) => n % 2 === 0);
}, 300_000);

test("a web page's definition list keeps its terms and a numbered list its numbers", async () => {
  const html = `<!doctype html><html><head><title>Observability</title></head><body><article>
    <h1>Observability</h1>
    <p>Operating a service well starts with knowing what it is doing, and a few terms recur whenever
    engineers talk about watching their systems in production.</p>
    <h2>Terms</h2>
    <p>These are the words used throughout the rest of the guide, each with the one meaning it has here.</p>
    <dl>
      <dt>Monitoring</dt>
      <dd>Collecting, processing, aggregating, and displaying real-time quantitative data about a system.</dd>
      <dt>White-box monitoring</dt>
      <dd>Monitoring based on metrics exposed by the internals of the system, including logs and profiling interfaces.</dd>
      <dt>Dashboard</dt><dt>Console</dt>
      <dd>An application that provides a summary view of a service's core metrics for the people running it.</dd>
    </dl>
    <h2>Setting up</h2>
    <p>A team that starts monitoring a new service usually works through the same few steps, in this order:</p>
    <ol>
      <li>Choose the handful of signals that show whether users are being served well.</li>
      <li>Collect those signals from every instance of the service into one place.</li>
      <li>Alert a person only when a signal shows that users are affected right now.</li>
    </ol>
    <p>Everything else about monitoring grows from these three steps as the service and its team grow.</p>
  </article></body></html>`;
  const course = await syncCourse(
    env,
    filesForm({ num_chapters: "2" }, [{ name: "observability.html", content: html, type: "text/html" }]),
  );
  const content = contentOf(course);
  expect(content).toContain(
    "Monitoring — Collecting, processing, aggregating, and displaying real-time quantitative data about a system.",
  );
  expect(content).not.toMatch(/(^|\n)Collecting, processing/);
  expect(content).toContain(
    "in this order:\n\n1. Choose the handful of signals that show whether users are being served well.\n2. Collect those signals",
  );
}, 300_000);
