/** Rows written straight into a test server's database, for read tests that need no generation. */
import { openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { keyAuthenticator } from "../../src/tenants/keys.ts";
import { newId } from "../../src/util.ts";

export async function insertCourse(
  dataDir: string,
  owner: { apiKey: string; externalUserId: string },
  opts: { title?: string; createdAt?: string; status?: "generating" | "completed" | "failed"; chapters?: number } = {},
): Promise<string> {
  const { sqlite } = await openDb(dataDir, { migrate: false });
  try {
    // The data of the key's tenant and environment (a test key's is its tenant's test environment).
    const tenant_id = (await keyAuthenticator(sqliteSql(sqlite))(owner.apiKey))!.tenantId;
    let user = sqlite
      .query<{ id: string }, [string, string]>("SELECT id FROM users WHERE tenant_id = ? AND external_id = ?")
      .get(tenant_id, owner.externalUserId);
    if (!user) {
      user = { id: newId() };
      sqlite.run("INSERT INTO users (id, tenant_id, external_id, created_at) VALUES (?, ?, ?, ?)", [
        user.id,
        tenant_id,
        owner.externalUserId,
        new Date().toISOString(),
      ]);
    }
    const id = newId();
    const createdAt = opts.createdAt ?? new Date().toISOString();
    const title = opts.title ?? "A course";
    const n = opts.chapters ?? 2;
    sqlite.run(
      `INSERT INTO courses (id, tenant_id, user_id, title, topic, slug, source_type, status, num_chapters, engine, model, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'topic', ?, ?, 'extractive', 'extractive', ?, ?)`,
      [
        id,
        tenant_id,
        user.id,
        title,
        title,
        title.toLowerCase().replace(/\W+/g, "-"),
        opts.status ?? "completed",
        n,
        createdAt,
        createdAt,
      ],
    );
    for (let i = 0; i < n; i++) {
      const chapterId = newId();
      sqlite.run(
        `INSERT INTO chapters (id, course_id, order_index, title, status, content, key_concepts, completed_at, created_at)
         VALUES (?, ?, ?, ?, 'completed', ?, ?, ?, ?)`,
        [
          chapterId,
          id,
          i,
          `Chapter ${i + 1}`,
          `# Chapter ${i + 1}\n\nBody.`,
          JSON.stringify([`concept ${i}`]),
          createdAt,
          createdAt,
        ],
      );
      sqlite.run(
        `INSERT INTO quiz_questions (id, chapter_id, position, type, prompt, choices, answer, explanation)
         VALUES (?, ?, 0, 'mcq', 'Which?', '["a","b","c","d"]', '1', 'Because.')`,
        [newId(), chapterId],
      );
      sqlite.run(
        `INSERT INTO chapter_sources (id, chapter_id, position, filename, page, excerpt, score) VALUES (?, ?, 0, 'doc.pdf', 3, 'An excerpt', 0.8)`,
        [newId(), chapterId],
      );
    }
    return id;
  } finally {
    sqlite.close();
  }
}
