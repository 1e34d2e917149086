// A tiny static file server for trying the page: serves the repository on 127.0.0.1 only.
//   node Web/serve.mjs [PORT]      then open http://127.0.0.1:8080/Web/
// (Any static server works, for example `python3 -m http.server -b 127.0.0.1 -d . 8080`; browsers do not run
// module workers or fetch kdbx.wasm from file:// URLs.)
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { dirname, extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = normalize(join(dirname(fileURLToPath(import.meta.url)), ".."));
const types = {
  ".html": "text/html; charset=utf-8", ".mjs": "text/javascript", ".js": "text/javascript",
  ".wasm": "application/wasm", ".png": "image/png", ".json": "application/json",
};

/** Starts the server; resolves to it once it listens (port 0: any free port). */
export function serve(port = 8080) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, "http://127.0.0.1").pathname);
    let file = normalize(join(root, path));
    if (request.method !== "GET" || (file !== root && !file.startsWith(root + sep))) {
      response.writeHead(403).end();
      return;
    }
    if (path.endsWith("/")) file = join(file, "index.html");
    try {
      const body = await readFile(file);
      response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await serve(Number(process.argv[2] ?? 8080));
  console.log(`serving ${root} on http://127.0.0.1:${server.address().port}/Web/`);
}
