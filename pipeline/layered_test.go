package pipeline

import (
	"maps"
	"math/rand/v2"
	"testing"
)

// TestLayeredIsAMap: through random sets and deletes over many copies,
// a layered map holds what a plain map does, and an earlier copy keeps
// what it held.
func TestLayeredIsAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	want := map[int]int{}
	for i := range 200 {
		want[i] = i
	}
	l := newLayered(maps.Clone(want))
	type frozen struct {
		l    layered[int, int]
		want map[int]int
	}
	var kept []frozen
	for step := range 3000 {
		l = l.next()
		for range 1 + r.IntN(4) {
			k := r.IntN(300)
			if r.IntN(3) == 0 {
				l.del(k)
				delete(want, k)
			} else {
				l.set(k, step)
				want[k] = step
			}
		}
		if step%97 == 0 {
			kept = append(kept, frozen{l, maps.Clone(want)})
		}
	}
	kept = append(kept, frozen{l, want})
	for i, f := range kept {
		got := map[int]int{}
		for k, v := range f.l.all {
			got[k] = v
		}
		if !maps.Equal(got, f.want) || f.l.len() != len(f.want) {
			t.Fatalf("copy %d: all() = %d keys, len() = %d, want %d", i, len(got), f.l.len(), len(f.want))
		}
		for k := range 300 {
			v, ok := f.l.get(k)
			w, wok := f.want[k]
			if v != w || ok != wok {
				t.Fatalf("copy %d: get(%d) = %d, %v; want %d, %v", i, k, v, ok, w, wok)
			}
		}
	}
}
