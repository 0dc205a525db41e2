package reliability

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
	"folio/server"
	"folio/site"
)

// base is the configured base URL of every test site. Requests never use
// it as Host, so an emitted URL built from the Host header shows.
const base = "https://example.org/"

// started is the Started instant of every in-process server, so that two
// servers built from different content answer comparable headers.
var started = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// A hidden post is one unpublished post of the leak fixture: the files
// that make it, and the tokens that must never appear in an answer.
type hidden struct {
	why    string   // draft, scheduled, expired
	files  []string // its files in the content folder
	slug   string   // "" when it collides with a published slug
	tokens []string // title, body, tags, resource bodies: shown when visible
	names  []string // file, alias and resource names: searched for, but only URLs carry them
	// aliases and resources are guessed as URLs too.
	aliases   []string
	resources []string
}

// hiddenPosts are the unpublished posts of leakSite. Their dates are far
// from any test run's clock: scheduled posts in 2999, expired ones in 2001.
var hiddenPosts = []hidden{
	{
		why:     "draft",
		files:   []string{"blog/draft-secret-qx1.md"},
		slug:    "draft-secret-qx1",
		tokens:  []string{"Draft Title QX1", "sentinel-body-qx1", "desc-secret-qx1", "cat-secret-qx1", "tag-secret-qx1"},
		names:   []string{"draft-alias-qx1"},
		aliases: []string{"/old/draft-alias-qx1/"},
	},
	{
		why:    "scheduled (publishDate in 2999)",
		files:  []string{"blog/future-post-qx2.md"},
		slug:   "future-post-qx2",
		tokens: []string{"Future Title QX2", "sentinel-body-qx2", "tag-secret-qx2"},
		names:  []string{"future-alias-qx2"},
		// Relative: Hugo writes it beside the post, in the section.
		aliases: []string{"/blog/old/future-alias-qx2", "/old/future-alias-qx2"},
	},
	{
		why:    "expired (expiryDate in 2001, TOML)",
		files:  []string{"blog/expired-post-qx3.md"},
		slug:   "expired-post-qx3",
		tokens: []string{"Expired Title QX3", "sentinel-body-qx3", "tag-secret-qx3"},
	},
	{
		why:    "scheduled (JSON front matter, pubdate alias)",
		files:  []string{"blog/json-future-qx4.md"},
		slug:   "json-future-qx4",
		tokens: []string{"Json Future QX4", "sentinel-body-qx4"},
	},
	{
		why:    "draft bundle with resources",
		files:  []string{"blog/draft-bundle-qx5/index.md", "blog/draft-bundle-qx5/secret-qx5.txt", "blog/draft-bundle-qx5/secret-img-qx5.svg", "blog/draft-bundle-qx5/sub/deep-qx5.md"},
		slug:   "draft-bundle-qx5",
		tokens: []string{"Bundle Title QX5", "sentinel-body-qx5", "sentinel-resource-qx5", "secret-img-qx5"},
		// sub/deep-qx5.md is a content file, which no bundle publishes
		// (not even with drafts shown): its text is a name to look for.
		names:     []string{"secret-qx5", "deep-qx5", "sentinel-deep-qx5"},
		resources: []string{"secret-qx5.txt", "secret-img-qx5.svg", "sub/deep-qx5.md", "index.md"},
	},
	{
		why:       "expired bundle",
		files:     []string{"blog/expired-bundle-qx6/index.md", "blog/expired-bundle-qx6/data-qx6.csv"},
		slug:      "expired-bundle-qx6",
		tokens:    []string{"Expired Bundle QX6", "sentinel-body-qx6", "sentinel-resource-qx6"},
		names:     []string{"data-qx6"},
		resources: []string{"data-qx6.csv", "index.md"},
	},
	{
		// Its slug is a published post's; its file sorts first.
		why:    "draft whose slug collides with a published post's",
		files:  []string{"blog/aa-draft-collide.md"},
		tokens: []string{"Draft Collide QX7", "sentinel-body-qx7", "tag-secret-qx7"},
		names:  []string{"aa-draft-collide"},
	},
	{
		why:    "draft in a subfolder",
		files:  []string{"blog/group/nested-draft-qx8.md"},
		slug:   "nested-draft-qx8",
		tokens: []string{"Nested Draft QX8", "sentinel-body-qx8"},
	},
}

// leakSite is the fixture: published posts that link to the hidden ones
// in every way a post can, and the hidden posts themselves.
var leakSite = map[string]string{
	"blog/hello.md": `---
title: Hello Public
description: The public post.
date: 2024-01-01T00:00:00Z
tags: [public]
aliases: [/old/hello/]
---
Public text. See [the secret](../draft-secret-qx1/), [its Markdown](../draft-secret-qx1.md),
{{< ref "draft-secret-qx1" >}} and {{< relref "future-post-qx2" >}},
[a bundle file](../draft-bundle-qx5/secret-qx5.txt), ![an image](/blog/draft-bundle-qx5/secret-img-qx5.svg),
[scheduled](/blog/future-post-qx2/), [expired](https://example.org/blog/expired-post-qx3/),
[nested](../nested-draft-qx8/) and [the collide post](../collide/).

<!--more-->

More public text, and [the public bundle](../pub-bundle/).
`,
	"blog/zz-public-collide.md": `---
title: Public Collide
slug: collide
date: 2023-06-01T00:00:00Z
---
The published post at /blog/collide/.
`,
	"blog/pub-bundle/index.md": `+++
title = "Public Bundle"
date = 2023-01-01T00:00:00Z
tags = ["public"]
+++
{{< figure src="photo.svg" alt="A photo" caption="Public." >}}

Notes are [here](notes.md).
`,
	"blog/pub-bundle/photo.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>`,
	// A published bundle's Markdown files are page resources, which
	// Hugo never publishes: this one's front matter and text must not
	// show (TestBundleContentFilesNotServed).
	"blog/pub-bundle/notes.md": "---\ntitle: Notes QN9\ndraft: true\n---\nsentinel-notes-qn9\n",

	"blog/draft-secret-qx1.md": `---
title: Draft Title QX1
description: desc-secret-qx1
category: cat-secret-qx1
tags: [tag-secret-qx1]
aliases: [/old/draft-alias-qx1/]
draft: true
date: 2024-02-01T00:00:00Z
---
sentinel-body-qx1, with a link [home](../hello/).
`,
	"blog/future-post-qx2.md": `---
title: Future Title QX2
date: 2020-01-01T00:00:00Z
publishDate: 2999-01-01T00:00:00Z
tags: [tag-secret-qx2]
aliases: [old/future-alias-qx2]
---
sentinel-body-qx2
`,
	"blog/expired-post-qx3.md": `+++
title = "Expired Title QX3"
date = 2000-01-01T00:00:00Z
expiryDate = 2001-01-01T00:00:00Z
tags = ["tag-secret-qx3"]
+++
sentinel-body-qx3
`,
	"blog/json-future-qx4.md": `{
  "title": "Json Future QX4",
  "date": "2020-01-01T00:00:00Z",
  "pubdate": "2999-06-01T00:00:00Z"
}
sentinel-body-qx4
`,
	"blog/draft-bundle-qx5/index.md": `---
title: Bundle Title QX5
draft: true
date: 2024-03-01T00:00:00Z
---
sentinel-body-qx5 {{< figure src="secret-img-qx5.svg" alt="secret" >}}
`,
	"blog/draft-bundle-qx5/secret-qx5.txt":     "sentinel-resource-qx5\n",
	"blog/draft-bundle-qx5/secret-img-qx5.svg": `<svg xmlns="http://www.w3.org/2000/svg"><title>sentinel-resource-qx5</title></svg>`,
	"blog/draft-bundle-qx5/sub/deep-qx5.md":    "sentinel-deep-qx5\n",
	"blog/expired-bundle-qx6/index.md": `---
title: Expired Bundle QX6
date: 2000-01-01T00:00:00Z
unpublishdate: 2001-01-01T00:00:00Z
---
sentinel-body-qx6
`,
	"blog/expired-bundle-qx6/data-qx6.csv": "sentinel-resource-qx6\n",
	"blog/aa-draft-collide.md": `---
title: Draft Collide QX7
slug: collide
draft: true
date: 2025-01-01T00:00:00Z
tags: [tag-secret-qx7]
---
sentinel-body-qx7
`,
	"blog/group/nested-draft-qx8.md": `---
title: Nested Draft QX8
draft: true
date: 2024-04-01T00:00:00Z
---
sentinel-body-qx8
`,
}

// publicOnly is leakSite without the files of its hidden posts.
func publicOnly() map[string]string {
	out := maps.Clone(leakSite)
	for _, h := range hiddenPosts {
		for _, f := range h.files {
			delete(out, f)
		}
	}
	return out
}

// unlinked is site with hello.md's links to hidden posts taken out. Such
// links are problems (check reports them, build refuses the site), so the
// tests that need a build that succeeds use this; the serve tests keep
// the links, which must render as their text alone.
func unlinked(site map[string]string) map[string]string {
	out := maps.Clone(site)
	hello := out["blog/hello.md"]
	start, end := strings.Index(hello, "Public text. See"), strings.Index(hello, "<!--more-->")
	out["blog/hello.md"] = hello[:start] + "Public text.\n\n" + hello[end:]
	return out
}

// sentinels are every hidden token, lower-cased (answers are searched
// lower-cased, so a title in capitals still shows).
func sentinels() []string {
	var out []string
	for _, h := range hiddenPosts {
		for _, tok := range append(append(h.names, h.tokens...), h.slug) {
			if tok != "" {
				out = append(out, strings.ToLower(tok))
			}
		}
	}
	return out
}

// leaked returns the first sentinel found in data, "" when none is.
func leaked(data []byte) string {
	low := strings.ToLower(string(data))
	for _, s := range sentinels() {
		if strings.Contains(low, s) {
			return s
		}
	}
	return ""
}

func mapFS(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for name, data := range files {
		m[name] = &fstest.MapFile{Data: []byte(data), ModTime: started}
	}
	return m
}

// writeTree writes files under dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// testConfig is the configuration of the in-process test sites.
func testConfig(t testing.TB) *pipeline.Config {
	t.Helper()
	cfg, err := pipeline.ParseConfig([]byte(`
baseURL = "`+base+`"
title = "Reliability"
description = "A site for hostile tests."
[feed]
limit = 0
[api]
pageSize = 2
`), "reliability.toml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// newServer builds the server as folio serve does: the snapshot of fsys
// for the instant now, and server.New without Dev.
func newServer(t testing.TB, fsys fs.FS, now time.Time) *server.Server {
	t.Helper()
	return newServerOpts(t, fsys, now, pipeline.Options{Root: "content"})
}

// newServerOpts is newServer with other build options (Drafts, for the
// control crawls that must find every sentinel).
func newServerOpts(t testing.TB, fsys fs.FS, now time.Time, opts pipeline.Options) *server.Server {
	t.Helper()
	snap, err := pipeline.Build(fsys, testConfig(t), opts, now)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(snap, server.Options{Site: site.FS, Started: started})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}
