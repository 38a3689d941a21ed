/**
 * Outbound HTTP for web pages, YouTube and webhooks, behind the SSRF guard.
 *
 * Every hop (the first URL and each redirect, at most 5, followed by hand) is checked after DNS
 * resolution, and the connection is pinned to the address that was checked: node:http's `lookup`
 * hook hands the socket exactly that address, so a DNS answer that changes between the check and
 * the connect (DNS rebinding) cannot redirect it. TLS still verifies the certificate against the
 * host name. The whole exchange has one deadline (20 s by default) and the decoded body a size cap
 * (20 MB by default), enforced while streaming.
 */
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { AppError } from "../errors.ts";
import { parseAllowList } from "./address-policy.ts";
import { type CheckedUrl, checkUrl, type Resolver, systemResolver } from "./guard.ts";

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;

export interface SafeFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Deadline for the whole exchange, redirects included. */
  timeoutMs?: number;
  /** Largest decoded response body; beyond it the transfer is aborted. */
  maxBytes?: number;
  /** Redirects to follow (default 5); 0 returns the 3xx response itself (webhooks). */
  maxRedirects?: number;
  /** Hosts or CIDRs reachable although internal: pass `cfg.outboundAllow`. */
  allow?: readonly string[];
  /** Trusted roots for TLS in place of the default ones (a caller adds its private CAs to `tls.rootCertificates`). */
  ca?: string[];
  resolve?: Resolver;
  signal?: AbortSignal;
}

export interface SafeResponse {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  ok: boolean;
  headers: Headers;
  body: Uint8Array;
  redirects: number;
  text(): string;
  json<T = unknown>(): T;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const pinnedLookup =
  (target: CheckedUrl): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };

function decoded(res: IncomingMessage): Readable {
  switch ((res.headers["content-encoding"] ?? "").toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return res.pipe(createGunzip());
    case "deflate":
      return res.pipe(createInflate());
    case "br":
      return res.pipe(createBrotliDecompress());
    default:
      return res;
  }
}

function toHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

interface Hop {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

const tooLarge = (origin: string, maxBytes: number) =>
  new AppError(
    "RESPONSE_TOO_LARGE",
    `the response from ${origin} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`,
  );

function requestOnce(
  target: CheckedUrl,
  opts: {
    method: string;
    headers: Record<string, string>;
    body?: string | Uint8Array;
    maxBytes: number;
    ca?: string[];
  },
  signal: AbortSignal,
): Promise<Hop> {
  const { url } = target;
  const client = url.protocol === "https:" ? https : http;
  return new Promise<Hop>((resolve, reject) => {
    const req = client.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: opts.method,
        headers: opts.headers,
        lookup: pinnedLookup(target),
        agent: false,
        ca: opts.ca,
        signal,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const headers = toHeaders(res);
        if (REDIRECTS.has(status)) {
          res.resume();
          resolve({ status, headers, body: new Uint8Array() });
          return;
        }
        const declared = Number(res.headers["content-length"] ?? 0);
        if (declared > opts.maxBytes && !res.headers["content-encoding"]) {
          req.destroy();
          reject(tooLarge(url.origin, opts.maxBytes));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        const stream = decoded(res);
        stream.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) {
            req.destroy();
            stream.destroy();
            reject(tooLarge(url.origin, opts.maxBytes));
            return;
          }
          chunks.push(chunk);
        });
        stream.on("end", () => resolve({ status, headers, body: new Uint8Array(Buffer.concat(chunks)) }));
        stream.on("error", reject);
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

function failure(err: unknown, url: URL, timeoutMs: number, signal: AbortSignal): AppError {
  if (err instanceof AppError) return err;
  if (signal.aborted) {
    return new AppError("FETCH_TIMEOUT", `${url.origin} did not answer within ${Math.round(timeoutMs / 1000)} s`);
  }
  const code = (err as { code?: string }).code;
  return new AppError("FETCH_FAILED", `could not fetch ${url.origin}: ${code ?? (err as Error).message}`);
}

/** Fetches `url` under the SSRF guard; see the module comment for what is enforced. */
export async function safeFetch(url: string | URL, opts: SafeFetchOptions = {}): Promise<SafeResponse> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const allow = parseAllowList(opts.allow ?? []);
  const resolve = opts.resolve ?? systemResolver;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;

  let method = (opts.method ?? "GET").toUpperCase();
  let body = opts.body;
  let next: string | URL = url;
  for (let redirects = 0; ; redirects++) {
    const target = await checkUrl(next, allow, resolve);
    const current = target.url;
    let hop: Hop;
    try {
      hop = await requestOnce(
        target,
        { method, headers: { "accept-encoding": "gzip, deflate, br", ...opts.headers }, body, maxBytes, ca: opts.ca },
        signal,
      );
    } catch (err) {
      throw failure(err, current, timeoutMs, signal);
    }
    const location = hop.headers.get("location");
    if (!REDIRECTS.has(hop.status) || !location || maxRedirects === 0) {
      return {
        url: current.href,
        status: hop.status,
        ok: hop.status >= 200 && hop.status < 300,
        headers: hop.headers,
        body: hop.body,
        redirects,
        text: () => new TextDecoder().decode(hop.body),
        json: <T>() => JSON.parse(new TextDecoder().decode(hop.body)) as T,
      };
    }
    if (redirects >= maxRedirects) {
      throw new AppError("TOO_MANY_REDIRECTS", `${current.origin} redirected more than ${maxRedirects} times`);
    }
    next = new URL(location, current);
    // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
    if (hop.status === 303 || ((hop.status === 301 || hop.status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
    }
  }
}
