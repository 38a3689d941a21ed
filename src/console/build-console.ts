/**
 * Bundles the web console (src/console/web, TypeScript + Preact) for browsers with Bun's bundler:
 * one minified script, one stylesheet and the page that loads them. build.ts embeds the result in
 * the executable; run from source, the server bundles on first request (bundle.ts).
 */
import { join } from "node:path";

export interface ConsoleFile {
  type: string;
  body: string;
}

const WEB = join(import.meta.dir, "web");

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>courseforge console</title>
<link rel="stylesheet" href="/app/assets/main.css">
<script type="module" src="/app/assets/main.js"></script>
</head>
<body><div id="root"></div><noscript>The courseforge console needs JavaScript.</noscript></body>
</html>
`;

/** Every file of the console by its path under /app/ ("" is the page itself). */
export async function buildConsole(): Promise<Record<string, ConsoleFile>> {
  const result = await Bun.build({
    entrypoints: [join(WEB, "main.tsx")],
    target: "browser",
    minify: true,
    naming: "[name].[ext]",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!result.success) throw new AggregateError(result.logs, "the web console did not build");
  const files: Record<string, ConsoleFile> = { "": { type: "text/html; charset=utf-8", body: PAGE } };
  for (const output of result.outputs) {
    const name = output.path.replace(/^.*[\\/]/, "");
    files[`assets/${name}`] = { type: output.type, body: await output.text() };
  }
  return files;
}
