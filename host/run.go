package host

import (
	"context"
	"os"
	"time"
)

// Run applies changes until ctx ends, then closes the watcher. Every
// trigger is one case of one select, and each only says what changed:
// the apply path (apply.go) does the rest.
//
//   - A reload signal (SIGHUP) reads everything again: the config, the
//     theme, the content.
//   - A delivery of the watcher names the files that changed.
//   - One timer, set after every commit to the snapshot's next scheduled
//     publish or expiry, moves the published set on at that instant.
//
// The parse cache of the first snapshot is written meanwhile, when the
// spec asks (saveCache); Run waits for it to end, which it does early
// once ctx ends.
func (h *Host) Run(ctx context.Context, reload <-chan os.Signal) {
	defer h.Close()
	defer h.startSaving(ctx)()
	timer := time.NewTimer(h.untilScheduled())
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-reload:
			h.apply(reloadAll)
		case batches, ok := <-h.w.batches():
			if !ok {
				h.log.Error("watch: the watcher stopped; changes to the files are no longer seen")
				h.Close()
				continue
			}
			h.apply(h.w.change(batches))
		case <-timer.C:
			h.apply(change{trigger: "schedule", schedule: true})
		}
		timer.Reset(h.untilScheduled())
	}
}

// reloadAll is what a reload signal asks: everything read again.
var reloadAll = change{trigger: "signal", config: true, site: true, rescan: true}

// untilScheduled is the time until the served snapshot's next scheduled
// publish or expiry; a day when there is none (the timer is set again
// after every commit anyway).
func (h *Host) untilScheduled() time.Duration {
	next := h.srv.Snapshot().NextChange()
	if next.IsZero() {
		return 24 * time.Hour
	}
	return max(time.Until(next), 0)
}
