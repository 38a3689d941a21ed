/**
 * Blocks straight from an HTML DOM (the article Readability kept): headings with their levels,
 * paragraphs with their links as inline markdown, nested lists, definition lists as "term —
 * definition" paragraphs, tables cell by cell (spanned cells left empty, never shifted), code with
 * its language, figure and table captions.
 *
 * Footnote markers (a `<sup>` holding one in-page link such as Wikipedia's `[3]` or pandoc's `1`)
 * leave the prose but stay linked: the block's `cites` holds the label, and the list entry the
 * marker points to becomes a `reference` block with that label.
 */
import type { parseHTML } from "linkedom";
import { type Block, block, escapeInline } from "./document.ts";

type HtmlDocument = ReturnType<typeof parseHTML>["document"];
type El = Element;
type DomNode = Node;

const ELEMENT = 1;
const TEXT = 3;

const SKIP = new Set([
  "SCRIPT",
  "STYLE",
  "NOSCRIPT",
  "IFRAME",
  "FORM",
  "BUTTON",
  "TEMPLATE",
  "SVG",
  "HR",
  "INPUT",
  "SELECT",
  "TEXTAREA",
]);
const BLOCK = new Set([
  "P",
  "DIV",
  "SECTION",
  "ARTICLE",
  "MAIN",
  "HEADER",
  "FOOTER",
  "ASIDE",
  "NAV",
  "BLOCKQUOTE",
  "FIGURE",
  "FIGCAPTION",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "UL",
  "OL",
  "LI",
  "DL",
  "DT",
  "DD",
  "TABLE",
  "PRE",
  "CENTER",
  "DETAILS",
  "SUMMARY",
  "ADDRESS",
]);
/** Heading permalinks ("#", "¶") repeat the heading as noise. */
const PERMALINK_TEXT_RE = /^[#¶§🔗]?$/u;
/** A footnote marker's text: "[3]", "3", "[a]", "[note 1]". */
const MARKER_RE = /^\[?\s*([\w.-]+(?: [\w.-]+)?)\s*\]?$/u;
const LANG_RE = /(?:^|\s)(?:lang(?:uage)?|highlight-source|brush)[-:]\s*([\w+#-]+)/i;

const isElement = (n: DomNode): n is El => n.nodeType === ELEMENT;

/** Footnote markers of a document: the marker element, its label, and the id it points to. */
interface Citations {
  /** Marker `<sup>` elements → their label. */
  markers: Map<El, string>;
  /** Ids of the entries markers point to → their label. */
  targets: Map<string, string>;
}

function findCitations(root: El): Citations {
  const markers = new Map<El, string>();
  const targets = new Map<string, string>();
  for (const sup of root.querySelectorAll("sup")) {
    const links = sup.querySelectorAll("a[href^='#']");
    if (links.length !== 1) continue;
    const text = (sup.textContent ?? "").trim();
    const label = MARKER_RE.exec(text)?.[1];
    const id = decodeURIComponent(links[0]!.getAttribute("href")!.slice(1));
    if (!label || !id || text !== (links[0]!.textContent ?? "").trim()) continue;
    markers.set(sup, label);
    if (!targets.has(id)) targets.set(id, label);
  }
  // Only markers whose entry is on the page are taken out of the text.
  const ids = new Set([...root.querySelectorAll("[id]")].map((el) => el.id));
  const present = new Set([...targets.keys()].filter((id) => ids.has(id)));
  for (const [sup, label] of markers) {
    const id = decodeURIComponent(sup.querySelector("a")!.getAttribute("href")!.slice(1));
    if (!present.has(id)) markers.delete(sup);
    else targets.set(id, targets.get(id) ?? label);
  }
  for (const id of targets.keys()) if (!present.has(id)) targets.delete(id);
  return { markers, targets };
}

interface Inline {
  text: string;
  markdown: string;
  /** Whether the markdown says more than the escaped text (links, code spans). */
  rich: boolean;
  cites: string[];
}

const newInline = (): Inline => ({ text: "", markdown: "", rich: false, cites: [] });

const markdownLink = (text: string, url: string) =>
  `[${text}](${/[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url})`;

class Walker {
  readonly blocks: Block[] = [];

  constructor(private readonly cites: Citations) {}

  // ---- inline content ----

  private inline(nodes: Iterable<DomNode>, into: Inline = newInline()): Inline {
    for (const n of nodes) {
      if (n.nodeType === TEXT) {
        const text = (n.textContent ?? "").replace(/\s+/g, " ");
        into.text += text;
        into.markdown += escapeInline(text);
        continue;
      }
      if (!isElement(n) || SKIP.has(n.tagName)) continue;
      const label = this.cites.markers.get(n);
      if (label) {
        into.cites.push(label);
        continue;
      }
      switch (n.tagName) {
        case "BR":
          into.text += "\n";
          into.markdown += "\n";
          break;
        case "IMG": {
          // Images carry no text; their alt text stands in for them.
          const alt = (n.getAttribute("alt") ?? "").replace(/\s+/g, " ");
          into.text += alt;
          into.markdown += escapeInline(alt);
          break;
        }
        case "A": {
          const href = n.getAttribute("href") ?? "";
          const inner = this.inline(n.childNodes);
          into.cites.push(...inner.cites);
          if (href.startsWith("#") && PERMALINK_TEXT_RE.test(inner.text.trim())) break;
          into.text += inner.text;
          if (/^(https?:|mailto:)/i.test(href) && inner.text.trim()) {
            const [, lead, body, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner.markdown)!;
            into.markdown += `${lead}${markdownLink(body!, href)}${trail}`;
            into.rich = true;
          } else {
            into.markdown += inner.markdown;
            into.rich ||= inner.rich;
          }
          break;
        }
        case "CODE": {
          const text = (n.textContent ?? "").replace(/\s+/g, " ");
          into.text += text;
          if (text.trim() && !text.includes("`")) {
            into.markdown += `\`${text}\``;
            into.rich = true;
          } else into.markdown += escapeInline(text);
          break;
        }
        case "STRONG":
        case "B":
        case "EM":
        case "I": {
          const inner = this.inline(n.childNodes);
          const mark = n.tagName === "STRONG" || n.tagName === "B" ? "**" : "_";
          const [, lead, body, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner.markdown)!;
          into.text += inner.text;
          into.cites.push(...inner.cites);
          into.markdown += body ? `${lead}${mark}${body}${mark}${trail}` : inner.markdown;
          into.rich ||= inner.rich || !!body;
          break;
        }
        default:
          this.inline(n.childNodes, into);
      }
    }
    return into;
  }

  private push(kind: Block["kind"], inline: Inline, extra: Partial<Block> = {}): void {
    const tidy = (s: string) =>
      s
        .split("\n")
        .map((l) => l.replace(/ +/g, " ").trim())
        .filter(Boolean)
        .join(kind === "heading" || kind === "list_item" ? " " : "\n");
    const text = tidy(inline.text);
    if (!text) return;
    this.blocks.push(
      block(
        kind,
        text,
        {},
        {
          ...extra,
          ...(inline.rich ? { markdown: tidy(inline.markdown) } : {}),
          ...(inline.cites.length ? { cites: [...new Set(inline.cites)] } : {}),
        },
      ),
    );
  }

  // ---- block content ----

  /** Children of a container: block elements become blocks, runs of inline content paragraphs. */
  walk(parent: El, inlineKind: Block["kind"] = "paragraph"): void {
    this.walkNodes(parent.childNodes, inlineKind);
  }

  private walkNodes(nodes: Iterable<DomNode>, inlineKind: Block["kind"] = "paragraph"): void {
    let run: DomNode[] = [];
    const flush = () => {
      if (run.length) this.push(inlineKind, this.inline(run));
      run = [];
    };
    for (const n of nodes) {
      if (isElement(n) && BLOCK.has(n.tagName)) {
        flush();
        this.element(n);
      } else run.push(n);
    }
    flush();
  }

  private element(el: El): void {
    const tag = el.tagName;
    if (/^H[1-6]$/.test(tag)) {
      this.push("heading", this.inline(el.childNodes), { level: Number(tag[1]) });
      return;
    }
    switch (tag) {
      case "UL":
      case "OL":
        this.list(el, 0);
        break;
      case "DL":
        this.definitions(el);
        break;
      case "TABLE":
        this.table(el);
        break;
      case "PRE":
        this.code(el);
        break;
      case "FIGCAPTION":
        this.walk(el, "caption");
        break;
      default:
        this.walk(el);
    }
  }

  private list(list: El, depth: number): void {
    const ordered = list.tagName === "OL";
    for (const li of list.children) {
      if (li.tagName !== "LI") continue;
      const label = li.id ? this.cites.targets.get(li.id) : undefined;
      if (label) {
        this.reference(li, label);
        continue;
      }
      const own = [...li.childNodes].filter((c) => !(isElement(c) && (c.tagName === "UL" || c.tagName === "OL")));
      // Paragraphs inside an item are its text; other blocks (tables, code) follow it.
      const inlineParts = own.filter(
        (c) => !isElement(c) || !BLOCK.has(c.tagName) || c.tagName === "P" || c.tagName === "DIV",
      );
      this.push("list_item", this.inline(inlineParts), { level: depth, ordered });
      for (const c of own)
        if (isElement(c) && BLOCK.has(c.tagName) && c.tagName !== "P" && c.tagName !== "DIV") this.element(c);
      for (const c of li.children) if (c.tagName === "UL" || c.tagName === "OL") this.list(c, depth + 1);
    }
  }

  /**
   * A definition list: each definition reads "term — definition", so a definition never stands
   * without the term it defines. Several terms of one definition are joined ("a, b — …"); each of
   * several definitions of one term carries it; blocks inside a definition (code, a nested list)
   * follow its first paragraph.
   */
  private definitions(dl: El): void {
    const items = [...dl.children].flatMap((c) => (c.tagName === "DIV" ? [...c.children] : [c]));
    let terms: Inline[] = [];
    let defined = false;
    const joinTerms = (): Inline => {
      const out = newInline();
      terms.forEach((t, i) => {
        const sep = i > 0 ? ", " : "";
        // "Stream:" as a term reads "Stream — …": the dash already says what the colon did.
        const tidy = (s: string) => s.replace(/\s+/g, " ").trim().replace(/\s*:$/, "");
        out.text += sep + tidy(t.text);
        out.markdown += sep + tidy(t.markdown);
        out.rich ||= t.rich;
        out.cites.push(...t.cites);
      });
      return out;
    };
    const termsAlone = () => {
      if (terms.length > 0 && !defined) this.push("paragraph", joinTerms());
    };
    for (const item of items) {
      if (item.tagName === "DT") {
        if (defined) [terms, defined] = [[], false];
        terms.push(this.inline(item.childNodes));
        continue;
      }
      if (item.tagName !== "DD") {
        this.element(item);
        continue;
      }
      const own = [...item.childNodes];
      // The definition's opening text (its first paragraph) goes with the term; later blocks follow it.
      const firstBlock = own.findIndex(
        (c, i) =>
          isElement(c) &&
          BLOCK.has(c.tagName) &&
          (c.tagName !== "P" || own.slice(0, i).some((o) => (o.textContent ?? "").trim())),
      );
      const body = this.inline(firstBlock < 0 ? own : own.slice(0, firstBlock));
      const term = joinTerms();
      if (term.text && body.text.trim()) {
        const dash = " — ";
        this.push("paragraph", {
          text: `${term.text}${dash}${body.text.trim()}`,
          markdown: `${term.markdown}${dash}${body.markdown.trim()}`,
          rich: term.rich || body.rich,
          cites: [...term.cites, ...body.cites],
        });
      } else this.push("paragraph", term.text ? term : body);
      defined = terms.length > 0;
      if (firstBlock >= 0) this.walkNodes(own.slice(firstBlock));
    }
    termsAlone();
  }

  /** A footnote or reference entry, without its links back to the markers ("^", "↩"). */
  private reference(li: El, label: string): void {
    const entry = li.cloneNode(true) as El;
    for (const a of entry.querySelectorAll("a[href^='#']"))
      if (/^[\^↩↑]?$/u.test((a.textContent ?? "").trim()) || /^[a-z]$/.test((a.textContent ?? "").trim())) a.remove();
    const inline = this.inline(entry.childNodes);
    inline.text = inline.text.replace(/^\s*[\^↑]\s*/u, "");
    inline.markdown = inline.markdown.replace(/^\s*[\^↑]\s*/u, "");
    this.push("reference", inline, { label });
  }

  private table(table: El): void {
    for (const caption of table.querySelectorAll("caption"))
      if (caption.closest("table") === table) this.walk(caption, "caption");
    const rows = [...table.querySelectorAll("tr")].filter((tr) => tr.closest("table") === table);
    const grid: string[][] = [];
    const cites: string[] = [];
    /** Columns still covered by a cell spanning rows from above: column → rows left. */
    const covered = new Map<number, number>();
    for (const tr of rows) {
      const row: string[] = [];
      let col = 0;
      const skipCovered = () => {
        while ((covered.get(col) ?? 0) > 0) row[col++] = "";
      };
      for (const cell of tr.children) {
        if (cell.tagName !== "TD" && cell.tagName !== "TH") continue;
        skipCovered();
        const inline = this.inline(cell.childNodes);
        cites.push(...inline.cites);
        row[col] = inline.text.replace(/\s+/g, " ").trim();
        const colspan = Math.max(1, Math.min(Number(cell.getAttribute("colspan")) || 1, 100));
        const rowspan = Math.max(1, Math.min(Number(cell.getAttribute("rowspan")) || 1, 1000));
        for (let k = 0; k < colspan; k++) {
          if (k > 0) row[col + k] = "";
          if (rowspan > 1) covered.set(col + k, rowspan);
        }
        col += colspan;
      }
      skipCovered();
      for (const [c, left] of covered) covered.set(c, left - 1);
      if (row.some((c) => c)) grid.push(row);
    }
    if (grid.length === 0) return;
    const width = Math.max(...grid.map((r) => r.length));
    const cells = grid.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ""));
    this.blocks.push(
      block(
        "table",
        cells.map((r) => r.join(" | ")).join("\n"),
        {},
        { cells, ...(cites.length ? { cites: [...new Set(cites)] } : {}) },
      ),
    );
  }

  private code(pre: El): void {
    const text = (pre.textContent ?? "").replace(/^\n+|\s+$/g, "");
    if (!text.trim()) return;
    const lang = pre.getAttribute("data-lang") ?? undefined;
    this.blocks.push(block("code", text, {}, lang ? { lang } : {}));
  }
}

/**
 * Records each code block's language as `data-lang` (from `language-x`, `lang-x`,
 * `highlight-source-x` classes on the `<pre>`, its `<code>` or a wrapper), before Readability
 * strips the classes.
 */
export function markCodeLanguages(doc: HtmlDocument): void {
  for (const pre of doc.querySelectorAll("pre")) {
    const owners = [pre, pre.querySelector("code"), pre.parentElement];
    const lang = owners.map((el) => LANG_RE.exec(el?.getAttribute("class") ?? "")?.[1]).find(Boolean);
    if (lang) pre.setAttribute("data-lang", lang.toLowerCase());
  }
}

/** The blocks of an article's DOM. */
export function domBlocks(root: HtmlDocument["body"]): Block[] {
  const walker = new Walker(findCitations(root));
  walker.walk(root);
  return walker.blocks;
}
