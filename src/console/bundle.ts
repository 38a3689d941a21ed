/**
 * The web console's files. Run from source they are bundled once, on first use; in the executable
 * build.ts replaces this module with the files it bundled at build time, so the compiled server
 * never runs the bundler.
 */
import { buildConsole, type ConsoleFile } from "./build-console.ts";

let files: Promise<Record<string, ConsoleFile>> | null = null;

export const consoleFiles = (): Promise<Record<string, ConsoleFile>> =>
  (files ??= buildConsole().catch((err) => {
    // A failed build is tried again on the next request rather than remembered.
    files = null;
    throw err;
  }));
