// Bun embeds these data files and imports them as a path (`with { type: "file" }`).
declare module "*.traineddata.gz" {
  const path: string;
  export default path;
}

// turndown-plugin-gfm ships no types; only the plugin we use is declared.
declare module "turndown-plugin-gfm" {
  import type TurndownService from "turndown";
  export const gfm: TurndownService.Plugin;
}
