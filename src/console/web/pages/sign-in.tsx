/**
 * Sign-in: the key and learner id go to the server once, which answers with an HttpOnly cookie.
 * The key lives only in this form's state until then and is cleared right after.
 */
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { ErrorNote, PageTitle, useAction } from "../ui.tsx";

export interface Session {
  user: { user_id: string; external_id: string | null };
  tenant: string;
  key_env: string;
  expires_at: string;
}

/** A labelled, required input named by its id; `onValue` hears each edit. */
function RequiredField({
  label,
  onValue,
  ...input
}: JSX.IntrinsicElements["input"] & { id: string; label: string; onValue: (value: string) => void }) {
  return (
    <>
      <label for={input.id}>{label}</label>
      <input {...input} name={input.id} required onInput={(e) => onValue(e.currentTarget.value)} />
    </>
  );
}

export function SignIn({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [key, setKey] = useState("");
  const [learner, setLearner] = useState("");
  const { busy, error, run } = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      const session = await api<Session>("POST", "/v2/console/session", {
        api_key: key.trim(),
        external_user_id: learner.trim(),
      });
      setKey("");
      onSignedIn(session);
    });
  };
  return (
    <main id="main" class="sign-in">
      <PageTitle text="Sign in to courseforge" />
      <p>Enter an API key and the learner you study as. The key is checked once and is not kept in this browser.</p>
      <form onSubmit={submit}>
        <RequiredField id="api-key" label="API key" type="password" autocomplete="off" value={key} onValue={setKey} />
        <RequiredField id="learner" label="Learner id" autocomplete="username" value={learner} onValue={setLearner} />
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
