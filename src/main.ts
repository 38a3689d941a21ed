#!/usr/bin/env bun
/** The courseforge command line: serve (default), keys, tenants, config, version. */
import { parseArgs } from "node:util";
import pkg from "../package.json" with { type: "json" };
import { loadConfig, settingsTable } from "./config.ts";
import { NotEmpty } from "./db/copy-to-postgres.ts";
import { DataDirInUse } from "./db/data-dir-lock.ts";
import { migrateToPostgres } from "./db/migrate-to-postgres-command.ts";
import { openStore } from "./db/open.ts";
import { AppError } from "./errors.ts";
import { BackupError, backup, restore } from "./ops/backup.ts";
import { runReindexCommand } from "./retrieval/reindex-command.ts";
import { startServer } from "./server.ts";
import { createKey, ensureTenant, type KeyEnv, listKeys, revokeKey, setTenantTtsProvider } from "./tenants/keys.ts";

const HELP = `courseforge ${pkg.version}: course generation and document intelligence server

Usage: courseforge [command] [options]

Commands:
  serve [--no-bootstrap]          Start the HTTP server (default command)
  keys create --tenant NAME --env test|production [--rate-limit N]
                                  Create a tenant if needed and an API key; prints the key last
  keys list                       List keys (prefixes only) with their tenants
  keys revoke KEY_PREFIX          Revoke the key starting with KEY_PREFIX
  tenants set --tenant NAME [--rate-limit N] [--tts-provider piper|espeak|default]
                                  Change a tenant's rate limit or default speech engine
  backup DEST                     Consistent online copy of the database, blobs and secrets into DEST
  restore SRC [--force]           Restore a backup into DATA_DIR (server stopped; --force replaces data)
  reindex [all]                   Re-embed chunks made by another embedder (all: every chunk) with EMBEDDER
  migrate-to-postgres             Copy DATA_DIR's SQLite database into the empty PostgreSQL of DATABASE_URL
  config [--markdown]             Print every setting with its default
  version                         Print the version

Settings (environment variables):
`;

const ON_POSTGRES =
  "DATABASE_URL is set: the data is in PostgreSQL. Back it up with pg_dump (restore with pg_restore), and the blobs (BLOB_DIR) and DATA_DIR/secrets with your file backup; see README, Backup and restore";

function fail(message: string): never {
  process.stderr.write(`courseforge: ${message}\n`);
  process.exit(2);
}

function positiveInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) fail(`${name} must be a positive integer`);
  return n;
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      tenant: { type: "string" },
      env: { type: "string" },
      "rate-limit": { type: "string" },
      "tts-provider": { type: "string" },
      "no-bootstrap": { type: "boolean" },
      markdown: { type: "boolean" },
      force: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
  const [command = "serve", sub, arg] = positionals;
  // An extraction process of the executable (src/ingest/pool.ts starts it); not for people.
  if (command === "extract-worker") {
    await import("./ingest/extract-worker.ts");
    return;
  }

  if (values.help || command === "help") {
    process.stdout.write(`${HELP + settingsTable("text")}\n`);
    return;
  }
  if (values.version || command === "version") {
    process.stdout.write(`courseforge ${pkg.version}\n`);
    return;
  }

  const cfg = loadConfig();
  switch (command) {
    case "serve": {
      // Handlers go in before the server says it is listening: a supervisor that signals as soon as
      // it reads that line must get a clean shutdown, not the default kill.
      let server: Awaited<ReturnType<typeof startServer>> | null = null;
      let stopping = false;
      const shutdown = (signal: string) => {
        if (stopping || !server) process.exit(stopping ? 130 : 0);
        stopping = true;
        server.svc.log.info("shutting down", { signal });
        server.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.on("SIGTERM", () => shutdown("SIGTERM"));
      process.on("SIGINT", () => shutdown("SIGINT"));
      server = await startServer(cfg, { bootstrap: cfg.bootstrap && !values["no-bootstrap"] });
      return;
    }
    case "keys": {
      const store = await openStore(cfg);
      const db = store.sql;
      try {
        if (sub === "create") {
          if (!values.tenant) fail("keys create needs --tenant NAME");
          if (values.env !== "test" && values.env !== "production") fail("keys create needs --env test|production");
          const made = await createKey(db, {
            tenant: values.tenant,
            env: values.env as KeyEnv,
            rateLimit: positiveInt(values["rate-limit"], "--rate-limit") ?? null,
          });
          process.stdout.write(
            `Created ${values.env} key for tenant "${values.tenant}" (prefix ${made.prefix}):\n${made.key}\n`,
          );
        } else if (sub === "list") {
          const rows = await listKeys(db);
          process.stdout.write("PREFIX\tTENANT\tENV\tRATE_LIMIT\tCREATED\tREVOKED\n");
          for (const k of rows) {
            process.stdout.write(
              `${k.prefix}\t${k.tenant}\t${k.env}\t${k.rateLimit ?? "-"}\t${k.createdAt}\t${k.revokedAt ?? "-"}\n`,
            );
          }
        } else if (sub === "revoke") {
          if (!arg) fail("keys revoke needs KEY_PREFIX");
          process.stdout.write(`Revoked ${(await revokeKey(db, arg)).prefix}\n`);
        } else fail("keys needs create, list or revoke");
      } finally {
        await store.close();
      }
      return;
    }
    case "tenants": {
      if (sub !== "set" || !values.tenant)
        fail("usage: tenants set --tenant NAME [--rate-limit N] [--tts-provider piper|espeak|default]");
      const store = await openStore(cfg);
      const db = store.sql;
      try {
        await ensureTenant(db, values.tenant, positiveInt(values["rate-limit"], "--rate-limit"));
        const tts = values["tts-provider"];
        if (tts !== undefined) {
          if (!["piper", "espeak", "default"].includes(tts)) fail("--tts-provider must be piper, espeak or default");
          await setTenantTtsProvider(db, values.tenant, tts === "default" ? null : tts);
        }
        process.stdout.write(`Updated tenant "${values.tenant}"\n`);
      } finally {
        await store.close();
      }
      return;
    }
    case "backup": {
      if (!sub) fail("usage: backup DEST");
      // DATA_DIR may still hold the SQLite database a migration copied from: backing it up would
      // look like success and save stale data.
      if (cfg.databaseUrl) fail(ON_POSTGRES);
      const r = await backup(cfg.dataDir, sub, cfg.blobDir);
      process.stdout.write(`Backed up ${r.courses} courses and ${r.blobs} blobs to ${r.dest}\n`);
      return;
    }
    case "restore": {
      if (!sub) fail("usage: restore SRC [--force]");
      if (cfg.databaseUrl) fail(ON_POSTGRES);
      const r = await restore(cfg.dataDir, sub, { force: values.force, blobDir: cfg.blobDir });
      process.stdout.write(`Restored ${r.courses} courses and ${r.blobs} blobs into ${r.dest}\n`);
      return;
    }
    case "migrate-to-postgres": {
      if (!cfg.databaseUrl) fail("migrate-to-postgres needs DATABASE_URL (the empty PostgreSQL database to copy into)");
      const copied = await migrateToPostgres(cfg.dataDir, cfg.databaseUrl);
      for (const t of copied) process.stdout.write(`${t.table}\t${t.rows}\n`);
      process.stdout.write(
        "Copied; start the server with DATABASE_URL set and run `courseforge reindex all` for vectors\n",
      );
      return;
    }
    case "reindex":
      await runReindexCommand(cfg, sub);
      return;
    case "config":
      process.stdout.write(`${settingsTable(values.markdown ? "markdown" : "text")}\n`);
      return;
    default:
      fail(`unknown command "${command}"; see --help`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof AppError || err instanceof BackupError || err instanceof DataDirInUse || err instanceof NotEmpty)
    fail(err.message);
  if ((err as { code?: string })?.code === "EADDRINUSE")
    fail(`${(err as Error).message}: another server already listens there`);
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
