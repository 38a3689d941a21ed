/**
 * Versioned migrations, applied in order at start. Imported as text so they are embedded in the
 * compiled executable. A migration is never edited once released: add the next number instead.
 */
import m0001 from "./0001_core.sql" with { type: "text" };
import m0007 from "./0007_podcasts.sql" with { type: "text" };

export const migrations: { version: string; sql: string }[] = [
  { version: "0001_core", sql: m0001 },
  { version: "0007_podcasts", sql: m0007 },
];
