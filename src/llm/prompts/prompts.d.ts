// Prompt templates are imported as text (`with { type: "text" }`) so they embed in the compiled binary.
declare module "*.md" {
  const text: string;
  export default text;
}
