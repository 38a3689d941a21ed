export * from "./core.ts";
export * from "./podcasts.ts";
