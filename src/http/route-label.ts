/**
 * The route a request names, for logs and metrics, when the router never reached it: a request
 * refused before routing (401, 403, 429) has no route of Elysia's, and was logged as "unmatched",
 * hiding which endpoint was being refused. Patterns are the app's own routes, matched as the
 * router matches them (`:name` one segment, `*` the rest); a path no route names stays unmatched,
 * so arbitrary URLs cannot grow the metric set.
 */
interface RoutePattern {
  method: string;
  path: string;
  re: RegExp;
}

const toRegExp = (path: string) =>
  new RegExp(
    `^${path
      .split("/")
      .map((part) =>
        part === "*" ? ".*" : part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("/")}$`,
  );

export function routeLabeler(routes: () => readonly { method: string; path: string }[]) {
  let patterns: RoutePattern[] | null = null;
  return (method: string, path: string): string => {
    patterns ??= routes().map((r) => ({ method: r.method, path: r.path, re: toRegExp(r.path) }));
    const found = patterns.find((p) => (p.method === method || p.method === "ALL") && p.re.test(path));
    return found?.path ?? "unmatched";
  };
}
