import type { ExportCourse } from "./course-export.ts";
import type { ZipEntry } from "./zip-stream.ts";
export function* scormEntries(_course: ExportCourse): Iterable<ZipEntry> {}
