package watch

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"time"
)

// A burst collects the changes seen since the last flush. Events keep
// arriving in bursts (an editor's save is a handful of events within a
// millisecond; a git checkout is thousands over a few hundred
// milliseconds); the burst ends after a silence that grows with the burst
// itself, so one save is delivered quickly and a long checkout is not cut
// into pieces by the small pauses inside it.
type burst struct {
	first, last time.Time
	// changed maps, per root index, each path to whether its first event
	// in this burst was a creation (for transient).
	changed []map[string]bool
	rescan  []bool
}

func newBurst(roots int) burst {
	return burst{changed: make([]map[string]bool, roots), rescan: make([]bool, roots)}
}

func (b *burst) empty() bool { return b.first.IsZero() }

// touch notes that an event for some root arrived at now.
func (b *burst) touch(now time.Time) {
	if b.first.IsZero() {
		b.first = now
	}
	b.last = now
}

func (b *burst) add(root int, rel string, created bool, now time.Time) {
	b.touch(now)
	if b.changed[root] == nil {
		b.changed[root] = map[string]bool{}
	}
	if _, seen := b.changed[root][rel]; !seen {
		b.changed[root][rel] = created
	}
}

func (b *burst) rescanRoot(root int, now time.Time) {
	b.touch(now)
	b.rescan[root] = true
}

// deadline is when the burst ends if nothing else arrives: after a silence
// of Quiet plus half the burst's length so far (at most 20 Quiet), and at
// the latest MaxDelay after its first event.
func (b *burst) deadline(o Options) time.Time {
	quiet := min(o.Quiet+b.last.Sub(b.first)/2, 20*o.Quiet)
	end := b.last.Add(quiet)
	if limit := b.first.Add(o.MaxDelay); limit.Before(end) {
		return limit
	}
	return end
}

// pending are the flushed changes not yet taken by the consumer; bursts
// that end while the consumer is busy are merged into one delivery.
type pending struct {
	paths  []map[string]bool
	rescan []bool
}

func newPending(roots int) pending {
	return pending{paths: make([]map[string]bool, roots), rescan: make([]bool, roots)}
}

// merge moves b's changes into p, dropping transient files that came and
// went within the burst. rootDirs gives each root's absolute folder.
func (p *pending) merge(b *burst, roots []*root) {
	for i, changed := range b.changed {
		for rel, created := range changed {
			// A name asked for is never a tool's temporary file.
			if created && roots[i].names == nil && transient(rel) && gone(roots[i], rel) {
				continue
			}
			if p.paths[i] == nil {
				p.paths[i] = map[string]bool{}
			}
			p.paths[i][rel] = true
		}
		p.rescan[i] = p.rescan[i] || b.rescan[i]
	}
}

func gone(r *root, rel string) bool {
	_, err := os.Lstat(filepath.Join(r.abs, filepath.FromSlash(rel)))
	return os.IsNotExist(err)
}

// batches renders p, in the order of roots; nil when p holds nothing.
func (p *pending) batches(roots []*root) []Batch {
	var out []Batch
	for i, r := range roots {
		switch {
		case p.rescan[i]:
			out = append(out, Batch{Root: r.given, Index: i, Rescan: true})
		case len(p.paths[i]) > 0:
			out = append(out, Batch{Root: r.given, Index: i, Paths: compact(p.paths[i])})
		}
	}
	return out
}

// compact sorts the set and leaves out every path below another one in it:
// a folder in a batch means "read this folder again", which covers all
// that is inside it.
func compact(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for p := range set {
		if !coveredBy(p, set) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

func coveredBy(p string, set map[string]bool) bool {
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		if set[d] {
			return true
		}
	}
	return false
}
