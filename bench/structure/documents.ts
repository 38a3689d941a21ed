/**
 * The structure benchmark's documents: the shared corpus (books/, pdf/, docx/, html/) and Debian
 * documentation PDFs brought by fetch-debian.sh. Each has its source, kind, page count (pdfinfo;
 * DOCX and HTML have none) and half. The half is fixed for every helper: DEV when
 * parseInt(sha1(name).slice(0, 8), 16) is even, else TEST, where the name is the file's base name
 * (for the corpus web pages, saved as `html/<name>/source.html`, the folder's name: every one of
 * them is called source.html).
 */
import { createHash } from "node:crypto";
import { basename, dirname, resolve } from "node:path";

export const CORPUS = resolve(import.meta.dir, "../../../shared/corpus");
export const DEBIAN_CACHE = resolve(import.meta.dir, "../.cache/structure/pdf");
export const DERIVED_DIR = resolve(import.meta.dir, "../.cache/structure/no-outline");

export type Half = "dev" | "test";
export type Kind = "pdf" | "docx" | "html";

export interface BenchDocument {
  /** The name the half is drawn from, and what `--only` matches. */
  name: string;
  path: string;
  /** "corpus" or the Debian package the file comes from. */
  source: string;
  kind: Kind;
  /** PDF pages; null for DOCX and HTML. */
  pages: number | null;
  half: Half;
  /** For a copy made from another document (strip-outline.ts): the document whose truth holds. */
  truthOf?: BenchDocument;
}

/** A PDF of 100 pages or more: the books the course section builds and front matter is expected in. */
export const BOOK_PAGES = 100;

const CORPUS_FILES: [path: string, pages: number | null][] = [
  ["books/aaron-swartz-tribute-ebook-it.pdf", 92],
  ["books/category-theory-for-programmers-draft-2017.pdf", 174],
  ["books/cphb-competitive-programmers-handbook.pdf", 300],
  ["books/fedramp-oscal-content-guide-rev4-no-outline.pdf", 59],
  ["books/fsfs-free-software-free-society-1st-ed-2002.pdf", 230],
  ["books/fsfs-free-software-free-society-3rd-ed-no-outline.pdf", 305],
  ["books/nist-fips201-2.pdf", 88],
  ["books/nist-sp800-171r2.pdf", 113],
  ["books/nist-sp800-37r2.pdf", 183],
  ["books/owasp-asvs-3.0.1-no-outline.pdf", 70],
  ["books/thesis-template-kks32-cambridge.pdf", 41],
  ["books/think-python-2e.pdf", 288],
  ["books/think-stats-2e-no-outline.pdf", 242],
  ["books/docx4j-getting-started.docx", null],
  ["books/owasp-asvs-2.0.docx", null],
  ["books/owasp-asvs-4.0.3.docx", null],
  ["books/owasp-asvs-5.0.0.docx", null],
  ["books/gnu-bash-reference-manual.html", null],
  ["books/rfc6787-mrcpv2-xml2rfc.html", null],
  ["books/xml2rfc-docfile-manual.html", null],
  ["pdf/R-intro.pdf", 113],
  ["pdf/tracemonkey.pdf", 14],
  ["pdf/dpr-paper-multi-column.pdf", 13],
  ["pdf/redp5110_sampled.pdf", 18],
  ["pdf/REPAIR-2022-INV-001_multipage-tables.pdf", 3],
  ["pdf/MEDRPT-2024-PAT-3847_medical_report_scan.pdf", 3],
  ["docx/calibre-docx-demo.docx", null],
  ["docx/docling-word_sample.docx", null],
  ["docx/markitdown-autogen-paper.docx", null],
  ["html/readability-ietf-1/source.html", null],
  ["html/readability-v8-blog/source.html", null],
  ["html/readability-wikipedia/source.html", null],
];

/** Keep in step with the DOCUMENTS list of fetch-debian.sh. */
const DEBIAN_FILES: [pkg: string, file: string, pages: number][] = [
  ["r-doc-pdf", "R-exts.pdf", 236],
  ["r-doc-pdf", "R-admin.pdf", 85],
  ["r-doc-pdf", "R-lang.pdf", 69],
  ["r-doc-pdf", "R-FAQ.pdf", 52],
  ["r-doc-pdf", "R-data.pdf", 41],
  ["gnuplot-doc", "gnuplot.pdf", 311],
  ["maxima-doc", "maximabook-19-Sept-2004.pdf", 155],
  ["asymptote-doc", "asymptote.pdf", 196],
  ["lilypond-doc-pdf", "learning.pdf", 221],
  ["lilypond-doc-pdf", "extending.pdf", 53],
  ["texlive-latex-recommended-doc", "beameruserguide.pdf", 234],
  ["texlive-latex-recommended-doc", "microtype.pdf", 37],
  ["texlive-latex-recommended-doc", "caption.pdf", 64],
  ["texlive-latex-recommended-doc", "mathtools.pdf", 38],
  ["texlive-metapost-doc", "mpman.pdf", 114],
  ["texlive-metapost-doc", "momanual.pdf", 136],
  // Books with a book's front and back matter (title and copyright pages, dedication, preface,
  // contents, bibliography, index, an appended licence), so that DEV holds more than a few of them.
  ["texlive-lang-english", "book.pdf", 393],
  ["texlive-lang-english", "lshort.pdf", 153],
  ["texlive-lang-english", "AroundTheBend.pdf", 106],
  ["texlive-lang-english", "TeXbyTopic.pdf", 317],
  ["texlive-lang-english", "memdesign.pdf", 139],
  ["texlive-lang-english", "latex2e.pdf", 293],
  ["texlive-lang-english", "simplified-intro.pdf", 147],
  ["texlive-lang-english", "fontinstallationguide.pdf", 109],
  ["debian-reference-en", "debian-reference.en.pdf", 261],
  ["gcl-doc", "gcl-si.pdf", 137],
  // Manuals with title and copyright pages, long contents, acknowledgements, indexes, colophons and
  // appended licences (GPL, GFDL), so that DEV holds the kinds of matter TEST books have.
  ["gprolog-doc", "gprolog.pdf", 238],
  ["sbcl-doc", "sbcl.pdf", 167],
  ["dblatex-doc", "manual.pdf", 143],
  ["developers-reference", "developers-reference.pdf", 114],
  ["gmsh-doc", "gmsh.pdf", 390],
  ["pari-doc", "libpari.pdf", 427],
  ["lilypond-doc-pdf", "web.pdf", 158],
  ["lilypond-doc-pdf", "contributor.pdf", 134],
  ["glpk-doc", "glpk.pdf", 177],
  ["debmake-doc", "debmake-doc.en.pdf", 143],
];

export function halfOf(name: string): Half {
  const sha = createHash("sha1").update(name, "utf8").digest("hex");
  return Number.parseInt(sha.slice(0, 8), 16) % 2 === 0 ? "dev" : "test";
}

const kindOf = (path: string) => path.split(".").pop() as Kind;

function corpusDocument([rel, pages]: [string, number | null]): BenchDocument {
  const name = basename(rel) === "source.html" ? basename(dirname(rel)) : basename(rel);
  return { name, path: resolve(CORPUS, rel), source: "corpus", kind: kindOf(rel), pages, half: halfOf(name) };
}

const debianDocument = ([source, file, pages]: [string, string, number]): BenchDocument => ({
  name: file,
  path: resolve(DEBIAN_CACHE, file),
  source,
  kind: "pdf",
  pages,
  half: halfOf(file),
});

const SOURCES: BenchDocument[] = [...CORPUS_FILES.map(corpusDocument), ...DEBIAN_FILES.map(debianDocument)];

/**
 * DEV books copied without their outline (strip-outline.ts), so that DEV holds outline-less books as
 * TEST does: a report, a LaTeX book with a title page and contents, and a manual with an appended
 * licence; and books whose front and back matter must then be known by their pages alone: an
 * acknowledgements page, lists of figures, an index and 23 pages of bibliography (maximabook), a
 * copyright page and closing acknowledgements (asymptote), a cover, a licence inside the book
 * (beameruserguide), boilerplate and a revision history (dblatex's manual), a copyright page after
 * the contents (developers-reference). Each copy's name (NAME-no-outline.pdf) falls in DEV by the
 * same sha1 rule.
 */
const OUTLINE_STRIPPED = [
  "nist-sp800-37r2.pdf",
  "lshort.pdf",
  "debian-reference.en.pdf",
  "sbcl.pdf",
  "maximabook-19-Sept-2004.pdf",
  "asymptote.pdf",
  "beameruserguide.pdf",
  "manual.pdf",
  "developers-reference.pdf",
];

export function derivedDocuments(): { doc: BenchDocument; original: BenchDocument }[] {
  return OUTLINE_STRIPPED.map((name) => {
    const original = SOURCES.find((d) => d.name === name)!;
    const copy = `${basename(name, ".pdf")}-no-outline.pdf`;
    const doc = { ...original, name: copy, path: resolve(DERIVED_DIR, copy), half: halfOf(copy), truthOf: original };
    return { doc, original };
  });
}

export const ALL_DOCUMENTS: BenchDocument[] = [...SOURCES, ...derivedDocuments().map((d) => d.doc)];

export const isBook = (d: BenchDocument) => (d.pages ?? 0) >= BOOK_PAGES;

/**
 * The documents of a half ("all" for both) named by one of `only`'s comma-separated names: the
 * document of that exact name, else those whose name contains it ("manual.pdf" is not momanual.pdf).
 */
export function selectDocuments(half: Half | "all", only?: string): BenchDocument[] {
  const names = only?.split(",").filter(Boolean) ?? [];
  const exact = new Set(ALL_DOCUMENTS.map((d) => d.name));
  const named = (d: BenchDocument) => names.some((n) => (exact.has(n) ? d.name === n : d.name.includes(n)));
  return ALL_DOCUMENTS.filter((d) => (half === "all" || d.half === half) && (names.length === 0 || named(d)));
}
