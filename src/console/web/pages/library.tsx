/** Library: upload files and URLs into spaces (each file its own request, with its own progress), and the indexed documents. */
import { useState } from "preact/hooks";
import { del, describe, get, upload } from "../api.ts";
import { ErrorNote, Loading, PageTitle, ProgressBar, TableHead, TableWrap, useLoad } from "../ui.tsx";

export interface DocumentRecord {
  id: string;
  filename: string;
  source_type: string;
  status: string;
  chunk_count?: number;
  error?: string;
  space_id: string | null;
  pages: number | null;
  created_at: string;
}

interface Upload {
  name: string;
  progress: number;
  state: "uploading" | "processing" | "done" | "failed";
  message?: string;
}

const VIDEO = /^https?:\/\/(www\.)?(youtube\.com|youtu\.be)\//i;

export function Library() {
  const [space, setSpace] = useState("");
  const [filter, setFilter] = useState("");
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [urls, setUrls] = useState("");
  const docs = useLoad(
    () =>
      get<{ data: DocumentRecord[] }>(
        `/v2/documents?limit=100${filter ? `&space_id=${encodeURIComponent(filter)}` : ""}`,
      ),
    [filter],
  );
  const spaces = [...new Set((docs.data?.data ?? []).map((d) => d.space_id).filter((s): s is string => !!s))];

  const track = (i: number, change: Partial<Upload>) =>
    setUploads((all) => all.map((u, j) => (j === i ? { ...u, ...change } : u)));

  const send = async (i: number, form: FormData) => {
    if (space.trim()) form.append("space_id", space.trim());
    try {
      const res = await upload<{ documents: DocumentRecord[] }>("/v2/documents/process", form, (f) =>
        track(i, { progress: f * 100, state: f < 1 ? "uploading" : "processing" }),
      );
      const failed = res.documents.filter((d) => d.status === "error");
      track(i, {
        progress: 100,
        state: failed.length ? "failed" : "done",
        message: failed.length
          ? failed.map((d) => `${d.filename}: ${d.error}`).join("; ")
          : `${res.documents.map((d) => d.chunk_count ?? 0).join(", ")} chunks`,
      });
    } catch (err) {
      track(i, { state: "failed", message: describe(err) });
    }
    docs.reload();
  };

  const onFiles = (e: Event) => {
    e.preventDefault();
    const input = (e.currentTarget as HTMLFormElement).elements.namedItem("files") as HTMLInputElement;
    const files = [...(input.files ?? [])];
    const start = uploads.length;
    setUploads((all) => [...all, ...files.map((f) => ({ name: f.name, progress: 0, state: "uploading" as const }))]);
    files.forEach((file, k) => {
      const form = new FormData();
      form.append("files", file, file.name);
      void send(start + k, form);
    });
    input.value = "";
  };

  const onUrls = (e: Event) => {
    e.preventDefault();
    const list = urls.split(/\s+/).filter(Boolean);
    if (!list.length) return;
    const form = new FormData();
    const videos = list.filter((u) => VIDEO.test(u));
    const pages = list.filter((u) => !VIDEO.test(u));
    if (videos.length) form.append("youtube_urls", JSON.stringify(videos));
    if (pages.length) form.append("web_urls", JSON.stringify(pages));
    const i = uploads.length;
    setUploads((all) => [...all, { name: list.join(", "), progress: 0, state: "uploading" }]);
    setUrls("");
    void send(i, form);
  };

  const remove = async (d: DocumentRecord) => {
    if (!confirm(`Delete ${d.filename}?`)) return;
    await del(`/v2/documents/${d.id}`).catch((err) => alert(describe(err)));
    docs.reload();
  };

  return (
    <>
      <PageTitle text="Library" />
      <section aria-labelledby="add-heading" class="panel">
        <h2 id="add-heading">Add sources</h2>
        <label for="space">Space (optional)</label>
        <input
          id="space"
          list="spaces"
          value={space}
          onInput={(e) => setSpace(e.currentTarget.value)}
          placeholder="e.g. biology"
        />
        <datalist id="spaces">
          {spaces.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        <form onSubmit={onFiles} class="row">
          <label for="files">Files (PDF, DOCX, PPTX, ODT, TXT, MD, HTML, images)</label>
          <input id="files" name="files" type="file" multiple required />
          <button type="submit">Upload</button>
        </form>
        <form onSubmit={onUrls} class="row">
          <label for="urls">Web pages or YouTube videos (one URL a line)</label>
          <textarea id="urls" rows={2} value={urls} onInput={(e) => setUrls(e.currentTarget.value)} />
          <button type="submit">Add URLs</button>
        </form>
        {uploads.length > 0 && (
          <ul class="uploads" aria-label="Uploads">
            {uploads.map((u, i) => (
              <li key={i} class={`upload upload-${u.state}`}>
                <span class="name">{u.name}</span>
                <ProgressBar value={u.progress} label={`Upload of ${u.name}`} />
                <span class="state" role="status">
                  {u.state === "uploading"
                    ? "uploading"
                    : u.state === "processing"
                      ? "processing…"
                      : u.state === "done"
                        ? `ready, ${u.message}`
                        : `failed: ${u.message}`}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="docs-heading">
        <h2 id="docs-heading">Documents</h2>
        <label for="filter">Show space</label>
        <select id="filter" value={filter} onChange={(e) => setFilter(e.currentTarget.value)}>
          <option value="">All spaces</option>
          {spaces.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <ErrorNote error={docs.error} />
        {docs.loading && !docs.data && <Loading what="documents" />}
        {docs.data && docs.data.data.length === 0 && <p>No documents yet.</p>}
        {docs.data && docs.data.data.length > 0 && (
          <TableWrap label="Documents">
            <table>
              <TableHead
                columns={["Document", "Space", "Status", "Chunks", "Pages", <span class="sr-only">Actions</span>]}
              />
              <tbody>
                {docs.data.data.map((d) => (
                  <tr key={d.id}>
                    <td class="wrap">{d.filename}</td>
                    <td>{d.space_id ?? "—"}</td>
                    <td>
                      <span class={`status status-${d.status}`}>{d.status}</span>
                      {d.error && <div class="error">{d.error}</div>}
                    </td>
                    <td>{d.chunk_count ?? "—"}</td>
                    <td>{d.pages ?? "—"}</td>
                    <td>
                      <button
                        type="button"
                        class="danger"
                        onClick={() => remove(d)}
                        aria-label={`Delete ${d.filename}`}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>
    </>
  );
}
