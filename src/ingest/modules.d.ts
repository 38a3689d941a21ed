// Bun embeds these data files and imports them as a path (`with { type: "file" }`).
declare module "*.traineddata.gz" {
  const path: string;
  export default path;
}
declare module "*.wasm" {
  const path: string;
  export default path;
}
declare module "an-array-of-english-words/index.json" {
  const path: string;
  export default path;
}
