// Unit tests of searchPosts: pure, no server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { searchPosts } from "../sdk/blog-client.js";

const posts = [
  { slug: "a", title: "Serving HTTP in Go", description: "Handlers and timeouts.", category: "golang", tags: ["go", "http"] },
  { slug: "b", title: "Markdown for agents", description: "A Markdown twin.", category: "web", tags: ["markdown", "http"] },
  { slug: "c", title: "No category", description: "", tags: ["notes"] },
  { slug: "d", title: "Empty category", description: "", category: "", tags: [] },
  { slug: "e", title: "Café naïve", description: "Beyond ASCII.", category: "Unicode", tags: ["ÉTÉ"] },
  { slug: "f", title: "Missing fields", description: null, category: null, tags: null },
];

const slugs = (list) => list.map((p) => p.slug);

test("every term must occur", () => {
  assert.deepEqual(slugs(searchPosts(posts, "http")), ["a", "b"]);
  assert.deepEqual(slugs(searchPosts(posts, "http go")), ["a"]);
  assert.deepEqual(slugs(searchPosts(posts, "http go markdown")), []);
});

test("terms are case-insensitive, in any order, split on any white space", () => {
  assert.deepEqual(slugs(searchPosts(posts, "GO Http")), ["a"]);
  assert.deepEqual(slugs(searchPosts(posts, "  http\t\n go  ")), ["a"]);
  assert.deepEqual(slugs(searchPosts(posts, "go\u00a0http")), ["a"], "no-break space separates terms");
});

test("terms match substrings of any field", () => {
  assert.deepEqual(slugs(searchPosts(posts, "timeout")), ["a"], "description");
  assert.deepEqual(slugs(searchPosts(posts, "web")), ["b"], "category");
  assert.deepEqual(slugs(searchPosts(posts, "notes")), ["c"], "tag");
  assert.deepEqual(slugs(searchPosts(posts, "agents twin")), ["b"], "title and description");
});

test("absent, empty and null values are left out, not stringified", () => {
  for (const q of ["undefined", "null", "false"]) {
    assert.deepEqual(searchPosts(posts, q), [], q);
  }
  assert.deepEqual(slugs(searchPosts(posts, "category")), ["c", "d"]);
  assert.deepEqual(slugs(searchPosts(posts, "fields")), ["f"]);
});

test("lower-casing beyond ASCII", () => {
  assert.deepEqual(slugs(searchPosts(posts, "CAFÉ")), ["e"]);
  assert.deepEqual(slugs(searchPosts(posts, "été unicode")), ["e"]);
});

test("an empty query matches every post, in order", () => {
  for (const q of ["", "   ", undefined, null]) {
    assert.deepEqual(slugs(searchPosts(posts, q)), ["a", "b", "c", "d", "e", "f"]);
  }
});

test("the input is neither changed nor returned", () => {
  const copy = structuredClone(posts);
  const all = searchPosts(posts, "");
  assert.notEqual(all, posts);
  searchPosts(posts, "http");
  assert.deepEqual(posts, copy);
});

test("a term does not match across two fields", () => {
  // "go" ends the title of a and "handlers" starts its description.
  assert.deepEqual(searchPosts(posts, "gohandlers"), []);
});
