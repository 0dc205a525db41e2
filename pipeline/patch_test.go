package pipeline

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// TestPatchEqualsAssemble: whatever Update makes by patching the previous
// snapshot must be exactly what assembling its units from scratch makes.
// Random edits of a small site (titles, dates, slugs that collide,
// aliases, drafts, scheduled and expiring posts, broken files, new and
// deleted files), with the clock moving past scheduled instants now and
// then.
func TestPatchEqualsAssemble(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 7))
		fsys := fstest.MapFS{}
		now := testNow
		for i := range 30 {
			fsys[fmt.Sprintf("blog/p%d.md", i)] = &fstest.MapFile{Data: []byte(randomPost(r, now, i))}
		}
		snap, err := Build(fsys, testConfig(t), Options{Root: "content", Drafts: seed%5 == 0}, now)
		if err != nil {
			t.Fatal(err)
		}
		patched := 0
		for step := range 60 {
			var paths []string
			for range 1 + r.IntN(3) {
				name := fmt.Sprintf("blog/p%d.md", r.IntN(36))
				switch r.IntN(6) {
				case 0:
					delete(fsys, name)
				case 1:
					fsys[name] = &fstest.MapFile{Data: []byte("---\ntitle: [broken\n---\n")}
				default:
					fsys[name] = &fstest.MapFile{Data: []byte(randomPost(r, now, step))}
				}
				paths = append(paths, name)
			}
			if r.IntN(5) == 0 {
				now = now.Add(time.Duration(r.IntN(48)) * time.Hour)
			}
			next, err := snap.Update(paths, now)
			if err != nil {
				t.Fatal(err)
			}
			full := next.assemble(next.units, nil, now)
			if diff := snapshotDiff(next, full); diff != "" {
				t.Fatalf("seed %d step %d (paths %v): patched and assembled snapshots differ: %s", seed, step, paths, diff)
			}
			if reflect.ValueOf(next.dups).UnsafePointer() == reflect.ValueOf(snap.dups).UnsafePointer() {
				patched++ // patch shares the duplicate set; assemble makes its own
			}
			snap = next
		}
		if patched < 10 {
			t.Errorf("seed %d: only %d of 60 updates were patched; the test does not exercise patch", seed, patched)
		}
	}
}

// randomPost is a valid post with fields drawn so that slugs collide,
// some posts have aliases, and some are drafts, scheduled or expiring
// around now.
func randomPost(r *rand.Rand, now time.Time, n int) string {
	date := now.Add(time.Duration(r.IntN(96)-72) * time.Hour).Truncate(time.Hour)
	s := fmt.Sprintf("---\ntitle: \"T%d\"\ndate: %s\n", n, date.Format(time.RFC3339))
	if r.IntN(8) == 0 {
		s += fmt.Sprintf("slug: s%d\n", r.IntN(4))
	}
	if r.IntN(10) == 0 {
		s += fmt.Sprintf("aliases: [/old/a%d/]\n", r.IntN(3))
	}
	if r.IntN(10) == 0 {
		s += "draft: true\n"
	}
	if r.IntN(8) == 0 {
		s += "expiryDate: " + now.Add(time.Duration(r.IntN(48)-12)*time.Hour).Format(time.RFC3339) + "\n"
	}
	if r.IntN(10) == 0 {
		s += "{{< nosuchshortcode >}}\n"
	}
	var tags []string
	for _, tag := range []string{"go", "web", "rare"} {
		if r.IntN(3) == 0 || (tag == "go" && r.IntN(2) == 0) {
			tags = append(tags, tag)
		}
	}
	s += "tags: [" + strings.Join(tags, ", ") + "]\n"
	if r.IntN(6) == 0 {
		s += fmt.Sprintf("weight: %d\n", r.IntN(3))
	}
	return s + "---\nBody.\n"
}

// snapshotDiff describes how two snapshots of the same units differ in
// anything a reader can see.
func snapshotDiff(a, b *Snapshot) string {
	switch {
	case !slices.Equal(a.posts, b.posts):
		return fmt.Sprintf("posts\n%v\n%v", slugs(a.posts), slugs(b.posts))
	case !slices.Equal(a.problems, b.problems):
		return fmt.Sprintf("problems\n%v\n%v", a.problems, b.problems)
	case !maps.Equal(maps.Collect(a.bySlug.All), maps.Collect(b.bySlug.All)):
		return "slug lookup"
	case !a.next.Equal(b.next):
		return fmt.Sprintf("next change %v, %v", a.next, b.next)
	case !maps.Equal(a.dups, b.dups) || !slices.Equal(sorted(a.dupProblems), sorted(b.dupProblems)):
		return "duplicates"
	case !a.now.Equal(b.now):
		return "now"
	case !slices.Equal(siteDigest(a), siteDigest(b)):
		return fmt.Sprintf("site\n%s\n%s", strings.Join(siteDigest(a), "\n"), strings.Join(siteDigest(b), "\n"))
	}
	return ""
}

// siteDigest is what a reader sees of the site model: every route, and
// every list page's pages.
func siteDigest(s *Snapshot) []string {
	var out []string
	for _, r := range s.Routes() {
		line := fmt.Sprintf("%s %s %s %s", r.Path, r.Kind, r.Target, r.File)
		if r.Page != nil {
			line += fmt.Sprintf(" %s %q %d %s", r.Page.Kind, r.Page.Title, r.Page.Pagers, r.Page.Feed)
		}
		out = append(out, line)
	}
	for _, pg := range s.Pages() {
		var list []string
		for _, q := range pg.Pages {
			list = append(list, q.Path)
		}
		for _, q := range pg.Sections {
			list = append(list, "section "+q.Path)
		}
		out = append(out, fmt.Sprintf("%s %s %q lists %v", pg.Kind, pg.Path, pg.Title, list))
	}
	return out
}

// sorted orders problems as Snapshot.Problems are (the duplicate list of
// one snapshot comes in map order).
func sorted(ps []Problem) []Problem {
	ps = slices.Clone(ps)
	sortProblems(ps)
	return ps
}

// TestHiddenSectionUpdate: a draft section's _index (rtdevx.github.io's
// posts/training/docker) makes its folder a section that is neither
// rendered nor listed, whose files are not published and whose pages are
// not its parent's; one that comes, goes or is edited in folio dev gives
// what a build from scratch gives.
func TestHiddenSectionUpdate(t *testing.T) {
	now := testNow
	fsys := fstest.MapFS{
		"hugo.toml":                                 {Data: []byte("baseURL = 'https://example.org/'\ntitle = 'T'\n")},
		"content/posts/a.md":                        {Data: []byte("---\ntitle: A\ndate: 2020-01-02\n---\nA.\n")},
		"content/posts/training/_index.md":          {Data: []byte("---\ntitle: Training\n---\n")},
		"content/posts/training/docker/thumb.png":   {Data: []byte("PNG")},
		"content/posts/training/docker/x/index.md":  {Data: []byte("---\ntitle: X\ndate: 2020-01-03\n---\nX.\n")},
		"content/posts/training/docker/x/photo.png": {Data: []byte("PNG")},
	}
	cfg, err := LoadSite(SiteOptions{FS: fsys, Environment: "production"})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := Build(fsys, cfg, Options{}, now)
	if err != nil {
		t.Fatal(err)
	}
	const index, thumb = "content/posts/training/docker/_index.md", "/posts/training/docker/thumb.png"
	for _, step := range []struct {
		name    string
		index   string // the _index's text, "" for none
		thumb   bool   // the section's file published
		parents int    // the training section's pages
		patched bool
	}{
		{"a draft _index comes", "---\ntitle: Docker\ndraft: true\n---\n", false, 0, false},
		{"it is edited, still a draft", "---\ntitle: Docker trainings\ndraft: true\n---\n", false, 0, true},
		{"it is published", "---\ntitle: Docker trainings\n---\n", true, 0, false},
		{"it goes", "", true, 1, false},
	} {
		if step.index == "" {
			delete(fsys, index)
		} else {
			fsys[index] = &fstest.MapFile{Data: []byte(step.index)}
		}
		next, err := snap.Update([]string{index}, now)
		if err != nil {
			t.Fatal(err)
		}
		if diff := snapshotDiff(next, next.assemble(next.units, nil, now)); diff != "" {
			t.Fatalf("%s: patched and assembled snapshots differ: %s", step.name, diff)
		}
		if _, _, ok := next.PatchedFrom(); ok != step.patched {
			t.Errorf("%s: patched %v, want %v", step.name, ok, step.patched)
		}
		if _, ok := next.Route(thumb); ok != step.thumb {
			t.Errorf("%s: %s published %v, want %v", step.name, thumb, ok, step.thumb)
		}
		if _, ok := next.Route("/posts/training/docker/x/photo.png"); !ok {
			t.Errorf("%s: the section's page's bundle file is not published", step.name)
		}
		for _, pg := range next.Pages() {
			if pg.Section == "posts/training" && pg.Kind == KindSection && len(pg.Pages) != step.parents {
				t.Errorf("%s: the parent section lists %d pages, want %d", step.name, len(pg.Pages), step.parents)
			}
			if pg.Hidden && (pg.Post != nil || pg.Title == "Docker" || pg.Title == "Docker trainings") {
				t.Errorf("%s: the hidden section shows its _index: %+v", step.name, pg)
			}
		}
		snap = next
	}
}
