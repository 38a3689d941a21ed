/**
 * One file to markdown, by its detected kind. This runs inside an extraction worker thread
 * (extract-worker.ts); callers use `extractFile` from index.ts, which sends the job there.
 */
import { legacyPowerPoint, noTextFound } from "./detect.ts";
import type { ExtractResult, FileJob } from "./types.ts";

// Each parser loads on its first file of its kind: officeparser alone takes ~300 ms to load, and a
// worker thread recycled after a large job should not pay that before a text file.
async function extractByKind(job: FileJob): Promise<ExtractResult> {
  const { path, filename, kind } = job;
  switch (kind) {
    case "pdf":
      return (await import("./pdf.ts")).extractPdf(path, filename, job.limits);
    case "docx":
    case "pptx":
    case "odt":
    case "odp":
      return (await import("./office.ts")).extractOffice(path, filename, kind, job.limits);
    case "txt":
    case "md":
      return (await import("./text.ts")).extractTextFile(path, kind);
    case "html":
      return (await import("./html.ts")).extractHtmlFile(path, { baseUrl: job.baseUrl, charset: job.charset });
    case "png":
    case "jpg":
    case "webp":
      return (await import("./image.ts")).extractImage(path, filename, kind, job.limits);
    case "ppt":
      throw legacyPowerPoint(filename);
  }
}

export async function runFileJob(job: FileJob): Promise<ExtractResult> {
  const result = await extractByKind(job);
  // A source that yields no text at all is reported (and not billed) rather than stored empty.
  if (!result.markdown.trim()) {
    throw noTextFound(job.filename);
  }
  if (!job.index) return job.markdownOnly ? { ...result, blocks: [], segments: [] } : result;
  const chunks = await (await import("../retrieval/worker-index.ts")).indexInWorker(job.index, result);
  // A short document's repeats are found here, from the chunks in hand, rather than read back by the server.
  const { REPEATS_NEARBY_CHUNKS, repeatsOfChunks } = await import("../documents/repeated-sections.ts");
  const repeats =
    chunks.length <= REPEATS_NEARBY_CHUNKS
      ? repeatsOfChunks(
          chunks.map((c) => ({
            id: c.id,
            text: c.text,
            heading_path: JSON.stringify(c.headingPath),
            page: c.page ?? null,
            slide: c.slide ?? null,
            role: c.role,
          })),
        )
      : undefined;
  // The server stores the markdown; the blocks and segments served only the chunks.
  return { ...result, blocks: [], segments: [], chunkCount: chunks.length, ...(repeats ? { repeats } : {}) };
}
