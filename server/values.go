package server

import "sync"

// A state also keeps values that are not representations but are made
// once per snapshot all the same: the render context, the index of issued
// cursors. They live in the state's reps map beside st.memo's entries,
// under keys that start with valuePrefix, which no memo key does.
const valuePrefix = "value:"

type lazyValue[T any] struct {
	once sync.Once
	v    T
}

// stateValue returns the value key of st, making it on first use.
func stateValue[T any](st *state, key string, make func() T) T {
	key = valuePrefix + key
	v, ok := st.reps.Load(key)
	if !ok {
		v, _ = st.reps.LoadOrStore(key, &lazyValue[T]{})
	}
	l := v.(*lazyValue[T])
	l.once.Do(func() { l.v = make() })
	return l.v
}

// hasValue reports whether the value key of st has been asked for: made,
// or being made.
func hasValue(st *state, key string) bool {
	_, ok := st.reps.Load(valuePrefix + key)
	return ok
}
