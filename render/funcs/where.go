package funcs

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
)

// Where keeps the items of a list whose key (a dotted path into maps,
// fields and methods: "Params.tags") compares with the value: where LIST
// KEY VALUE, or where LIST KEY OPERATOR VALUE with =, !=, <, <=, >, >=,
// in, "not in", intersect or like.
func (c *collectionsNS) Where(l, key any, args ...any) (any, error) {
	var op string
	var match any
	switch len(args) {
	case 1:
		op, match = "=", args[0]
	case 2:
		s, err := toString(args[0])
		if err != nil {
			return nil, errors.New("where: the operator must be a string")
		}
		op, match = strings.ToLower(s), args[1]
	default:
		return nil, errors.New("where: want a list, a key, an operator and a value")
	}
	k, err := toString(key)
	if err != nil {
		return nil, errors.New("where: the key must be a string")
	}
	k = strings.TrimPrefix(k, ".")
	v := indirect(reflect.ValueOf(l))
	var kept []any
	keep := func(it any) error {
		got, _ := fieldPath(it, k)
		ok, err := check(got, op, match)
		if err != nil {
			return err
		}
		if ok {
			kept = append(kept, it)
		}
		return nil
	}
	switch v.Kind() {
	case reflect.Array, reflect.Slice:
		for i := range v.Len() {
			if err := keep(v.Index(i).Interface()); err != nil {
				return nil, err
			}
		}
		return typedLike(kept, v), nil
	case reflect.Map:
		out := reflect.MakeMap(v.Type())
		for _, mk := range v.MapKeys() {
			it := v.MapIndex(mk).Interface()
			got, _ := fieldPath(it, k)
			ok, err := check(got, op, match)
			if err != nil {
				return nil, err
			}
			if ok {
				out.SetMapIndex(mk, v.MapIndex(mk))
			}
		}
		return out.Interface(), nil
	case reflect.Invalid:
		return []any{}, nil
	}
	return nil, fmt.Errorf("where: can't iterate over %T", l)
}

// check compares a value with the operator's.
func check(got any, op string, want any) (bool, error) {
	switch op {
	case "=", "==", "eq", "":
		return eqValues(got, want), nil
	case "!=", "<>", "ne":
		return !eqValues(got, want), nil
	case "<", "lt", "<=", "le", ">", "gt", ">=", "ge":
		if got == nil || want == nil {
			return false, nil
		}
		l, r := compareGet(got, want)
		switch op {
		case "<", "lt":
			return l < r, nil
		case "<=", "le":
			return l <= r, nil
		case ">", "gt":
			return l > r, nil
		}
		return l >= r, nil
	case "in", "not in":
		in := false
		if wv := reflect.ValueOf(want); wv.Kind() == reflect.Slice || wv.Kind() == reflect.Array {
			for i := range wv.Len() {
				if eqValues(got, wv.Index(i).Interface()) {
					in = true
					break
				}
			}
		} else if ws, ok := want.(string); ok {
			gs, _ := toString(got)
			in = gs != "" && strings.Contains(ws, gs)
		}
		return in == (op == "in"), nil
	case "intersect":
		gv, wv := reflect.ValueOf(got), reflect.ValueOf(want)
		if gv.Kind() != reflect.Slice || wv.Kind() != reflect.Slice {
			return false, nil
		}
		for i := range gv.Len() {
			for j := range wv.Len() {
				if eqValues(gv.Index(i).Interface(), wv.Index(j).Interface()) {
					return true, nil
				}
			}
		}
		return false, nil
	case "like":
		pattern, err := toString(want)
		if err != nil {
			return false, err
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			return false, fmt.Errorf("where: %w", err)
		}
		gs, err := toString(got)
		if err != nil {
			return false, nil
		}
		return re.MatchString(gs), nil
	}
	return false, fmt.Errorf("where: no such operator %q", op)
}

// eqValues is eq's equality: an Eqer's own, else of normalized values.
func eqValues(a, b any) bool {
	if e, ok := a.(Eqer); ok {
		return e.Eq(b)
	}
	if e, ok := b.(Eqer); ok {
		return e.Eq(a)
	}
	return reflect.DeepEqual(normalize(a), normalize(b))
}

// fieldPath follows a dotted path through maps (a key as written, else
// lower-cased), struct fields and methods without arguments.
func fieldPath(v any, path string) (any, bool) {
	cur := reflect.ValueOf(v)
	for _, name := range strings.Split(path, ".") {
		if name == "" {
			continue
		}
		if m := cur.MethodByName(name); cur.IsValid() && m.IsValid() && m.Type().NumIn() == 0 && m.Type().NumOut() >= 1 {
			out := m.Call(nil)
			if len(out) == 2 && !out[1].IsNil() {
				return nil, false
			}
			cur = out[0]
			continue
		}
		cur = indirect(cur)
		switch cur.Kind() {
		case reflect.Map:
			if cur.Type().Key().Kind() != reflect.String {
				return nil, false
			}
			next := cur.MapIndex(reflect.ValueOf(name).Convert(cur.Type().Key()))
			if !next.IsValid() {
				next = cur.MapIndex(reflect.ValueOf(strings.ToLower(name)).Convert(cur.Type().Key()))
			}
			if !next.IsValid() {
				return nil, false
			}
			cur = next
		case reflect.Struct:
			f := cur.FieldByName(name)
			if !f.IsValid() || !f.CanInterface() {
				return nil, false
			}
			cur = f
		default:
			return nil, false
		}
	}
	if !cur.IsValid() || !cur.CanInterface() {
		return nil, false
	}
	return cur.Interface(), true
}
