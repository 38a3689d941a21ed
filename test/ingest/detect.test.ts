import { afterAll, describe, expect, test } from "bun:test";
import { AppError } from "../../src/errors.ts";
import { detectFileKind, extractFile } from "../../src/ingest/index.ts";
import { corpus, FIXTURES, ingestConfig, scratch } from "./support.ts";

const tmp = scratch();
afterAll(() => tmp.remove());

async function rejection(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error("expected a rejection");
}

describe("detectFileKind", () => {
  test.each([
    ["pdf/tracemonkey.pdf", "pdf", "application/pdf"],
    [
      "docx/docling-word_sample.docx",
      "docx",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ],
    [
      "pptx/docling-powerpoint_sample.pptx",
      "pptx",
      "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ],
    ["images/tesseractjs-simple.png", "png", "image/png"],
    ["html/readability-v8-blog/source.html", "html", "text/html"],
  ])("%s is %s by its bytes", async (path, kind, mimeType) => {
    expect(await detectFileKind(corpus(path), path.split("/").pop()!)).toEqual({ kind: kind as never, mimeType });
  });

  test("JPEG and WEBP images are recognised", async () => {
    expect((await detectFileKind(`${FIXTURES}/testocr.jpg`, "scan.jpg")).kind).toBe("jpg");
    expect((await detectFileKind(`${FIXTURES}/testocr.webp`, "scan.webp")).kind).toBe("webp");
  });

  test("a PPTX saved with a .ppt name is read as the PPTX it is", async () => {
    expect((await detectFileKind(corpus("pptx/misnamed-ooxml-eng_spa_mult.ppt"), "eng_spa_mult.ppt")).kind).toBe(
      "pptx",
    );
  });

  test("the content decides over the name: a PDF named .docx is a PDF", async () => {
    expect((await detectFileKind(corpus("pdf/tracemonkey.pdf"), "paper.docx")).kind).toBe("pdf");
  });

  test("a text file named .pdf is 415 naming the file", async () => {
    const path = await tmp.write("notes.pdf", "Just some notes, not a PDF at all.\n");
    const err = await rejection(detectFileKind(path, "notes.pdf"));
    expect(err.status).toBe(415);
    expect(err.message).toContain('"notes.pdf"');
    expect(err.message).toContain("not a PDF");
  });

  test("an unsupported format (TIFF) is 415 naming the file and the detected type", async () => {
    const err = await rejection(detectFileKind(corpus("images/tesseract-phototest.tif"), "phototest.tif"));
    expect(err.status).toBe(415);
    expect(err.message).toContain('"phototest.tif"');
    expect(err.message).toContain("image/tiff");
  });

  test("legacy .doc is 415 with advice to save as DOCX", async () => {
    const err = await rejection(detectFileKind(corpus("docx/legacy-fake.doc"), "fake.doc"));
    expect(err.status).toBe(415);
    expect(err.message).toContain("DOCX");
  });

  test("legacy .ppt is recognised, and extracting it is 415 telling to convert to PPTX", async () => {
    const path = corpus("pptx/legacy-fake-power-point.ppt");
    expect((await detectFileKind(path, "deck.ppt")).kind).toBe("ppt");
    const err = await rejection(extractFile(path, "deck.ppt", ingestConfig(tmp.dir)));
    expect(err.status).toBe(415);
    expect(err.message).toContain("save it as PPTX");
  });

  test("binary content under a text name is 415", async () => {
    const path = await tmp.write("readme.txt", new Uint8Array([0x00, 0x01, 0x02, 0x00, 0xff, 0x10]));
    expect((await rejection(detectFileKind(path, "readme.txt"))).status).toBe(415);
  });

  test.each([
    ["bmi.txt", "BMI-1 Autoantibody as a New Potential Biomarker\n\nBMI-1 is a protein.\n"],
    ["mirna.txt", "The widespread regulation of microRNA biogenesis\n\nMicroRNAs are small RNAs.\n"],
  ])(
    "a text whose first letters read as a signature (%s: a bitmap's, a QuickTime movie's) is text",
    async (name, text) => {
      const path = await tmp.write(name, text);
      expect(await detectFileKind(path, name)).toEqual({ kind: "txt", mimeType: "text/plain" });
    },
  );

  test("UTF-16 text (with its byte-order mark) is text", async () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from("Hello UTF-16", "utf16le"))]);
    const path = await tmp.write("u16.txt", utf16);
    expect((await detectFileKind(path, "u16.txt")).kind).toBe("txt");
  });

  test("HTML without an extension is recognised by its doctype", async () => {
    const path = await tmp.write("page", "<!DOCTYPE html><html><body><p>Hi</p></body></html>");
    expect((await detectFileKind(path, "page")).kind).toBe("html");
  });

  test("a 0-byte file is a clear EMPTY_FILE error, not a 415", async () => {
    const path = await tmp.write("empty.pdf", new Uint8Array());
    const err = await rejection(detectFileKind(path, "empty.pdf"));
    expect(err.code).toBe("EMPTY_FILE");
    expect(err.message).toContain('"empty.pdf" is empty');
  });
});
