package funcs

import (
	"fmt"
	"reflect"
	"slices"
	"sort"

	"github.com/spf13/cast"
)

// Scratch is Hugo's Scratch (.Scratch and .Store of a page or a call,
// newScratch): a map templates write to while a page renders. What Add
// makes is bounded, as everything a template makes is.
type Scratch struct {
	size   func(v any) error
	values map[string]any
}

// NewScratch makes an empty scratch pad; size checks (and charges for)
// what Add makes.
func NewScratch(size func(v any) error) *Scratch {
	return &Scratch{size: size, values: map[string]any{}}
}

// Set stores a value.
func (s *Scratch) Set(key string, v any) string {
	s.values[key] = v
	return ""
}

// Get returns a value, nil when unset.
func (s *Scratch) Get(key string) any { return s.values[key] }

// Delete removes a value.
func (s *Scratch) Delete(key string) string {
	delete(s.values, key)
	return ""
}

// Values is every value, by key.
func (s *Scratch) Values() map[string]any { return s.values }

// Add adds to a value as Hugo does: numbers are summed, strings joined,
// lists appended to.
func (s *Scratch) Add(key string, v any) (string, error) {
	old, ok := s.values[key]
	if !ok {
		s.values[key] = v
		return "", nil
	}
	sum, err := addValues(old, v)
	if err != nil {
		return "", fmt.Errorf("Scratch.Add %q: %w", key, err)
	}
	if err := s.size(sum); err != nil {
		return "", err
	}
	s.values[key] = sum
	return "", nil
}

// SetInMap sets key in the map stored at name.
func (s *Scratch) SetInMap(name string, key string, v any) string {
	m, ok := s.values[name].(map[string]any)
	if !ok {
		m = map[string]any{}
		s.values[name] = m
	}
	m[key] = v
	return ""
}

// DeleteInMap removes key from the map stored at name.
func (s *Scratch) DeleteInMap(name string, key string) string {
	if m, ok := s.values[name].(map[string]any); ok {
		delete(m, key)
	}
	return ""
}

// GetSortedMapValues returns the values of the map stored at name, by
// key.
func (s *Scratch) GetSortedMapValues(name string) any {
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
