/**
 * Versioned migrations, applied in order at start. Imported as text so they are embedded in the
 * compiled executable. A migration is never edited once released: add the next number instead.
 */
import m0001 from "./0001_core.sql" with { type: "text" };
import m0003 from "./0003_retrieval.sql" with { type: "text" };
import m0005 from "./0005_courses.sql" with { type: "text" };
import m0006 from "./0006_materials.sql" with { type: "text" };
import m0007 from "./0007_podcasts.sql" with { type: "text" };
import m0008 from "./0008_webhooks.sql" with { type: "text" };
import m0009 from "./0009_document_structure.sql" with { type: "text" };
import m0010 from "./0010_learning_progress.sql" with { type: "text" };
import m0011 from "./0011_podcast_feeds.sql" with { type: "text" };
import m0012 from "./0012_console_sessions.sql" with { type: "text" };
import m0013 from "./0013_key_environments.sql" with { type: "text" };
import m0014 from "./0014_job_leases.sql" with { type: "text" };
import m0015 from "./0015_document_repeats.sql" with { type: "text" };
import m0018 from "./0018_document_ingest_node.sql" with { type: "text" };
import m0019 from "./0019_document_ingest_lease.sql" with { type: "text" };

export const migrations: { version: string; sql: string }[] = [
  { version: "0001_core", sql: m0001 },
  { version: "0003_retrieval", sql: m0003 },
  { version: "0005_courses", sql: m0005 },
  { version: "0006_materials", sql: m0006 },
  { version: "0007_podcasts", sql: m0007 },
  { version: "0008_webhooks", sql: m0008 },
  { version: "0009_document_structure", sql: m0009 },
  { version: "0010_learning_progress", sql: m0010 },
  { version: "0011_podcast_feeds", sql: m0011 },
  { version: "0012_console_sessions", sql: m0012 },
  { version: "0013_key_environments", sql: m0013 },
  { version: "0014_job_leases", sql: m0014 },
  { version: "0015_document_repeats", sql: m0015 },
  { version: "0018_document_ingest_node", sql: m0018 },
  { version: "0019_document_ingest_lease", sql: m0019 },
];
