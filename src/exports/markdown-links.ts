/**
 * Links in exported markdown: a chapter or study guide written by a model, or quoted from a web
 * page, may hold `[x](javascript:alert(1))`, which a reader's markdown viewer would make live.
 * Only http(s), mailto and targets inside the package (no scheme) stay links; any other link keeps
 * its words and loses its target (an autolink, whose words are its target, becomes code), and an
 * image with such a source keeps its alt text. marked's
 * lexer finds the links (inline, reference, autolinks, in lists and tables) so no pattern of ours
 * has to.
 */
import { Lexer, type Token } from "marked";

const ALLOWED_SCHEMES = new Set(["http", "https", "mailto"]);

/** Entities and the whitespace browsers ignore are undone first: `JaVaScRiPt&#58;` is still javascript. */
function schemeOf(href: string): string | null {
  const decoded = href
    .replace(/&#(x[0-9a-f]+|\d+);?/gi, (_m, n: string) =>
      String.fromCodePoint(n[0] === "x" || n[0] === "X" ? Number.parseInt(n.slice(1), 16) : Number(n)),
    )
    .replace(/&colon;/gi, ":")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers drop control characters and spaces inside a scheme
    .replace(/[\u0000-\u0020]/g, "");
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(decoded);
  return m ? m[1]!.toLowerCase() : null;
}

const isSafe = (href: string) => {
  const scheme = schemeOf(href);
  return scheme === null || ALLOWED_SCHEMES.has(scheme);
};

/** The raw markdown of every unsafe link, image or reference definition, with what replaces it. */
function unsafeRaws(tokens: Token[], out: [raw: string, replacement: string][]): void {
  for (const t of tokens) {
    if ((t.type === "link" || t.type === "image" || t.type === "def") && !isSafe((t as { href: string }).href)) {
      const words = (t as { text?: string }).text ?? "";
      // An autolink's words are its target: shown as code, inert in every viewer.
      out.push([t.raw, t.type === "def" ? "" : t.raw.startsWith("<") ? `\`${words}\`` : words]);
      continue;
    }
    if ("tokens" in t && t.tokens) unsafeRaws(t.tokens, out);
    if (t.type === "list") for (const item of t.items) unsafeRaws(item.tokens, out);
    if (t.type === "table") {
      for (const cell of t.header) unsafeRaws(cell.tokens, out);
      for (const row of t.rows) for (const cell of row) unsafeRaws(cell.tokens, out);
    }
  }
}

/** The markdown with every link target outside http(s), mailto and the package removed. */
export function safeMarkdownLinks(markdown: string): string {
  const unsafe: [string, string][] = [];
  unsafeRaws(new Lexer().lex(markdown), unsafe);
  let out = "";
  let from = 0;
  // Tokens come in document order, so each raw is found after the previous one.
  for (const [raw, replacement] of unsafe) {
    const at = markdown.indexOf(raw, from);
    if (at === -1) continue;
    out += markdown.slice(from, at) + replacement;
    from = at + raw.length;
  }
  return out + markdown.slice(from);
}
