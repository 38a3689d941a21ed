/** A future time as people say it ("in 10 minutes", "in 4 days"), with Intl's own wording; "now" once it has passed. */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];
const format = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

export function when(iso: string, now = Date.now()): string {
  const ms = Date.parse(iso) - now;
  if (!(ms > 30_000)) return "now";
  const [unit, size] = UNITS.find(([, size]) => ms >= size) ?? UNITS.at(-1)!;
  return format.format(Math.round(ms / size), unit);
}
