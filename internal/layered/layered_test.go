package layered

import (
	"maps"
	"math/rand/v2"
	"testing"
)

// TestIsAMap: through random sets and deletes over many copies,
// a Map holds what a plain map does, and an earlier copy keeps
// what it held.
func TestIsAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	want := map[int]int{}
	for i := range 200 {
		want[i] = i
	}
	l := New(maps.Clone(want))
	type frozen struct {
		l    Map[int, int]
		want map[int]int
	}
	var kept []frozen
	for step := range 3000 {
		l = l.Next()
		for range 1 + r.IntN(4) {
			k := r.IntN(300)
			if r.IntN(3) == 0 {
				l.Del(k)
				delete(want, k)
			} else {
				l.Set(k, step)
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
		for k, v := range f.l.All {
			got[k] = v
		}
		if !maps.Equal(got, f.want) || f.l.Len() != len(f.want) {
			t.Fatalf("copy %d: All() = %d keys, Len() = %d, want %d", i, len(got), f.l.Len(), len(f.want))
		}
		for k := range 300 {
			v, ok := f.l.Get(k)
			w, wok := f.want[k]
			if v != w || ok != wok {
				t.Fatalf("copy %d: Get(%d) = %d, %v; want %d, %v", i, k, v, ok, w, wok)
			}
		}
	}
}
