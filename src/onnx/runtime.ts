/**
 * onnxruntime-node, loadable inside the compiled executable too. There the native binding is
 * embedded and extracted to a temporary folder at run time, but the library it links against,
 * libonnxruntime.so.1, is only looked for beside the binding ($ORIGIN). So the library is embedded
 * as a file as well, copied out once and loaded into the process first: the dynamic linker then
 * satisfies the binding's dependency by its soname. Run from node_modules, nothing of this is needed.
 */
import { dlopen } from "bun:ffi";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ortLibrary from "onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1" with { type: "file" };
import { realFileOf } from "../embedded-file.ts";

type OnnxRuntime = typeof import("onnxruntime-node");

let loading: Promise<OnnxRuntime> | null = null;

async function preloadEmbeddedLibrary(): Promise<void> {
  const path = await realFileOf(ortLibrary, join(tmpdir(), "courseforge-onnxruntime"), "libonnxruntime.so.1");
  if (path === ortLibrary) return;
  // bun:ffi wants at least one symbol; OrtGetApiBase is the library's one C entry point.
  dlopen(path, { OrtGetApiBase: { args: [], returns: "ptr" } });
}

/** onnxruntime-node, after making sure its native library can be found. */
export function loadOnnxRuntime(): Promise<OnnxRuntime> {
  loading ??= preloadEmbeddedLibrary().then(() => import("onnxruntime-node"));
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
