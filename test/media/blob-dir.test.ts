/**
 * BLOB_DIR: nodes that share one blob directory (a volume, NFS) and one MEDIA_SIGNING_SECRET serve
 * each other's signed media URLs. Node A stores an uploaded original under the shared directory,
 * not under its own DATA_DIR; node B, with a data directory of its own, serves A's signed URL; a
 * node signing with another secret refuses it. Without BLOB_DIR blobs stay in DATA_DIR/blobs. A
 * backup takes the blobs from BLOB_DIR and a restore puts them back there.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { openDb } from "../../src/db/index.ts";
import { blobPath, putBlob } from "../../src/media/blob-store.ts";
import { backup, restore } from "../../src/ops/backup.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, cleanup, tempDir } from "../helpers/server.ts";

const SECRET = "the-secret-every-node-shares-0123456789";
const ORIGINAL = "# Shared volumes\n\nEvery node reads the blobs every other node writes.\n";

describe("BLOB_DIR shared by two nodes", () => {
  const blobDir = tempDir("cf-blob-dir-");
  let a: TestApp;
  let b: TestApp;
  let other: TestApp;

  beforeAll(async () => {
    a = await startApp({ env: { BLOB_DIR: blobDir, MEDIA_SIGNING_SECRET: SECRET } });
    b = await startApp({ env: { BLOB_DIR: blobDir, MEDIA_SIGNING_SECRET: SECRET } });
    other = await startApp({ env: { BLOB_DIR: blobDir, MEDIA_SIGNING_SECRET: `${SECRET}-not` } });
  });
  afterAll(async () => {
    for (const node of [a, b, other]) await node?.stop();
    cleanup(blobDir);
  });

  test("an original stored by one node is under BLOB_DIR, and its signed URL is served by the other", async () => {
    const form = new FormData();
    form.append("files", new File([ORIGINAL], "volumes.md"));
    const res = await call(a, "/v2/documents/extract", {
      method: "POST",
      key: await a.createKey("blob-tenant", "production"),
      body: form,
    });
    expect(res.status).toBe(200);
    const url: string = res.body.documents[0].source_url;
    const key = new URL(url).pathname.replace(/^\/media\//, "");
    expect(existsSync(join(blobDir, key))).toBe(true);
    expect(existsSync(join(a.dataDir, "blobs"))).toBe(false);

    const served = await b.fetch(url);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(ORIGINAL);

    const refused = await other.fetch(url);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("MEDIA_URL_INVALID");
  });
});

test("BLOB_DIR defaults to DATA_DIR's blobs folder", () => {
  const dataDir = tempDir("cf-blob-default-");
  expect(loadConfig({ DATA_DIR: dataDir }).blobDir).toBe(join(dataDir, "blobs"));
  expect(loadConfig({ DATA_DIR: dataDir, BLOB_DIR: "relative-blobs" }).blobDir).toBe(
    join(process.cwd(), "relative-blobs"),
  );
  expect(readdirSync(dataDir)).toEqual([]);
  cleanup(dataDir);
});

test("a backup holds the blobs of BLOB_DIR, and a restore puts them back under BLOB_DIR", async () => {
  const [dataDir, blobDir, dest, restoredData, restoredBlobs] = [1, 2, 3, 4, 5].map(() => tempDir("cf-blob-backup-"));
  const { sqlite } = await openDb(dataDir!);
  sqlite.close();
  const blob = await putBlob({ blobDir: blobDir! }, new TextEncoder().encode(ORIGINAL), { ext: "md" });
  rmSync(dest!, { recursive: true });
  expect((await backup(dataDir!, dest!, blobDir!)).blobs).toBe(1);
  expect(readFileSync(join(dest!, "blobs", blob.key), "utf8")).toBe(ORIGINAL);
  expect((await restore(restoredData!, dest!, { blobDir: restoredBlobs! })).blobs).toBe(1);
  expect(readFileSync(blobPath(restoredBlobs!, blob.key), "utf8")).toBe(ORIGINAL);
  expect(existsSync(join(restoredData!, "blobs"))).toBe(false);
  for (const d of [dataDir, blobDir, dest, restoredData, restoredBlobs]) cleanup(d!);
});
