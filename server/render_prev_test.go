package server

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
)

// TestRendersStartFromThePrevious: the render context of a state that
// replaced one with its context made starts from that context's index,
// and a state nothing was rendered from passes on the one it had; the
// state itself is not kept.
func TestRendersStartFromThePrevious(t *testing.T) {
	fsys := liveSite()
	s, ts := devSite(t, fsys)
	first := s.current.Load()
	if resp, _ := get(t, ts, "GET", "/blog/"+first.snap.Posts()[0].Slug+"/"); resp.StatusCode != 200 {
		t.Fatalf("article: %d", resp.StatusCode)
	}
	made := first.renders().resolver
	now := time.Now()
	p := first.snap.Posts()[0]
	edit := func(title string) *pipeline.Snapshot {
		t.Helper()
		fsys[p.File] = &fstest.MapFile{Data: []byte("---\ntitle: " + title + "\ndate: 2019-01-01\n---\nEdited.\n")}
		next, err := s.Snapshot().Update([]string{p.File}, now)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Swap(next); err != nil {
			t.Fatal(err)
		}
		return next
	}
	edit("Once")
	second := s.current.Load()
	if second.prevResolver != made {
		t.Fatal("the next state does not start from the made index")
	}
	edit("Twice") // nothing rendered from the second state
	third := s.current.Load()
	if third.prevResolver != made {
		t.Fatal("a state nothing was rendered from does not pass its start on")
	}
	if resp, body := get(t, ts, "GET", "/blog/"+p.Slug+"/"); resp.StatusCode != 200 || !strings.Contains(string(body), "Twice") {
		t.Fatalf("article after two edits: %d", resp.StatusCode)
	}
	if third.renders().resolver == made {
		t.Fatal("the third state answers from the first state's index")
	}
}
