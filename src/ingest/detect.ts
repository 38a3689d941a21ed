/**
 * What a file really is, by its bytes. Binary formats are recognised by their signature
 * (file-type) whatever the name says, so a PPTX saved as `.ppt` is read as the PPTX it is. Text
 * formats have no signature, so for them the extension decides, after checking the bytes are
 * text. A binary extension on text content (a `.pdf` that is plain text) is a 415 naming the file.
 *
 * A file named as text whose bytes are clean text is text before any signature is asked: some of
 * file-type's signatures are a few letters ("BM" for BMP, "wide" at byte 4 for QuickTime, "ID3"),
 * which an abstract beginning "BMAL1…" or "The widespread…" matches by chance. Real binary files
 * are never clean UTF-8, so a DOCX or PDF renamed `.txt` is still found by its signature.
 */
import { stat } from "node:fs/promises";
import { extname } from "node:path";
import { AppError } from "../errors.ts";
import type { DetectedKind, FileKind } from "./types.ts";

export const MIME_TYPES: Record<FileKind, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  ppt: "application/vnd.ms-powerpoint",
  odt: "application/vnd.oasis.opendocument.text",
  odp: "application/vnd.oasis.opendocument.presentation",
  txt: "text/plain",
  md: "text/markdown",
  html: "text/html",
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
};

const BY_SIGNATURE: Record<string, FileKind> = {
  pdf: "pdf",
  docx: "docx",
  pptx: "pptx",
  odt: "odt",
  odp: "odp",
  png: "png",
  jpg: "jpg",
  webp: "webp",
};

const TEXT_EXTENSIONS: Record<string, FileKind> = {
  txt: "txt",
  text: "txt",
  md: "md",
  markdown: "md",
  html: "html",
  htm: "html",
  xhtml: "html",
};

/** Extensions of zip-based formats, for archives whose signature file-type could not narrow. */
const ZIP_EXTENSIONS: Record<string, FileKind> = { docx: "docx", pptx: "pptx", odt: "odt", odp: "odp" };

const BINARY_NAMES: Record<string, string> = {
  pdf: "a PDF",
  docx: "a DOCX document",
  pptx: "a PPTX presentation",
  odt: "an ODT document",
  odp: "an ODP presentation",
  png: "a PNG image",
  jpg: "a JPEG image",
  jpeg: "a JPEG image",
  webp: "a WEBP image",
  ppt: "a PowerPoint file",
  doc: "a Word file",
};

const SUPPORTED = "PDF, DOCX, PPTX, ODT, ODP, TXT, MD, HTML, PNG, JPG or WEBP";

const extensionOf = (filename: string): string => extname(filename).slice(1).toLowerCase();

export const emptyFile = (filename: string) => new AppError("EMPTY_FILE", `"${filename}" is empty (0 bytes)`);

/** A source that was read but holds no text: reported as its failure (and not billed) rather than stored empty. */
export const noTextFound = (name: string) => new AppError("NO_TEXT_FOUND", `No text could be extracted from "${name}"`);

/** Legacy PowerPoint is recognised, so the caller gets the "convert to PPTX" advice, but not read. */
export const legacyPowerPoint = (filename: string) =>
  new AppError(
    "UNSUPPORTED_MEDIA_TYPE",
    `"${filename}" is a legacy PowerPoint 97-2003 (.ppt) file, which cannot be read; save it as PPTX and upload that`,
    {
      filename,
    },
  );

/** Throws the 415 for kinds that are recognised but cannot be extracted (legacy PPT). */
export function assertExtractable(kind: FileKind, filename: string): void {
  if (kind === "ppt") throw legacyPowerPoint(filename);
}

// Bun's own read: node's open, read and close took 2-4 times its CPU for a small file's head.
const readHead = (path: string, bytes: number): Promise<Uint8Array> => Bun.file(path).slice(0, bytes).bytes();

const hasUtf16Bom = (head: Uint8Array) =>
  (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);

/** Text has no NUL bytes, except UTF-16, which announces itself with a byte-order mark. */
function looksLikeText(head: Uint8Array): boolean {
  return hasUtf16Bom(head) || !head.includes(0);
}

/** Control characters no text file holds (tab, line breaks and form feed are text). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is looked for
const BINARY_CONTROLS = /[\u0000-\u0008\u000e-\u001a\u001c-\u001f\u007f]/;

/**
 * Valid UTF-8 (a character cut at the end of the sample is fine) without binary control
 * characters, or UTF-16 with its byte-order mark: text, whatever letters it happens to start with.
 */
function isCleanText(head: Uint8Array): boolean {
  if (hasUtf16Bom(head)) return true;
  try {
    return !BINARY_CONTROLS.test(new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true }));
  } catch {
    return false;
  }
}

function looksLikeHtml(head: Uint8Array): boolean {
  const start = new TextDecoder().decode(head.subarray(0, 1024)).trimStart().toLowerCase();
  return start.startsWith("<!doctype html") || start.startsWith("<html");
}

export async function detectFileKind(path: string, filename: string): Promise<DetectedKind> {
  const size = (await stat(path)).size;
  if (size === 0) throw emptyFile(filename);
  const ext = extensionOf(filename);
  const found = (kind: FileKind): DetectedKind => ({ kind, mimeType: MIME_TYPES[kind] });
  const head = await readHead(path, 64 * 1024);
  const textKind = TEXT_EXTENSIONS[ext];
  if (textKind && isCleanText(head)) return found(textKind);
  // Imported here, not at start: file-type and its zip reader cost a server start a third of a second.
  const { fileTypeFromBlob } = await import("file-type");
  const signature = await fileTypeFromBlob(Bun.file(path));

  if (signature) {
    const kind = BY_SIGNATURE[signature.ext];
    if (kind) return found(kind);
    if (signature.ext === "zip" && ZIP_EXTENSIONS[ext]) return found(ZIP_EXTENSIONS[ext]);
    if (signature.ext === "cfb" && ext === "ppt") return found("ppt");
    if (signature.ext === "cfb" && ext === "doc") {
      throw new AppError(
        "UNSUPPORTED_MEDIA_TYPE",
        `"${filename}" is a legacy Word 97-2003 (.doc) file, which cannot be read; save it as DOCX and upload that`,
        { filename },
      );
    }
    // file-type also recognises some text formats (XML, SVG); named as a text type, they are text.
    if (!(textKind && (signature.mime.startsWith("text/") || signature.mime.endsWith("xml")))) {
      throw new AppError(
        "UNSUPPORTED_MEDIA_TYPE",
        `"${filename}" is ${signature.mime}, which is not supported; send ${SUPPORTED}`,
        {
          filename,
          detected: signature.mime,
        },
      );
    }
  }

  if (textKind) {
    if (!looksLikeText(head)) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", `"${filename}" is named .${ext} but its content is not text`, {
        filename,
      });
    }
    return found(textKind);
  }
  const claimed = BINARY_NAMES[ext];
  if (claimed) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", `"${filename}" is named .${ext} but its content is not ${claimed}`, {
      filename,
    });
  }
  if (looksLikeText(head) && looksLikeHtml(head)) return found("html");
  throw new AppError("UNSUPPORTED_MEDIA_TYPE", `"${filename}" is not a supported format; send ${SUPPORTED}`, {
    filename,
  });
}
