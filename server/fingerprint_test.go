package server

import (
	"crypto/sha256"
	"maps"
	"net/http/httptest"
	"slices"
	"testing"
	"testing/fstest"

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

// TestFingerprintPostSource: a post's page and twin have the fingerprint
// of what the post was parsed from (with a parse cache: its file's
// bytes, sourceDigest) and of its bundle's files: an edit of a post's
// file changes its two and no other, an edit of a bundle's file its
// bundle's post's; the same bytes again give the same fingerprints; and
// Refingerprint says each as FingerprintOf does.
func TestFingerprintPostSource(t *testing.T) {
	base := sampleSite()
	snap := build(t, base, pipeline.Options{})
	var plain, bundled *pipeline.Post
	for _, p := range snap.Posts() {
		switch {
		case len(p.Resources) > 0 && bundled == nil:
			bundled = p
		case len(p.Resources) == 0 && len(p.ContentFiles) == 0 && p.Bundle == "" && plain == nil:
			plain = p
		}
	}
	if plain == nil || bundled == nil {
		t.Fatal("the fixture has no plain post or no page bundle")
	}
	edited := func(name string) fstest.MapFS {
		fsys := maps.Clone(base)
		f := *fsys[name]
		f.Data = append(slices.Clone(f.Data), "\n\nAn added paragraph.\n"...)
		fsys[name] = &f
		return fsys
	}
	prints := func(fsys fstest.MapFS) map[string][sha256.Size]byte {
		t.Helper()
		snap := build(t, fsys, pipeline.Options{Cache: pipeline.NewCache([sha256.Size]byte{1})})
		s := newServer(t, snap, false)
		out := map[string][sha256.Size]byte{}
		for _, p := range snap.Posts() {
			for _, path := range []string{"/" + snap.URLOf(p), "/" + snap.MarkdownURLOf(p)} {
				fp, post, _, ok := s.FingerprintOf(path, nil)
				if !ok || post != p.File {
					t.Fatalf("%s: FingerprintOf says post %q, ok %v; want %s", path, post, ok, p.File)
				}
				if again, ok := s.Refingerprint(path, post); !ok || again != fp {
					t.Errorf("%s: Refingerprint differs from FingerprintOf", path)
				}
				out[path] = fp
			}
		}
		return out
	}
	was := prints(base)
	for _, tc := range []struct {
		name    string
		fsys    fstest.MapFS
		changed *pipeline.Post
	}{
		{"the same bytes", maps.Clone(base), nil},
		{"a post's file edited", edited(plain.File), plain},
		{"a bundle's file edited", edited(bundled.Bundle + "/" + bundled.Resources[0]), bundled},
	} {
		now := prints(tc.fsys)
		for path, fp := range was {
			mine := tc.changed != nil && (path == "/"+snap.URLOf(tc.changed) || path == "/"+snap.MarkdownURLOf(tc.changed))
			if (now[path] != fp) != mine {
				t.Errorf("%s: %s changed %v, want %v", tc.name, path, now[path] != fp, mine)
			}
		}
	}
}
