export * from "./console.ts";
export * from "./core.ts";
export * from "./materials.ts";
export * from "./podcasts.ts";
export * from "./progress.ts";
export * from "./retrieval.ts";
export * from "./webhooks.ts";
