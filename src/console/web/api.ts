/**
 * The console's only way to the server: the public API, authenticated by the session cookie the
 * browser sends by itself (same origin). The key never passes through here after sign-in.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** Called when the session has ended (401), so the app can show sign-in again. */
let onSignedOut: () => void = () => {};
export const whenSignedOut = (fn: () => void) => {
  onSignedOut = fn;
};

async function errorOf(res: Response): Promise<ApiError> {
  const body = await res.json().catch(() => null);
  const e = body?.error;
  return new ApiError(
    res.status,
    e?.code ?? `HTTP_${res.status}`,
    e?.message ?? `The server answered ${res.status}`,
    e?.details,
  );
}

/** A request to the API; rejects with ApiError on any non-2xx answer. */
export async function request(method: string, path: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method, credentials: "same-origin", headers: {} };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  const res = await fetch(path, init);
  if (res.ok) return res;
  const err = await errorOf(res);
  if (res.status === 401 && path !== "/v2/console/session") onSignedOut();
  throw err;
}

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await request(method, path, body);
  return (res.status === 204 ? null : await res.json()) as T;
}

export const get = <T = unknown>(path: string) => api<T>("GET", path);
export const post = <T = unknown>(path: string, body?: unknown) => api<T>("POST", path, body ?? {});
export const del = (path: string) => api("DELETE", path);

/**
 * A multipart upload with per-request progress (fetch cannot report upload progress). The cookie
 * goes along as with fetch; the browser adds Origin to the POST.
 */
export function upload<T = unknown>(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve(xhr.response as T);
      const e = (xhr.response as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
      if (xhr.status === 401) onSignedOut();
      reject(
        new ApiError(
          xhr.status,
          e?.code ?? `HTTP_${xhr.status}`,
          e?.message ?? `The server answered ${xhr.status}`,
          e?.details,
        ),
      );
    };
    xhr.onerror = () => reject(new ApiError(0, "NETWORK", "The server could not be reached"));
    xhr.send(form);
  });
}

/** Words for an error, for the person reading the page. */
export const describe = (err: unknown) => (err instanceof ApiError ? `${err.message} (${err.code})` : String(err));
