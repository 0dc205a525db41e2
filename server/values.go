package server

import (
	"sync"
	"sync/atomic"
)

// A state also keeps values that are not representations but are made
// once per snapshot all the same: the render context, the index of issued
// cursors. They live in the state's values map, apart from st.memo's
// entries, so that their keys need no prefix made per call.

type lazyValue[T any] struct {
	once sync.Once
	v    T
	done atomic.Bool // v is made
}

// stateValue returns the value key of st, making it on first use.
func stateValue[T any](st *state, key string, make func() T) T {
	v, ok := st.values.Load(key)
	if !ok {
		v, _ = st.values.LoadOrStore(key, &lazyValue[T]{})
	}
	l := v.(*lazyValue[T])
	l.once.Do(func() {
		l.v = make()
		l.done.Store(true)
	})
	return l.v
}

// madeValue returns the value key of st when it is made, without waiting
// for it or making it.
func madeValue[T any](st *state, key string) (v T, ok bool) {
	l, found := st.values.Load(key)
	if !found {
		return v, false
	}
	lv := l.(*lazyValue[T])
	if !lv.done.Load() {
		return v, false
	}
	return lv.v, true
}

// hasValue reports whether the value key of st has been asked for: made,
// or being made.
func hasValue(st *state, key string) bool {
	_, ok := st.values.Load(key)
	return ok
}
