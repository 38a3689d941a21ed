/**
 * Static imports of the eSpeak NG build, kept in their own module so that `espeak-wasm.ts` can load
 * them lazily while `bun build --compile` still sees (and embeds) the data file.
 */
import initEspeak from "@echogarden/espeak-ng-emscripten";
import espeakDataPath from "@echogarden/espeak-ng-emscripten/espeak-ng.data" with { type: "file" };

export { espeakDataPath, initEspeak };
