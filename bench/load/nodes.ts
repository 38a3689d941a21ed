/**
 * One node on SQLite against three nodes on one PostgreSQL (#34), in one run on this machine:
 * readers (course list, a course, its progress) and builders (a course generated from a small file
 * by the built-in engine, sync mode: the request lasts until the course is complete), spread round
 * robin over the nodes. On two cores three nodes are not faster; the figure shows what sharing one
 * database costs and that nothing breaks. The PostgreSQL cluster is the tests' throwaway one.
 *
 * Usage: nice -n 10 bun bench/load/nodes.ts [--seconds 20] [--readers 16] [--builders 2]
 * Prints requests/s, p95 and failures per setup and operation as a markdown table.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { postgresSql } from "../../src/db/sql.ts";
import { createKey } from "../../src/tenants/keys.ts";
import { startPostgres } from "../../test/helpers/postgres.ts";
import { cleanup, startServer, type TestServer, tempDir } from "../../test/helpers/server.ts";
import { headersFor, Recorder, timed } from "../../test/reliability/harness.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    seconds: { type: "string", default: "20" },
    readers: { type: "string", default: "16" },
    builders: { type: "string", default: "2" },
  },
});
const seconds = Number(values.seconds);
const readers = Number(values.readers);
const builders = Number(values.builders);
if (!(seconds > 0 && seconds <= 300 && readers > 0 && builders > 0))
  throw new Error("--seconds (at most 300), --readers and --builders must be positive");

const USER = "bench-learner";
const ENV = { RATE_LIMIT_PER_MINUTE: "100000000" };

interface Setup {
  name: string;
  nodes: TestServer[];
  key: string;
  stop(): Promise<void>;
}

function note(i: number): FormData {
  const form = new FormData();
  const text =
    `# Harbour ${i}\n\nThe tide at harbour ${i} rises twice a day, pulled by the Moon and the Sun.\n\n` +
    `## Spring tides\n\nWhen the Sun, the Moon and the Earth line up the range at harbour ${i} is widest.\n\n` +
    `## Neap tides\n\nAt the quarter Moons the range at harbour ${i} is narrowest.\n`;
  form.append("files", new File([text], `harbour-${i}.md`, { type: "text/markdown" }));
  form.append("num_chapters", "2");
  return form;
}

async function sqliteSetup(): Promise<Setup> {
  const node = await startServer({ env: ENV });
  return {
    name: "1 node, SQLite",
    nodes: [node],
    key: await node.createKey("bench", "production"),
    stop: () => node.stop(),
  };
}

async function postgresSetup(): Promise<Setup> {
  const pg = await startPostgres();
  const blobs = tempDir("cf-bench-nodes-");
  const env = {
    ...ENV,
    DATABASE_URL: pg.url,
    BLOB_DIR: join(blobs, "blobs"),
    MEDIA_SIGNING_SECRET: "bench-media-secret-0123456789abcdef",
    PODCAST_FEED_SECRET: "bench-feed-secret-0123456789abcdef",
  };
  const nodes = await Promise.all([0, 1, 2].map(() => startServer({ env })));
  return {
    name: "3 nodes, PostgreSQL",
    nodes,
    key: (await createKey(postgresSql(pg.client), { tenant: "bench", env: "production" })).key,
    async stop() {
      for (const n of nodes) await n.stop();
      await pg.stop();
      cleanup(blobs);
    },
  };
}

/** Runs the readers and builders on `setup` for `seconds`; returns its recorder. */
async function measure(setup: Setup): Promise<Recorder> {
  let turn = 0;
  const next = () => setup.nodes[turn++ % setup.nodes.length]!.url;
  const headers = headersFor(setup.key, USER);
  // A course built on each node before the clock starts: a node's first course starts its engine's
  // thread and extraction process (seconds), which the setups would otherwise pay unequally.
  let courseId = "";
  for (const node of setup.nodes) {
    const seed = await fetch(`${node.url}/v2/courses/generate-from-files?mode=sync`, {
      method: "POST",
      headers,
      body: note(0),
    });
    if (seed.status !== 200) throw new Error(`the first course failed: ${seed.status} ${await seed.text()}`);
    courseId = ((await seed.json()) as { course: { id: string } }).course.id;
  }

  const rec = new Recorder();
  const deadline = Date.now() + seconds * 1000;
  const reads = [() => `/v2/courses`, () => `/v2/courses/${courseId}`, () => `/v2/courses/${courseId}/progress`];
  const reader = async (r: number) => {
    for (let i = r; Date.now() < deadline; i++)
      await timed(rec, "reads", () => fetch(`${next()}${reads[i % reads.length]!()}`, { headers }));
  };
  let built = 0;
  const builder = async () => {
    while (Date.now() < deadline)
      await timed(rec, "generate (sync)", () =>
        fetch(`${next()}/v2/courses/generate-from-files?mode=sync`, { method: "POST", headers, body: note(++built) }),
      );
  };
  await Promise.all([
    ...Array.from({ length: readers }, (_, r) => reader(r)),
    ...Array.from({ length: builders }, builder),
  ]);
  return rec;
}

const rows: string[] = [];
for (const make of [sqliteSetup, postgresSetup]) {
  const setup = await make();
  try {
    const rec = await measure(setup);
    for (const s of rec.stats()) {
      const ok = rec.statuses(s.op).filter((status) => status === 200).length;
      rows.push(
        `| ${setup.name} | ${s.op} | ${s.requests} | ${(ok / seconds).toFixed(s.op === "reads" ? 0 : 2)} | ${s.p95.toFixed(0)} | ${s.requests - ok} |`,
      );
    }
  } finally {
    await setup.stop();
  }
}
console.log(
  `\n${readers} readers and ${builders} builders for ${seconds} s per setup, ${navigator.hardwareConcurrency} cores (clients and nodes on the same machine)\n`,
);
console.log("| setup | operation | requests | answered 200 per s | p95 ms | not 200 |\n|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
