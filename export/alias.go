package export

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"path"
	"strconv"
	"strings"
)

// # Alias pages
//
// A static host that knows nothing of folio (GitHub Pages, a bucket,
// python3 -m http.server) cannot answer an alias with the server's 301.
// Hugo writes, at each alias, a small HTML page that sends the browser
// on (an instant meta refresh) and tells search engines where the page
// now is (its canonical link); the export does the same, at the aliases
// Options.Aliases names (the ones the server answers with a 301 of its
// alias row), to the Location the server answers, so a folder put on
// such a host moves nothing the author published.
//
// An alias page is a route of the export like the others (the record
// keeps it, a build over a previous one writes it only when its bytes
// change and removes it when the alias goes), recorded with the 301's
// status and Location: the nginx config and the Worker, which answer the
// 301 themselves, never serve it. An alias whose file would be another
// route's file or folder, or differ from one only in case, is left out
// (Site.AliasesLeftOut): a route of the site is never overwritten by a
// redirect, and serve answers the route there too.

// An Alias is a path the export writes as an HTML redirect page: the
// server answers it with a 301, whose Location the page sends the
// browser to.
type Alias struct {
	// Path is the alias, escaped as the site emits it ("/old/",
	// "/posts/page/1/", "/old.html"). Its file is FileName's.
	Path string
	// Lang is the page's lang attribute (the target's language), ""
	// for none.
	Lang string
	// Source is the content file that declares the alias, for what is
	// said of it ("" for none), and Line the line of its aliases key
	// (0 when not known).
	Source string
	Line   int
	// Page is the page to write, when the site's alias template made
	// it (Hugo's alias page); nil for AliasPage's.
	Page []byte
}

// An AliasLeftOut is an alias the export holds no page for, and why.
type AliasLeftOut struct {
	Alias
	Why string
}

// AliasPage is the HTML page the export writes at an alias that
// redirects to location (an absolute URL, as the server's Location):
// Hugo's alias page (doctype, the language, the target as title and
// canonical link, an instant meta refresh), with the charset first and a
// link to the target for a browser that does not follow the refresh.
// Like Hugo 0.165's, it has no robots noindex: the canonical link and
// the instant refresh are what search engines take for a permanent
// redirect. It is well under 1 KiB: no .gz twin.
func AliasPage(location, lang string) []byte {
	u := html.EscapeString(location)
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n")
	if lang != "" {
		b.WriteString(`<html lang="` + html.EscapeString(lang) + "\">\n")
	} else {
		b.WriteString("<html>\n")
	}
	b.WriteString("<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<title>" + u + "</title>\n")
	b.WriteString(`<link rel="canonical" href="` + u + "\">\n")
	b.WriteString(`<meta http-equiv="refresh" content="0; url=` + u + "\">\n")
	b.WriteString("</head>\n<body>\n")
	b.WriteString(`<p><a href="` + u + `">` + u + "</a></p>\n")
	b.WriteString("</body>\n</html>\n")
	return []byte(b.String())
}

// aliasHandler answers an alias with its page (the site's alias
// template's, else AliasPage) in place of the server's 301, keeping the 301's status and Location: the answer
// the export records of the alias, and whose body it writes. Any other
// answer of the server is passed on as it is (and fails the export:
// Options.Aliases names only paths the server redirects).
type aliasHandler struct {
	h     http.Handler
	alias Alias
}

func (a aliasHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	a.h.ServeHTTP(rec, r)
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusMovedPermanently || loc == "" {
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
		return
	}
	body := a.alias.Page
	if body == nil {
		body = AliasPage(loc, a.alias.Lang)
	}
	sum := sha256.Sum256(body)
	h := w.Header()
	h.Set("Location", loc)
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	// The ETag is the record's, not a host's: a build over a previous
	// one keeps the page when its bytes are the same (prevFile.matches).
	h.Set("Etag", `"`+hex.EncodeToString(sum[:12])+`"`)
	w.WriteHeader(http.StatusMovedPermanently)
	w.Write(body)
}

// IsAliasPage reports whether f is an alias page (its status is the
// server's 301): a file on disk for a bare static host, and no route of
// the nginx config or the Worker.
func (f *File) IsAliasPage() bool { return f.Status == http.StatusMovedPermanently }

// aliasNames names the alias pages' files after the routes' (names, in
// files, already checked to be distinct): an alias whose file is a
// route's or a previous alias's file or folder, or holds one, or differs
// from one only in case, is left out and said why in left.
func aliasNames(files []File, aliases []Alias) (kept []File, left []AliasLeftOut) {
	type owned struct{ name, route string }
	owner := make(map[string]string, 2*len(files)) // file name → route
	folders := make(map[string]string, len(files)) // folder name → a route under it
	byFold := make(map[string]owned, 3*len(files)) // folded file or folder name → it
	add := func(f File) {
		for _, n := range []string{f.Name, f.Name + ".gz"} {
			owner[n] = f.Path
			byFold[FoldCase(n)] = owned{n, f.Path}
		}
		for d := path.Dir(f.Name); d != "."; d = path.Dir(d) {
			if _, ok := folders[d]; ok {
				break
			}
			folders[d] = f.Path
			byFold[FoldCase(d)] = owned{d, f.Path}
		}
	}
	for _, f := range files {
		add(f)
	}
	kept = files
	for _, a := range aliases {
		p := a.Path
		name, err := FileName(p)
		if err != nil {
			left = append(left, AliasLeftOut{a, "no file in the output folder can hold its page"})
			continue
		}
		why := ""
		switch {
		case owner[name] != "":
			why = fmt.Sprintf("its file %s is %s's", name, owner[name])
		case folders[name] != "":
			why = fmt.Sprintf("its file %s is the folder of %s", name, folders[name])
		default:
			for d := path.Dir(name); d != "." && why == ""; d = path.Dir(d) {
				if r := owner[d]; r != "" {
					why = fmt.Sprintf("its folder %s is the file of %s", d, r)
				} else if o, ok := byFold[FoldCase(d)]; ok && o.name != d && owner[o.name] != "" {
					why = fmt.Sprintf("its folder %s and the file %s of %s differ only in case", d, o.name, o.route)
				}
			}
			if o, ok := byFold[FoldCase(name)]; why == "" && ok && o.name != name {
				why = fmt.Sprintf("its file %s and %s of %s differ only in case", name, o.name, o.route)
			}
		}
		if why != "" {
			left = append(left, AliasLeftOut{a, why})
			continue
		}
		f := File{Path: p, Name: name}
		add(f)
		kept = append(kept, f)
	}
	return kept, left
}

// AliasesLeftOut are the aliases an export of the routes at paths would
// hold no page for, and why (Site.AliasesLeftOut), without writing it:
// what folio check says before a build does.
func AliasesLeftOut(paths []string, aliases []Alias) ([]AliasLeftOut, error) {
	files := make([]File, len(paths))
	if err := nameFiles(files, paths); err != nil {
		return nil, err
	}
	_, left := aliasNames(files, aliases)
	return left, nil
}
