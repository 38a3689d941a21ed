/**
 * Learner ids and JSON numbers as a hostile client sends them (#32): ids are stored in NFC and
 * refused (422 naming the rule) when they hold a lone surrogate, a control character or a
 * zero-width or bidi-override character, so two ids that read alike are never two learners and two
 * different ids never collapse into one; a JSON string is no integer where the schema says integer.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, errorOf } from "../helpers/server.ts";
import { insertRichCourse } from "../materials/fixtures.ts";
import { cacheDeck } from "../progress/fixtures.ts";

let srv: TestApp;
let key: string;

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "10000" } });
  key = await srv.createKey("acme", "production");
});
afterAll(() => srv?.stop());

/** POST /v2/users with a raw JSON body, so escapes such as "\ud800" reach the server as sent. */
const register = (rawExternalId: string) =>
  call(srv, "/v2/users", {
    key,
    body: `{"external_id": "${rawExternalId}"}`,
    headers: { "content-type": "application/json" },
  });

test.each([
  ["sur\\ud800", "no_lone_surrogates"],
  ["sur\\udfff", "no_lone_surrogates"],
  ["tab\\u0009bed", "no_control_characters"],
  ["zero\\u200bwidth", "no_invisible_characters"],
  ["bidi\\u202eevil", "no_invisible_characters"],
  ["bom\\ufeff", "no_invisible_characters"],
])("external id %s is refused naming the rule %s", async (raw, rule) => {
  const r = await register(raw);
  expect(r.status).toBe(422);
  expect(errorOf(r).code).toBe("VALIDATION_ERROR");
  expect(r.body.error.details).toMatchObject({ rule });
});

test("two lone surrogates are refused, not merged into one learner", async () => {
  expect((await register("sur\\ud800")).status).toBe(422);
  expect((await register("sur\\udfff")).status).toBe(422);
  const list = await call(srv, "/v2/users", { key });
  expect(JSON.stringify(list.body)).not.toContain("sur\ufffd");
});

test("an id is stored in NFC: the composed and decomposed forms are one learner", async () => {
  const composed = await register("ren\\u00e9e");
  expect(composed.status).toBe(201);
  const decomposed = await register("rene\\u0301e");
  expect(decomposed.status).toBe(200);
  expect(decomposed.body.user_id).toBe(composed.body.user_id);
  expect(decomposed.body.external_id).toBe("ren\u00e9e");
});

test('card_index must be a JSON integer: the string "0" is 422', async () => {
  const course = await insertRichCourse(srv.dataDir, { apiKey: key, externalUserId: "learner" });
  await cacheDeck(srv.dataDir, course);
  const review = (card_index: unknown) =>
    call(srv, `/v2/courses/${course}/flashcards/reviews`, {
      key,
      user: "learner",
      json: { card_index, rating: "good" },
    });
  const asString = await review("0");
  expect(asString.status).toBe(422);
  expect((await review(0)).status).toBe(200);
});
