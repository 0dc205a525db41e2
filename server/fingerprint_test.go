package server

import (
	"crypto/sha256"
	"net/http/httptest"
	"testing"

	"folio/pipeline"
)

// TestFingerprintLLMsFullFromRecord: llms-full.txt's fingerprint takes
// the length of a post's twin from the previous build's record when the
// twin's fingerprint is the recorded one, and renders the twin otherwise;
// either way it is the fingerprint of the same bytes.
func TestFingerprintLLMsFullFromRecord(t *testing.T) {
	cfg := fixtureConfig(t)
	cfg.Agents.FullMaxBytes = 2000 // a few of the 12 posts fit
	snap, err := pipeline.Build(generatedSite(12), cfg, pipeline.Options{}, fixtureNow)
	if err != nil {
		t.Fatal(err)
	}
	// Each twin's fingerprint and length, as a build records them.
	twins := map[string]int{}
	for _, p := range snap.Posts() {
		path := "/" + snap.MarkdownURLOf(p)
		rec := httptest.NewRecorder()
		newServer(t, snap, false).ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != 200 {
			t.Fatalf("GET %s: %d", path, rec.Code)
		}
		twins[path] = rec.Body.Len()
	}
	fingerprint := func(prev Recorded) [sha256.Size]byte {
		t.Helper()
		s := newServer(t, snap, false) // a fresh digest each time
		fp, ok := s.Fingerprint("/llms-full.txt", prev)
		if !ok {
			t.Fatal("no fingerprint for /llms-full.txt")
		}
		return fp
	}
	asRecorded := func(size func(path string, n int) int, stale bool) Recorded {
		s := newServer(t, snap, false)
		return func(path string) (fp [sha256.Size]byte, n int, ok bool) {
			real, ok := twins[path]
			if !ok {
				return fp, 0, false
			}
			if fp, ok = s.Fingerprint(path, nil); !ok {
				t.Fatalf("no fingerprint for %s", path)
			}
			if stale {
				fp[0] ^= 1
			}
			return fp, size(path, real), true
		}
	}
	rendered := fingerprint(nil)
	for _, tc := range []struct {
		name string
		prev Recorded
		same bool
	}{
		{"recorded lengths", asRecorded(func(_ string, n int) int { return n }, false), true},
		{"stale fingerprints: rendered", asRecorded(func(_ string, n int) int { return 1 << 20 }, true), true},
		// Lengths the record makes up are believed: the cut moves to
		// the first post, so the fingerprint is another.
		{"recorded lengths believed", asRecorded(func(_ string, n int) int { return 1 << 20 }, false), false},
	} {
		if got := fingerprint(tc.prev); (got == rendered) != tc.same {
			t.Errorf("%s: the fingerprint is the rendered one: %v, want %v", tc.name, got == rendered, tc.same)
		}
	}
}
