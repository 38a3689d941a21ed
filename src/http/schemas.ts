/** TypeBox schemas shared by several routes (request validation and OpenAPI both read them). */
import { type TSchema, t } from "elysia";

export const ErrorSchema = t.Object(
  {
    error: t.Object({
      code: t.String(),
      message: t.String(),
      request_id: t.String(),
      details: t.Optional(t.Unknown()),
    }),
  },
  { description: "Error body of every failed request" },
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

/** Standard error responses for OpenAPI, by status. */
export const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, ErrorSchema])) as Record<number, typeof ErrorSchema>;
