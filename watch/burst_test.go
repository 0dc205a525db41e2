package watch

import (
	"reflect"
	"testing"
	"time"
)

func TestDefaultIgnore(t *testing.T) {
	tests := []struct {
		rel  string
		want bool
	}{
		{"blog/x.md", false},
		{"blog/bundle/index.md", false},
		{"blog/bundle/img.png", false},
		{"blog/sedentary/index.md", false},
		{"blog/x.md~", true},
		{"blog/.x.md.swp", true},
		{"blog/.x.md.swx", true},
		{"blog/%home%u%blog%x.md.swo", true},
		{"blog/4913", false}, // transient: a file of the site when it stays
		{"blog/49130", false},
		{"blog/.#x.md", true},
		{"blog/#x.md#", true},
		{"blog/x.md___jb_tmp___", false}, // transient
		{"blog/x.md___jb_old___", false}, // transient
		{"blog/template.md.tmp", false},  // transient; Hugo publishes it
		{"blog/photo.swp", true},
		{"blog/.x.md.tmp123", true},
		{".git", true},
		{".git/objects/ab", true},
		{"blog/.hidden/x.md", true},
		{"x.md", false},
	}
	for _, tt := range tests {
		if got := DefaultIgnore(tt.rel); got != tt.want {
			t.Errorf("DefaultIgnore(%q) = %v, want %v", tt.rel, got, tt.want)
		}
	}
}

func TestTransient(t *testing.T) {
	tests := []struct {
		rel  string
		want bool
	}{
		{"blog/sedAb12Cd", true},
		{"blog/sed123456", true},
		{"blog/sedentary", true}, // a candidate only: dropped when it came and went
		{"blog/sedAb12C", false},
		{"blog/sedAb12Cde", false},
		{"blog/sedAb1.Cd", false},
		{"blog/4913", true},
		{"blog/5036", true},
		{"blog/5159", true},
		{"blog/5037", false},
		{"blog/2024", false},
		{"blog/05036", false},
		{"blog/x.md___jb_tmp___", true},
		{"blog/x.md___jb_old___", true},
		{"blog/x.md.tmp", true},
		{"blog/x.md", false},
	}
	for _, tt := range tests {
		if got := transient(tt.rel); got != tt.want {
			t.Errorf("transient(%q) = %v, want %v", tt.rel, got, tt.want)
		}
	}
}

func TestCompact(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{[]string{"blog/b.md", "blog/a.md"}, []string{"blog/a.md", "blog/b.md"}},
		{[]string{"blog/new/x.md", "blog/new", "blog/new/deep/y.md", "blog/newer.md"}, []string{"blog/new", "blog/newer.md"}},
		{[]string{"blog/a-b/x.md", "blog/a", "blog/a.md"}, []string{"blog/a", "blog/a-b/x.md", "blog/a.md"}},
		{[]string{"blog", "blog/x.md", "about.md"}, []string{"about.md", "blog"}},
		{[]string{"."}, []string{"."}},
	}
	for _, tt := range tests {
		set := map[string]bool{}
		for _, p := range tt.in {
			set[p] = true
		}
		if got := compact(set); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("compact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDeadline(t *testing.T) {
	ms := time.Millisecond
	opts := Options{}.withDefaults() // Quiet 4ms, MaxDelay 5s
	t0 := time.Unix(1_700_000_000, 0)
	tests := []struct {
		name        string
		first, last time.Duration // after t0
		ops         []op          // of blog/x.md, in order
		want        time.Duration // after t0
	}{
		{"one event", 0, 0, nil, 4 * ms},
		{"a save over 2ms", 0, 2 * ms, nil, 2*ms + 5*ms},
		{"a bulk copy 270ms in", 0, 270 * ms, nil, 270*ms + 139*ms},
		{"silence capped at 200ms", 0, 1000 * ms, nil, 1000*ms + 200*ms},
		{"never later than MaxDelay", 0, 4900 * ms, nil, 5000 * ms},
		{"renamed to a backup", 0, 1 * ms, []op{gone}, 1*ms + 20*ms},
		{"back under its name", 0, 1 * ms, []op{gone, made}, 1*ms + 4500*time.Microsecond},
		{"written, then removed", 0, 1 * ms, []op{wrote, gone}, 1*ms + 20*ms},
		{"removed in a long burst", 0, 270 * ms, []op{gone}, 270*ms + 139*ms},
	}
	for _, tt := range tests {
		b := newBurst(1)
		for _, o := range tt.ops {
			b.add(0, "blog/x.md", o, t0)
		}
		b.first, b.last = t0.Add(tt.first), t0.Add(tt.last)
		if got := b.deadline(opts).Sub(t0); got != tt.want {
			t.Errorf("%s: deadline %v, want %v", tt.name, got, tt.want)
		}
	}
	long := Options{Quiet: 20 * ms}.withDefaults()
	b := burst{first: t0, last: t0.Add(2000 * ms)}
	if got := b.deadline(long).Sub(t0); got != 2000*ms+400*ms {
		t.Errorf("Quiet 20ms: silence capped at %v, want 20 Quiet", got-2000*ms)
	}
}

// TestMerge checks that bursts ending before the consumer takes the
// delivery are merged into it, and that a transient file created and
// gone within its burst is dropped.
func TestMerge(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{"blog/sedKeep01": "left behind"})
	r, err := newRoot(Root{Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	roots := []*root{r}
	now := time.Now()
	p := newPending(1)

	b := newBurst(1)
	b.add(0, "blog/x.md", wrote, now)
	b.add(0, "blog/sedAb12Cd", made, now)  // came and went
	b.add(0, "blog/sedKeep01", made, now)  // still there
	b.add(0, "blog/sedGone01", wrote, now) // was there before the burst
	p.merge(&b, roots)

	b = newBurst(1)
	b.add(0, "blog/y.md", made, now)
	b.add(0, "blog/x.md", wrote, now)
	p.merge(&b, roots)
	wantPaths(t, p.batches(roots), dir, "blog/sedGone01", "blog/sedKeep01", "blog/x.md", "blog/y.md")

	b = newBurst(1)
	b.rescanRoot(0, now)
	p.merge(&b, roots)
	wantRescan(t, p.batches(roots), dir)
}

// TestBurstsEndByThemselves: without a test ending them (Options.SyncDir), a
// burst ends after its silence, or after MaxDelay when the silence is an
// hour away, with the real clock. Each is only waited for, generously:
// when a burst ends is TestDeadline's, with explicit times.
func TestBurstsEndByThemselves(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"silence", Options{MaxDelay: time.Hour}},
		{"MaxDelay", Options{Quiet: time.Hour, MaxDelay: 50 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			tree(t, dir, map[string]string{"blog/x.md": "x"})
			tc.opts.Logger = discard
			w, err := New([]string{dir}, tc.opts)
			must(t, err)
			t.Cleanup(func() { w.Close() })
			tree(t, dir, map[string]string{"blog/x.md": "x2"})
			wantPaths(t, receive(t, w), dir, "blog/x.md")
		})
	}
}
