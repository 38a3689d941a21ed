export * from "./core.ts";
