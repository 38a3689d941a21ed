/**
 * A test key's monthly queries through HTTP, document query and course ask alike: requests sent at
 * once at the cap cannot all pass, and a query the model fails is not counted.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type ModelServer, startModelServer } from "../helpers/fake-model.ts";
import { call, errorOf } from "../helpers/server.ts";

const CAP = 3;
let model: ModelServer;
let testKey: string;

const query = () =>
  call(model.srv, "/v2/documents/query", {
    key: testKey,
    user: "ada",
    json: { question: "Where does moss grow?", space_id: "nature" },
  });

beforeAll(async () => {
  model = await startModelServer({ env: { TEST_KEY_QUERIES_PER_MONTH: String(CAP), LLM_MAX_RETRIES: "0" } });
  testKey = await model.srv.createKey("acme", "test");
  const form = new FormData();
  form.append("files", new File(["Moss grows on the north side of trees in the nature reserve."], "moss.md"));
  form.append("space_id", "nature");
  const up = await call(model.srv, "/v2/documents/process", { key: testKey, user: "ada", body: form });
  expect(up.body.ready).toBe(1);
});
afterAll(() => model.stop());

test("a query the model fails is not counted; queries sent at once at the cap pass exactly as many as are left", async () => {
  model.fake.behave("down");
  const failed = await query();
  expect(failed.status).toBe(503);
  expect(errorOf(failed).code).toBe("LLM_UNAVAILABLE");
  model.fake.behave("ok");
  // The model answers slowly, so every request has passed the cap check before the first one ends.
  model.fake.setLatency(150);

  const statuses = (await Promise.all(Array.from({ length: 2 * CAP }, query))).map((r) => r.status).sort();
  expect(statuses).toEqual([...Array(CAP).fill(200), ...Array(CAP).fill(403)]);
  const usage = await call(model.srv, "/v2/usage", { key: testKey });
  expect(usage.status).toBe(200);
  expect(JSON.stringify(usage.body)).toContain(`"used":${CAP}`);
});
