/**
 * A PDF's pages as pdftotext reads them, kept for the last book: a course's scoring reads them for
 * its front/back units, its body units and its appendix pages (seconds of CPU on a 400-page book).
 */
let last: { path: string; pages: string[] } | null = null;

export function pdfPages(path: string): string[] {
  if (last?.path !== path) {
    const run = Bun.spawnSync(["pdftotext", "-q", "-enc", "UTF-8", path, "-"]);
    last = { path, pages: run.stdout.toString().split("\f") };
  }
  return last.pages;
}
