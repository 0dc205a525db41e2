// The blog directory page: a search box that filters the list as you type,
// and the WebMCP tool search_blog_posts where the browser has WebMCP. Both
// use searchPosts from the site's JavaScript client, over /api/posts.json,
// so the page, the tool and the client always agree. Without JavaScript
// the page is a plain list (the form stays hidden).

import { createClient, searchPosts } from "../sdk/blog-client.js";

const form = document.querySelector("form[data-search]");
const list = document.querySelector("[data-posts]");

if (form && list) {
  const client = createClient(form.dataset.baseUrl || new URL("/", location.href));
  const posts = memo(() => client.listPosts());
  setUpSearch(form, list, posts);
  registerTool(posts);
}

/**
 * Returns a function that calls load once and then returns the same
 * promise; a failure is forgotten so that the next call tries again.
 *
 * @template T
 * @param {() => Promise<T>} load
 * @returns {() => Promise<T>}
 */
function memo(load) {
  let promise;
  return () => {
    promise ??= load().catch((err) => {
      promise = undefined;
      throw err;
    });
    return promise;
  };
}

/**
 * Shows the search form and filters the list on every input.
 *
 * @param {HTMLFormElement} form
 * @param {Element} list
 * @param {() => Promise<import("../sdk/blog-client.js").Post[]>} posts
 */
function setUpSearch(form, list, posts) {
  const input = form.querySelector("input[type=search]");
  const status = form.querySelector("[role=status]");
  const items = [...list.querySelectorAll("li[data-slug]")];
  let latest = 0;

  async function update() {
    const run = ++latest;
    const query = input.value;
    let all;
    try {
      all = await posts();
    } catch (err) {
      // Visitors get a sentence; the why (URL, status, network error) goes
      // to the console, as a warning: the page itself is fine, and the
      // next keystroke tries again.
      if (run === latest) {
        status.textContent = "Search is unavailable right now.";
        console.warn("Search is unavailable:", err);
      }
      return;
    }
    if (run !== latest) return; // a newer keystroke won
    const shown = new Set(searchPosts(all, query).map((p) => p.slug));
    let count = 0;
    for (const li of items) {
      const match = shown.has(li.dataset.slug);
      li.hidden = !match;
      if (match) count++;
    }
    status.textContent = query.trim() === ""
      ? ""
      : count === 0
        ? "No post matches."
        : `${count} ${count === 1 ? "post matches" : "posts match"}.`;
  }

  form.addEventListener("submit", (event) => event.preventDefault());
  input.addEventListener("input", update);
  form.hidden = false;
  const initial = new URLSearchParams(location.search).get("q");
  if (initial) {
    input.value = initial;
    update();
  }
}

/**
 * Registers the read-only WebMCP tool search_blog_posts where the browser
 * offers WebMCP (document.modelContext, else navigator.modelContext); does
 * nothing elsewhere.
 *
 * @param {() => Promise<import("../sdk/blog-client.js").Post[]>} posts
 */
function registerTool(posts) {
  const context = document.modelContext ?? navigator.modelContext;
  if (!context || typeof context.registerTool !== "function") return;
  const tool = {
    name: "search_blog_posts",
    description:
      "Search this blog's published posts. Every word of the query must occur in a post's " +
      "title, description, category or tags (case-insensitive); an empty query lists every " +
      "post. Returns the matching posts, newest first, with their page URL and the URL of " +
      "the article as Markdown.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "Words to search for, separated by spaces." },
      },
      required: ["query"],
    },
    annotations: { readOnlyHint: true },
    async execute({ query } = {}) {
      const found = searchPosts(await posts(), String(query ?? ""));
      return {
        posts: found.map(({ title, url, markdownUrl, description, tags, date }) => ({
          title, url, markdownUrl, description, tags, date,
        })),
      };
    },
  };
  // registerTool returns a promise in some browsers and nothing in others.
  Promise.resolve()
    .then(() => context.registerTool(tool))
    .catch((err) => console.warn("search_blog_posts: WebMCP registration failed:", err));
}
