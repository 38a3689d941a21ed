/**
 * Plain-text abstracts are text, whatever letters they begin with (#32): a batch of `.txt` files
 * whose first bytes happen to match a weak signature (BMP's "BM", QuickTime's "wide" at byte 4,
 * MP3's "ID3") is processed whole, none refused with 415.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call } from "../helpers/server.ts";

let srv: TestApp;
let key: string;

beforeAll(async () => {
  srv = await startApp();
  key = await srv.createKey("abstracts", "test");
});
afterAll(() => srv?.stop());

test("a batch of abstracts that begin like binary headers is indexed as text", async () => {
  const abstracts = {
    "bmal1.txt": "BMAL1 is a transcription factor of the circadian clock that controls rhythmic gene expression.",
    "bmi.txt": "BMI-1 is a polycomb protein that keeps haematopoietic stem cells able to renew themselves.",
    "spread.txt": "The widespread use of antibiotics in farming selects for resistant bacteria in soil and water.",
    "id3.txt": "ID3 tags store the title and artist of a song inside the audio file that plays it.",
  };
  const form = new FormData();
  for (const [name, text] of Object.entries(abstracts))
    form.append("files", new File([text], name, { type: "text/plain" }));
  const res = await call(srv, "/v2/documents/process", { key, user: "reader", body: form });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ count: 4, ready: 4, errored: 0 });
  const names = res.body.documents.map((d: { filename: string; status: string }) => [d.filename, d.status]);
  expect(names.sort()).toEqual(
    Object.keys(abstracts)
      .sort()
      .map((n) => [n, "ready"]),
  );
});
