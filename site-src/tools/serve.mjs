// A small static file server for a built site (node built-ins only), used by
// the browser tests and handy for a local look at dist/.
// Usage: node tools/serve.mjs [DIR] [PORT]   (defaults: ../dist, 8000; binds 127.0.0.1)
import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const CONTENT_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

async function statOrNull(path) {
  try {
    return await stat(path);
  } catch {
    return null;
  }
}

/** Resolves a URL path to a file under root, or null; never leaves root. */
async function locate(root, pathname) {
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { kind: "missing" };
  }
  if (decoded.includes("\0")) {
    return { kind: "missing" };
  }
  const candidate = resolve(root, `.${decoded}`);
  if (candidate !== root && !candidate.startsWith(root + sep)) {
    return { kind: "missing" };
  }
  const info = await statOrNull(candidate);
  if (info === null) {
    return { kind: "missing" };
  }
  if (info.isDirectory()) {
    if (!pathname.endsWith("/")) {
      return { kind: "redirect", location: `${pathname}/` };
    }
    const index = join(candidate, "index.html");
    const indexInfo = await statOrNull(index);
    return indexInfo?.isFile() ? { kind: "file", path: index, size: indexInfo.size } : { kind: "missing" };
  }
  // Symlinks pointing outside root are refused too.
  const real = await realpath(candidate);
  if (real !== root && !real.startsWith(root + sep)) {
    return { kind: "missing" };
  }
  return info.isFile() ? { kind: "file", path: candidate, size: info.size } : { kind: "missing" };
}

function sendFile(request, response, status, path, size) {
  response.writeHead(status, {
    "Content-Type": CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream",
    "Content-Length": size,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  });
  if (request.method === "HEAD") {
    response.end();
    return;
  }
  createReadStream(path).pipe(response);
}

/**
 * Serves `dir` on 127.0.0.1. Port 0 picks a free port.
 * Resolves to { server, port, origin, close() }.
 */
export async function startServer(dir, port = 0) {
  const root = await realpath(resolve(dir));
  const server = createServer((request, response) => {
    const handle = async () => {
      if (request.method !== "GET" && request.method !== "HEAD") {
        response.writeHead(405, { Allow: "GET, HEAD" }).end();
        return;
      }
      const { pathname } = new URL(request.url ?? "/", "http://127.0.0.1");
      const found = await locate(root, pathname);
      if (found.kind === "file") {
        sendFile(request, response, 200, found.path, found.size);
      } else if (found.kind === "redirect") {
        response.writeHead(301, { Location: found.location }).end();
      } else {
        const notFound = join(root, "404.html");
        const info = await statOrNull(notFound);
        if (info?.isFile()) {
          sendFile(request, response, 404, notFound, info.size);
        } else {
          response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found\n");
        }
      }
    };
    handle().catch(() => {
      if (!response.headersSent) {
        response.writeHead(500);
      }
      response.end();
    });
  });
  await new Promise((resolveListen, rejectListen) => {
    server.once("error", rejectListen);
    server.listen(port, "127.0.0.1", () => resolveListen());
  });
  const address = server.address();
  const boundPort = typeof address === "object" && address !== null ? address.port : port;
  return {
    server,
    port: boundPort,
    origin: `http://127.0.0.1:${boundPort}`,
    close: () =>
      new Promise((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = fileURLToPath(new URL("..", import.meta.url));
  const dir = process.argv[2] ?? join(here, "..", "dist");
  const port = Number.parseInt(process.argv[3] ?? "8000", 10);
  const { origin } = await startServer(dir, port);
  console.log(`serving ${resolve(dir)} at ${origin}/`);
}
