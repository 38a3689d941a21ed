/** Small helpers shared across domains. */

export const nowIso = (): string => new Date().toISOString();

export const newId = (): string => crypto.randomUUID();

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string): boolean => UUID_RE.test(s);

export function sha256Hex(input: string | Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(input).digest("hex");
}

/** Micro-dollars (integers, exact) to USD (the API's money unit). */
export const microsToUsd = (micros: number): number => Math.round(micros) / 1_000_000;

export function slugify(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "course";
}

/** The section a heading path names ("Paper > 3. Trace Trees" → "Trace Trees"), numbering dropped. */
export function sectionTitle(heading: string | readonly string[] | null): string | null {
  const last = (typeof heading === "string" ? heading.split(" > ") : (heading ?? [])).at(-1)?.trim();
  const title = last?.replace(/^(?:\d+(?:\.\d+)*|[IVXLC]+|[A-Z])[.)]?\s+(?=\p{L})/u, "").trim();
  return title || null;
}

/** The value under `key`, made and stored first when there is none. */
export function getOrCreate<K, V>(map: Map<K, V>, key: K, make: () => V): V;
export function getOrCreate<K extends WeakKey, V>(map: WeakMap<K, V>, key: K, make: () => V): V;
export function getOrCreate<K extends WeakKey, V>(map: Map<K, V> | WeakMap<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
