/** A stored file as an HTTP response, honouring a single byte range (players seek). */
import type { BunFile } from "bun";
import parseRange from "range-parser";
import { AppError } from "../errors.ts";

export function fileResponse(request: Request, file: BunFile, headers: Record<string, string>): Response {
  const size = file.size;
  const base = { ...headers, "content-type": headers["content-type"] ?? file.type, "accept-ranges": "bytes" };
  const rangeHeader = request.headers.get("range");
  if (!rangeHeader) return new Response(file, { headers: { ...base, "content-length": String(size) } });
  const ranges = parseRange(size, rangeHeader, { combine: true });
  if (ranges === -1) {
    throw new AppError("RANGE_NOT_SATISFIABLE", "Requested range is outside the file", undefined, {
      "content-range": `bytes */${size}`,
    });
  }
  if (ranges === -2 || ranges.type !== "bytes" || ranges.length !== 1) {
    return new Response(file, { headers: { ...base, "content-length": String(size) } });
  }
  const { start, end } = ranges[0]!;
  return new Response(file.slice(start, end + 1), {
    status: 206,
    headers: { ...base, "content-range": `bytes ${start}-${end}/${size}`, "content-length": String(end - start + 1) },
  });
}
