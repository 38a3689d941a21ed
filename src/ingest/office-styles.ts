/**
 * What a DOCX paragraph is, read from its style and its own properties: officeparser takes only
 * style ids starting "Heading" for headings, which misses localized ids (a Chinese Word's "1" for
 * "heading 1"), custom styles and outline levels. Word stores built-in style names in English
 * whatever the UI language, so the names in word/styles.xml are reliable; an outline level
 * (`w:outlineLvl`, 0-8, in the paragraph or anywhere up its style's `basedOn` chain) makes a
 * heading of any style.
 */
import { DOMParser } from "linkedom";
import { getOrCreate } from "../util.ts";

export type ParagraphKind =
  | { kind: "title" }
  | { kind: "subtitle" }
  /** An entry of a Word table of contents ("toc 1"…, the field's cached text) or its "TOC Heading". */
  | { kind: "contents"; heading: boolean }
  | { kind: "heading"; level: number }
  | { kind: "caption" }
  | { kind: "body" };

interface StyleDef {
  name: string;
  basedOn: string | null;
  outlineLevel: number | null;
}

const BODY: ParagraphKind = { kind: "body" };
/** `w:outlineLvl` 9 is "body text"; 0-8 are heading levels 1-9. */
const BODY_TEXT_LEVEL = 9;

type XmlElement = ReturnType<DOMParser["parseFromString"]>["documentElement"];

const child = (el: XmlElement | null | undefined, tag: string): XmlElement | null =>
  (el ? ([...el.children].find((c) => c.tagName === tag) as XmlElement | undefined) : undefined) ?? null;

function outlineLevelOf(pPr: XmlElement | null): number | null {
  const value = child(pPr, "w:outlineLvl")?.getAttribute("w:val");
  return value != null && /^\d$/.test(value) ? Number(value) : null;
}

function readStyles(xml: string): Map<string, StyleDef> {
  const styles = new Map<string, StyleDef>();
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  for (const style of doc.getElementsByTagName("w:style")) {
    const id = style.getAttribute("w:styleId");
    if (!id || style.getAttribute("w:type") !== "paragraph") continue;
    styles.set(id, {
      name: (child(style, "w:name")?.getAttribute("w:val") ?? id).toLowerCase(),
      basedOn: child(style, "w:basedOn")?.getAttribute("w:val") ?? null,
      outlineLevel: outlineLevelOf(child(style, "w:pPr")),
    });
  }
  return styles;
}

/** The kind a paragraph style gives, from its name or outline level, inherited along `basedOn`. */
function styleKind(styles: Map<string, StyleDef>, id: string): ParagraphKind {
  const seen = new Set<string>();
  for (let at: string | null = id; at && !seen.has(at); at = styles.get(at)?.basedOn ?? null) {
    seen.add(at);
    const style = styles.get(at);
    if (!style) break;
    if (style.name === "title") return { kind: "title" };
    if (style.name === "subtitle") return { kind: "subtitle" };
    // Checked before `basedOn`: Word's "TOC Heading" is based on "heading 1".
    if (style.name === "toc heading") return { kind: "contents", heading: true };
    if (/^toc [1-9]$/.test(style.name)) return { kind: "contents", heading: false };
    if (style.name === "caption") return { kind: "caption" };
    const named = /^heading ([1-9])$/.exec(style.name);
    if (named) return { kind: "heading", level: Number(named[1]) };
    if (style.outlineLevel != null)
      return style.outlineLevel < BODY_TEXT_LEVEL ? { kind: "heading", level: style.outlineLevel + 1 } : BODY;
  }
  return BODY;
}

export interface DocxStyles {
  /** The kind of a paragraph with this style id and this raw `<w:p>` XML. */
  paragraphKind(styleId: string | undefined, rawXml: string | undefined): ParagraphKind;
}

/** The styles of a DOCX archive (already checked by the zip guard). */
export function docxStyles(data: Uint8Array): DocxStyles {
  // Required on first use, not at server start; a literal name keeps it in the compiled executable.
  const { unzipSync } = require("fflate") as typeof import("fflate");
  const part = unzipSync(data, { filter: (f) => f.name === "word/styles.xml" })["word/styles.xml"];
  const styles = part ? readStyles(new TextDecoder().decode(part)) : new Map<string, StyleDef>();
  const cache = new Map<string, ParagraphKind>();
  return {
    paragraphKind(styleId, rawXml) {
      const kind = styleId ? getOrCreate(cache, styleId, () => styleKind(styles, styleId)) : BODY;
      // A title or a contents entry stays one whatever its outline level; otherwise the paragraph's
      // own outline level overrides its style's (parsing only the few paragraphs that have one).
      if (
        (kind.kind === "heading" || kind.kind === "body" || kind.kind === "caption") &&
        rawXml?.includes("w:outlineLvl")
      ) {
        const p = new DOMParser().parseFromString(rawXml, "text/xml").documentElement;
        const own = outlineLevelOf(child(p, "w:pPr"));
        if (own != null) return own < BODY_TEXT_LEVEL ? { kind: "heading", level: own + 1 } : BODY;
      }
      return kind;
    },
  };
}
