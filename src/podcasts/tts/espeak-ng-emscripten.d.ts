// The package ships JavaScript only; these are the parts of its Emscripten/WebIDL surface we call.
declare module "@echogarden/espeak-ng-emscripten" {
  interface ESpeakNGWorker {
    set_voice(name: string): number;
    set_rate(wordsPerMinute: number): number;
    set_pitch(pitch: number): number;
    get_samplerate(): number;
    list_voices(): { identifier: string; name: string }[];
    synthesize(text: string, onChunk: (samples: Int16Array, events: unknown[]) => boolean | number | undefined): void;
    convert_to_phonemes(text: string, useIpa: boolean): { ptr: number };
  }
  interface ESpeakNGModule {
    eSpeakNGWorker: new () => ESpeakNGWorker;
    HEAPU8: Uint8Array;
    _free(ptr: number): void;
  }
  export default function init(moduleArg?: {
    getPreloadedPackage?: (name: string, size: number) => ArrayBuffer;
  }): Promise<ESpeakNGModule>;
}

declare module "@echogarden/espeak-ng-emscripten/espeak-ng.data" {
  const path: string;
  export default path;
}
