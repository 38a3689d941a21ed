/**
 * The API reference page's script: @scalar/api-reference's standalone bundle. Scalar is a dev
 * dependency (it brings Vue, CodeMirror and some 270 packages for one page): `npm run build`
 * embeds this one file in the executable (build.ts); run from source it is read from
 * node_modules, and a production install without dev dependencies has no reference page.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

const STANDALONE = join(import.meta.dir, "../../node_modules/@scalar/api-reference/dist/browser/standalone.js");

/** The script, or null when Scalar is not installed. */
export const scalarBundle = async (): Promise<Blob | null> => (existsSync(STANDALONE) ? Bun.file(STANDALONE) : null);
