package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Real Accept headers, as sent by browsers and tools, and the edge cases
// of CONTRACT's negotiation rules.
const (
	acceptChrome  = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"
	acceptFirefox = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	acceptSafari  = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	acceptEdgeOld = "text/html, application/xhtml+xml, image/jxr, */*"
)

var negotiateCases = []struct {
	name, accept string
	want         media
}{
	{"chrome", acceptChrome, mediaHTML},
	{"firefox", acceptFirefox, mediaHTML},
	{"safari", acceptSafari, mediaHTML},
	{"old edge", acceptEdgeOld, mediaHTML},
	{"curl", "*/*", mediaHTML},
	{"no header", "", mediaHTML},
	{"markdown only", "text/markdown", mediaMarkdown},
	{"markdown, html, any: tie goes to markdown", "text/markdown, text/html, */*", mediaMarkdown},
	{"markdown first, plain and any lower", "text/markdown, text/plain;q=0.9, */*;q=0.8", mediaMarkdown},
	{"html lower than markdown", "text/html;q=0.9, text/markdown", mediaMarkdown},
	{"html higher than markdown", "text/markdown;q=0.5, text/html", mediaHTML},
	{"markdown below the wildcard html gets", "text/markdown;q=0.5, */*", mediaHTML},
	{"equal q, html named first", "text/html;q=0.7, text/markdown;q=0.7", mediaMarkdown},
	{"text wildcard", "text/*", mediaHTML},
	{"text wildcard does not name markdown", "text/*, text/html;q=0.1", mediaHTML},
	{"html excluded, any", "text/html;q=0, */*", mediaMarkdown},
	{"html excluded, text wildcard", "text/html;q=0, text/*", mediaMarkdown},
	{"markdown excluded, any", "text/markdown;q=0, */*", mediaHTML},
	{"markdown excluded, html", "text/markdown;q=0, text/html", mediaHTML},
	{"both excluded", "text/html;q=0, text/markdown;q=0, */*", mediaNone},
	{"wildcard excluded", "*/*;q=0", mediaNone},
	{"json", "application/json", mediaNone},
	{"json and problem", "application/json, application/problem+json", mediaNone},
	{"plain text", "text/plain", mediaNone},
	{"upper case", "TEXT/MARKDOWN", mediaMarkdown},
	{"mixed case q", "Text/Markdown;Q=0.9, text/html;Q=0.8", mediaMarkdown},
	{"spaces", "  text/markdown ; q=0.9 ,  text/html ; q=0.8  ", mediaMarkdown},
	{"tabs", "text/html;\tq=0.8,\ttext/markdown", mediaMarkdown},
	{"charset parameter", "text/markdown; charset=utf-8", mediaMarkdown},
	{"variant parameter", "text/markdown;variant=GFM;q=1, text/html;q=0.9", mediaMarkdown},
	{"parameters other than q ignored", "text/html;level=1, text/markdown;q=0.9", mediaHTML},
	{"q with three decimals", "text/html;q=0.501, text/markdown;q=0.5", mediaHTML},
	{"q of 1.000", "text/markdown;q=1.000, text/html", mediaMarkdown},
	{"malformed q ignored", "text/markdown;q=abc, text/html", mediaHTML},
	{"q above 1 ignored", "text/markdown;q=2, text/html;q=0.5", mediaHTML},
	{"q in exponent form ignored", "text/markdown;q=1e-1, text/html;q=0.5", mediaHTML},
	{"q without leading digit ignored", "text/markdown;q=.9, text/html;q=0.5", mediaHTML},
	{"q with four decimals ignored", "text/markdown;q=0.9999, text/html;q=0.5", mediaHTML},
	{"parameter without value ignored", "text/markdown;q, text/html", mediaHTML},
	{"garbage then markdown", "garbage, text/markdown", mediaMarkdown},
	{"only garbage counts as absent", "garbage", mediaHTML},
	{"only commas count as absent", ",,, ,", mediaHTML},
	{"missing subtype", "text/, text/markdown", mediaMarkdown},
	{"wildcard type with subtype ignored", "*/markdown", mediaHTML},
	{"only invalid members, json-like", "{json}", mediaHTML},
	{"empty members around markdown", ",text/markdown,", mediaMarkdown},
	{"markdown repeated, best q counts", "text/markdown;q=0.1, text/markdown;q=0.9, text/html;q=0.5", mediaMarkdown},
	{"html exact beats wildcard q", "text/html;q=0.2, */*, text/markdown;q=0.3", mediaMarkdown},
	{"agent: markdown with html fallback", "text/markdown, text/html;q=0.9", mediaMarkdown},
	{"agent: markdown, plain, html", "text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1", mediaMarkdown},
}

func TestNegotiate(t *testing.T) {
	for _, tc := range negotiateCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := negotiate(tc.accept); got != tc.want {
				t.Errorf("negotiate(%q) = %v, want %v", tc.accept, got, tc.want)
			}
		})
	}
}

func TestParseQ(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0", 0, true}, {"1", 1, true}, {"0.5", 0.5, true}, {"0.", 0, true}, {"1.", 1, true},
		{"1.000", 1, true}, {"0.001", 0.001, true},
		{"1.001", 0, false}, {"2", 0, false}, {"0.0001", 0, false}, {".5", 0, false},
		{"+0.5", 0, false}, {"1e-1", 0, false}, {"", 0, false}, {"0,5", 0, false}, {"00", 0, false},
	} {
		got, ok := parseQ(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseQ(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// Several Accept lines are one list.
func TestAcceptOfJoinsLines(t *testing.T) {
	r, _ := http.NewRequest("GET", "/", nil)
	r.Header.Add("Accept", "text/html;q=0.5")
	r.Header.Add("Accept", "text/markdown")
	if got := negotiate(acceptOf(r)); got != mediaMarkdown {
		t.Errorf("two Accept lines: got %v, want Markdown", got)
	}
}

func FuzzNegotiate(f *testing.F) {
	for _, tc := range negotiateCases {
		f.Add(tc.accept)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		switch negotiate(accept) {
		case mediaNone, mediaHTML, mediaMarkdown:
		default:
			t.Fatalf("negotiate(%q): unknown media", accept)
		}
	})
}

func (m media) String() string {
	switch m {
	case mediaHTML:
		return "HTML"
	case mediaMarkdown:
		return "Markdown"
	}
	return "none (406)"
}

// Over HTTP: both negotiating URLs answer every Accept header of the table
// as negotiate says, the Markdown bytes are those of the .md URL, and every
// answer (200, 304, 406, HEAD) carries Vary: Accept.
func TestNegotiatedURLs(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	urls := map[string]string{ // negotiating URL → its Markdown URL
		"/blog/hello-world/": "/blog/hello-world.md",
		"/blog/":             "/blog.md",
	}
	for page, mdURL := range urls {
		_, md := get(t, ts, "GET", mdURL)
		_, html := get(t, ts, "GET", page, "Accept", "text/html")
		for _, tc := range append(negotiateCases, struct {
			name, accept string
			want         media
		}{"header absent", "\x00absent", mediaHTML}) {
			for _, method := range []string{"GET", "HEAD"} {
				resp, body := negotiatedGet(t, ts, method, page, tc.accept, "")
				name := method + " " + page + " Accept: " + tc.accept
				if !varies(resp, "Accept") {
					t.Errorf("%s: Vary %q lacks Accept", name, resp.Header.Get("Vary"))
				}
				checkNegotiated(t, name, resp, body, tc.want, method, html, md)
				if resp.StatusCode == http.StatusOK {
					again, _ := negotiatedGet(t, ts, method, page, tc.accept, resp.Header.Get("ETag"))
					if again.StatusCode != http.StatusNotModified || !varies(again, "Accept") {
						t.Errorf("%s revalidated: %d, Vary %q", name, again.StatusCode, again.Header.Get("Vary"))
					}
				}
			}
		}
	}
}

func checkNegotiated(t *testing.T, name string, resp *http.Response, body []byte, want media, method string, html, md []byte) {
	t.Helper()
	ctype := resp.Header.Get("Content-Type")
	switch want {
	case mediaHTML:
		if resp.StatusCode != 200 || ctype != "text/html; charset=utf-8" {
			t.Errorf("%s: %d %s, want HTML", name, resp.StatusCode, ctype)
		} else if method == "GET" && string(body) != string(html) {
			t.Errorf("%s: not the HTML page", name)
		}
	case mediaMarkdown:
		if resp.StatusCode != 200 || ctype != "text/markdown; charset=utf-8" {
			t.Errorf("%s: %d %s, want Markdown", name, resp.StatusCode, ctype)
		} else if method == "GET" && string(body) != string(md) {
			t.Errorf("%s: Markdown differs from the .md URL's", name)
		}
	default:
		if resp.StatusCode != http.StatusNotAcceptable || ctype != "application/problem+json" {
			t.Errorf("%s: %d %s, want a 406 problem", name, resp.StatusCode, ctype)
			return
		}
		if resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: 406 Cache-Control %q", name, resp.Header.Get("Cache-Control"))
		}
		if method == "GET" {
			var p struct {
				Status     int      `json:"status"`
				Acceptable []string `json:"acceptable"`
			}
			if err := json.Unmarshal(body, &p); err != nil || p.Status != 406 ||
				strings.Join(p.Acceptable, ",") != "text/html,text/markdown" {
				t.Errorf("%s: 406 body %s", name, body)
			}
		}
	}
}

// negotiatedGet sends one request; accept "\x00absent" sends no Accept.
func negotiatedGet(t *testing.T, ts *httptest.Server, method, path, accept, etag string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "\x00absent" {
		req.Header["Accept"] = []string{accept}
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := testClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// The Markdown of a negotiated URL keeps the headers of the .md URL's
// (Link: canonical, CORS), adding only Accept to Vary.
func TestNegotiatedMarkdownHeaders(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	direct, _ := get(t, ts, "GET", "/blog/hello-world.md")
	negotiated, _ := get(t, ts, "GET", "/blog/hello-world/", "Accept", "text/markdown")
	for _, k := range []string{"Content-Type", "ETag", "Link", "Access-Control-Allow-Origin", "Cache-Control", "Last-Modified"} {
		if direct.Header.Get(k) != negotiated.Header.Get(k) {
			t.Errorf("%s: .md %q, negotiated %q", k, direct.Header.Get(k), negotiated.Header.Get(k))
		}
	}
	if varies(direct, "Accept") {
		t.Error("the .md URL does not negotiate, yet varies on Accept")
	}
}
