// folio blog client: a dependency-free ES module for browsers and Node 18+.
//
//   import { createClient, searchPosts } from "https://example.org/sdk/blog-client.js";
//   const blog = createClient("https://example.org/");
//   const hits = await blog.search("go http");
//   const text = await blog.getMarkdown(hits[0]);
//
// Search runs here, in the client, never on the server: every term of the
// query must occur in the lower-cased text made of a post's title,
// description, category and tags. The blog directory page and its WebMCP
// tool search_blog_posts call the same searchPosts.

/**
 * A post record, as /api/posts.json and the cursor pages return it.
 *
 * @typedef {object} Post
 * @property {string} slug The post's URL segment.
 * @property {string} title Post title.
 * @property {string} description Post description; "" when none.
 * @property {string} [category] Post category; absent or empty when none.
 * @property {string[]} tags Tags; [] when none.
 * @property {string} date Publish date, RFC 3339 in UTC.
 * @property {string} [updated] Last modification date, when set.
 * @property {string} url The canonical page URL.
 * @property {string} markdownUrl URL of the article as Markdown.
 * @property {boolean} [draft] True for unpublished posts (folio dev --drafts only).
 */

/**
 * One cursor page of the post list.
 *
 * @typedef {object} Page
 * @property {Post[]} items Up to the server's page size of posts.
 * @property {string | null} nextCursor The next page's cursor; null on the last page.
 */

/**
 * Options of createClient.
 *
 * @typedef {object} ClientOptions
 * @property {typeof fetch} [fetch] Replaces the global fetch (for tests,
 *   proxies, or runtimes without one).
 */

/**
 * A client of one folio site.
 *
 * @typedef {object} BlogClient
 * @property {() => Promise<Post[]>} listPosts Every published post, newest first.
 * @property {() => AsyncGenerator<Page, void, void>} pages The cursor pages
 *   from cursor 0 until nextCursor is null.
 * @property {(query: string) => Promise<Post[]>} search The posts that match
 *   query (see searchPosts).
 * @property {(postOrUrl: Post | string) => Promise<string>} getMarkdown The
 *   article's Markdown, from a post's markdownUrl or a URL.
 */

/**
 * Returns the posts that match query, in their original order. Terms are
 * the query split on white space and lower-cased; a post matches when every
 * term occurs in the lower-cased text made of its title, description,
 * category and tags (missing or empty values are left out). An empty query
 * matches every post. Pure: no network, the input is not changed.
 *
 * @param {readonly Post[]} posts The posts to filter.
 * @param {string} query The search terms.
 * @returns {Post[]} A new array of the matching posts.
 */
export function searchPosts(posts, query) {
  const terms = String(query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [...posts];
  return posts.filter((post) => {
    const text = searchText(post);
    return terms.every((term) => text.includes(term));
  });
}

/**
 * The text a post is searched in: title, description, category and tags,
 * falsy values left out, joined by spaces and lower-cased. Terms never hold
 * white space, so a term cannot match across two fields.
 *
 * @param {Post} post
 * @returns {string}
 */
function searchText(post) {
  const tags = Array.isArray(post?.tags) ? post.tags : [];
  return [post?.title, post?.description, post?.category, ...tags]
    .filter(Boolean)
    .join(" ")
    .toLowerCase();
}

/**
 * Creates a client of the folio site at baseUrl.
 *
 * @param {string | URL} baseUrl The site's base URL, e.g. "https://example.org/".
 *   In a browser a relative URL resolves against the page.
 * @param {ClientOptions} [options]
 * @returns {BlogClient}
 * @throws {TypeError} When baseUrl is not a URL or there is no fetch.
 */
export function createClient(baseUrl, options = {}) {
  const base = new URL(String(baseUrl), globalThis.location?.href);
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") {
    throw new TypeError("blog-client: no fetch; pass options.fetch");
  }

  /**
   * GETs url and returns the response, rejecting on network errors and
   * on any status other than 2xx with the status and URL in the message.
   *
   * @param {URL} url
   * @param {string} accept
   * @returns {Promise<Response>}
   */
  async function get(url, accept) {
    let res;
    try {
      res = await fetchImpl(url.href, { headers: { Accept: accept } });
    } catch (err) {
      throw new Error(`blog-client: GET ${url.href} failed: ${err?.message ?? err}`, { cause: err });
    }
    if (!res.ok) {
      const text = res.statusText ? ` ${res.statusText}` : "";
      throw new Error(`blog-client: GET ${url.href}: HTTP ${res.status}${text}`);
    }
    return res;
  }

  /**
   * GETs a JSON document with an items array.
   *
   * @param {string} path Site-relative path.
   * @returns {Promise<{items: Post[], nextCursor?: string | null}>}
   */
  async function getItems(path) {
    const url = new URL(path, base);
    const res = await get(url, "application/json");
    let body;
    try {
      body = await res.json();
    } catch (err) {
      throw new Error(`blog-client: GET ${url.href}: invalid JSON: ${err?.message ?? err}`, { cause: err });
    }
    if (!body || !Array.isArray(body.items)) {
      throw new Error(`blog-client: GET ${url.href}: no items array in the answer`);
    }
    return body;
  }

  async function listPosts() {
    return (await getItems("api/posts.json")).items;
  }

  async function* pages() {
    const seen = new Set();
    let cursor = "0";
    while (cursor !== null) {
      if (seen.has(cursor)) {
        throw new Error(`blog-client: cursor ${cursor} was issued twice; stopping`);
      }
      seen.add(cursor);
      const page = await getItems(`api/posts/cursor/${encodeURIComponent(cursor)}.json`);
      const next = page.nextCursor ?? null;
      yield { items: page.items, nextCursor: next };
      cursor = next;
    }
  }

  async function search(query) {
    return searchPosts(await listPosts(), query);
  }

  async function getMarkdown(postOrUrl) {
    const target = typeof postOrUrl === "string" || postOrUrl instanceof URL
      ? String(postOrUrl)
      : postOrUrl?.markdownUrl;
    if (!target) {
      throw new TypeError("blog-client: getMarkdown needs a post with a markdownUrl, or a URL");
    }
    // An article page URL works too: the server negotiates on Accept.
    const res = await get(new URL(target, base), "text/markdown");
    return res.text();
  }

  return { listPosts, pages, search, getMarkdown };
}
