package funcs

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"time"
)

// compareNS is Hugo's compare namespace: eq and its kin compare numbers
// of any type by value, strings as text, times as instants.
type compareNS struct{ n *namespaces }

// Default returns given when it is set (non-zero, non-empty, any bool),
// else def; given is variadic so that a missing piped value works.
func (c *compareNS) Default(def any, given ...any) (any, error) {
	if len(given) == 0 {
		return def, nil
	}
	if len(given) != 1 {
		return nil, errors.New("wrong number of arguments for default: want 2")
	}
	g := reflect.ValueOf(given[0])
	if !g.IsValid() {
		return def, nil
	}
	set := true
	switch g.Kind() {
	case reflect.Bool:
	case reflect.String, reflect.Array, reflect.Slice, reflect.Map:
		set = g.Len() != 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		set = g.Int() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		set = g.Uint() != 0
	case reflect.Float32, reflect.Float64:
		set = g.Float() != 0
	case reflect.Struct:
		if t, ok := given[0].(time.Time); ok {
			set = !t.IsZero()
		}
	case reflect.Pointer, reflect.Interface, reflect.Func, reflect.Chan:
		set = !g.IsNil()
	}
	if set {
		return given[0], nil
	}
	return def, nil
}

// Conditional returns a when cond is true, else b.
func (c *compareNS) Conditional(cond, a, b any) any {
	if truthful(cond) {
		return a
	}
	return b
}

// Eq reports whether first equals any of others.
func (c *compareNS) Eq(first any, others ...any) (bool, error) {
	if len(others) == 0 {
		return false, errors.New("missing arguments for comparison")
	}
	for _, o := range others {
		if eqValues(first, o) {
			return true, nil
		}
	}
	return false, nil
}

// An Eqer says itself whether another value is the same: a page,
// which templates reach through more than one value.
type Eqer interface {
	Eq(other any) bool
}

// Ne reports whether first equals none of others.
func (c *compareNS) Ne(first any, others ...any) (bool, error) {
	eq, err := c.Eq(first, others...)
	return !eq && err == nil, err
}

// Lt, Le, Gt and Ge compare first with each of others.
func (c *compareNS) Lt(first any, others ...any) (bool, error) {
	return compareAll(first, others, func(l, r float64) bool { return l < r })
}
func (c *compareNS) Le(first any, others ...any) (bool, error) {
	return compareAll(first, others, func(l, r float64) bool { return l <= r })
}
func (c *compareNS) Gt(first any, others ...any) (bool, error) {
	return compareAll(first, others, func(l, r float64) bool { return l > r })
}
func (c *compareNS) Ge(first any, others ...any) (bool, error) {
	return compareAll(first, others, func(l, r float64) bool { return l >= r })
}

func compareAll(first any, others []any, ok func(l, r float64) bool) (bool, error) {
	if len(others) == 0 {
		return false, errors.New("missing arguments for comparison")
	}
	for _, o := range others {
		l, r := compareGet(first, o)
		if !ok(l, r) {
			return false, nil
		}
	}
	return true, nil
}

// normalize makes values of one kind comparable: every int an int64,
// every float a float64, times in UTC.
func normalize(v any) any {
	if v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int()
	case reflect.Float32, reflect.Float64:
		return rv.Float()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if u := rv.Uint(); u <= math.MaxInt64 {
			return int64(u)
		}
		return rv.Uint()
	case reflect.String:
		return rv.String()
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice, reflect.Func:
		if rv.IsNil() {
			return nil
		}
	}
	if t, ok := v.(time.Time); ok {
		return t.UTC()
	}
	return v
}

// compareGet turns two values into numbers to compare, as Hugo's: numbers
// as they are, strings that are numbers as numbers, other strings by
// text order, collections by length, times by instant, booleans as 0, 1.
func compareGet(a, b any) (float64, float64) {
	if as, ok := a.(string); ok {
		if bs, ok := b.(string); ok {
			return compareStrings(as, bs)
		}
	}
	l, ls := number(a)
	r, rs := number(b)
	switch {
	case ls != nil && rs != nil:
		return compareStrings(*ls, *rs)
	case ls != nil:
		return 0, 0
	case rs != nil:
		return 0, 0
	}
	return l, r
}

func compareStrings(a, b string) (float64, float64) {
	switch {
	case a < b:
		return 0, 1
	case a > b:
		return 1, 0
	}
	return 0, 0
}

// number reads a value as a number, or returns it as text when it is a
// string that is not one.
func number(v any) (float64, *string) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Array, reflect.Chan, reflect.Map, reflect.Slice:
		return float64(rv.Len()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(rv.Uint()), nil
	case reflect.Float32, reflect.Float64:
		return rv.Float(), nil
	case reflect.String:
		f, err := strconv.ParseFloat(rv.String(), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			s := rv.String()
			return 0, &s
		}
		return f, nil
	case reflect.Bool:
		if rv.Bool() {
			return 1, nil
		}
		return 0, nil
	case reflect.Struct:
		if t, ok := v.(time.Time); ok {
			return float64(t.UnixNano()), nil
		}
	}
	return 0, nil
}

// truthful is a template's truth: not the zero value, or a non-empty
// collection.
func truthful(v any) bool {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return false
	}
	switch rv.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return rv.Len() > 0
	case reflect.Bool:
		return rv.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return rv.Uint() != 0
	case reflect.Float32, reflect.Float64:
		return rv.Float() != 0
	case reflect.Complex64, reflect.Complex128:
		return rv.Complex() != 0
	case reflect.Pointer, reflect.Interface, reflect.Func, reflect.Chan:
		return !rv.IsNil()
	case reflect.Struct:
		if t, ok := v.(time.Time); ok {
			return !t.IsZero()
		}
	}
	return true
}
