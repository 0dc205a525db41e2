package host

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"folio/pipeline"
)

// TestServeSchedule: under folio serve too, a post whose publish date
// arrives appears, and one whose expiry passes disappears, with no file
// change, no request and no SIGHUP: the host's one timer moves the
// snapshot on.
func TestServeSchedule(t *testing.T) {
	at := time.Now().Add(time.Second).UTC().Truncate(time.Second).Add(time.Second)
	dir := t.TempDir()
	content := filepath.Join(dir, "content")
	writeFile(t, filepath.Join(content, "blog", "soon.md"), "---\ntitle: Soon\ndate: 2026-01-01T00:00:00Z\npublishDate: "+at.Format(time.RFC3339)+"\n---\nx\n")
	writeFile(t, filepath.Join(content, "blog", "ending.md"), "---\ntitle: Ending\ndate: 2026-01-01T00:00:00Z\nexpiryDate: "+at.Format(time.RFC3339)+"\n---\nx\n")
	h := loadUnrun(t, Spec{Content: content}.ForServe(false))
	if s := h.Snapshot(); s.Post("soon") != nil || s.Post("ending") == nil {
		t.Fatal("at start the scheduled post is shown or the expiring one is not")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); h.Run(ctx, nil) }()
	defer func() { cancel(); <-done }()
	for deadline := time.Now().Add(devWait); ; time.Sleep(10 * time.Millisecond) {
		s := h.Snapshot()
		if s.Post("soon") != nil && s.Post("ending") == nil {
			if time.Now().Before(at) {
				t.Error("the schedule moved before the instant")
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no scheduled move: %s", describe([]*pipeline.Snapshot{s}))
		}
	}
}
