/**
 * The yardstick for the server's /health: a bare Bun.serve answering the same JSON, with no
 * framework, middleware or logging. Prints its URL, then serves until killed.
 */
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json({ status: "ok" }) });
console.log(server.url.href);
