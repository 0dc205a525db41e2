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
	// away counts the paths whose last event in this burst took them away
	// (removed, or renamed to another name): an editor that saves by
	// renaming the old file to a backup is between its two steps.
	away map[away]bool
}

// away is one path of one root, by the root's index.
type away struct {
	root int
	rel  string
}

// An op is what an event did to its path.
type op uint8

const (
	wrote op = iota // written, or its attributes changed
	made            // created, or renamed to this name
	gone            // removed, or renamed to another name
)

// maxSilence is the longest silence a long burst must keep to end (with
// the default Quiet): a bulk copy that pauses for longer is delivered in
// parts. A git command is held for as long as it runs (Options.Hold).
const maxSilence = 200 * time.Millisecond

// awayQuiet is the shortest silence that ends a burst in which some path
// is away. Most editors save by renaming the old file to a backup, then
// writing the new one (vim, Emacs, JetBrains): a burst that ended between
// the two would deliver the post as deleted, and the browser would reload
// to a 404 before the next delivery put it back. Deleting a post is rare
// and needs no haste, so a burst that leaves a path away waits longer for
// it to come back.
const awayQuiet = 20 * time.Millisecond

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

func (b *burst) add(root int, rel string, o op, now time.Time) {
	b.touch(now)
	if b.changed[root] == nil {
		b.changed[root] = map[string]bool{}
	}
	if _, seen := b.changed[root][rel]; !seen {
		b.changed[root][rel] = o == made
	}
	switch k := (away{root, rel}); {
	case o == gone:
		if b.away == nil {
			b.away = map[away]bool{}
		}
		b.away[k] = true
	case o == made:
		delete(b.away, k)
	}
}

func (b *burst) rescanRoot(root int, now time.Time) {
	b.touch(now)
	b.rescan[root] = true
}

// deadline is when the burst ends if nothing else arrives: after a silence
// of Quiet plus half the burst's length so far (at most maxSilence, or 20
// Quiet when that is longer; at least awayQuiet while a path is away), and
// at the latest MaxDelay after its first event.
func (b *burst) deadline(o Options) time.Time {
	quiet := min(o.Quiet+b.last.Sub(b.first)/2, max(maxSilence, 20*o.Quiet))
	if len(b.away) > 0 {
		quiet = max(quiet, awayQuiet)
	}
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
			if created && roots[i].names == nil && transient(rel) && missing(roots[i], rel) {
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

func missing(r *root, rel string) bool {
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
