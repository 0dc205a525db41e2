package render

import (
	"fmt"
	"reflect"
	"slices"
	"sort"

	"github.com/spf13/cast"
)

// scratch is Hugo's Scratch (.Scratch, .Store of a page or a call): a map
// templates write to while a page renders. Values added are bounded, as
// everything a template makes is (see limits.go).
type scratch struct {
	st     *state
	values map[string]any
}

func newScratch(st *state) *scratch { return &scratch{st: st, values: map[string]any{}} }

// Set stores a value.
func (s *scratch) Set(key string, v any) string {
	s.values[key] = v
	return ""
}

// Get returns a value, nil when unset.
func (s *scratch) Get(key string) any { return s.values[key] }

// Delete removes a value.
func (s *scratch) Delete(key string) string {
	delete(s.values, key)
	return ""
}

// Values is every value, by key.
func (s *scratch) Values() map[string]any { return s.values }

// Add adds to a value as Hugo does: numbers are summed, strings joined,
// lists appended to.
func (s *scratch) Add(key string, v any) (string, error) {
	old, ok := s.values[key]
	if !ok {
		s.values[key] = v
		return "", nil
	}
	sum, err := addValues(old, v)
	if err != nil {
		return "", fmt.Errorf("Scratch.Add %q: %w", key, err)
	}
	if err := s.st.root().limits.size(sum); err != nil {
		return "", err
	}
	s.values[key] = sum
	return "", nil
}

// SetInMap sets key in the map stored at name.
func (s *scratch) SetInMap(name string, key string, v any) string {
	m, ok := s.values[name].(map[string]any)
	if !ok {
		m = map[string]any{}
		s.values[name] = m
	}
	m[key] = v
	return ""
}

// DeleteInMap removes key from the map stored at name.
func (s *scratch) DeleteInMap(name string, key string) string {
	if m, ok := s.values[name].(map[string]any); ok {
		delete(m, key)
	}
	return ""
}

// GetSortedMapValues returns the values of the map stored at name, by
// key.
func (s *scratch) GetSortedMapValues(name string) any {
	m, ok := s.values[name].(map[string]any)
	if !ok {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}

// addValues adds b to a: numbers, strings, or a list and an element or
// a list.
func addValues(a, b any) (any, error) {
	av := reflect.ValueOf(a)
	switch av.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]any, 0, av.Len()+1)
		for i := range av.Len() {
			out = append(out, av.Index(i).Interface())
		}
		bv := reflect.ValueOf(b)
		if bv.Kind() == reflect.Slice || bv.Kind() == reflect.Array {
			for i := range bv.Len() {
				out = append(out, bv.Index(i).Interface())
			}
			return out, nil
		}
		return append(out, b), nil
	case reflect.String:
		bs, err := cast.ToStringE(b)
		if err != nil {
			return nil, err
		}
		return av.String() + bs, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if bi, err := cast.ToInt64E(b); err == nil && !isFloat(b) {
			return av.Int() + bi, nil
		}
		bf, err := cast.ToFloat64E(b)
		return float64(av.Int()) + bf, err
	case reflect.Float32, reflect.Float64:
		bf, err := cast.ToFloat64E(b)
		return av.Float() + bf, err
	}
	return nil, fmt.Errorf("cannot add %T to %T", b, a)
}

func isFloat(v any) bool {
	k := reflect.ValueOf(v).Kind()
	return slices.Contains([]reflect.Kind{reflect.Float32, reflect.Float64}, k)
}

// toString converts a template value to text as Hugo's cast does.
func toString(v any) (string, error) { return cast.ToStringE(v) }

// truthy is a template's truth: not a zero value, an empty collection or
// nil.
func truthy(v any) bool {
	if v == nil {
		return false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return rv.Len() > 0
	case reflect.Bool:
		return rv.Bool()
	case reflect.Complex64, reflect.Complex128:
		return rv.Complex() != 0
	case reflect.Chan, reflect.Func, reflect.Pointer, reflect.Interface:
		return !rv.IsNil()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int() != 0
	case reflect.Float32, reflect.Float64:
		return rv.Float() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return rv.Uint() != 0
	case reflect.Struct:
		return true
	}
	return false
}
