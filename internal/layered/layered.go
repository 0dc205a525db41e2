// Package layered is a map that each snapshot changes without copying it
// whole: a base shared by the snapshots made from one another and, over
// it, the changes since (a nil value is a deletion). A copy for the next
// snapshot copies only the changes; once they grow to a fair part of the
// base, they are folded into a new base. The site model keeps its routes
// this way, and render's link index its lookups, so that a save in folio
// dev does not copy every entry of a site of ten thousand pages.
package layered

import "maps"

// A Map is a base and the changes over it. Its zero value is an empty
// map. A Map is a value: Next gives the copy to change, and the Map it
// was made from keeps what it held.
type Map[K comparable, V any] struct {
	base  map[K]V
	delta map[K]*V
}

// New makes a Map of base, which it owns from then on.
func New[K comparable, V any](base map[K]V) Map[K, V] {
	return Map[K, V]{base: base}
}

// Base is the base map, to fill while a Map made by New is built, before
// Next is called on it.
func (l Map[K, V]) Base() map[K]V { return l.base }

// Get looks a key up.
func (l Map[K, V]) Get(k K) (V, bool) {
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

// GetBytes is Get of a string-keyed Map by a key held in bytes: the
// lookup makes no string of it (the compiler's rule for m[string(b)]).
func GetBytes[V any](l Map[string, V], k []byte) (V, bool) {
	if v, ok := l.delta[string(k)]; ok {
		if v == nil {
			var zero V
			return zero, false
		}
		return *v, true
	}
	v, ok := l.base[string(k)]
	return v, ok
}

// Next is a copy to change for the next snapshot; l is not changed by
// what is done to it.
func (l Map[K, V]) Next() Map[K, V] {
	if len(l.delta) > 64 && len(l.delta) > len(l.base)/8 {
		base := make(map[K]V, len(l.base)+len(l.delta))
		for k, v := range l.All {
			base[k] = v
		}
		return Map[K, V]{base: base}
	}
	return Map[K, V]{base: l.base, delta: maps.Clone(l.delta)}
}

// Set sets a key of a copy made by Next.
func (l *Map[K, V]) Set(k K, v V) {
	if l.delta == nil {
		l.delta = map[K]*V{}
	}
	l.delta[k] = &v
}

// Del deletes a key of a copy made by Next.
func (l *Map[K, V]) Del(k K) {
	if l.delta == nil {
		l.delta = map[K]*V{}
	}
	if _, inBase := l.base[k]; inBase {
		l.delta[k] = nil
	} else {
		delete(l.delta, k)
	}
}

// Len is the number of keys.
func (l Map[K, V]) Len() int {
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

// All yields every key and value, in no order.
func (l Map[K, V]) All(yield func(K, V) bool) {
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
