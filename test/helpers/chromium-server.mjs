// Runs Playwright's browser server under Node, beside the Bun test process: Playwright's in-process
// mode relies on Node's event-loop ordering, and under Bun it sometimes dispatches a response
// before its request. Prints the WebSocket endpoint, closes the browser when stdin ends.
import { chromium } from "playwright-core";

const [executablePath, args] = process.argv.slice(2);
const server = await chromium.launchServer({ executablePath, headless: true, args: JSON.parse(args) });
process.stdout.write(`${server.wsEndpoint()}\n`);
process.stdin.on("end", async () => {
  await server.close();
  process.exit(0);
});
process.stdin.resume();
