// folio's Cloudflare Worker, written by `folio build --cloudflare`.
// Generated: build again rather than edit.
//
// It answers every request as `folio serve` would, from two things the
// build made: the site's files in public/ (the ASSETS binding) and
// site.json beside this file, the server's own answers recorded as data:
// every path it answers, which file holds the body, the headers it sent,
// which pages choose between HTML and Markdown, and the answers that are
// no file (problems, 405, 406, OPTIONS, redirects, /healthz). This file
// is the same for every site; nothing in it is made from content.
//
// Per request: the path is cleaned and looked up as the server does
// (server/server.go, server/match.go), Accept is read as the server
// reads it (server/negotiate.go), and at most one file is fetched, the
// one the table names: never the path as requested.

import siteText from "./site.json";

const site = JSON.parse(siteText);
const routes = site.routes;
const answers = site.answers;
const malformedValid = site.malformed ? new RegExp("^(?:" + site.malformed.valid + ")$") : null;
const utf8 = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

export default {
  async fetch(request, env) {
    try {
      return await answer(request, env);
    } catch (err) {
      // As the server answers what it cannot prepare: the details go to
      // the log, not to the client.
      console.error(String(err));
      return new Response(internalError, {
        status: 500,
        headers: { "Content-Type": "application/problem+json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
      });
    }
  },
};

const internalError =
  '{"detail":"the server could not prepare this answer","status":500,"title":"Internal Server Error","type":"about:blank"}\n';

// answer is the server's ServeHTTP: find what the path names, then answer
// by method.
async function answer(request, env) {
  const raw = new URL(request.url).pathname;
  if (/%(?![0-9A-Fa-f]{2})/.test(raw)) {
    // Go's server refuses a target it cannot unescape before any handler.
    return new Response("400 Bad Request", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const path = cleanPath(raw.replace(/%2[eE]/g, "."), raw);
  const key = routingKey(path);
  const route = key.valid && Object.hasOwn(routes, key.path) ? routes[key.path] : null;
  const refusal = route ? null : refusalOf(key.path);
  const method = request.method;
  if (method === "GET" || method === "HEAD") {
    if (route) {
      return get(request, env, route, path);
    }
    if (malformed(key.path)) {
      return send(request, answers.malformed);
    }
    if (refusal.problem) {
      return send(request, answers.problem404[refusal.cors ? "cors" : "plain"], [answers.probePath, jsonPath(path)]);
    }
    return file(request, env, site.notFound, 404);
  }
  const negotiates = route !== null && route.markdown !== undefined;
  const cors = route ? route.cors === true : refusal.cors;
  const pick = (a) => (negotiates && a.negotiating ? a.negotiating : a[cors ? "cors" : "plain"]);
  if (method === "OPTIONS") {
    return options(request, pick(answers.options));
  }
  return send(request, pick(answers.method405), [answers.probeMethod, jsonInner(method)]);
}

// get answers GET and HEAD on a path the table has: the page's HTML or
// Markdown as Accept chooses, or the route's own answer.
function get(request, env, route, path) {
  if (route.markdown === undefined) {
    return file(request, env, route, route.status || 200);
  }
  switch (variant(request.headers.get("Accept") || "")) {
    case "markdown":
      return file(request, env, { ...routes[route.markdown], headers: route.markdownHeaders }, 200);
    case "html":
      return file(request, env, route, 200);
  }
  return send(request, answers.notAcceptable406, [answers.probeNegotiated, jsonPath(path)]);
}

// file answers with a route's body (a file of public/, or text the table
// holds) and its recorded headers: 304 when the request's validators
// match (200 answers only), a byte range where the server streams the file.
async function file(request, env, route, status) {
  const h = headersOf(route.headers);
  if (status === 200 && route.ranges) {
    return ranged(request, env, route, h);
  }
  if (status === 200) {
    switch (conditional(request, h.get("ETag"), httpDate(h.get("Last-Modified") || ""))) {
      case 412:
        for (const [name, value] of Object.entries(answers.precondition412.headers)) {
          h.set(name, value);
        }
        return send(request, { status: 412, headers: h, body: answers.precondition412.body });
      case 304:
        h.delete("Content-Type");
        return new Response(null, { status: 304, headers: h });
    }
  }
  if (route.file === undefined) {
    return send(request, { status, headers: h, body: route.body || "" });
  }
  h.set("Content-Length", String(route.size));
  if (request.method === "HEAD") {
    return new Response(null, { status, headers: h });
  }
  return new Response(await fetchFile(env, route, 0, route.size), { status, headers: h });
}

// fetchFile streams length bytes of the route's file from offset: the one
// asset this request reads, named by the table.
async function fetchFile(env, route, offset, length) {
  const res = await env.ASSETS.fetch(new Request("https://assets.invalid" + route.file));
  if (res.status !== 200 || res.body === null) {
    throw new Error("folio: public" + route.file + " is missing from the deployment (" + res.status + ")");
  }
  const { readable, writable } = new FixedLengthStream(length);
  const body = offset === 0 && length === route.size ? res.body : res.body.pipeThrough(slice(offset, length));
  body.pipeTo(writable).catch(() => {});
  return readable;
}

// slice passes on length bytes of a stream, from offset.
function slice(offset, length) {
  let skip = offset;
  let left = length;
  return new TransformStream({
    transform(chunk, controller) {
      if (skip >= chunk.byteLength) {
        skip -= chunk.byteLength;
        return;
      }
      const part = chunk.subarray(skip, skip + Math.min(left, chunk.byteLength - skip));
      skip = 0;
      left -= part.byteLength;
      if (part.byteLength > 0) {
        controller.enqueue(part);
      }
      if (left === 0) {
        controller.terminate();
      }
    },
  });
}

// headersOf makes the Headers of a recorded header set.
function headersOf(index) {
  const h = new Headers();
  for (const [name, value] of site.headers[index]) {
    h.append(site.names[name], site.values[value]);
  }
  return h;
}

// send answers with a recorded answer a: its status and headers, and its
// body with the probe's path (or method) replaced by this request's.
function send(request, a, fill) {
  let body = a.body;
  if (fill) {
    body = body.split(fill[0]).join(fill[1]);
  }
  const h = a.headers instanceof Headers ? a.headers : new Headers(a.headers);
  // Go's server says the length of every body but a 204's, and of an
  // empty one only when it is sent (not for HEAD).
  if (a.status !== 204 && (body !== "" || request.method !== "HEAD")) {
    h.set("Content-Length", String(encoder.encode(body).byteLength));
  }
  const empty = request.method === "HEAD" || body === "";
  return new Response(empty ? null : body, { status: a.status, headers: h });
}

// options answers OPTIONS: the preflight's allowed headers are the
// request's own, where the server echoes them.
function options(request, a) {
  const asked = request.headers.get("Access-Control-Request-Headers");
  const h = {};
  for (const [name, value] of Object.entries(a.headers)) {
    if (value !== answers.probeRequestHeaders) {
      h[name] = value;
    } else if (asked) {
      h[name] = asked;
    }
  }
  return send(request, { status: a.status, headers: h, body: a.body });
}

// ---- Paths: server/server.go (cleanRequestPath) and server/match.go.

// cleanPath is the server's cleanPath of the request's escaped path with
// "%2E" read as ".": "//" merged, dot segments resolved, a trailing slash
// kept, and one added where the last segment is "." or ".." (RFC 3986's
// remove_dot_segments, which the runtime has mostly applied already).
// sent is returned when nothing changes.
function cleanPath(dotted, sent) {
  if (!dotted.includes("//") && !dotted.includes("/.")) {
    return sent;
  }
  const out = [];
  for (const seg of dotted.split("/")) {
    if (seg === "" || seg === ".") {
      continue;
    }
    if (seg === "..") {
      out.pop();
    } else {
      out.push(seg);
    }
  }
  let clean = "/" + out.join("/");
  const dir = dotted.endsWith("/") || dotted.endsWith("/.") || dotted.endsWith("/..");
  if (dir && clean !== "/") {
    clean += "/";
  }
  return clean;
}

// routingKey is the path as the server's rows match it (routingPath):
// each segment percent-decoded, except that a slash or percent sign
// decoded inside a segment stays escaped. valid is false when the bytes
// are not UTF-8, which no route is.
function routingKey(path) {
  let valid = true;
  const segs = path.split("/").map((seg) => {
    if (!seg.includes("%")) {
      return seg;
    }
    const bytes = unescapeBytes(seg);
    let s;
    try {
      s = utf8.decode(bytes);
    } catch {
      valid = false;
      s = new TextDecoder().decode(bytes);
    }
    return s.replace(/%/g, "%25").replace(/\//g, "%2F");
  });
  return { path: segs.join("/"), valid };
}

// unescapeBytes percent-decodes s (whose escapes are valid) to bytes.
function unescapeBytes(s) {
  const out = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "%") {
      out.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      out.push(s.charCodeAt(i));
    }
  }
  return new Uint8Array(out);
}

// matches reports whether the routing path p fits a row's literal prefix
// and suffix with anything between (a {name...} wildcard).
function matches(p, row) {
  return p.length >= row.prefix.length + row.suffix.length && p.startsWith(row.prefix) && p.endsWith(row.suffix);
}

// refusalOf is the refusal row that answers a path nothing names: the
// first that matches, as in the server's table.
function refusalOf(p) {
  for (const row of site.refusals) {
    if (matches(p, row)) {
      return row;
    }
  }
  return { cors: false, problem: false };
}

// malformed reports whether p is refused by its shape alone (a malformed
// cursor): under the row's prefix, ending in its suffix, no slash between,
// and the middle not of the row's syntax.
function malformed(p) {
  const m = site.malformed;
  if (!m || !answers.malformed || !matches(p, m)) {
    return false;
  }
  const middle = p.slice(m.prefix.length, p.length - m.suffix.length);
  return !middle.includes("/") && !malformedValid.test(middle);
}

// ---- Negotiation: server/negotiate.go.

// variant is "markdown", "html" or "none" (406) for an Accept value.
function variant(accept) {
  const q = acceptQ(accept);
  if (!q.valid) {
    return "html";
  }
  if (q.mdExplicit && q.md > 0 && q.md >= q.html) {
    return "markdown";
  }
  if (q.html > 0) {
    return "html";
  }
  if (q.md > 0) {
    return "markdown";
  }
  return "none";
}

// acceptQ finds the q that text/html and text/markdown get from the most
// specific matching range (3 exact, 2 text/*, 1 */*), whether
// text/markdown was named exactly, and whether any member was valid.
function acceptQ(accept) {
  const res = { html: 0, md: 0, htmlSpec: 0, mdSpec: 0, mdExplicit: false, valid: false };
  for (const member of accept.split(",")) {
    const m = parseMediaRange(member);
    if (!m) {
      continue;
    }
    res.valid = true;
    for (const [sub, q, specKey] of [["html", "html", "htmlSpec"], ["markdown", "md", "mdSpec"]]) {
      let spec = 0;
      if (m.typ === "text" && m.sub === sub) {
        spec = 3;
      } else if (m.typ === "text" && m.sub === "*") {
        spec = 2;
      } else if (m.typ === "*" && m.sub === "*") {
        spec = 1;
      }
      if (spec > res[specKey] || (spec === res[specKey] && spec > 0 && m.q > res[q])) {
        res[specKey] = spec;
        res[q] = m.q;
      }
    }
    if (m.typ === "text" && m.sub === "markdown" && m.q > 0) {
      res.mdExplicit = true;
    }
  }
  res.mdExplicit = res.mdExplicit && res.mdSpec === 3;
  return res;
}

// parseMediaRange parses "type/subtype;param=value;q=0.5"; null if invalid.
function parseMediaRange(member) {
  const parts = member.split(";");
  const head = trimSpace(parts[0]);
  const slash = head.indexOf("/");
  if (slash < 0) {
    return null;
  }
  const typ = trimSpace(head.slice(0, slash)).toLowerCase();
  const sub = trimSpace(head.slice(slash + 1)).toLowerCase();
  if (!isToken(typ) || !isToken(sub) || (typ === "*" && sub !== "*")) {
    return null;
  }
  let q = 1;
  for (const part of parts.slice(1)) {
    const p = trimSpace(part);
    const eq = p.indexOf("=");
    if (eq < 0) {
      return null;
    }
    if (trimSpace(p.slice(0, eq)).toLowerCase() === "q") {
      const v = trimSpace(p.slice(eq + 1));
      if (!/^(0(\.[0-9]{0,3})?|1(\.0{0,3})?)$/.test(v)) {
        return null;
      }
      q = parseFloat(v);
    }
  }
  return { typ, sub, q };
}

// isToken reports whether s is an RFC 9110 token (or "*").
function isToken(s) {
  return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(s);
}

// trimSpace trims what Go's strings.TrimSpace does to ASCII: tab, line
// feed, vertical tab, form feed, carriage return and space. (A header
// value's other bytes reach the Worker one character each, so they are
// never Unicode spaces here; Go sees none in valid tokens either.)
function trimSpace(s) {
  return s.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, "");
}

// ---- Validators: server/respond.go (conditional) and Go's ServeContent.

// conditional is the server's rule (server/respond.go), in RFC 9110's
// order: 412 when If-Match (strong comparison), else
// If-Unmodified-Since, fails; 304 when If-None-Match (weak comparison),
// else If-Modified-Since, matches; 0 to answer. (A server that ignores
// If-Match left no 412 to record, and so does the Worker.) modified is
// the Last-Modified in milliseconds, NaN when there is none.
function conditional(request, etag, modified) {
  if (answers.precondition412) {
    const im = request.headers.get("If-Match");
    if (im !== null) {
      if (!matchesETag(im, etag, true)) {
        return 412;
      }
    } else {
      const t = headerDate(request, "If-Unmodified-Since", modified);
      if (t !== null && modified > t) {
        return 412;
      }
    }
  }
  const inm = request.headers.get("If-None-Match");
  if (inm !== null) {
    return matchesETag(inm, etag, false) ? 304 : 0;
  }
  const t = headerDate(request, "If-Modified-Since", modified);
  return t !== null && modified <= t ? 304 : 0;
}

// matchesETag reports whether an entity-tag list holds "*" or etag, by
// strong comparison (no weak tag matches) or weak; anything that is not
// an entity-tag ends the list.
function matchesETag(list, etag, strong) {
  let rest = list;
  for (;;) {
    rest = rest.replace(/^[ \t,]+/, "");
    if (rest === "") {
      return false;
    }
    if (rest[0] === "*") {
      return true;
    }
    const weak = rest.startsWith("W/");
    if (weak) {
      rest = rest.slice(2);
    }
    const end = rest.indexOf('"', 1);
    if (rest[0] !== '"' || end < 0) {
      return false;
    }
    const tag = rest.slice(0, end + 1);
    rest = rest.slice(end + 1);
    if (tag === etag && !(strong && weak)) {
      return true;
    }
  }
}

// headerDate is the request's date field name in milliseconds, when it is
// one valid HTTP-date and the answer has a date of its own; else null.
// (Field lines given twice reach the Worker joined, and no date reads.)
function headerDate(request, name, modified) {
  const v = request.headers.get(name);
  if (v === null || isNaN(modified)) {
    return null;
  }
  const t = httpDate(v);
  return isNaN(t) ? null : t;
}

// ranged answers a file the server streams with Go's http.ServeContent:
// preconditions (412, 304), then one byte range (206, or 416), else the
// whole file. Several ranges get the whole file, which a client must
// accept (the server would send multipart/byteranges).
async function ranged(request, env, route, h) {
  const etag = h.get("ETag");
  const modified = httpDate(h.get("Last-Modified") || "");
  h.delete("Accept-Ranges"); // set once the preconditions pass
  const get = request.method === "GET" || request.method === "HEAD";
  let match = ifMatch(request.headers.get("If-Match"), etag);
  if (match === null) {
    match = since(request.headers.get("If-Unmodified-Since"), modified, true);
  }
  if (match === false) {
    return empty(request, 412, h);
  }
  const none = ifNoneMatch(request.headers.get("If-None-Match"), etag);
  const notChanged = none === false || (none === null && get && since(request.headers.get("If-Modified-Since"), modified, false) === false);
  if (notChanged && get) {
    h.delete("Content-Type");
    if (etag) {
      h.delete("Last-Modified");
    }
    return new Response(null, { status: 304, headers: h });
  }
  if (notChanged) {
    return empty(request, 412, h);
  }
  let range = request.headers.get("Range") || "";
  if (range !== "" && !ifRange(request, etag, modified)) {
    range = "";
  }
  const size = route.size;
  const parsed = parseRange(range, size);
  if (parsed.error) {
    const e = new Headers({ "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" });
    if (parsed.noOverlap) {
      e.set("Content-Range", "bytes */" + size);
    }
    return send(request, { status: 416, headers: e, body: parsed.error + "\n" });
  }
  let ranges = parsed.ranges;
  if (ranges.reduce((n, r) => n + r.length, 0) > size || ranges.length > 1) {
    ranges = [];
  }
  h.set("Accept-Ranges", "bytes");
  let status = 200;
  let offset = 0;
  let length = size;
  if (ranges.length === 1) {
    [status, offset, length] = [206, ranges[0].start, ranges[0].length];
    h.set("Content-Range", "bytes " + offset + "-" + (offset + length - 1) + "/" + size);
  }
  h.set("Content-Length", String(length));
  if (request.method === "HEAD") {
    return new Response(null, { status, headers: h });
  }
  return new Response(await fetchFile(env, route, offset, length), { status, headers: h });
}

// empty is a bodyless answer as Go's server sends one: Content-Length: 0
// on any method but HEAD.
function empty(request, status, h) {
  if (request.method !== "HEAD") {
    h.set("Content-Length", "0");
  }
  return new Response(null, { status, headers: h });
}

// scanETag reads one entity tag at the start of s (Go's scanETag): the
// tag and the rest, or null.
function scanETag(s) {
  s = trimOWS(s);
  const m = /^((?:W\/)?"[\x21\x23-\x7e\x80-\xff]*")/.exec(s);
  return m ? [m[1], s.slice(m[1].length)] : null;
}

// eachETag calls f on each tag of an If-Match or If-None-Match list until
// f returns true ("*" gives "*"); false when the list ends or breaks.
function eachETag(list, f) {
  let buf = list;
  for (;;) {
    buf = trimOWS(buf);
    if (buf === "") {
      return false;
    }
    if (buf[0] === ",") {
      buf = buf.slice(1);
      continue;
    }
    if (buf[0] === "*") {
      return f("*");
    }
    const tag = scanETag(buf);
    if (tag === null) {
      return false;
    }
    if (f(tag[0])) {
      return true;
    }
    buf = tag[1];
  }
}

// ifMatch: null when absent, else whether a tag matches strongly.
function ifMatch(list, etag) {
  if (!list) {
    return null;
  }
  return eachETag(list, (t) => t === "*" || (t === etag && t[0] === '"'));
}

// ifNoneMatch: null when absent, else false when a tag matches weakly.
function ifNoneMatch(list, etag) {
  if (!list) {
    return null;
  }
  const weak = (t) => (t.startsWith("W/") ? t.slice(2) : t);
  return !eachETag(list, (t) => t === "*" || weak(t) === weak(etag));
}

// since compares a date condition with the file's modification time:
// null when absent or unreadable; for If-Unmodified-Since (unmodified
// true) whether the file is no newer, for If-Modified-Since whether it
// is newer.
function since(value, modified, unmodified) {
  if (!value || isNaN(modified) || modified === 0) {
    return null;
  }
  const t = httpDate(value);
  if (isNaN(t)) {
    return null;
  }
  return unmodified ? modified <= t : modified > t;
}

// ifRange reports whether an If-Range condition lets the Range apply.
function ifRange(request, etag, modified) {
  const ir = request.headers.get("If-Range");
  if (!ir) {
    return true;
  }
  const tag = scanETag(ir);
  if (tag !== null) {
    return tag[0] === etag && etag[0] === '"';
  }
  const t = httpDate(ir);
  return !isNaN(modified) && !isNaN(t) && t === modified;
}

// parseRange is Go's parseRange: the ranges of a Range value, or an
// error ("invalid range", or with noOverlap "invalid range: failed to
// overlap").
function parseRange(s, size) {
  if (s === "") {
    return { ranges: [] };
  }
  if (!s.startsWith("bytes=")) {
    return { error: "invalid range" };
  }
  const ranges = [];
  let noOverlap = false;
  for (let ra of s.slice(6).split(",")) {
    ra = trimOWS(ra);
    if (ra === "") {
      continue;
    }
    const dash = ra.indexOf("-");
    if (dash < 0) {
      return { error: "invalid range" };
    }
    const start = trimOWS(ra.slice(0, dash));
    const end = trimOWS(ra.slice(dash + 1));
    if (start === "") {
      if (!/^\+?[0-9]+$/.test(end)) {
        return { error: "invalid range" };
      }
      const n = Math.min(Number(end), size);
      ranges.push({ start: size - n, length: n });
      continue;
    }
    if (!/^\+?[0-9]+$/.test(start)) {
      return { error: "invalid range" };
    }
    const first = Number(start);
    if (first >= size) {
      noOverlap = true;
      continue;
    }
    let last = size - 1;
    if (end !== "") {
      if (!/^\+?[0-9]+$/.test(end) || first > Number(end)) {
        return { error: "invalid range" };
      }
      last = Math.min(Number(end), size - 1);
    }
    ranges.push({ start: first, length: last - first + 1 });
  }
  if (noOverlap && ranges.length === 0) {
    if (size === 0) {
      return { ranges: [] };
    }
    return { error: "invalid range: failed to overlap", noOverlap: true };
  }
  return { ranges };
}

// trimOWS drops the spaces and tabs around a list member (Go's
// textproto.TrimString also drops CR and LF, which a header value cannot
// hold).
function trimOWS(s) {
  return s.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "");
}

const months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const days = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const longDays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

// httpDate reads a date as Go's http.ParseTime does: RFC 1123 with GMT,
// RFC 850, or asctime; names in any case, runs of spaces as one, a
// one-digit hour, fractional seconds, and a day that exists in its month.
// Milliseconds, or NaN for anything else (which Date.parse would read
// far more generously).
function httpDate(s) {
  s = s.replace(/ +/g, " ");
  let m = /^([A-Za-z]{3}), (\d\d) ([A-Za-z]{3}) (\d{4}) (\d\d?):(\d\d):(\d\d)(?:[.,]\d+)? GMT$/.exec(s);
  if (m && days.includes(m[1].toLowerCase())) {
    return utc(+m[4], m[3], +m[2], m[5], m[6], m[7]);
  }
  m = /^([A-Za-z]+), (\d\d)-([A-Za-z]{3})-(\d\d) (\d\d?):(\d\d):(\d\d)(?:[.,]\d+)? [A-Z]{3,4}$/.exec(s);
  if (m && longDays.includes(m[1].toLowerCase())) {
    const y = +m[4];
    return utc(y < 69 ? 2000 + y : 1900 + y, m[3], +m[2], m[5], m[6], m[7]);
  }
  m = /^([A-Za-z]{3}) ([A-Za-z]{3}) (\d\d?) (\d\d?):(\d\d):(\d\d)(?:[.,]\d+)? (\d{4})$/.exec(s);
  if (m && days.includes(m[1].toLowerCase())) {
    return utc(+m[7], m[2], +m[3], m[4], m[5], m[6]);
  }
  return NaN;
}

function utc(year, month, day, h, min, sec) {
  const mon = months.indexOf(month.toLowerCase());
  if (mon < 0 || day < 1 || +h > 23 || +min > 59 || +sec > 59) {
    return NaN;
  }
  const t = Date.UTC(year, mon, day, +h, +min, +sec);
  return new Date(t).getUTCDate() === day ? t : NaN; // no 31 Feb
}

// ---- Problem bodies: the path as Go's encoding/json writes r.URL.Path.

// jsonPath is the request's path, fully unescaped, as a JSON string's
// inside: each valid UTF-8 sequence as its character, each byte that
// starts none as \ufffd (Go's rule, one byte at a time).
function jsonPath(path) {
  const b = unescapeBytes(path);
  try {
    return jsonInner(utf8.decode(b));
  } catch {
    return jsonBytes(b);
  }
}

// jsonInner is s as Go's encoding/json writes it inside quotes (HTML
// characters escaped too).
function jsonInner(s) {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === '"' || ch === "\\") {
      out += "\\" + ch;
    } else if (ch === "\b") {
      out += "\\b";
    } else if (ch === "\f") {
      out += "\\f";
    } else if (ch === "\n") {
      out += "\\n";
    } else if (ch === "\r") {
      out += "\\r";
    } else if (ch === "\t") {
      out += "\\t";
    } else if (c < 0x20 || ch === "<" || ch === ">" || ch === "&" || c === 0x2028 || c === 0x2029) {
      out += "\\u" + c.toString(16).padStart(4, "0");
    } else {
      out += ch;
    }
  }
  return out;
}

function jsonBytes(b) {
  let out = "";
  for (let i = 0; i < b.length; ) {
    const rune = decodeRune(b, i);
    if (rune === null) {
      out += "\\ufffd";
      i++;
      continue;
    }
    out += jsonInner(String.fromCodePoint(rune[0]));
    i += rune[1];
  }
  return out;
}

// decodeRune reads the UTF-8 sequence at b[i] as Go's utf8.DecodeRune
// does: [code point, length], or null where no valid sequence starts.
function decodeRune(b, i) {
  const c = b[i];
  if (c < 0x80) {
    return [c, 1];
  }
  let n;
  let cp;
  let lo = 0x80;
  let hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
    cp = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    cp = c & 0x0f;
    lo = c === 0xe0 ? 0xa0 : 0x80;
    hi = c === 0xed ? 0x9f : 0xbf;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    cp = c & 0x07;
    lo = c === 0xf0 ? 0x90 : 0x80;
    hi = c === 0xf4 ? 0x8f : 0xbf;
  } else {
    return null;
  }
  if (i + n > b.length) {
    return null;
  }
  for (let k = 1; k < n; k++) {
    const d = b[i + k];
    if (d < lo || d > hi) {
      return null;
    }
    lo = 0x80;
    hi = 0xbf;
    cp = (cp << 6) | (d & 0x3f);
  }
  return [cp, n];
}
