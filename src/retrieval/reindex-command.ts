/** `courseforge reindex [all]`: re-embeds stored chunks with the configured embedder, with a progress bar. */
import type { Config } from "../config.ts";
import { openStore } from "../db/open.ts";
import { createEmbedder } from "./embedders/create.ts";
import { type ReindexProgress, reindexAll } from "./reindex.ts";

const BAR_WIDTH = 30;

function progressBar(startedAt: number) {
  return ({ done, total }: ReindexProgress) => {
    const ratio = total === 0 ? 1 : done / total;
    const filled = Math.round(ratio * BAR_WIDTH);
    const seconds = (performance.now() - startedAt) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const line = `[${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}] ${done}/${total} chunks ${Math.floor(ratio * 100)}% ${rate.toFixed(0)}/s`;
    // A terminal gets one line redrawn in place; a log file gets a line per update.
    process.stderr.write(process.stderr.isTTY ? `\r${line}` : `${line}\n`);
  };
}

export async function runReindexCommand(cfg: Config, mode: string | undefined): Promise<void> {
  if (mode !== undefined && mode !== "all") throw new Error(`reindex takes no argument or "all", got "${mode}"`);
  const store = await openStore(cfg);
  try {
    const embedder = createEmbedder(cfg);
    process.stderr.write(
      `Re-embedding ${mode === "all" ? "every chunk" : "chunks made by another embedder"} with ${embedder.describe()}\n`,
    );
    const { done } = await reindexAll(
      { sql: store.sql, embedder },
      { all: mode === "all", onProgress: progressBar(performance.now()) },
    );
    process.stderr.write(`${process.stderr.isTTY ? "\n" : ""}Re-embedded ${done} chunks\n`);
  } finally {
    await store.close();
  }
}
