/**
 * Words hyphenated across a page or column break: "be-" ends the last paragraph of a column and
 * "tween the two" opens the next body paragraph, after the page's footer, the next page's running
 * header, a footnote or a floating caption. The continuation's first word is moved back onto the
 * paragraph it completes, marked with a soft hyphen as a line-end hyphen is (pdf-layout's
 * joinLine), so clean-text joins it by the same rule: when the joined word is written whole in the
 * document or is an English word ("between"), else it keeps its hyphen ("well-known").
 */
import { type Block, FURNITURE_ROLES } from "./document.ts";

const SOFT_HYPHEN = "\u00ad";

/** A paragraph or list item cut after a hyphenated word's first half. */
const ENDS_HYPHENATED = /\p{L}-$/u;
/** A paragraph that goes on with a word in lower case: the rest of a sentence, not a new one. */
const CONTINUES = /^\p{Ll}\S*/u;

/** What a column or page break puts between the two halves of a paragraph. */
const between = (b: Block): boolean => FURNITURE_ROLES.has(b.role) || b.kind === "footnote" || b.kind === "caption";

/** Text that flows on: a paragraph, a list item, or a footnote continued in the next column. */
const flowing = (b: Block): boolean =>
  (b.kind === "paragraph" || b.kind === "list_item" || b.kind === "footnote") && !b.markdown;

/** The blocks with each word split across a break carried back, soft-hyphenated, onto the block it starts in. */
export function carryBrokenWords(blocks: Block[]): Block[] {
  const out = blocks.slice();
  for (let i = 0; i < out.length; i++) {
    const head = out[i]!;
    if (!flowing(head) || FURNITURE_ROLES.has(head.role) || !ENDS_HYPHENATED.test(head.text)) continue;
    let j = i + 1;
    while (j < out.length && between(out[j]!)) j++;
    const next = out[j];
    if (next?.kind !== "paragraph" || next.markdown || next.role !== head.role) continue;
    const tail = CONTINUES.exec(next.text)?.[0];
    if (!tail) continue;
    out[i] = { ...head, text: head.text.slice(0, -1) + SOFT_HYPHEN + tail };
    out[j] = { ...next, text: next.text.slice(tail.length).trimStart() };
  }
  return out;
}
