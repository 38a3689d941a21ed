/**
 * Raw HTTP/1.1 over a TCP socket, for requests fetch() will not send: bodies shorter than their
 * Content-Length, broken multipart framing sent byte for byte, oversized header blocks.
 */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed (or reset) the connection without a response. */
  closedWithoutResponse: boolean;
}

function parse(raw: Buffer): RawResponse {
  const text = raw.toString("utf8");
  const end = text.indexOf("\r\n\r\n");
  if (!text.startsWith("HTTP/1.1 ") || end === -1)
    return { status: 0, headers: {}, body: text, closedWithoutResponse: true };
  const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(":");
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let body = text.slice(end + 4);
  if (headers["transfer-encoding"] === "chunked") {
    let out = "";
    for (let rest = body; ; ) {
      const nl = rest.indexOf("\r\n");
      const size = parseInt(rest.slice(0, nl), 16);
      if (!size) break;
      out += rest.slice(nl + 2, nl + 2 + size);
      rest = rest.slice(nl + 2 + size + 2);
    }
    body = out;
  } else if (headers["content-length"]) {
    body = body.slice(0, Number(headers["content-length"]));
  }
  return { status: Number(statusLine!.split(" ")[1]), headers, body, closedWithoutResponse: false };
}

/**
 * Sends `head` (request line and headers, without the blank line) and `body` as they are, then,
 * if `halfClose`, ends the sending side as a client that gave up would; `rest`, once it resolves,
 * is sent after the body, as a stalled client's that resumes. Resolves with the first response,
 * or when the server closes, or after `timeoutMs`.
 */
export async function rawRequest(
  url: string,
  head: string,
  body: Uint8Array | string = "",
  opts: { halfClose?: boolean; timeoutMs?: number; rest?: Promise<Uint8Array | string> } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  const chunks: Buffer[] = [];
  let settle: () => void = () => {};
  const finished = new Promise<void>((r) => (settle = r));
  const socket = await Bun.connect({
    hostname,
    port: Number(port),
    socket: {
      data(_s, data) {
        chunks.push(Buffer.from(data));
        const got = parse(Buffer.concat(chunks));
        const complete =
          !got.closedWithoutResponse &&
          (got.headers["content-length"] !== undefined
            ? Buffer.concat(chunks).length >=
              Buffer.concat(chunks).indexOf("\r\n\r\n") + 4 + Number(got.headers["content-length"])
            : Buffer.concat(chunks).includes("0\r\n\r\n"));
        if (complete) settle();
      },
      close: () => settle(),
      error: () => settle(),
      end: () => settle(),
    },
  });
  socket.write(`${head}\r\n\r\n`);
  if (body.length > 0) socket.write(body);
  socket.flush();
  if (opts.halfClose) socket.shutdown(true);
  void opts.rest?.then((rest) => {
    socket.write(rest);
    socket.flush();
  });
  await Promise.race([finished, Bun.sleep(opts.timeoutMs ?? 10_000)]);
  socket.end();
  return parse(Buffer.concat(chunks));
}

/** A multipart body built byte for byte, so that framing can be broken on purpose. */
export function multipartBytes(
  boundary: string,
  parts: { name: string; filename?: string | Uint8Array; type?: string; data: Uint8Array | string }[],
  close = true,
): Buffer {
  const out: Buffer[] = [];
  for (const p of parts) {
    out.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`));
    if (p.filename !== undefined) out.push(Buffer.from('; filename="'), Buffer.from(p.filename), Buffer.from('"'));
    out.push(Buffer.from(`\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ""}\r\n`));
    out.push(Buffer.from(p.data));
    out.push(Buffer.from("\r\n"));
  }
  if (close) out.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(out);
}

export interface StalledResult {
  response: RawResponse;
  /** The server ended the connection (after answering, or without an answer). */
  closedByServer: boolean;
}

/**
 * Sends `head` and the start of a body, then nothing more, the way a stalled or malicious client
 * does, and waits up to `waitMs` for the server to answer and to close the connection.
 */
export async function stalledRequest(
  url: string,
  head: string,
  partialBody: Uint8Array | string,
  waitMs: number,
): Promise<StalledResult> {
  const { hostname, port } = new URL(url);
  const chunks: Buffer[] = [];
  let closedByServer = false;
  let settle: () => void = () => {};
  const closed = new Promise<void>((r) => (settle = r));
  const onClose = () => {
    closedByServer = true;
    settle();
  };
  const socket = await Bun.connect({
    hostname,
    port: Number(port),
    socket: { data: (_s, d) => void chunks.push(Buffer.from(d)), close: onClose, end: onClose, error: onClose },
  });
  socket.write(`${head}\r\n\r\n`);
  socket.write(partialBody);
  socket.flush();
  await Promise.race([closed, Bun.sleep(waitMs)]);
  const byServer = closedByServer;
  socket.end();
  return { response: parse(Buffer.concat(chunks)), closedByServer: byServer };
}
