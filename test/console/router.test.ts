/** The console's router (#33): a path part whose percent-escapes are not UTF-8 matches no view, so the page shows its not-found view instead of throwing. */
import { expect, test } from "bun:test";
import { match } from "../../src/console/web/router.ts";

test("named parts are decoded; an undecodable one matches nothing", () => {
  expect(match("/courses/:id", "/courses/a%20b")).toEqual({ id: "a b" });
  expect(match("/courses/:id", "/courses/%E0")).toBeNull();
  expect(match("/courses/:id/chapters/:n", "/courses/abc/chapters/%E0%A4")).toBeNull();
  expect(match("/library", "/library/")).toEqual({});
});
