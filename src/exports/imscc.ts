import type { ExportCourse } from "./course-export.ts";
import type { ZipEntry } from "./zip-stream.ts";
export function* imsccEntries(_course: ExportCourse): Iterable<ZipEntry> {}
