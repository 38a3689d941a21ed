/** Completed courses with real chapter text, written straight into a server's database. */
import { loadConfig } from "../../src/config.ts";
import { openDb } from "../../src/db/index.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { resultOfMarkdown } from "../../src/ingest/result.ts";
import { createEmbedder, indexChapter, indexDocument } from "../../src/retrieval/index.ts";
import { newId } from "../../src/util.ts";
import { insertCourse } from "../helpers/fixtures.ts";

export interface ChapterText {
  title: string;
  content: string;
  key_concepts: string[];
}

export const BIOLOGY: ChapterText[] = [
  {
    title: "Cells and Membranes",
    key_concepts: ["cell membrane", "diffusion", "osmosis"],
    content: `# Cells and Membranes

A cell is the smallest unit of life that can replicate independently. Every cell is enclosed by a cell membrane, a phospholipid bilayer that separates the interior of the cell from its environment.

The cell membrane is selectively permeable: small nonpolar molecules such as oxygen cross it freely, while ions need dedicated channel proteins.

Diffusion is the net movement of particles from a region of higher concentration to a region of lower concentration. Diffusion requires no energy from the cell because it follows the concentration gradient.

Osmosis is the diffusion of water across a selectively permeable membrane. When a red blood cell is placed in pure water, osmosis moves water into the cell until it swells and may burst.

Active transport moves substances against their concentration gradient and consumes ATP. The sodium-potassium pump is the classic example of active transport in animal cells.`,
  },
  {
    title: "Photosynthesis",
    key_concepts: ["chlorophyll", "light reactions", "Calvin cycle"],
    content: `# Photosynthesis

Photosynthesis is the process by which plants, algae and some bacteria convert light energy into chemical energy stored in glucose. It takes place in the chloroplasts of plant cells.

Chlorophyll is the green pigment that absorbs red and blue light and reflects green light. Chlorophyll molecules sit in the thylakoid membranes of the chloroplast.

The light reactions capture light energy to split water, release oxygen and produce ATP and NADPH. The light reactions happen in the thylakoid membranes.

The Calvin cycle is the set of reactions that fix carbon dioxide into sugar using the ATP and NADPH from the light reactions. The Calvin cycle takes place in the stroma and is driven by the enzyme RuBisCO.

Overall, photosynthesis turns six molecules of carbon dioxide and six molecules of water into one molecule of glucose and six molecules of oxygen.`,
  },
  {
    title: "Cellular Respiration",
    key_concepts: ["glycolysis", "Krebs cycle", "electron transport chain"],
    content: `# Cellular Respiration

Cellular respiration is the process that releases the energy stored in glucose and stores it as ATP. In eukaryotic cells most of it happens inside the mitochondria.

Glycolysis is the first stage of cellular respiration, splitting one glucose molecule into two pyruvate molecules in the cytoplasm. Glycolysis yields a net gain of two ATP and does not require oxygen.

The Krebs cycle is a series of reactions in the mitochondrial matrix that oxidises acetyl-CoA to carbon dioxide. The Krebs cycle produces NADH and FADH2, which carry electrons to the next stage.

The electron transport chain is a group of proteins in the inner mitochondrial membrane that passes electrons to oxygen. The electron transport chain pumps protons and drives ATP synthase, producing most of the cell's ATP.

Without oxygen, cells fall back on fermentation, which regenerates NAD+ but yields far less ATP than aerobic respiration.`,
  },
];

export const PROBABILITY: ChapterText[] = [
  {
    title: "Counting and Events",
    key_concepts: ["sample space", "permutation", "combination"],
    content: `# Counting and Events

A sample space is the set of all possible outcomes of an experiment. Rolling one die has the sample space {1, 2, 3, 4, 5, 6}.

A permutation is an ordered arrangement of objects. The number of permutations of n objects is n! = n × (n − 1) × … × 1, so 4 objects can be arranged in 4! = 24 ways.

A combination is an unordered selection of objects. The number of ways to choose k of n objects is C(n, k) = n! / (k! (n − k)!), so C(5, 2) = 10.

To calculate the probability of an event with equally likely outcomes, divide the number of favourable outcomes by the size of the sample space: P(A) = |A| / |S|.`,
  },
  {
    title: "Conditional Probability",
    key_concepts: ["conditional probability", "independence", "Bayes' theorem"],
    content: `# Conditional Probability

Conditional probability is the probability of an event given that another event has occurred: P(A | B) = P(A and B) / P(B), defined when P(B) > 0.

Two events are independent when P(A and B) = P(A) × P(B). Independence means knowing that B happened does not change the probability of A.

Bayes' theorem is the rule P(A | B) = P(B | A) × P(A) / P(B). For a test with 99% sensitivity and a disease prevalence of 1%, Bayes' theorem shows a positive result is far from certain.

To solve a conditional probability problem, write down the known quantities, compute P(B) with the law of total probability, and substitute into the formula.`,
  },
];

/** Inserts a completed course (via the shared fixture) and replaces its chapters' text and concepts. */
export async function insertRichCourse(
  dataDir: string,
  owner: { apiKey: string; externalUserId: string },
  opts: {
    title?: string;
    chapters?: ChapterText[];
    status?: "generating" | "completed" | "failed";
    model?: string;
  } = {},
): Promise<string> {
  const chapters = opts.chapters ?? BIOLOGY;
  const id = await insertCourse(dataDir, owner, {
    title: opts.title ?? "Cell Biology",
    chapters: chapters.length,
    status: opts.status,
  });
  const { sqlite } = await openDb(dataDir, { migrate: false });
  try {
    for (const [i, ch] of chapters.entries()) {
      sqlite.run(
        "UPDATE chapters SET title = ?, content = ?, key_concepts = ? WHERE course_id = ? AND order_index = ?",
        [ch.title, ch.content, JSON.stringify(ch.key_concepts), id, i],
      );
    }
    if (opts.model) sqlite.run("UPDATE courses SET model = ?, engine = 'ollama' WHERE id = ?", [opts.model, id]);
    return id;
  } finally {
    sqlite.close();
  }
}

/**
 * Indexes a course's chapters for Q&A (as course completion does), and optionally a source
 * document linked to the course, with the builtin embedder the test servers use.
 */
export async function indexCourse(
  dataDir: string,
  courseId: string,
  source?: { filename: string; markdown: string },
): Promise<void> {
  const { sqlite } = await openDb(dataDir, { migrate: false });
  try {
    const deps = {
      sql: sqliteSql(sqlite),
      embedder: createEmbedder(loadConfig({ DATA_DIR: dataDir, EMBEDDER: "builtin" })),
    };
    const course = sqlite
      .query<{ tenant_id: string; user_id: string }, [string]>("SELECT tenant_id, user_id FROM courses WHERE id = ?")
      .get(courseId)!;
    const chapters = sqlite
      .query<{ id: string; title: string; content: string }, [string]>(
        "SELECT id, title, content FROM chapters WHERE course_id = ?",
      )
      .all(courseId);
    for (const ch of chapters) {
      await indexChapter(deps, {
        tenantId: course.tenant_id,
        userId: course.user_id,
        courseId,
        chapterId: ch.id,
        title: ch.title,
        markdown: ch.content,
      });
    }
    if (!source) return;
    const documentId = newId();
    sqlite.run(
      `INSERT INTO documents (id, tenant_id, user_id, kind, filename, source_type, mime_type, pages, char_count, markdown, status, created_at)
       VALUES (?, ?, ?, 'index', ?, 'file', 'text/markdown', 1, ?, ?, 'ready', ?)`,
      [
        documentId,
        course.tenant_id,
        course.user_id,
        source.filename,
        source.markdown.length,
        source.markdown,
        new Date().toISOString(),
      ],
    );
    sqlite.run("INSERT INTO course_documents (course_id, document_id) VALUES (?, ?)", [courseId, documentId]);
    await indexDocument(deps, {
      tenantId: course.tenant_id,
      userId: course.user_id,
      documentId,
      extract: resultOfMarkdown(source.markdown, { title: source.filename }),
    });
  } finally {
    sqlite.close();
  }
}
