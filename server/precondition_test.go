package server

import (
	"net/http"
	"testing"
	"time"
)

// TestPreconditions (issue 15, finding 15): If-Match and
// If-Unmodified-Since are honoured on every route, evaluated in RFC 9110's
// order (§13.2.2): If-Match (strong comparison), else If-Unmodified-Since,
// fail with 412; then If-None-Match, else If-Modified-Since, answer 304.
// Before, both were ignored (200).
func TestPreconditions(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	plain := &http.Transport{DisableCompression: true} // the identity representation, whose ETag get saw
	defer plain.CloseIdleConnections()
	n := 0
	for _, rt := range everyRoute {
		resp, _ := get(t, ts, "GET", rt.path)
		etag, lm := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
		mod, err := http.ParseTime(lm)
		if err != nil {
			t.Fatalf("%s: Last-Modified %q", rt.path, lm)
		}
		before, after := mod.Add(-time.Second).Format(http.TimeFormat), mod.Add(time.Hour).Format(http.TimeFormat)
		for _, tc := range []struct {
			header []string // name, value pairs; a name twice is two field lines
			want   int
		}{
			{[]string{"If-Match", etag}, 200},
			{[]string{"If-Match", "*"}, 200},
			{[]string{"If-Match", `"other", ` + etag}, 200},
			{[]string{"If-Match", `"other"`, "If-Match", etag}, 200},
			{[]string{"If-Match", `"other"`}, 412},
			{[]string{"If-Match", "W/" + etag}, 412}, // strong comparison, §13.1.1
			{[]string{"If-Match", `"a,b"`}, 412},
			{[]string{"If-Unmodified-Since", lm}, 200},
			{[]string{"If-Unmodified-Since", after}, 200},
			{[]string{"If-Unmodified-Since", before}, 412},
			{[]string{"If-Unmodified-Since", "yesterday"}, 200},                           // not a date: ignored
			{[]string{"If-Unmodified-Since", before, "If-Unmodified-Since", before}, 200}, // a list: ignored
			{[]string{"If-Match", etag, "If-Unmodified-Since", before}, 200},              // If-Match present: IUS ignored
			{[]string{"If-Match", `"other"`, "If-None-Match", etag}, 412},                 // If-Match first
			{[]string{"If-Unmodified-Since", before, "If-None-Match", etag}, 412},         // then IUS
			{[]string{"If-Match", etag, "If-None-Match", etag}, 304},
			{[]string{"If-Unmodified-Since", after, "If-Modified-Since", after}, 304},
		} {
			req, _ := http.NewRequest("GET", ts.URL+rt.path, nil)
			for i := 0; i+1 < len(tc.header); i += 2 {
				req.Header.Add(tc.header[i], tc.header[i+1])
			}
			for _, method := range []string{"GET", "HEAD"} {
				req.Method = method
				r, err := plain.RoundTrip(req)
				if err != nil {
					t.Fatal(err)
				}
				r.Body.Close()
				n++
				if r.StatusCode != tc.want {
					t.Errorf("%s %s %q: %d, want %d", method, rt.path, tc.header, r.StatusCode, tc.want)
					continue
				}
				if tc.want == 412 {
					if ct, cc := r.Header.Get("Content-Type"), r.Header.Get("Cache-Control"); ct != "application/problem+json" || cc != "no-store" {
						t.Errorf("%s %s: 412 with Content-Type %q, Cache-Control %q", method, rt.path, ct, cc)
					}
					checkCORS(t, r, rt.cors)
				}
			}
		}
	}
	t.Logf("%d requests on %d routes", n, len(everyRoute))
}
