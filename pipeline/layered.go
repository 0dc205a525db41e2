package pipeline

import "maps"

// layered is a map that a snapshot changes without copying it whole: a
// base shared by the snapshots made from one another and, over it, the
// changes since (a nil value is a deletion). A copy for the next
// snapshot copies only the changes; once they grow to a fair part of the
// base, they are folded into a new base. The site model keeps its routes
// this way, so that a save in folio dev does not copy every route of a
// site of ten thousand pages.
type layered[K comparable, V any] struct {
	base  map[K]V
	delta map[K]*V
}

func newLayered[K comparable, V any](base map[K]V) layered[K, V] {
	return layered[K, V]{base: base}
}

// get looks a key up.
func (l layered[K, V]) get(k K) (V, bool) {
	if v, ok := l.delta[k]; ok {
		if v == nil {
			var zero V
			return zero, false
		}
		return *v, true
	}
	v, ok := l.base[k]
	return v, ok
}

// next is a copy to change for the next snapshot; l is not changed by
// what is done to it.
func (l layered[K, V]) next() layered[K, V] {
	if len(l.delta) > 64 && len(l.delta) > len(l.base)/8 {
		base := make(map[K]V, len(l.base)+len(l.delta))
		for k, v := range l.all {
			base[k] = v
		}
		return layered[K, V]{base: base}
	}
	return layered[K, V]{base: l.base, delta: maps.Clone(l.delta)}
}

// set sets a key of a copy made by next.
func (l *layered[K, V]) set(k K, v V) {
	if l.delta == nil {
		l.delta = map[K]*V{}
	}
	l.delta[k] = &v
}

// del deletes a key of a copy made by next.
func (l *layered[K, V]) del(k K) {
	if l.delta == nil {
		l.delta = map[K]*V{}
	}
	if _, inBase := l.base[k]; inBase {
		l.delta[k] = nil
	} else {
		delete(l.delta, k)
	}
}

// len is the number of keys.
func (l layered[K, V]) len() int {
	n := len(l.base)
	for k, v := range l.delta {
		_, inBase := l.base[k]
		switch {
		case v == nil && inBase:
			n--
		case v != nil && !inBase:
			n++
		}
	}
	return n
}

// all yields every key and value, in no order.
func (l layered[K, V]) all(yield func(K, V) bool) {
	for k, v := range l.base {
		if _, changed := l.delta[k]; changed {
			continue
		}
		if !yield(k, v) {
			return
		}
	}
	for k, v := range l.delta {
		if v != nil && !yield(k, *v) {
			return
		}
	}
}
