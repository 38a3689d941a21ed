import { Elysia, t } from "elysia";
import type { Services } from "../../services.ts";
import { registerUser, toUserResource, updateUserProfile } from "../../tenants/users.ts";
import { authOf } from "../context.ts";
import { LearningGoal, UserHeaders } from "../schemas.ts";
import { userOf } from "../user.ts";

export const UserResource = t.Object({
  user_id: t.String(),
  external_id: t.Nullable(t.String()),
  email: t.Nullable(t.String()),
  name: t.Nullable(t.String()),
  learning_goal: t.Nullable(t.String()),
  created_at: t.String(),
});

const RegisterBody = t.Object({
  external_id: t.Optional(t.String({ minLength: 1, maxLength: 256 })),
  email: t.Optional(t.String({ maxLength: 320 })),
  name: t.Optional(t.String({ maxLength: 200 })),
  learning_goal: t.Optional(LearningGoal),
});

export const userRoutes = (svc: Services) => {
  const register = async ({
    request,
    body,
    set,
  }: {
    request: Request;
    body: typeof RegisterBody.static;
    set: { status?: number | string };
  }) => {
    const { user, created } = await registerUser(svc.sql, authOf(request).tenantId, body);
    set.status = created ? 201 : 200;
    return toUserResource(user);
  };
  const registerDoc = {
    body: RegisterBody,
    response: { 200: UserResource, 201: UserResource },
    detail: {
      summary: "Pre-register a learner (pattern B)",
      description:
        "Returns 201 with the new learner, or 200 with the learner already registered under that external_id.",
      tags: ["users"],
    },
  };
  return new Elysia({ name: "users" })
    .post("/v2/users", register, registerDoc)
    .post("/users", register, { ...registerDoc, detail: { ...registerDoc.detail, summary: "Alias of POST /v2/users" } })
    .get("/v2/users/me", async ({ request }) => toUserResource(await userOf(svc, request, { create: false })), {
      headers: UserHeaders,
      response: { 200: UserResource },
      detail: { summary: "The calling learner", tags: ["users"] },
    })
    .patch(
      "/v2/users/me",
      async ({ request, body }) =>
        toUserResource(await updateUserProfile(svc.sql, await userOf(svc, request, { create: true }), body)),
      {
        headers: UserHeaders,
        body: t.Object({
          learning_goal: t.Optional(t.Nullable(LearningGoal)),
          email: t.Optional(t.String({ maxLength: 320 })),
          name: t.Optional(t.String({ maxLength: 200 })),
        }),
        response: { 200: UserResource },
        detail: { summary: "Update the learner's saved profile (learning_goal)", tags: ["users"] },
      },
    );
};
