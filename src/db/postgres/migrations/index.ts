/**
 * PostgreSQL's migrations, applied in order at start, embedded as text like SQLite's. A migration
 * added for SQLite gets its PostgreSQL twin here under the same version (test/db checks the two
 * schemas agree).
 */
import m0015 from "./0015_baseline.sql" with { type: "text" };
import m0015Search from "./0015_retrieval_search.sql" with { type: "text" };
import m0016RateWindows from "./0016_rate_windows.sql" with { type: "text" };
import m0017Bm25 from "./0017_retrieval_bm25.sql" with { type: "text" };
import m0018 from "./0018_document_ingest_node.sql" with { type: "text" };
import m0019 from "./0019_document_ingest_lease.sql" with { type: "text" };

/**
 * `0015_retrieval_search` and `0017_retrieval_bm25` have no SQLite twin: full text, its ranking
 * statistics and vectors are each engine's own structures. Nor has `0016_rate_windows`: SQLite's
 * one process counts its rate limits in memory.
 */
export const postgresMigrations: { version: string; sql: string }[] = [
  { version: "0015_baseline", sql: m0015 },
  { version: "0015_retrieval_search", sql: m0015Search },
  { version: "0016_rate_windows", sql: m0016RateWindows },
  { version: "0017_retrieval_bm25", sql: m0017Bm25 },
  { version: "0018_document_ingest_node", sql: m0018 },
  { version: "0019_document_ingest_lease", sql: m0019 },
];
