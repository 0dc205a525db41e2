package funcs

import (
	"errors"
	"math"
	"reflect"

	"github.com/spf13/cast"
)

// mathNS is Hugo's math namespace. Arithmetic keeps ints as ints when
// both operands are integers, as Hugo's does.
type mathNS struct{ n *namespaces }

func (m *mathNS) Add(inputs ...any) (any, error) { return fold('+', inputs) }
func (m *mathNS) Sub(inputs ...any) (any, error) { return fold('-', inputs) }
func (m *mathNS) Mul(inputs ...any) (any, error) { return fold('*', inputs) }
func (m *mathNS) Div(inputs ...any) (any, error) { return fold('/', inputs) }

// Mod is a modulo b, for integers.
func (m *mathNS) Mod(a, b any) (int64, error) {
	ai, err1 := cast.ToInt64E(a)
	bi, err2 := cast.ToInt64E(b)
	if err1 != nil || err2 != nil {
		return 0, errors.New("modulo operator can't be used with non integer value")
	}
	if bi == 0 {
		return 0, errors.New("the number can't be divided by zero at modulo operation")
	}
	return ai % bi, nil
}

// ModBool reports whether a modulo b is zero.
func (m *mathNS) ModBool(a, b any) (bool, error) {
	r, err := m.Mod(a, b)
	return r == 0, err
}

func (m *mathNS) Abs(v any) (float64, error)   { return unary(v, math.Abs) }
func (m *mathNS) Ceil(v any) (float64, error)  { return unary(v, math.Ceil) }
func (m *mathNS) Floor(v any) (float64, error) { return unary(v, math.Floor) }
func (m *mathNS) Round(v any) (float64, error) { return unary(v, math.Round) }
func (m *mathNS) Sqrt(v any) (float64, error)  { return unary(v, math.Sqrt) }
func (m *mathNS) Log(v any) (float64, error)   { return unary(v, math.Log) }
func (m *mathNS) Pi() float64                  { return math.Pi }

// Pow is a to the power b.
func (m *mathNS) Pow(a, b any) (float64, error) {
	af, err1 := cast.ToFloat64E(a)
	bf, err2 := cast.ToFloat64E(b)
	if err1 != nil || err2 != nil {
		return 0, errors.New("Pow operator can't be used with non-float value")
	}
	return math.Pow(af, bf), nil
}

// Max and Min are the largest and smallest of numbers or lists of them.
func (m *mathNS) Max(inputs ...any) (float64, error) { return extreme(inputs, math.Max) }
func (m *mathNS) Min(inputs ...any) (float64, error) { return extreme(inputs, math.Min) }

// Sum and Product fold numbers or lists of them.
func (m *mathNS) Sum(inputs ...any) (any, error)     { return fold('+', flatten(inputs)) }
func (m *mathNS) Product(inputs ...any) (any, error) { return fold('*', flatten(inputs)) }

func unary(v any, f func(float64) float64) (float64, error) {
	x, err := cast.ToFloat64E(v)
	if err != nil {
		return 0, errors.New("the math function needs a number")
	}
	return f(x), nil
}

func extreme(inputs []any, f func(a, b float64) float64) (float64, error) {
	vals := flatten(inputs)
	if len(vals) == 0 {
		return 0, errors.New("must provide at least one number")
	}
	out, err := cast.ToFloat64E(vals[0])
	if err != nil {
		return 0, err
	}
	for _, v := range vals[1:] {
		x, err := cast.ToFloat64E(v)
		if err != nil {
			return 0, err
		}
		out = f(out, x)
	}
	return out, nil
}

// flatten spreads lists among the arguments.
func flatten(inputs []any) []any {
	var out []any
	for _, in := range inputs {
		rv := reflect.ValueOf(in)
		if rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
			for i := range rv.Len() {
				out = append(out, rv.Index(i).Interface())
			}
			continue
		}
		out = append(out, in)
	}
	return out
}

// fold applies op left to right.
func fold(op byte, inputs []any) (any, error) {
	if len(inputs) < 2 && op != '+' && op != '*' {
		return nil, errors.New("must provide at least two numbers")
	}
	if len(inputs) == 0 {
		return 0, nil
	}
	acc := inputs[0]
	for _, v := range inputs[1:] {
		var err error
		if acc, err = arith(op, acc, v); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

// arith is Hugo's DoArithmetic: integers stay integers (an int result
// for int operands), anything with a float is a float; + joins strings.
func arith(op byte, a, b any) (any, error) {
	av, bv := reflect.ValueOf(a), reflect.ValueOf(b)
	ai, aInt := asInt(av)
	bi, bInt := asInt(bv)
	if aInt && bInt {
		switch op {
		case '+':
			return ai + bi, nil
		case '-':
			return ai - bi, nil
		case '*':
			return ai * bi, nil
		case '/':
			if bi == 0 {
				return nil, errors.New("can't divide the value by 0")
			}
			return ai / bi, nil
		}
	}
	af, aNum := asFloat(av)
	bf, bNum := asFloat(bv)
	if aNum && bNum {
		switch op {
		case '+':
			return af + bf, nil
		case '-':
			return af - bf, nil
		case '*':
			return af * bf, nil
		case '/':
			if bf == 0 {
				return nil, errors.New("can't divide the value by 0")
			}
			return af / bf, nil
		}
	}
	if av.Kind() == reflect.String && bv.Kind() == reflect.String && op == '+' {
		return av.String() + bv.String(), nil
	}
	return nil, errors.New("can't apply the operator to the values")
}

func asInt(v reflect.Value) (int64, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int64(v.Uint()), true
	}
	return 0, false
}

func asFloat(v reflect.Value) (float64, bool) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return v.Float(), true
	}
	if i, ok := asInt(v); ok {
		return float64(i), true
	}
	return 0, false
}
