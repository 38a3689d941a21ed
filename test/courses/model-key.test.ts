/**
 * `model_key` on course generation (#30): the model a request names writes the course from files,
 * stays the course's model (which its materials use when they name none, as the spec's model_key
 * says), and a model the server does not offer is a 422 before anything is stored.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { call, errorOf } from "../helpers/server.ts";
import { type SimulatedServer, startSimulatedServer } from "../helpers/simulated-server.ts";
import { filesForm } from "./helpers.ts";
import { LIGHT_REACTIONS } from "./sources.ts";

setDefaultTimeout(120_000);

const LIGHT = { name: "light.md", content: LIGHT_REACTIONS, type: "text/markdown" };

let s: SimulatedServer;
beforeAll(async () => {
  // The configured model is llama3.2; the simulator also offers qwen3:8b.
  s = await startSimulatedServer();
});
afterAll(() => s?.stop());

test("a course from files written by the model its model_key names, which its notes then use", async () => {
  const before = s.sim.generations().length;
  const made = await call(s.srv, "/v2/courses/generate-from-files?mode=sync", {
    key: s.key,
    user: "keyed",
    body: filesForm({ num_chapters: "1", search_enabled: "false", model_key: "qwen3:8b" }, [LIGHT]),
  });
  expect(made.status).toBe(200);
  const generation = s.sim.generations().slice(before);
  expect(generation.length).toBeGreaterThan(0);
  expect(new Set(generation.map((c) => c.body!.model))).toEqual(new Set(["qwen3:8b"]));
  const course = (await call(s.srv, `/v2/courses/${made.body.course.id}`, { key: s.key, user: "keyed" })).body;
  expect(course).toMatchObject({ status: "completed", engine: "ollama", model: "qwen3:8b" });

  const notesFrom = s.sim.generations().length;
  const notes = await call(s.srv, `/v2/courses/${course.id}/generate-notes`, { key: s.key, user: "keyed", json: {} });
  expect(notes.status).toBe(200);
  expect(
    new Set(
      s.sim
        .generations()
        .slice(notesFrom)
        .map((c) => c.body!.model),
    ),
  ).toEqual(new Set(["qwen3:8b"]));
});

test("a model_key the server does not offer is 422 on both generation routes, and no course is made", async () => {
  const courses = async () =>
    (await call(s.srv, "/v2/courses?limit=100", { key: s.key, user: "keyed" })).body.data.length as number;
  const had = await courses();
  const files = await call(s.srv, "/v2/courses/generate-from-files", {
    key: s.key,
    user: "keyed",
    body: filesForm({ num_chapters: "1", model_key: "no-such-model" }, [LIGHT]),
  });
  expect(files.status).toBe(422);
  expect(errorOf(files)).toMatchObject({ code: "VALIDATION_ERROR", message: 'Unknown model_key "no-such-model"' });
  const topic = await call(s.srv, "/v2/courses/generate", {
    key: s.key,
    user: "keyed",
    json: { topic: "Light reactions", model_key: "no-such-model" },
  });
  expect(topic.status).toBe(422);
  expect(errorOf(topic).code).toBe("VALIDATION_ERROR");
  expect(await courses()).toBe(had);
});
