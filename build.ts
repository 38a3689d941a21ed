/**
 * Builds dist/courseforge: one self-contained executable (Bun runtime + our code + embedded
 * migrations, prompts, sqlite-vec, OCR language data, the eSpeak NG data, the docs page, the web
 * console, and the worker threads' entry points). Run with `bun run build`.
 */
import { rmSync } from "node:fs";
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
const WORKER_ENTRIES = ["./src/ingest/ocr-worker.ts", "./src/llm/extractive/extractive-worker.ts"];

/**
 * transformers.js as the executable needs it. Its Node build loads onnxruntime-node through
 * createRequire at run time, which the bundler cannot follow (the executable then looks for
 * node_modules): that call becomes a static import. It also loads sharp for image pipelines at
 * start-up, a native module we never use (text embeddings only): a stub stands in for it.
 */
const transformersForExecutable: BunPlugin = {
  name: "transformers-for-executable",
  setup(build) {
    build.onResolve({ filter: /^sharp$/ }, () => ({ path: "sharp", namespace: "courseforge-stub" }));
    build.onLoad({ filter: /.*/, namespace: "courseforge-stub" }, () => ({
      contents: 'export default function sharp() { throw new Error("image pipelines are not part of courseforge"); }',
      loader: "js",
    }));
    build.onLoad({ filter: /@huggingface\/transformers\/dist\/transformers\.node\.mjs$/ }, async ({ path }) => {
      const source = await Bun.file(path).text();
      const runtimeRequire = 'requireFromHere("onnxruntime-node")';
      if (!source.includes(runtimeRequire))
        throw new Error("transformers.js no longer loads onnxruntime-node as build.ts expects");
      return {
        contents: `import onnxruntimeNode from "onnxruntime-node";\n${source.replace(runtimeRequire, "onnxruntimeNode")}`,
        loader: "js",
      };
    });
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
  minify: true,
  naming: { entry: "[name].[ext]" },
  plugins: [transformersForExecutable, embeddedConsole],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${outfile}`);
