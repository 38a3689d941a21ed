/**
 * PGlite (PostgreSQL compiled to WebAssembly) with the pgvector extension, served over its socket
 * server on a free port of 127.0.0.1, so the server's own PostgreSQL adapter (Bun's client) talks
 * to it as to any PostgreSQL. Debian's PostgreSQL 15 has no pgvector package here: this is where
 * the vector statements run for real. Migrated like the throwaway cluster; `stop` closes all.
 */
import { createServer } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { SQL } from "bun";
import { migratePostgres } from "../../src/db/postgres/migrate.ts";
import type { TestPostgres } from "./postgres.ts";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export async function startPglite(): Promise<TestPostgres> {
  const db = await PGlite.create({ extensions: { vector } });
  // PGlite lists no extension as available until its bundle is loaded, which CREATE EXTENSION does.
  await db.exec("CREATE EXTENSION IF NOT EXISTS vector");
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1" });
  await server.start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  // PGlite is one session: one connection.
  const client = new SQL({ url, max: 1 });
  await migratePostgres(client);
  return {
    url,
    client,
    async stop() {
      await client.close();
      await server.stop();
      await db.close();
    },
  };
}
