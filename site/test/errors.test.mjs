// The client's errors over answers a folio server does not give but a
// proxy, an HTTP/2 hop or another runtime may: options.fetch stands in
// for the network. client.test.mjs covers the real server's answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "../sdk/blog-client.js";

const base = "https://example.org/";
const list = "https://example.org/api/posts.json";

/** A client whose every request gets answer(). */
const answering = (answer) => createClient(base, { fetch: async () => answer() });

/** A client whose every request fails with error. */
const failing = (error) => createClient(base, { fetch: async () => { throw error; } });

const problem = (body, init) =>
  new Response(JSON.stringify(body), { ...init, headers: { "Content-Type": "application/problem+json" } });

test("HTTP errors: the message, status, url and problem", async () => {
  const cases = [
    {
      name: "problem with a status text",
      res: () => problem({ type: "about:blank", title: "Bad Request", status: 400, detail: "malformed cursor: x" },
        { status: 400, statusText: "Bad Request" }),
      message: `blog-client: GET ${list}: 400 Bad Request: malformed cursor: x`,
      status: 400, detail: "malformed cursor: x",
    },
    {
      name: "problem over HTTP/2 (no status text): the title stands in",
      res: () => problem({ title: "Not Found", status: 404, detail: "no such resource: /x" }, { status: 404 }),
      message: `blog-client: GET ${list}: 404 Not Found: no such resource: /x`,
      status: 404, detail: "no such resource: /x",
    },
    {
      name: "problem without a detail",
      res: () => problem({ title: "Gone", status: 410 }, { status: 410, statusText: "Gone" }),
      message: `blog-client: GET ${list}: 410 Gone`,
      status: 410, detail: undefined,
    },
    {
      name: "a proxy's HTML error page is not a problem",
      res: () => new Response("<h1>502</h1>", { status: 502, statusText: "Bad Gateway", headers: { "Content-Type": "text/html" } }),
      message: `blog-client: GET ${list}: 502 Bad Gateway`,
      status: 502, problem: undefined,
    },
    {
      name: "a problem body that is not JSON",
      res: () => new Response("{oops", { status: 500, statusText: "Internal Server Error", headers: { "Content-Type": "application/problem+json" } }),
      message: `blog-client: GET ${list}: 500 Internal Server Error`,
      status: 500, problem: undefined,
    },
    {
      name: "a problem whose detail is not a string",
      res: () => problem({ title: "Bad Request", detail: { nested: true } }, { status: 400, statusText: "Bad Request" }),
      message: `blog-client: GET ${list}: 400 Bad Request`,
      status: 400,
    },
  ];
  for (const c of cases) {
    await assert.rejects(answering(c.res).listPosts(), (err) => {
      assert.ok(err instanceof Error, c.name);
      assert.equal(err.message, c.message, c.name);
      assert.equal(err.status, c.status, c.name);
      assert.equal(err.url, list, c.name);
      if ("problem" in c) assert.equal(err.problem, c.problem, c.name);
      if ("detail" in c) assert.equal(err.problem.detail, c.detail, c.name);
      return true;
    }, c.name);
  }
});

test("network errors: the causes' messages and codes", async () => {
  // Node's fetch: TypeError("fetch failed") caused by the socket's error.
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8080"), { code: "ECONNREFUSED" });
  // Node with happy eyeballs: an AggregateError with no message of its own.
  const both = Object.assign(new AggregateError([
    Object.assign(new Error("connect ECONNREFUSED ::1:8080"), { code: "ECONNREFUSED" }),
    Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8080"), { code: "ECONNREFUSED" }),
  ], ""), { code: "ECONNREFUSED" });
  // A cause with a code its message does not name.
  const reset = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
  const looped = new Error("loop");
  looped.cause = looped;
  const cases = [
    [new TypeError("fetch failed", { cause: refused }), "fetch failed: connect ECONNREFUSED 127.0.0.1:8080"],
    [new TypeError("fetch failed", { cause: both }),
      "fetch failed: connect ECONNREFUSED ::1:8080; connect ECONNREFUSED 127.0.0.1:8080"],
    [new TypeError("fetch failed", { cause: reset }), "fetch failed: ECONNRESET: socket hang up"],
    [new TypeError("Failed to fetch"), "Failed to fetch"], // a browser's
    [looped, "loop"],
    ["a string", "a string"],
  ];
  for (const [error, detail] of cases) {
    await assert.rejects(failing(error).listPosts(), (err) => {
      assert.equal(err.message, `blog-client: GET ${list} failed: ${detail}`);
      assert.equal(err.cause, error, "the fetch error is the cause");
      assert.equal(err.url, list);
      return true;
    }, detail);
  }
});

test("getMarkdown checks the Content-Type", async () => {
  // Bytes, not a string: a string body would get text/plain by default.
  const body = new TextEncoder().encode("# Title\n");
  const md = (type) => answering(() => new Response(body, { headers: type ? { "Content-Type": type } : {} }));
  for (const type of ["text/markdown; charset=utf-8", "text/markdown", "Text/Markdown;charset=UTF-8", "text/markdown ; variant=CommonMark"]) {
    assert.equal(await md(type).getMarkdown("https://example.org/a.md"), "# Title\n", type);
  }
  for (const [type, got] of [["text/html; charset=utf-8", "text/html; charset=utf-8"], ["text/plain", "text/plain"],
    ["text/markdownish", "text/markdownish"], [undefined, "no Content-Type"]]) {
    await assert.rejects(md(type).getMarkdown("https://example.org/a.md"), (err) => {
      assert.equal(err.message, `blog-client: GET https://example.org/a.md: expected text/markdown, got ${got}`);
      assert.equal(err.status, 200);
      return true;
    }, got);
  }
});

test("getMarkdown names a URL it cannot use", async () => {
  const client = answering(() => new Response(null, { status: 500 }));
  await assert.rejects(client.getMarkdown("http://["), (err) => {
    assert.ok(err instanceof TypeError);
    assert.equal(err.message, 'blog-client: getMarkdown: not a URL: "http://["');
    return true;
  });
  await assert.rejects(client.getMarkdown({}), TypeError);
});
