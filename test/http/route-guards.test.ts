/**
 * Every operation the OpenAPI document puts behind the API key refuses every outsider, through the
 * shared route cases (helpers/route-cases.ts): no key is 401 on each; another tenant, a test key on
 * production data and another learner are 404 on each route that names a resource of its owner. A
 * route added to the API without a line here fails the coverage test, so none goes unguarded.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemClock } from "../../src/clock.ts";
import type { SqliteSql } from "../../src/db/sql.ts";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { EPISODE_JOB } from "../../src/podcasts/generate.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { expectGuarded, type GuardedRoute, type Outsiders } from "../helpers/route-cases.ts";
import { call } from "../helpers/server.ts";
import { insertRichCourse } from "../materials/fixtures.ts";
import { cacheDeck, cacheExam, EXAM, QUIZ, setQuiz } from "../progress/fixtures.ts";

const OWNER = "owner";

let srv: TestApp;
let operations: string[];
/** The owner's resources, named in the routes' paths. */
const ids = { course: "", job: "", document: "", webhook: "", quizAttempt: "", examAttempt: "" };
let learner: Outsiders;
let tenant: Outsiders;

/**
 * Who each route must refuse. `learner`: a learner's resource (every outsider). `tenant`: a
 * tenant's resource, no learner in it (another tenant, a test key). `caller`: the caller's own
 * collection or self, where only the missing key is an outsider (another tenant's call simply
 * works on its own data).
 */
type Scope = "learner" | "tenant" | "caller";

interface Line extends Omit<GuardedRoute, "method"> {
  scope: Scope;
}

/** The spec's 403 for another learner's course (its existence is no secret within a tenant). */
const OWNED_BY_ANOTHER = { "another learner": 403 };

const routes = (): Record<string, Line> => {
  const course = `/v2/courses/${ids.course}`;
  const learnerRoute = (path: string, json?: unknown): Line => ({ scope: "learner", path, json });
  const callerRoute = (path: string, json?: unknown): Line => ({ scope: "caller", path, json });
  return {
    "GET /v2/console/session": callerRoute("/v2/console/session"),
    // Sign-out needs no live session; without one, a request from no page of the console is refused (403).
    "DELETE /v2/console/session": { ...callerRoute("/v2/console/session"), statuses: { "no key": 403 } },
    "POST /v2/users": callerRoute("/v2/users", { external_id: "newcomer" }),
    "POST /users": callerRoute("/users", { external_id: "newcomer" }),
    "GET /v2/users/me": callerRoute("/v2/users/me"),
    "PATCH /v2/users/me": callerRoute("/v2/users/me", { name: "Owner" }),
    "GET /v2/courses": callerRoute("/v2/courses"),
    "POST /v2/courses/generate": callerRoute("/v2/courses/generate", { topic: "Tides", num_chapters: 2 }),
    "POST /v2/courses/generate-from-files": callerRoute("/v2/courses/generate-from-files"),
    "POST /v2/webhooks": callerRoute("/v2/webhooks", { url: "https://hooks.example.org/courseforge" }),
    "GET /v2/webhooks": callerRoute("/v2/webhooks"),
    "POST /v2/documents/extract": callerRoute("/v2/documents/extract"),
    "POST /v2/documents/process": callerRoute("/v2/documents/process"),
    "POST /v2/documents/query": callerRoute("/v2/documents/query", { query: "What moves the tides?" }),
    "GET /v2/documents": callerRoute("/v2/documents"),
    "GET /v2/usage": callerRoute("/v2/usage"),
    "GET /v2/courses/{course_id}": { ...learnerRoute(course), statuses: OWNED_BY_ANOTHER },
    "DELETE /v2/courses/{course_id}": { ...learnerRoute(course), statuses: OWNED_BY_ANOTHER },
    "GET /v2/jobs/{job_id}": learnerRoute(`/v2/jobs/${ids.job}`),
    "GET /jobs/{job_id}": learnerRoute(`/jobs/${ids.job}`),
    "GET /v2/courses/{course_id}/progress": learnerRoute(`${course}/progress`),
    "POST /v2/courses/{course_id}/resume": learnerRoute(`${course}/resume`),
    "POST /v2/courses/{course_id}/podcasts/generate": learnerRoute(`${course}/podcasts/generate`, {}),
    "GET /v2/courses/{course_id}/podcasts": learnerRoute(`${course}/podcasts`),
    "GET /v2/courses/{course_id}/export": learnerRoute(`${course}/export?format=markdown`),
    "POST /v2/courses/{course_id}/podcasts/feed": learnerRoute(`${course}/podcasts/feed`),
    "DELETE /v2/courses/{course_id}/podcasts/feed": learnerRoute(`${course}/podcasts/feed`),
    "GET /v2/documents/{document_id}": learnerRoute(`/v2/documents/${ids.document}`),
    "DELETE /v2/documents/{document_id}": learnerRoute(`/v2/documents/${ids.document}`),
    "GET /v2/courses/{course_id}/study-guide": learnerRoute(`${course}/study-guide`),
    "POST /v2/courses/{course_id}/generate-notes": learnerRoute(`${course}/generate-notes`, {}),
    "GET /v2/courses/{course_id}/notes": learnerRoute(`${course}/notes`),
    "POST /v2/courses/{course_id}/generate-flashcards": learnerRoute(`${course}/generate-flashcards`, {}),
    "POST /v2/courses/{course_id}/generate-exam": learnerRoute(`${course}/generate-exam`, {}),
    "POST /v2/courses/{course_id}/ask": learnerRoute(`${course}/ask`, { question: "What is osmosis?" }),
    "POST /v2/courses/{course_id}/chapters/{order_index}/quiz-attempts": learnerRoute(
      `${course}/chapters/0/quiz-attempts`,
      { answers: QUIZ.map((q) => q.answer) },
    ),
    "GET /v2/courses/{course_id}/chapters/{order_index}/quiz-attempts/{attempt_id}": learnerRoute(
      `${course}/chapters/0/quiz-attempts/${ids.quizAttempt}`,
    ),
    "POST /v2/courses/{course_id}/chapters/{order_index}/read": learnerRoute(`${course}/chapters/0/read`),
    "POST /v2/courses/{course_id}/exam-attempts": learnerRoute(`${course}/exam-attempts`, {
      exam_size: 10,
      answers: EXAM.map((q) => (q.type === "mcq" ? null : "")),
    }),
    "GET /v2/courses/{course_id}/exam-attempts/{attempt_id}": learnerRoute(
      `${course}/exam-attempts/${ids.examAttempt}`,
    ),
    "POST /v2/courses/{course_id}/flashcards/reviews": learnerRoute(`${course}/flashcards/reviews`, {
      card_index: 0,
      rating: "good",
    }),
    "GET /v2/courses/{course_id}/flashcards/due": learnerRoute(`${course}/flashcards/due`),
    "GET /v2/courses/{course_id}/learner-progress": learnerRoute(`${course}/learner-progress`),
    "DELETE /v2/webhooks/{webhook_id}": { scope: "tenant", path: `/v2/webhooks/${ids.webhook}` },
    "POST /v2/webhooks/{webhook_id}/test": { scope: "tenant", path: `/v2/webhooks/${ids.webhook}/test` },
    "GET /v2/webhooks/{webhook_id}/deliveries": { scope: "tenant", path: `/v2/webhooks/${ids.webhook}/deliveries` },
  };
};

/** The owner's learner id in the database, for the rows written straight into it. */
function ownerRow(courseId: string): { tenantId: string; userId: string } {
  const row = (srv.svc.sql as SqliteSql).db
    .query<{ tenant_id: string; user_id: string }, [string]>("SELECT tenant_id, user_id FROM courses WHERE id = ?")
    .get(courseId)!;
  return { tenantId: row.tenant_id, userId: row.user_id };
}

beforeAll(async () => {
  srv = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  const key = await srv.createKey("acme", "production");
  const testKey = await srv.createKey("acme", "test");
  const otherTenantKey = await srv.createKey("globex", "production");
  learner = { key, user: OWNER, otherTenantKey, testKey, otherUser: "classmate" };
  tenant = { key, user: OWNER, otherTenantKey, testKey };
  // The classmate exists in the owner's tenant, with a course of their own.
  await insertRichCourse(srv.dataDir, { apiKey: key, externalUserId: "classmate" });

  ids.course = await insertRichCourse(srv.dataDir, { apiKey: key, externalUserId: OWNER });
  setQuiz(srv.dataDir, ids.course, 0);
  cacheExam(srv.dataDir, ids.course);
  cacheDeck(srv.dataDir, ids.course);
  // A job of the owner that never runs: only its row is read.
  ids.job = (
    await enqueueJob(
      { sql: srv.svc.sql, clock: systemClock },
      {
        type: EPISODE_JOB,
        ...ownerRow(ids.course),
        courseId: ids.course,
        runAfter: new Date("2100-01-01T00:00:00Z"),
        payload: { episode_id: "none" },
      },
    )
  ).id;
  const owner = { key, user: OWNER };
  const upload = new FormData();
  upload.append("files", new File(["# Tides\n\nThe Moon's pull raises the tides twice a day.\n"], "tides.md"));
  const doc = await call(srv, "/v2/documents/process", { ...owner, body: upload });
  expect(doc.status).toBe(200);
  ids.document = doc.body.documents[0].id;
  const hook = await call(srv, "/v2/webhooks", { key, json: { url: "https://hooks.example.org/courseforge" } });
  expect(hook.status).toBe(201);
  ids.webhook = hook.body.id;
  const course = `/v2/courses/${ids.course}`;
  const quiz = await call(srv, `${course}/chapters/0/quiz-attempts`, {
    ...owner,
    json: { answers: QUIZ.map((q) => q.answer) },
  });
  expect(quiz.status).toBe(200);
  ids.quizAttempt = quiz.body.attempt_id;
  const exam = await call(srv, `${course}/exam-attempts`, {
    ...owner,
    json: { exam_size: 10, answers: EXAM.map((q) => (q.type === "mcq" ? null : "")) },
  });
  expect(exam.status).toBe(200);
  ids.examAttempt = exam.body.attempt_id;

  const openapi = await call(srv, "/openapi.json");
  const global = openapi.body.security ?? [];
  operations = Object.entries<Record<string, { security?: unknown[]; responses?: unknown }>>(openapi.body.paths)
    .flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op && typeof op === "object" && op.responses)
        .filter(([, op]) => (op.security ?? global).length > 0)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
});
afterAll(() => srv.stop());

test("every operation behind the API key has its line here, and every line is an operation", () => {
  expect(operations.length).toBeGreaterThan(40);
  expect(Object.keys(routes()).sort()).toEqual(operations);
});

describe("each operation refuses every outsider", () => {
  test("the owner's resources are there to be refused", () => {
    for (const id of Object.values(ids)) expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  for (const scope of ["caller", "tenant", "learner"] as const) {
    test(`${scope === "caller" ? "the caller's own collections: no key" : `a ${scope}'s resources: every outsider`}`, async () => {
      const who = { caller: { key: learner.key, user: OWNER }, tenant, learner }[scope];
      for (const [operation, route] of Object.entries(routes())) {
        if (route.scope !== scope) continue;
        await expectGuarded(srv, { ...route, method: operation.split(" ")[0]! }, who);
      }
    });
  }

  test("the refused calls changed nothing of the owner's", async () => {
    const owner = { key: learner.key, user: OWNER };
    expect((await call(srv, `/v2/courses/${ids.course}`, owner)).status).toBe(200);
    expect((await call(srv, `/v2/documents/${ids.document}`, owner)).status).toBe(200);
    const hooks = await call(srv, "/v2/webhooks", { key: learner.key });
    expect(hooks.body.data.map((h: { id: string }) => h.id)).toEqual([ids.webhook]);
    const progress = await call(srv, `/v2/courses/${ids.course}/learner-progress`, owner);
    expect(progress.body.completion.chapters_read).toBe(0);
    expect(progress.body.flashcards.reviewed).toBe(0);
  });
});

/**
 * Elysia awaits a handler when its constructor is AsyncFunction or when a regex finds a call or an
 * await in its text; the executable's minified text can hide that call, and a promise then goes out
 * unawaited (the podcast listing failed its response schema only there). So a handler that is not
 * declared async must be shown to answer without a promise: each is called as Elysia calls it, on
 * the request its line here describes (or, for the public pages, a plain GET), after that request
 * went through the app so its hooks have authenticated it.
 */
test("every route handler that returns a promise is declared async", async () => {
  const lines = routes();
  // The console's page and an asset path: each is a file read, the branch a promise would come from.
  const publicPaths: Record<string, string> = { "/app": "/app/", "/app/*": "/app/index.html" };
  // The console's session is read from its cookie, not the key: the owner signs in for it.
  const signIn = await srv.app.handle(
    new Request(new URL("/v2/console/session", srv.url), {
      method: "POST",
      headers: { "content-type": "application/json", origin: srv.url },
      body: JSON.stringify({ api_key: learner.key, external_user_id: OWNER }),
    }),
  );
  expect(signIn.status).toBe(201);
  // The notes' reader reads notes once written (a row, not a generation: only the read is checked).
  (srv.svc.sql as SqliteSql).db.run(
    `INSERT INTO course_notes (id, course_id, model, learning_goal, learning_style, tutor_tone, notes, engine, created_at)
     VALUES ('notes', ?, 'extractive', 'exams', 'concise', 'mentor', '# Notes', 'extractive', ?)`,
    [ids.course, new Date().toISOString()],
  );
  const asConsole: Record<string, Record<string, string>> = {
    "GET /v2/console/session": {
      cookie: signIn.headers.get("set-cookie")!.split(";")[0]!,
      "sec-fetch-site": "same-origin",
    },
  };
  const checked: string[] = [];
  const failures: string[] = [];
  for (const route of srv.app.routes) {
    const { handler } = route;
    if (typeof handler !== "function" || handler.constructor.name === "AsyncFunction") continue;
    const operation = `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`;
    const line = lines[operation];
    const path = line?.path ?? publicPaths[route.path] ?? route.path;
    const url = new URL(path, srv.url);
    const init = (): RequestInit => ({
      method: route.method,
      headers:
        asConsole[operation] ??
        (line
          ? {
              "x-api-key": learner.key,
              "x-external-user-id": OWNER,
              ...(line.json === undefined ? {} : { "content-type": "application/json" }),
            }
          : {}),
      body: line?.json === undefined ? undefined : JSON.stringify(line.json),
    });
    const request = new Request(url, init());
    const answered = await srv.app.handle(request);
    // The request the handler is called with is one the app answers (a redirect is an answer).
    expect(`${operation}: ${answered.status}`).toBe(
      `${operation}: ${answered.status < 400 ? answered.status : "2xx or 3xx"}`,
    );
    const names = [...route.path.matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? "*");
    const pattern = route.path.replace(/:\w+/g, "([^/]+)").replace("*", "(.*)");
    const values = url.pathname.match(new RegExp(`^${pattern}$`))?.slice(1) ?? [];
    const context = {
      request,
      path: url.pathname,
      params: Object.fromEntries(names.map((n, i) => [n, values[i]])),
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(new Request(url, init()).headers),
      body: line?.json,
      set: { headers: {}, status: 200 },
      redirect: (to: string, status = 302) => new Response(null, { status, headers: { location: to } }),
    };
    try {
      const result = (handler as (c: typeof context) => unknown)(context);
      if (typeof (result as { then?: unknown } | null)?.then === "function") {
        failures.push(`${operation} returns a promise and is not declared async`);
        await result;
      }
    } catch (e) {
      failures.push(`${operation} threw where the app answered: ${e}`);
    }
    checked.push(operation);
  }
  expect(failures).toEqual([]);
  // The synchronous handlers of today, so the check is not empty.
  expect(checked).toContain("GET /openapi.json");
  expect(checked.length).toBeGreaterThan(2);
});
