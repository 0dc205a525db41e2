// The folio server the client tests talk to: FOLIO_URL when the Go test
// (site/client_test.go) started one, else `go run . serve` on this folder's
// config and content, on a free port of 127.0.0.1.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * @returns {Promise<{base: string, stop: () => void}>}
 */
export async function startFolio() {
  if (process.env.FOLIO_URL) return { base: process.env.FOLIO_URL, stop() {} };
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const config = fileURLToPath(new URL("./config.toml", import.meta.url));
  const child = spawn("go", ["run", ".", "serve", "--addr", "127.0.0.1:0", "--config", config], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
    detached: true, // its own process group: go run and the server it starts
  });
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  const base = await new Promise((resolve, reject) => {
    let log = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      log += chunk;
      const m = log.match(/folio: serving (\S+) /);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`folio exited with ${code}:\n${log}`)));
  });
  return { base, stop };
}
