// folio blog client: a dependency-free ES module for browsers and Node 18+.
//
//   import { createClient, searchPosts } from "https://example.org/sdk/blog-client.js";
//   const blog = createClient("https://example.org/");
//   const hits = await blog.search("markdown agents");
//   if (hits.length > 0) console.log(await blog.getMarkdown(hits[0]));
//
// Browsers import it from the blog's URL; Node does not import from http:
// URLs, so save the file and import it from disk (the README shows both).
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
 * A request that fails rejects with an Error whose message starts with
 * "blog-client: " and names the status (when the server answered) and
 * the URL, and which has these properties:
 *
 * - url: the URL requested;
 * - status: the HTTP status, when the server answered;
 * - problem: the parsed application/problem+json body (RFC 9457), when
 *   the server answered an error with one; its detail is in the message;
 * - cause: the fetch error, when the request failed on the network; the
 *   message names its causes (in Node, e.g. "connect ECONNREFUSED …").
 *
 * @param {string | URL} baseUrl The site's base URL, e.g. "https://example.org/".
 *   In a browser a relative URL resolves against the page.
 * @param {ClientOptions} [options]
 * @returns {BlogClient}
 * @throws {TypeError} When baseUrl is not an http(s) URL or there is no fetch.
 */
export function createClient(baseUrl, options = {}) {
  const base = parseBase(baseUrl);
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
      throw clientError(`GET ${url.href} failed: ${describe(err)}`, { url: url.href }, err);
    }
    if (!res.ok) throw await httpError(url, res);
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
      throw clientError(`GET ${url.href}: invalid JSON: ${err?.message ?? err}`, { url: url.href, status: res.status }, err);
    }
    if (!body || !Array.isArray(body.items)) {
      throw clientError(`GET ${url.href}: no items array in the answer`, { url: url.href, status: res.status });
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
    // A page URL works too: every page negotiates on Accept. Other routes
    // (the feed, the API) ignore Accept: an error, not their body handed
    // back as if it were Markdown.
    let url;
    try {
      url = new URL(target, base);
    } catch (err) {
      throw new TypeError(`blog-client: getMarkdown: not a URL: ${JSON.stringify(String(target))}`, { cause: err });
    }
    const res = await get(url, "text/markdown");
    const type = res.headers?.get?.("Content-Type") ?? null;
    if (mediaType(type) !== "text/markdown") {
      throw clientError(`GET ${url.href}: expected text/markdown, got ${type || "no Content-Type"}`,
        { url: url.href, status: res.status });
    }
    return res.text();
  }

  return { listPosts, pages, search, getMarkdown };
}

/**
 * Parses createClient's baseUrl into a folder URL (ending in "/"). A
 * string that is no URL, or names a scheme other than http(s) (as
 * "localhost:1313" does: its scheme is "localhost:"), is a TypeError that
 * quotes it, rather than the runtime's bare "Invalid URL" or a fetch that
 * fails later.
 *
 * @param {string | URL} baseUrl
 * @returns {URL}
 */
function parseBase(baseUrl) {
  const input = String(baseUrl);
  let base;
  try {
    base = new URL(input, globalThis.location?.href);
  } catch (err) {
    throw new TypeError(`blog-client: not a URL: ${JSON.stringify(input)}`, { cause: err });
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new TypeError(`blog-client: not an http(s) URL: ${JSON.stringify(input)}`);
  }
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  return base;
}

/**
 * An Error with the client's prefix and the given properties.
 *
 * @param {string} message Without the "blog-client: " prefix.
 * @param {{url: string, status?: number, problem?: object}} props
 * @param {unknown} [cause]
 * @returns {Error}
 */
function clientError(message, props, cause) {
  const err = new Error(`blog-client: ${message}`, cause === undefined ? undefined : { cause });
  return Object.assign(err, props);
}

/**
 * The error for a non-2xx answer: status, status text (the problem's title
 * where the protocol has none, as HTTP/2) and the problem's detail.
 *
 * @param {URL} url
 * @param {Response} res
 * @returns {Promise<Error>}
 */
async function httpError(url, res) {
  const problem = await readProblem(res);
  const statusText = res.statusText || (typeof problem?.title === "string" ? problem.title : "");
  const detail = typeof problem?.detail === "string" && problem.detail !== "" ? `: ${problem.detail}` : "";
  const text = statusText ? ` ${statusText}` : "";
  return clientError(`GET ${url.href}: ${res.status}${text}${detail}`,
    { url: url.href, status: res.status, problem });
}

/**
 * The body of an application/problem+json answer as an object; undefined
 * for any other answer or a body that is not a JSON object.
 *
 * @param {Response} res
 * @returns {Promise<object | undefined>}
 */
async function readProblem(res) {
  if (mediaType(res.headers?.get?.("Content-Type")) !== "application/problem+json") return undefined;
  try {
    const body = JSON.parse(await res.text());
    return body !== null && typeof body === "object" && !Array.isArray(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A Content-Type's media type, lower-cased, without parameters.
 *
 * @param {string | null | undefined} contentType
 * @returns {string}
 */
function mediaType(contentType) {
  return String(contentType ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * Describes a fetch error with its causes: Node's fetch rejects with
 * "fetch failed" and keeps what happened (ECONNREFUSED, ENOTFOUND, a TLS
 * error) in cause, or in an AggregateError's errors when it tried several
 * addresses. Each distinct message once, a code its message does not name
 * put in front; a few levels at most (a cause may point back at itself).
 *
 * @param {unknown} err
 * @returns {string}
 */
function describe(err) {
  const parts = [];
  const seen = new Set();
  for (let e = err; e !== undefined && e !== null && !seen.has(e) && seen.size < 5; e = e.cause) {
    seen.add(e);
    if (typeof e !== "object") {
      parts.push(String(e));
      break;
    }
    let text = typeof e.message === "string" ? e.message : "";
    if (text === "" && Array.isArray(e.errors)) {
      text = e.errors.map((x) => x?.message).filter(Boolean).join("; ");
    }
    if (typeof e.code === "string" && e.code !== "" && !text.includes(e.code)) {
      text = text ? `${e.code}: ${text}` : e.code;
    }
    if (text !== "" && !parts.includes(text)) parts.push(text);
  }
  return parts.join(": ") || String(err);
}
