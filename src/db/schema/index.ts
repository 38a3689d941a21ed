export * from "./core.ts";
export * from "./materials.ts";
export * from "./webhooks.ts";
export * from "./podcasts.ts";
export * from "./retrieval.ts";
export * from "./console.ts";
export * from "./progress.ts";
