package pipeline

import (
	"cmp"
	"slices"
	"time"

	"folio/internal/layered"
)

// maxPatch is the most units an update may read again for patch to apply:
// beyond it (a checkout, a rescan) assembling from scratch costs no more.
const maxPatch = 64

// patch makes the next snapshot from s when only the units at keys were
// read again, by splicing their posts into s's order and lookups, and
// their pages into the site model (sitepatch.go), instead of sorting and
// indexing every page again: in folio dev, where each save is an Update,
// that is a few milliseconds at 10,000 posts instead of tens. It returns
// nil when the change is not that simple, and the caller assembles from
// scratch: a scheduled instant has passed (the published set moves), a
// post involved has a duplicate URL, the site model cannot be
// patched, or too many units changed. Either way the result is the same
// snapshot; TestPatchEqualsAssemble holds them to it.
func (s *Snapshot) patch(units layered.Map[string, *unit], keys []string, now time.Time) *Snapshot {
	if len(keys) > maxPatch || now.Before(s.now) || (!s.next.IsZero() && !now.Before(s.next)) {
		return nil
	}
	visible := func(u *unit) *Post {
		if u != nil && u.post != nil && s.shows(u.post, now) {
			return u.post
		}
		return nil
	}
	var changes []postChange
	for _, k := range keys {
		// A hidden section's _index shapes the tree (hiddenSection):
		// one that comes, goes or moves needs a build. So does a hidden
		// page that may make or keep its top-level section.
		if was, is := s.hiddenSection(unitAt(s.units, k), now), s.hiddenSection(unitAt(units, k), now); was != is {
			return nil
		}
		if s.hiddenPageShapes(unitAt(s.units, k), now) || s.hiddenPageShapes(unitAt(units, k), now) {
			return nil
		}
		c := postChange{old: visible(unitAt(s.units, k)), new: visible(unitAt(units, k))}
		if c.old == c.new {
			continue
		}
		for _, p := range []*Post{c.old, c.new} {
			if p != nil && p.Bundle != "" && s.config.Multilingual() {
				return nil // which language publishes its files, only a build knows
			}
		}
		changes = append(changes, c)
	}
	site := s.site.patch(siteInput{cfg: s.config, files: s.files, bundles: s.bundlesOf(changes), static: s.static, assets: s.assets, own: s.opts.Own}, changes)
	if site == nil {
		return nil
	}
	gone := map[*Post]bool{}
	var added []*Post
	for _, c := range changes {
		if p := c.old; p != nil && s.isPost(p) {
			if s.dups[p.Slug] {
				return nil
			}
			if q, _ := s.bySlug.Get(p.Slug); q == p {
				gone[p] = true
			}
		}
		if p := c.new; p != nil && s.isPost(p) {
			added = append(added, p)
		}
	}
	bySlug := s.bySlug.Next()
	for p := range gone {
		bySlug.Del(p.Slug)
	}
	for _, p := range added {
		if _, taken := bySlug.Get(p.Slug); taken {
			return nil // a duplicate URL: its winner is chosen by assemble
		}
		bySlug.Set(p.Slug, p)
	}
	n := &Snapshot{config: s.config, id: lastID.Add(1), now: now, opts: s.opts, fsys: s.fsys, units: units, keys: s.keys,
		bySlug: bySlug, dups: s.dups, dupProblems: s.dupProblems,
		files: s.files, static: s.static, assets: s.assets, site: site}
	for _, k := range keys {
		if (unitAt(s.units, k) == nil) != (unitAt(units, k) == nil) {
			n.keys = &unitKeys{} // a unit came or went
			break
		}
	}
	n.patched = &patched{from: s.id, changes: s.fileChanges(units, keys)}
	n.posts = splice(s.posts, gone, added)
	n.problems = s.patchProblems(units, keys)
	n.patchSchedule(s, units, keys, now)
	return n
}

// A PostChange is one content file's post before and after an update,
// visible or not; nil when the file had or has none.
type PostChange struct{ Old, New *Post }

// patched records how patch made a snapshot: from which, with which
// posts changed.
type patched struct {
	from    uint64
	changes []PostChange
}

// PatchedFrom tells how this snapshot was made when Update patched it
// from another (see patch): that snapshot's ID and the posts of the
// files read again whose post changed, in file order. A snapshot made any
// other way says ok false. A patched snapshot differs from the one it was
// made from only in these posts' own pages and the lists that hold them:
// every other page has the same path, title and outputs, so what indexes
// pages can be patched alike.
func (s *Snapshot) PatchedFrom() (from uint64, changes []PostChange, ok bool) {
	if s.patched == nil {
		return 0, nil, false
	}
	return s.patched.from, s.patched.changes, true
}

// fileChanges are the posts of the units at keys that differ between s
// and units.
func (s *Snapshot) fileChanges(units layered.Map[string, *unit], keys []string) []PostChange {
	var out []PostChange
	for _, k := range keys {
		var c PostChange
		if u := unitAt(s.units, k); u != nil {
			c.Old = u.post
		}
		if u := unitAt(units, k); u != nil {
			c.New = u.post
		}
		if c.Old != c.New {
			out = append(out, c)
		}
	}
	return out
}

// bundlesOf are the resources of the changed pages' bundles.
func (s *Snapshot) bundlesOf(changes []postChange) map[string][]string {
	out := map[string][]string{}
	for _, c := range changes {
		for _, p := range []*Post{c.old, c.new} {
			if p != nil && p.Bundle != "" {
				out[p.Bundle] = p.Resources
			}
		}
	}
	return out
}

// patchProblems is s's problems without those of the old units at keys
// and with those of the new ones. (Going through every unit instead costs
// a cache miss per post.)
func (s *Snapshot) patchProblems(units layered.Map[string, *unit], keys []string) []Problem {
	drop := map[Problem]int{}
	var add []Problem
	for _, k := range keys {
		for p := range unitProblems(unitAt(s.units, k)) {
			drop[p]++
		}
		for p := range unitProblems(unitAt(units, k)) {
			add = append(add, p)
		}
	}
	out := make([]Problem, 0, len(s.problems)+len(add))
	for _, p := range s.problems {
		if drop[p] > 0 {
			drop[p]--
			continue
		}
		out = append(out, p)
	}
	out = append(out, add...)
	sortProblems(out)
	return out
}

// unitProblems yields the problems of u: its failure, then its warnings.
func unitProblems(u *unit) func(func(Problem) bool) {
	return func(yield func(Problem) bool) {
		if u == nil {
			return
		}
		if u.problem != nil && !yield(*u.problem) {
			return
		}
		for _, w := range u.warnings {
			if !yield(w) {
				return
			}
		}
	}
}

// patchSchedule sets n.next from s.next and the posts of the units at
// keys; only when an old post there defined s.next are all posts looked
// at again.
func (n *Snapshot) patchSchedule(s *Snapshot, units layered.Map[string, *unit], keys []string, now time.Time) {
	n.next = s.next // after now: patch is not used once it has passed
	for _, k := range keys {
		if old := unitAt(s.units, k); old != nil && old.post != nil && !s.next.IsZero() &&
			(old.post.Date.Equal(s.next) || old.post.Expiry.Add(time.Nanosecond).Equal(s.next)) {
			n.next = time.Time{}
			for _, u := range units.All {
				if u.post != nil {
					n.noteSchedule(u.post, now)
				}
			}
			return
		}
	}
	for _, k := range keys {
		if u := unitAt(units, k); u != nil && u.post != nil {
			n.noteSchedule(u.post, now)
		}
	}
}

// splice returns posts without the gone ones and with the added ones in
// their place in the contract order.
func splice(posts []*Post, gone map[*Post]bool, added []*Post) []*Post {
	out := make([]*Post, 0, len(posts)-len(gone)+len(added))
	for _, p := range posts {
		if !gone[p] {
			out = append(out, p)
		}
	}
	for _, p := range added {
		i, _ := slices.BinarySearchFunc(out, p, Compare)
		out = slices.Insert(out, i, p)
	}
	return out
}

func sortProblems(ps []Problem) {
	slices.SortFunc(ps, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Message, b.Message))
	})
}

// hiddenSection is the language and folder of the section u's _index
// makes when the site does not show it; "" for any other unit.
func (s *Snapshot) hiddenSection(u *unit, now time.Time) string {
	if u == nil || u.post == nil || u.post.Kind != KindSection || s.shows(u.post, now) {
		return ""
	}
	return u.post.Lang + ":" + u.post.Dir
}

// hiddenPageShapes reports whether u is a page the site does not show
// whose top-level folder may be a section because of such pages alone
// (makeSections): one without a section in s's model, or whose section
// has no _index, no subsection and no shown page. A change of it needs a
// build.
func (s *Snapshot) hiddenPageShapes(u *unit, now time.Time) bool {
	if u == nil || u.post == nil || u.post.Kind != KindPage || s.shows(u.post, now) || s.site == nil {
		return false
	}
	l := s.site.lang(u.post.Lang)
	if l == nil {
		return true
	}
	top := l.topSection(u.post)
	if top == "" {
		return false
	}
	sec := l.sections[top]
	if sec == nil {
		return true
	}
	if sec.Post != nil || len(sec.Sections) > 0 {
		return false
	}
	for p := range l.regular.All {
		if l.topSection(p) == top {
			return false
		}
	}
	return true
}
