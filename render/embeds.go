package render

import (
	"fmt"
	"html/template"
	"net/url"
	"strings"
)

// Hugo's embeds (youtube, vimeo, x, instagram) load a third party's
// iframe or script in the page. folio's pages allow neither (the
// Content-Security-Policy loads scripts and frames from the site only) and
// make no request to a third party until the reader asks: each embed is a
// link to the video or post, its text the embed's title, of class
// "embed embed-NAME" for the theme to style: what Hugo's embed shows a
// reader without JavaScript.
//
// gist, tweet and twitter were removed in Hugo 0.156 (0.165 stops with an
// error); older blogs still call them, so folio writes a link to the gist
// or post and warns, naming the file and line.

// embedLink writes an embed's link.
func embedLink(name, u, text string) expansion {
	out := `<a class="embed embed-` + name + `" href="` + template.HTMLEscapeString(u) + `">` + template.HTMLEscapeString(text) + "</a>"
	return expansion{out: out, md: "[" + escapeLinkText(text) + "](" + markdownURL(u) + ")"}
}

// youtube links to the video: the id (named or first), from start
// seconds when given.
func (st *state) youtube(sc *shortcode) expansion {
	id := fmt.Sprint(or(sc.Get("id"), sc.Get(0), ""))
	if id == "" {
		st.issue(sc.line, "youtube: missing video id")
		return expansion{}
	}
	u := "https://www.youtube.com/watch?v=" + url.QueryEscape(id)
	if start := fmt.Sprint(or(sc.Get("start"), "")); start != "" && start != "0" {
		u += "&t=" + url.QueryEscape(start) + "s"
	}
	return embedLink("youtube", u, fmt.Sprint(or(sc.Get("title"), "YouTube video")))
}

// vimeo links to the video: the id (named or first).
func (st *state) vimeo(sc *shortcode) expansion {
	id := fmt.Sprint(or(sc.Get("id"), sc.Get(0), ""))
	if id == "" {
		st.issue(sc.line, "vimeo: missing video id")
		return expansion{}
	}
	return embedLink("vimeo", "https://vimeo.com/"+url.PathEscape(id), fmt.Sprint(or(sc.Get("title"), "Vimeo video")))
}

// xPost links to a post on X: user and id, both named.
func (st *state) xPost(sc *shortcode) expansion {
	user, id := fmt.Sprint(or(sc.Get("user"), "")), fmt.Sprint(or(sc.Get("id"), ""))
	if user == "" || id == "" {
		st.issue(sc.line, "x: the shortcode requires two named parameters: user and id")
		return expansion{}
	}
	return embedLink("x", "https://x.com/"+url.PathEscape(user)+"/status/"+url.PathEscape(id), "Post by @"+user+" on X")
}

// instagram links to the post: the id, first.
func (st *state) instagram(sc *shortcode) expansion {
	id := fmt.Sprint(or(sc.Get(0), ""))
	if id == "" {
		st.issue(sc.line, "instagram: the shortcode requires the id of the post, first")
		return expansion{}
	}
	return embedLink("instagram", "https://www.instagram.com/p/"+url.PathEscape(id), "View this post on Instagram")
}

// gist links to the gist: user, id and an optional file (positional).
func (st *state) gist(sc *shortcode) expansion {
	user, id := fmt.Sprint(or(sc.Get(0), "")), fmt.Sprint(or(sc.Get(1), ""))
	if user == "" || id == "" {
		st.issue(sc.line, "gist: want the user and the gist id")
		return expansion{}
	}
	st.warn(sc.line, "gist: removed in Hugo 0.156 (Hugo 0.165 stops here); folio links to the gist")
	u := "https://gist.github.com/" + url.PathEscape(user) + "/" + url.PathEscape(id)
	text := "Gist " + user + "/" + id
	if file := fmt.Sprint(or(sc.Get(2), "")); file != "" {
		u += "#file-" + strings.ToLower(strings.NewReplacer(".", "-", " ", "-").Replace(file))
		text += " (" + file + ")"
	}
	return embedLink("gist", u, text)
}

// tweet links to the post: user and id named, or the id alone (as the
// old tweet shortcode took it).
func (st *state) tweet(sc *shortcode) expansion {
	user, id := fmt.Sprint(or(sc.Get("user"), "")), fmt.Sprint(or(sc.Get("id"), sc.Get(0), ""))
	if id == "" {
		st.issue(sc.line, "%s: missing post id", sc.Name)
		return expansion{}
	}
	st.warn(sc.line, "%s: removed in Hugo 0.156 (Hugo 0.165 stops here; its replacement is the x shortcode); folio links to the post", sc.Name)
	u := "https://x.com/i/status/" + url.PathEscape(id)
	text := "Post on X"
	if user != "" {
		u = "https://x.com/" + url.PathEscape(user) + "/status/" + url.PathEscape(id)
		text = "Post by @" + user + " on X"
	}
	return embedLink("x", u, text)
}

// comment writes nothing, as Hugo's deprecated comment shortcode.
func (st *state) comment(sc *shortcode) expansion {
	st.warn(sc.line, "comment: the shortcode is deprecated since Hugo 0.143; use an HTML comment instead")
	return expansion{}
}
