/**
 * XML from untrusted text. Every export's XML document starts with XML_DECLARATION, and every text
 * node and attribute value taken from a course goes through xmlText, so an LMS, a podcast app or
 * Anki never meets an ill-formed file whatever a document or a web page held.
 */
import type { XMLBuilder, XMLBuilderCreateOptions } from "xmlbuilder2/lib/interfaces";

const XML_DECLARATION = {
  version: "1.0",
  encoding: "UTF-8",
  invalidCharReplacement: "",
} as XMLBuilderCreateOptions;

/**
 * A new XML document that starts with XML_DECLARATION. xmlbuilder2 is loaded on the first export,
 * not at server start; `require` with a literal name keeps it in the compiled executable.
 */
export const xmlDocument = (): XMLBuilder =>
  (require("xmlbuilder2") as typeof import("xmlbuilder2")).create(XML_DECLARATION);

/**
 * What XML 1.0 does not allow: C0 controls but tab, LF and CR (a PDF's form feeds), U+FFFE and
 * U+FFFF, and lone surrogates (a JSON string may carry one).
 */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 forbids are what is removed
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text as any consumer should read it: without the characters XML forbids. Also for names outside XML (Anki decks). */
export const plainText = (s: string): string => s.replace(NOT_XML, "");

/**
 * A text node or attribute value for xmlbuilder2. It escapes `<` and `>` but keeps `&name;` and
 * `&#N;` as written, so `&#0;` or `&xxe;` in a heading made the manifest unreadable and `&lt;b&gt;`
 * reached the LMS as markup: `&` is escaped here, and xmlbuilder2 keeps the `&amp;` it then sees.
 */
export const xmlText = (s: string): string => plainText(s).replace(/&/g, "&amp;");
