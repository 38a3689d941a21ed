/**
 * How every XML document of the exports starts. Text from documents can hold control characters
 * (a PDF's form feeds) that XML 1.0 forbids and xmlbuilder2 writes as they are; they are dropped,
 * or an LMS or podcast app would refuse the whole file.
 */
import type { XMLBuilderCreateOptions } from "xmlbuilder2/lib/interfaces";

export const XML_DECLARATION = {
  version: "1.0",
  encoding: "UTF-8",
  invalidCharReplacement: "",
} as XMLBuilderCreateOptions;
