/** course.completed and course.failed as real generation runs emit them, received over HTTPS. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type ModelServer, startModelServer } from "../helpers/fake-model.ts";
import { call, cleanup, tempDir } from "../helpers/server.ts";
import { type Receiver, startReceiver, verifySignature } from "./receiver.ts";

const dir = tempDir("cf-webhooks-gen-");
let rx: Receiver;
let server: ModelServer;
let secret: string;

beforeAll(async () => {
  rx = startReceiver(dir);
  server = await startModelServer({
    env: { WEBHOOK_CA_FILE: rx.certFile, OUTBOUND_ALLOW: "127.0.0.1", LLM_MAX_RETRIES: "0" },
  });
  const r = await call(server.srv, "/v2/webhooks", { key: server.key, json: { url: `${rx.url}/courses` } });
  expect(r.status).toBe(201);
  secret = r.body.secret;
});
afterAll(async () => {
  await server.stop();
  rx.stop();
  cleanup(dir);
});

const eventsOf = (name: string) => rx.to("/courses").filter((g) => g.headers["x-service-event"] === name);

/** Long enough for a course beside other work; a deadline that passes names what was received. */
const WAIT_MS = 120_000;

async function waitForEvent(name: string, count: number) {
  const deadline = Date.now() + WAIT_MS;
  while (eventsOf(name).length < count) {
    if (Date.now() > deadline)
      throw new Error(
        `no ${name} event within ${WAIT_MS / 1000} s; got ${rx
          .to("/courses")
          .map((g) => g.raw)
          .join("\n")}`,
      );
    await Bun.sleep(50);
  }
  return eventsOf(name);
}

test("a finished topic course sends course.completed with the spec's fields", async () => {
  const job = await call(server.srv, "/v2/courses/generate", {
    key: server.key,
    user: "learner-1",
    json: { topic: "Ocean tides and the moon", num_chapters: 2 },
  });
  expect(job.status).toBeLessThan(300);
  const [got] = await waitForEvent("course.completed", 1);
  expect(verifySignature(secret, got!.raw, got!.headers["x-service-signature"])).toBe(true);
  const body = JSON.parse(got!.raw);
  expect(Object.keys(body).sort()).toEqual(["data", "event"]);
  expect(body.event).toBe("course.completed");
  const course = await call(server.srv, `/v2/courses/${body.data.course_id}`, { key: server.key, user: "learner-1" });
  expect(course.status).toBe(200);
  expect(course.body.status).toBe("completed");
  expect(body.data).toEqual({
    job_id: job.body.id,
    course_id: course.body.id,
    title: course.body.title,
    chapters_count: 2,
    source_type: "topic",
  });
  expect(course.body.chapters).toHaveLength(2);
}, 300_000);

test("a generation the model refuses sends course.failed with the structured error", async () => {
  server.fake.behave("refuse");
  try {
    const job = await call(server.srv, "/v2/courses/generate", {
      key: server.key,
      user: "learner-2",
      json: { topic: "Refused topic here", num_chapters: 1 },
    });
    expect(job.status).toBeLessThan(300);
    const [got] = await waitForEvent("course.failed", 1);
    expect(verifySignature(secret, got!.raw, got!.headers["x-service-signature"])).toBe(true);
    const body = JSON.parse(got!.raw);
    expect(body.event).toBe("course.failed");
    expect(body.data).toEqual({
      job_id: job.body.id,
      error: {
        code: "LLM_REFUSED",
        message: expect.stringContaining("declined"),
        request_id: job.headers.get("x-request-id"),
      },
    });
    expect(eventsOf("course.completed")).toHaveLength(1);
  } finally {
    server.fake.behave("ok");
  }
}, 300_000);
