/** TypeBox schemas shared by several routes (request validation and OpenAPI both read them). */
import { type IntegerOptions, Type } from "@sinclair/typebox";
import { type TSchema, t } from "elysia";
import { type ErrorCode, errorCatalogue, MODEL_FAILURE_STATUS, type ModelFailureEndpoint } from "../errors.ts";
import { LLM_ERROR_CODES } from "../llm/errors.ts";

/**
 * An integer in a JSON body. Elysia's own `t.Integer` also accepts a numeric string ("0"), which
 * a JSON API should refuse as the wrong type; TypeBox's Integer does.
 */
export const JsonInteger = (options?: IntegerOptions) => Type.Integer(options);

const errorBody = (codes: readonly ErrorCode[], description: string) =>
  t.Object(
    {
      error: t.Object({
        code: t.String({ enum: [...codes] }),
        message: t.String(),
        request_id: t.String(),
        details: t.Optional(t.Unknown()),
      }),
    },
    { description },
  );

export const ErrorSchema = errorBody(
  Object.keys(errorCatalogue) as ErrorCode[],
  "Error body of every failed request; `code` is one of the error catalogue's (README, Errors)",
);

/** Codes a route answers under another status than their own: a model's failure (MODEL_FAILURE_STATUS). */
interface Restated {
  status: number;
  codes: readonly ErrorCode[];
}

/** The codes of a model's failure, answered as endpoint `on` answers them. */
export const modelFailures = (on: ModelFailureEndpoint): Restated => ({
  status: MODEL_FAILURE_STATUS[on],
  codes:
    on === "materials" ? [...LLM_ERROR_CODES, "LLM_FAILED"] : [...LLM_ERROR_CODES, "EMBEDDER_UNAVAILABLE", "INTERNAL"],
});

function byStatus(declared: (ErrorCode | Restated)[]): [number, ErrorCode[]][] {
  const groups = new Map<number, Set<ErrorCode>>();
  const add = (status: number, code: ErrorCode) => groups.set(status, (groups.get(status) ?? new Set()).add(code));
  for (const d of declared) {
    if (typeof d === "string") add(errorCatalogue[d].status, d);
    else for (const code of d.codes) add(d.status, code);
  }
  return [...groups].map(([status, codes]) => [status, [...codes]]);
}

/**
 * A route's own error codes as per-status response schemas whose `code` is an enum of them. The
 * codes every route shares (authentication, rate limits, validation, learners) are added by docs.ts.
 */
export const errors = (...declared: (ErrorCode | Restated)[]): Record<number, typeof ErrorSchema> =>
  Object.fromEntries(byStatus(declared).map(([status, codes]) => [status, errorBody(codes, "Error")]));

/** The same, as OpenAPI response objects, for routes whose responses are declared in `detail`. */
export const errorResponses = (...declared: (ErrorCode | Restated)[]) =>
  Object.fromEntries(
    byStatus(declared).map(([status, codes]) => [
      status,
      { description: "Error", content: { "application/json": { schema: errorBody(codes, "Error") } } },
    ]),
  );

export const UserHeaders = t.Object({
  "x-external-user-id": t.Optional(t.String({ description: "Your own identifier of the learner" })),
  "x-user-id": t.Optional(t.String({ description: "Service-issued learner UUID (POST /v2/users)" })),
});

export const CourseIdParams = t.Object({ course_id: t.String({ description: "Course UUID" }) });

/** The query of a keyset-paginated list (see keyset-cursor.ts), to spread beside a list's own filters. */
export const PAGE_QUERY = {
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: t.Optional(t.String({ maxLength: 200 })),
};

/** One page of a keyset-paginated list of `item`. */
export const Page = <T extends TSchema>(item: T) =>
  t.Object({
    data: t.Array(item),
    pagination: t.Object({ limit: t.Integer(), has_more: t.Boolean(), next_cursor: t.Nullable(t.String()) }),
  });

export const LearningGoal = t.Union(
  [t.Literal("exams"), t.Literal("career"), t.Literal("curiosity"), t.Literal("supplement")],
  { description: "Learning goal; overrides the learner's saved profile" },
);
