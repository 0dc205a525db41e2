// Tests of the client against a real folio server serving ./content: the
// Go test TestJSClient (site/client_test.go) starts one and passes its URL
// in FOLIO_URL; run alone, ./folio.mjs starts `go run . serve`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { createClient, searchPosts } from "../sdk/blog-client.js";
import { startFolio } from "./folio.mjs";

let base, stop, client;

before(async () => {
  ({ base, stop } = await startFolio());
  client = createClient(base);
});
after(() => stop?.());

// The fixture's visible posts, newest first (publish date, then slug); the
// draft and the post dated 2099 are never listed.
const expected = [
  "go-http", "markdown-agents", "no-category", "empty-category",
  "cafe", "trip", "same-day-a", "same-day-b",
];

const slugs = (list) => list.map((p) => p.slug);

test("listPosts returns every published post, newest first", async () => {
  const posts = await client.listPosts();
  assert.deepEqual(slugs(posts), expected);
  for (const p of posts) {
    assert.equal(typeof p.title, "string");
    assert.equal(typeof p.description, "string");
    assert.ok(Array.isArray(p.tags));
    assert.equal(p.url, new URL(`blog/${p.slug}/`, base).href);
    assert.equal(p.markdownUrl, new URL(`blog/${p.slug}.md`, base).href);
    assert.match(p.date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  }
  const noCategory = posts.find((p) => p.slug === "no-category");
  assert.ok(!noCategory.category, "category absent or empty");
});

test("cursor pages, walked to the end, equal the full list", async () => {
  const all = await client.listPosts();
  const walked = [];
  const cursors = [];
  for await (const page of client.pages()) {
    assert.ok(page.items.length >= 1 && page.items.length <= 2, "pageSize is 2 in test/config.toml");
    walked.push(...page.items);
    cursors.push(page.nextCursor);
  }
  assert.deepEqual(walked, all);
  assert.equal(cursors.length, 4, "eight posts in pages of two");
  assert.equal(cursors.at(-1), null, "the last page's nextCursor is null");
  for (const c of cursors.slice(0, -1)) assert.match(c, /^[A-Za-z0-9_-]{1,128}$/);
});

test("pages can be left early", async () => {
  for await (const page of client.pages()) {
    assert.deepEqual(slugs(page.items), expected.slice(0, 2));
    break;
  }
});

test("search keeps posts where every term occurs", async () => {
  const cases = [
    // Each term alone matches more posts than both together.
    ["go http", ["go-http"]],
    ["HTTP   Go", ["go-http"]],
    ["http", ["go-http", "markdown-agents"]],
    ["order slug", ["same-day-a", "same-day-b"]],
    // Category: from categories, from category, absent, empty.
    ["golang", ["go-http"]],
    ["web agents", ["markdown-agents"]],
    ["tags category", ["no-category"]],
    ["empty", ["empty-category"]],
    ["undefined", []],
    ["null", []],
    // Non-ASCII letters lower-case too.
    ["ÉTÉ unicode", ["cafe"]],
    ["naïveté", ["cafe"]],
    // Drafts and future posts are not in the list to search.
    ["draft", []],
    ["future", []],
    ["", expected],
  ];
  const all = await client.listPosts();
  for (const [query, want] of cases) {
    const got = await client.search(query);
    assert.deepEqual(slugs(got), want, `search(${JSON.stringify(query)})`);
    assert.deepEqual(got, searchPosts(all, query), "search is searchPosts over listPosts");
  }
});

test("getMarkdown fetches the article's Markdown", async () => {
  const [post] = await client.listPosts();
  const md = await client.getMarkdown(post);
  assert.match(md, /^---\ntitle: "Serving HTTP in Go"\n/);
  assert.match(md, /\n# Serving HTTP in Go\n/);
  assert.match(md, /```go\n/);
  assert.equal(await client.getMarkdown(post.markdownUrl), md, "by markdownUrl");
  assert.equal(await client.getMarkdown(post.url), md, "by page URL, negotiated");
  assert.equal(await client.getMarkdown(new URL(post.markdownUrl)), md, "by URL object");
});

test("HTTP failures reject with the status and the URL", async () => {
  const missing = new URL("blog/no-such-post.md", base).href;
  await assert.rejects(client.getMarkdown(missing), (err) => {
    assert.ok(err instanceof Error);
    assert.match(err.message, /404/);
    assert.ok(err.message.includes(missing), err.message);
    return true;
  });
  const elsewhere = createClient(new URL("nowhere/", base));
  const list = new URL("nowhere/api/posts.json", base).href;
  await assert.rejects(elsewhere.listPosts(), (err) => err.message.includes("404") && err.message.includes(list));
  await assert.rejects(elsewhere.pages().next(), /404/);
  await assert.rejects(client.getMarkdown({}), TypeError);
});

test("HTTP failures carry the problem's detail, status and body", async () => {
  const missing = new URL("blog/no-such-post.md", base).href;
  await assert.rejects(client.getMarkdown(missing), (err) => {
    assert.equal(err.message, `blog-client: GET ${missing}: 404 Not Found: no such resource: /blog/no-such-post.md`);
    assert.equal(err.status, 404);
    assert.equal(err.url, missing);
    assert.equal(err.problem.status, 404);
    assert.equal(err.problem.detail, "no such resource: /blog/no-such-post.md");
    return true;
  });
  // A nextCursor the server never issued: the real server's 400 answer.
  const tampering = createClient(base, {
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      if (!url.endsWith("/cursor/0.json")) return res;
      return Response.json({ ...(await res.json()), nextCursor: "x" });
    },
  });
  const bad = new URL("api/posts/cursor/x.json", base).href;
  await assert.rejects(async () => {
    for await (const page of tampering.pages()) assert.ok(page.items.length > 0);
  }, (err) => {
    assert.ok(err.message.startsWith(`blog-client: GET ${bad}: 400 Bad Request: malformed cursor: `), err.message);
    assert.equal(err.status, 400);
    assert.equal(err.problem.title, "Bad Request");
    assert.match(err.problem.detail, /^malformed cursor: /);
    return true;
  });
});

/** A port of 127.0.0.1 that nothing listens on: bound, then closed. */
async function closedPort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test("network failures reject with the URL and the cause's code", async () => {
  const port = await closedPort();
  const down = createClient(`http://127.0.0.1:${port}/`);
  await assert.rejects(down.listPosts(), (err) => {
    assert.ok(err.message.startsWith(`blog-client: GET http://127.0.0.1:${port}/api/posts.json failed: `), err.message);
    assert.ok(err.message.includes(`ECONNREFUSED 127.0.0.1:${port}`), err.message);
    assert.ok(err.cause instanceof Error, "the fetch error is kept as cause");
    assert.equal(err.url, `http://127.0.0.1:${port}/api/posts.json`);
    return true;
  });
  // Port 1 is one fetch refuses to use ("bad port"), before any connection.
  const refused = createClient("http://127.0.0.1:1/");
  await assert.rejects(refused.listPosts(), (err) =>
    err.message.includes("http://127.0.0.1:1/api/posts.json") && err.message.includes("bad port"));
});

test("getMarkdown rejects an answer that is not Markdown", async () => {
  // The feed ignores Accept and answers RSS.
  const feed = new URL("rss.xml", base).href;
  await assert.rejects(client.getMarkdown(feed), (err) => {
    assert.equal(err.message, `blog-client: GET ${feed}: expected text/markdown, got application/rss+xml; charset=utf-8`);
    assert.equal(err.status, 200);
    assert.equal(err.url, feed);
    return true;
  });
  await assert.rejects(client.getMarkdown(new URL("api/posts.json", base)), /expected text\/markdown, got application\/json/);
});

test("createClient names a base URL it cannot use", () => {
  for (const input of ["not a url", "", "localhost:1313", "mailto:a@example.org"]) {
    assert.throws(() => createClient(input), (err) => {
      assert.ok(err instanceof TypeError);
      assert.ok(err.message.startsWith("blog-client: "), err.message);
      assert.ok(err.message.includes(JSON.stringify(input)), err.message);
      return true;
    }, JSON.stringify(input));
  }
  assert.doesNotThrow(() => createClient(new URL(base)));
});

test("options.fetch replaces the global fetch", async () => {
  const seen = [];
  const counting = createClient(base, {
    fetch: (url, init) => {
      seen.push([url, init.headers.Accept]);
      return fetch(url, init);
    },
  });
  await counting.listPosts();
  assert.deepEqual(seen, [[new URL("api/posts.json", base).href, "application/json"]]);
});

test("a base URL without a trailing slash is a folder", async () => {
  const noSlash = createClient(base.replace(/\/$/, ""));
  assert.deepEqual(slugs(await noSlash.listPosts()), expected);
});
