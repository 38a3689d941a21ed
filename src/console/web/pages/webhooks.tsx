/** The tenant's webhooks: register (the secret is shown once), send a test, read the delivery log, delete. */
import { useState } from "preact/hooks";
import { del, describe, get, post } from "../api.ts";
import { ErrorNote, Loading, PageTitle, TableHead, TableWrap, useLoad } from "../ui.tsx";

const EVENTS = ["course.completed", "course.failed", "job.progress"];

interface Webhook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  created_at: string;
}

interface Delivery {
  id: string;
  event: string;
  status: string;
  attempt_count: number;
  created_at: string;
  attempts: { attempt: number; status_code: number | null; error: string | null; ok: boolean }[];
}

export function Webhooks() {
  const list = useLoad(() => get<{ data: Webhook[] }>("/v2/webhooks"), []);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const register = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    setError(null);
    try {
      const hook = await post<Webhook & { secret: string }>("/v2/webhooks", {
        url: f.get("url"),
        events: f.getAll("events"),
      });
      setSecret({ url: hook.url, secret: hook.secret });
      form.reset();
      list.reload();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      <PageTitle text="Webhooks" />
      <form onSubmit={register} class="panel">
        <h2>Register a webhook</h2>
        <label for="hook-url">Receiver URL (https://)</label>
        <input id="hook-url" name="url" type="url" required />
        <fieldset>
          <legend>Events</legend>
          {EVENTS.map((ev) => (
            <label key={ev} class="inline">
              <input type="checkbox" name="events" value={ev} defaultChecked={ev !== "job.progress"} /> {ev}
            </label>
          ))}
        </fieldset>
        <button type="submit">Register</button>
      </form>
      <ErrorNote error={error} />
      {secret && (
        <div class="panel notice" role="status">
          <p>Signing secret for {secret.url}. It is shown only now: copy it into your receiver.</p>
          <code class="secret">{secret.secret}</code>
          <button type="button" onClick={() => setSecret(null)}>
            I have copied it
          </button>
        </div>
      )}
      <ErrorNote error={list.error} />
      {list.loading && !list.data && <Loading what="webhooks" />}
      {list.data?.data.length === 0 && <p>No webhooks yet.</p>}
      <ul class="cards">
        {list.data?.data.map((h) => (
          <WebhookCard key={h.id} hook={h} onDeleted={list.reload} />
        ))}
      </ul>
    </>
  );
}

function WebhookCard({ hook, onDeleted }: { hook: Webhook; onDeleted: () => void }) {
  const [result, setResult] = useState<string>("");
  const [log, setLog] = useState<Delivery[] | null>(null);
  const test = async () => {
    setResult("Sending…");
    try {
      const r = await post<{ delivered: boolean; status_code: number | null; error: string | null }>(
        `/v2/webhooks/${hook.id}/test`,
      );
      setResult(
        r.delivered ? `Delivered (HTTP ${r.status_code})` : `Not delivered: ${r.error ?? `HTTP ${r.status_code}`}`,
      );
    } catch (err) {
      setResult(describe(err));
    }
  };
  const showLog = async () => {
    try {
      setLog((await get<{ data: Delivery[] }>(`/v2/webhooks/${hook.id}/deliveries?limit=20`)).data);
    } catch (err) {
      setResult(describe(err));
    }
  };
  const remove = async () => {
    await del(`/v2/webhooks/${hook.id}`).catch((err) => setResult(describe(err)));
    onDeleted();
  };
  return (
    <li class="card">
      <h2 class="wrap">{hook.url}</h2>
      <p class="muted">
        {hook.active ? "active" : "inactive"} · {hook.events.join(", ")}
      </p>
      <div class="row">
        <button type="button" onClick={test}>
          Send a test
        </button>
        <button type="button" onClick={showLog}>
          Delivery log
        </button>
        <button type="button" class="danger" onClick={remove}>
          Delete
        </button>
      </div>
      {result && <p role="status">{result}</p>}
      {log && (
        <TableWrap label="Deliveries">
          <table>
            <caption>Deliveries, newest first</caption>
            <TableHead columns={["Event", "Status", "Attempts", "Last result", "Created"]} />
            <tbody>
              {log.map((d) => {
                const last = d.attempts.at(-1);
                return (
                  <tr key={d.id}>
                    <td>{d.event}</td>
                    <td>{d.status}</td>
                    <td>{d.attempt_count}</td>
                    <td>
                      {last ? (last.ok ? `HTTP ${last.status_code}` : (last.error ?? `HTTP ${last.status_code}`)) : "—"}
                    </td>
                    <td>{new Date(d.created_at).toLocaleString()}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableWrap>
      )}
    </li>
  );
}
