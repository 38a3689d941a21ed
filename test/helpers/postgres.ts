/**
 * Throwaway PostgreSQL databases for the tests that run on both engines: one cluster per test run
 * (initdb in a temporary directory, the server on a free port of 127.0.0.1, no Unix socket, no
 * other listener), stopped and removed once the run has ended, and a database of its own for each
 * caller, dropped by `stop`. The binaries are Debian's (`scripts/test-deps.sh` installs
 * them when missing). initdb refuses to run as root, so as root the cluster runs as the
 * `postgres` user the Debian package creates. Nothing here skips: a cluster that cannot start
 * throws with initdb's or the server's own output, and the tests that asked for it fail.
 */
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL, spawnSync } from "bun";
import { runCached, runPid } from "./run-cache.ts";

export interface TestPostgres {
  url: string;
  /** A client of the cluster's database; closed by `stop`. */
  client: SQL;
  stop(): Promise<void>;
}

const DEBIAN_BIN = "/usr/lib/postgresql";

/** The newest installed major version's bin directory (15 or later). */
function binDir(): string {
  const versions = existsSync(DEBIAN_BIN)
    ? readdirSync(DEBIAN_BIN)
        .map(Number)
        .filter((v) => v >= 15 && existsSync(join(DEBIAN_BIN, String(v), "bin", "initdb")))
        .sort((a, b) => b - a)
    : [];
  if (versions.length === 0) {
    throw new Error(
      `PostgreSQL 15 or later is not installed (no ${DEBIAN_BIN}/<version>/bin/initdb); run: bash scripts/test-deps.sh`,
    );
  }
  return join(DEBIAN_BIN, String(versions[0]), "bin");
}

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

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL tool, as `postgres` when we are root; throws with its output on failure. */
function run(bin: string, tool: string, args: string[]): void {
  const cmd = asRoot ? ["runuser", "-u", "postgres", "--", join(bin, tool), ...args] : [join(bin, tool), ...args];
  const r = spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) {
    throw new Error(`${tool} failed (exit ${r.exitCode}): ${r.stderr.toString()}${r.stdout.toString()}`.trim());
  }
}

/** The run's cluster, as every test process of the run finds it (helpers/run-cache.ts). */
interface Cluster {
  port: number;
}

/**
 * Starts the run's cluster. It is stopped and removed once the run has ended, however it ended
 * (bun test runs no exit handlers): by a watcher in a session of its own that checks once a second
 * that the run's process is still there.
 */
async function startCluster(): Promise<Cluster> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), "cf-pg-"));
  const data = join(dir, "data");
  const logFile = join(dir, "server.log");
  if (asRoot) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  try {
    run(bin, "initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
    // Only TCP on loopback: no socket file in a shared directory, and fsync off for a cluster thrown away.
    const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    run(bin, "pg_ctl", ["-D", data, "-l", logFile, "-o", options, "-w", "-t", "60", "start"]);
  } catch (err) {
    const log = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`the test PostgreSQL cluster did not start: ${(err as Error).message}\n${log}`.trim());
  }
  const stop = [join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"];
  const watcher = `while [ -d /proc/${runPid()} ]; do sleep 1; done; ${(asRoot ? ["runuser", "-u", "postgres", "--", ...stop] : stop).join(" ")} >/dev/null 2>&1; rm -rf ${dir}`;
  Bun.spawn(["setsid", "-f", "sh", "-c", watcher], { stdin: "ignore", stdout: "ignore", stderr: "ignore" }).unref();
  return { port };
}

/** One statement on the cluster's `postgres` database, which creates and drops the tests' databases. */
async function onCluster(port: number, statement: string): Promise<void> {
  const admin = new SQL({ url: `postgres://postgres@127.0.0.1:${port}/postgres`, max: 1 });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.close();
  }
}

/**
 * A fresh, empty database on the run's cluster: initdb and the server's start (seconds of CPU, and
 * far longer beside other work) are paid once per test run, not once per engine a test file opens;
 * `stop` drops the database and ends its connections.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const { port } = await runCached("postgres-cluster", [binDir()], startCluster);
  const name = `courseforge_${crypto.randomUUID().replaceAll("-", "")}`;
  await onCluster(port, `CREATE DATABASE ${name}`);
  const url = `postgres://postgres@127.0.0.1:${port}/${name}`;
  const client = new SQL({ url, max: 4 });
  return {
    url,
    client,
    async stop() {
      await client.close();
      await onCluster(port, `DROP DATABASE ${name} WITH (FORCE)`);
    },
  };
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  if (!line) throw new Error("running as root needs the postgres user (Debian's postgresql package creates it)");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}
