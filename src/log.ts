/**
 * Structured JSON logs, one object per line on stdout. Callers pass fields, never secrets or
 * document text: keys, webhook secrets and signed URLs stay out by construction.
 *
 * Access lines (one per request) are buffered and written together, at most ACCESS_FLUSH_MS
 * later: one write for many requests rather than one each. Any other line first writes out what is
 * buffered, so lines keep their order, and so does the process's exit.
 */
type Level = "debug" | "info" | "warn" | "error";
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

const ACCESS_FLUSH_MS = 100;
/** Past this many buffered characters the buffer is written at once. */
const ACCESS_BUFFER_CHARS = 64 * 1024;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** An info line for a finished request, written with the next batch. */
  access(msg: string, fields: Record<string, unknown>): void;
}

export function createLogger(level: Level = "info"): Logger {
  const min = RANK[level];
  let buffered = "";
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!buffered) return;
    const text = buffered;
    buffered = "";
    process.stdout.write(text);
  };
  process.on("exit", flush);
  const line = (lvl: Level, msg: string, fields?: Record<string, unknown>) =>
    `${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields })}\n`;
  const write = (lvl: Level, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] < min) return;
    flush();
    process.stdout.write(line(lvl, msg, fields));
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
    access(m, f) {
      if (RANK.info < min) return;
      buffered += line("info", m, f);
      if (buffered.length >= ACCESS_BUFFER_CHARS) flush();
      else timer ??= setTimeout(flush, ACCESS_FLUSH_MS).unref();
    },
  };
}
