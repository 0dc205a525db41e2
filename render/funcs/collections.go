package funcs

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cast"
)

// collectionsNS is Hugo's collections namespace.
type collectionsNS struct{ n *namespaces }

// maxSeq is Hugo's bound on seq.
const maxSeq = 1_000_000

// Dictionary makes a map of key, value pairs; a list of keys makes
// nested maps.
func (c *collectionsNS) Dictionary(values ...any) (map[string]any, error) {
	if len(values)%2 != 0 {
		return nil, errors.New("invalid dictionary call: an even number of arguments is needed")
	}
	out := make(map[string]any, len(values)/2)
	for i := 0; i < len(values); i += 2 {
		var path []string
		switch k := values[i].(type) {
		case string:
			path = []string{k}
		case []string:
			path = k
		case []any:
			for _, e := range k {
				s, err := toString(e)
				if err != nil {
					return nil, err
				}
				path = append(path, s)
			}
		default:
			return nil, fmt.Errorf("dictionary keys must be strings, not %T", values[i])
		}
		if len(path) == 0 {
			return nil, errors.New("dictionary key list is empty")
		}
		m := out
		for _, k := range path[:len(path)-1] {
			next, ok := m[k].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[k] = next
			}
			m = next
		}
		m[path[len(path)-1]] = values[i+1]
	}
	v, err := c.n.sized(out, nil)
	if err != nil {
		return nil, err
	}
	return v.(map[string]any), nil
}

// Slice makes a list of its arguments.
func (c *collectionsNS) Slice(args ...any) any {
	if len(args) == 0 {
		return []any{}
	}
	return args
}

// Seq is seq LAST, seq FIRST LAST or seq FIRST INCREMENT LAST.
func (c *collectionsNS) Seq(args ...any) ([]int, error) {
	if len(args) < 1 || len(args) > 3 {
		return nil, errors.New("invalid number of arguments to seq")
	}
	nums := make([]int, len(args))
	for i, a := range args {
		n, err := toInt(a)
		if err != nil {
			return nil, fmt.Errorf("seq: %w", err)
		}
		nums[i] = n
	}
	first, inc, last := 1, 1, 0
	switch len(nums) {
	case 1:
		last = nums[0]
		if last < 0 {
			first, inc = -1, -1
		}
	case 2:
		first, last = nums[0], nums[1]
		if last < first {
			inc = -1
		}
	case 3:
		first, inc, last = nums[0], nums[1], nums[2]
	}
	if inc == 0 || (inc > 0 && first > last) || (inc < 0 && first < last) {
		return nil, nil
	}
	size := (last-first)/inc + 1
	if size <= 0 || size > maxSeq || last > maxSeq || last < -maxSeq || first > maxSeq || first < -maxSeq {
		return nil, errors.New("seq: size of result exceeds limit")
	}
	if err := c.n.env().Size(make([]struct{}, size)); err != nil {
		return nil, err
	}
	out := make([]int, size)
	for i := range out {
		out[i] = first + i*inc
	}
	return out, nil
}

// In reports whether the list l holds v, or the string l contains v.
func (c *collectionsNS) In(l, v any) (bool, error) {
	if l == nil || v == nil {
		return false, nil
	}
	lv := reflect.ValueOf(l)
	switch lv.Kind() {
	case reflect.Array, reflect.Slice:
		if err := c.n.env().Steps(lv.Len()); err != nil {
			return false, err
		}
		for i := range lv.Len() {
			if e := lv.Index(i).Interface(); e != nil && eqValues(e, v) {
				return true, nil
			}
		}
		return false, nil
	}
	ls, err := toString(l)
	if err != nil {
		return false, nil
	}
	vs, err := toString(v)
	if err != nil {
		return false, nil
	}
	return strings.Contains(ls, vs), nil
}

// Index looks up keys and positions in turn, as Hugo's index (a missing
// map key, or a position out of range, is nil, not an error).
func (c *collectionsNS) Index(item any, args ...any) (any, error) {
	v := reflect.ValueOf(item)
	var keys []any
	if len(args) == 1 {
		if kv := reflect.ValueOf(args[0]); kv.Kind() == reflect.Slice {
			for i := range kv.Len() {
				keys = append(keys, kv.Index(i).Interface())
			}
		} else {
			keys = args
		}
	} else {
		keys = args
	}
	for _, k := range keys {
		v = indirect(v)
		if !v.IsValid() {
			return nil, nil
		}
		switch v.Kind() {
		case reflect.Array, reflect.Slice, reflect.String:
			i, err := toInt(k)
			if err != nil {
				return nil, fmt.Errorf("index: cannot index a list with %v", k)
			}
			if i < 0 || i >= v.Len() {
				return nil, nil
			}
			v = v.Index(i)
		case reflect.Map:
			kv := reflect.ValueOf(k)
			if !kv.IsValid() {
				return nil, nil
			}
			if !kv.Type().AssignableTo(v.Type().Key()) {
				if v.Type().Key().Kind() == reflect.String {
					s, err := toString(k)
					if err != nil {
						return nil, err
					}
					kv = reflect.ValueOf(s)
				} else if kv.Type().ConvertibleTo(v.Type().Key()) {
					kv = kv.Convert(v.Type().Key())
				} else {
					return nil, fmt.Errorf("index: %T is not a key of %s", k, v.Type())
				}
			}
			found := v.MapIndex(kv)
			if !found.IsValid() && kv.Kind() == reflect.String {
				// Hugo's params are found whatever the key's case.
				found = v.MapIndex(reflect.ValueOf(strings.ToLower(kv.String())).Convert(v.Type().Key()))
			}
			if !found.IsValid() {
				return nil, nil
			}
			v = found
		default:
			return nil, fmt.Errorf("index: cannot index %s", v.Type())
		}
	}
	if !v.IsValid() {
		return nil, nil
	}
	return v.Interface(), nil
}

// indirect follows pointers and interfaces.
func indirect(v reflect.Value) reflect.Value {
	for v.IsValid() && (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	return v
}

// IsSet reports whether a list has the index or a map the key.
func (c *collectionsNS) IsSet(coll, key any) (bool, error) {
	v := indirect(reflect.ValueOf(coll))
	switch v.Kind() {
	case reflect.Array, reflect.Slice, reflect.String:
		i, err := toInt(key)
		if err != nil {
			return false, nil
		}
		return i >= 0 && i < v.Len(), nil
	case reflect.Map:
		kv := reflect.ValueOf(key)
		if !kv.IsValid() {
			return false, nil
		}
		if v.Type().Key().Kind() == reflect.String {
			s, err := toString(key)
			if err != nil {
				return false, nil
			}
			kv = reflect.ValueOf(s)
			if v.MapIndex(kv).IsValid() {
				return true, nil
			}
			// Hugo's params are lower-cased.
			return v.MapIndex(reflect.ValueOf(strings.ToLower(s))).IsValid(), nil
		}
		if kv.Type().AssignableTo(v.Type().Key()) {
			return v.MapIndex(kv).IsValid(), nil
		}
	}
	return false, nil
}

// list reads a list argument.
func list(l any) (reflect.Value, error) {
	v := indirect(reflect.ValueOf(l))
	switch v.Kind() {
	case reflect.Array, reflect.Slice:
		return v, nil
	case reflect.Invalid:
		return v, errors.New("can't iterate over a nil value")
	}
	return v, fmt.Errorf("can't iterate over %T", l)
}

// First is the first n items of a list.
func (c *collectionsNS) First(limit, l any) (any, error) {
	n, err := toInt(limit)
	if err != nil || n < 0 {
		return nil, errors.New("first: the limit must be a number, 0 or more")
	}
	if l == nil {
		return nil, errors.New("first: nil list")
	}
	v, err := list(l)
	if err != nil {
		return nil, err
	}
	return v.Slice(0, min(n, v.Len())).Interface(), nil
}

// Last is the last n items of a list.
func (c *collectionsNS) Last(limit, l any) (any, error) {
	n, err := toInt(limit)
	if err != nil || n < 0 {
		return nil, errors.New("last: the limit must be a number, 0 or more")
	}
	v, err := list(l)
	if err != nil {
		return nil, err
	}
	return v.Slice(max(v.Len()-n, 0), v.Len()).Interface(), nil
}

// After is the items after the first n.
func (c *collectionsNS) After(index, l any) (any, error) {
	n, err := toInt(index)
	if err != nil || n < 0 {
		return nil, errors.New("after: the index must be a number, 0 or more")
	}
	v, err := list(l)
	if err != nil {
		return nil, err
	}
	if n > v.Len() {
		return v.Slice(0, 0).Interface(), nil
	}
	return v.Slice(n, v.Len()).Interface(), nil
}

// Reverse is the list in reverse order.
func (c *collectionsNS) Reverse(l any) (any, error) {
	v, err := list(l)
	if err != nil {
		return nil, err
	}
	out := reflect.MakeSlice(sliceType(v), v.Len(), v.Len())
	for i := range v.Len() {
		out.Index(v.Len() - 1 - i).Set(v.Index(i))
	}
	return out.Interface(), nil
}

// Delimit joins a list's items with sep, the last two with last when
// given; a map's values are joined in key order.
func (c *collectionsNS) Delimit(l, sep any, last ...any) (string, error) {
	d, err := toString(sep)
	if err != nil {
		return "", err
	}
	var dLast *string
	if len(last) > 0 {
		if s, err := toString(last[0]); err == nil {
			dLast = &s
		}
	}
	v := indirect(reflect.ValueOf(l))
	if v.Kind() == reflect.Map {
		sorted, err := c.Sort(l)
		if err != nil {
			return "", err
		}
		v = reflect.ValueOf(sorted)
	}
	switch v.Kind() {
	case reflect.Array, reflect.Slice:
	case reflect.Invalid:
		return "", errors.New("can't iterate over a nil value")
	default:
		return "", fmt.Errorf("can't iterate over %T", l)
	}
	var b strings.Builder
	for i := range v.Len() {
		s, err := toString(v.Index(i).Interface())
		if err != nil {
			continue
		}
		switch {
		case i == v.Len()-2 && dLast != nil:
			b.WriteString(s + *dLast)
		case i == v.Len()-1:
			b.WriteString(s)
		default:
			b.WriteString(s + d)
		}
		if b.Len() > 1<<30 {
			break
		}
	}
	return c.n.sizedString(b.String(), nil)
}

// Append adds items to the list given last: append ITEM… LIST, or
// append LIST LIST.
func (c *collectionsNS) Append(args ...any) (any, error) {
	if len(args) < 2 {
		return nil, errors.New("append needs at least 2 arguments")
	}
	to := args[len(args)-1]
	items := args[:len(args)-1]
	var out []any
	if to != nil {
		v, err := list(to)
		if err != nil {
			return nil, err
		}
		for i := range v.Len() {
			out = append(out, v.Index(i).Interface())
		}
	}
	if len(items) == 1 {
		if v := reflect.ValueOf(items[0]); v.Kind() == reflect.Slice && to != nil && reflect.ValueOf(to).Kind() == reflect.Slice {
			for i := range v.Len() {
				out = append(out, v.Index(i).Interface())
			}
			return c.n.sized(typed(out), nil)
		}
	}
	out = append(out, items...)
	return c.n.sized(typed(out), nil)
}

// typed returns a []string when every item is a string, as Hugo keeps
// the type of a list of strings.
func typed(items []any) any {
	ss := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			return items
		}
		ss = append(ss, s)
	}
	return ss
}

// Apply is not available: it calls a function by name, which folio's
// templates cannot name.
func (c *collectionsNS) Apply(l any, fname string, args ...any) (any, error) {
	return nil, errors.New("apply is not supported by folio")
}

// Group and KeyVals work on pages, which a shortcode's templates do not
// list in folio.
func (c *collectionsNS) Group(key any, items any) (any, error) {
	return nil, errors.New("group is not supported by folio")
}
func (c *collectionsNS) KeyVals(key any, values ...any) (any, error) {
	return nil, errors.New("keyVals is not supported by folio")
}

// Merge merges maps, the last one's keys winning, nested maps merged.
func (c *collectionsNS) Merge(maps ...any) (any, error) {
	if len(maps) < 2 {
		return nil, errors.New("merge needs at least 2 maps")
	}
	out := map[string]any{}
	for i := len(maps) - 1; i >= 0; i-- {
		m, ok := toMap(maps[i])
		if !ok {
			return nil, fmt.Errorf("merge: %T is not a map", maps[i])
		}
		mergeInto(out, m)
	}
	return c.n.sized(out, nil)
}

// mergeInto adds the keys of src that dst lacks, merging nested maps.
func mergeInto(dst, src map[string]any) {
	for k, v := range src {
		cur, ok := dst[k]
		if !ok {
			dst[k] = v
			continue
		}
		cm, ok1 := toMap(cur)
		sm, ok2 := toMap(v)
		if ok1 && ok2 {
			merged := map[string]any{}
			mergeInto(merged, cm)
			mergeInto(merged, sm)
			dst[k] = merged
		}
	}
}

func toMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case map[string]string:
		out := make(map[string]any, len(m))
		for k, v := range m {
			out[k] = v
		}
		return out, true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Map && rv.Type().Key().Kind() == reflect.String {
		out := make(map[string]any, rv.Len())
		for _, k := range rv.MapKeys() {
			out[k.String()] = rv.MapIndex(k).Interface()
		}
		return out, true
	}
	return nil, false
}

// Querify makes a query string of key, value pairs or of a map.
func (c *collectionsNS) Querify(params ...any) (string, error) {
	q := url.Values{}
	if len(params) == 1 {
		m, ok := toMap(params[0])
		if !ok {
			v, err := list(params[0])
			if err != nil {
				return "", errors.New("querify needs key, value pairs or a map")
			}
			params = nil
			for i := range v.Len() {
				params = append(params, v.Index(i).Interface())
			}
		} else {
			for k, v := range m {
				s, err := toString(v)
				if err != nil {
					return "", err
				}
				q.Add(k, s)
			}
			return q.Encode(), nil
		}
	}
	if len(params)%2 != 0 {
		return "", errors.New("querify needs an even number of arguments")
	}
	for i := 0; i < len(params); i += 2 {
		k, err1 := toString(params[i])
		v, err2 := toString(params[i+1])
		if err1 != nil || err2 != nil {
			return "", errors.New("querify: keys and values must be strings")
		}
		q.Add(k, v)
	}
	return c.n.sizedString(q.Encode(), nil)
}

// Shuffle returns the list in a random order.
func (c *collectionsNS) Shuffle(l any) (any, error) {
	v, err := list(l)
	if err != nil {
		return nil, err
	}
	out := reflect.MakeSlice(reflect.SliceOf(v.Type().Elem()), v.Len(), v.Len())
	for i, j := range rand.Perm(v.Len()) {
		out.Index(i).Set(v.Index(j))
	}
	return out.Interface(), nil
}

// Sort sorts a list (or a map's values) by the items, or by a key of
// each item, ascending or descending.
func (c *collectionsNS) Sort(l any, args ...any) (any, error) {
	v := indirect(reflect.ValueOf(l))
	var items []any
	switch v.Kind() {
	case reflect.Array, reflect.Slice:
		for i := range v.Len() {
			items = append(items, v.Index(i).Interface())
		}
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i].Interface()) < fmt.Sprint(keys[j].Interface()) })
		for _, k := range keys {
			items = append(items, v.MapIndex(k).Interface())
		}
	default:
		return nil, errors.New("sort: can't sort this value")
	}
	key, order := "", "asc"
	if len(args) > 0 {
		key, _ = toString(args[0])
		if key == "value" {
			key = ""
		}
	}
	if len(args) > 1 {
		order, _ = toString(args[1])
	}
	val := func(it any) any {
		if key == "" {
			return it
		}
		x, _ := fieldPath(it, key)
		return x
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := val(items[i]), val(items[j])
		l, r := compareGet(a, b)
		if order == "desc" {
			return l > r
		}
		return l < r
	})
	return typedLike(items, v), nil
}

// sliceType is the type of a slice like list: its own (a named list
// keeps its methods: .ByTitle of a list of pages), an array's slice.
func sliceType(list reflect.Value) reflect.Type {
	if list.Kind() == reflect.Slice {
		return list.Type()
	}
	return reflect.SliceOf(list.Type().Elem())
}

// typedLike makes a list of the type the input list had.
func typedLike(items []any, like reflect.Value) any {
	if like.Kind() != reflect.Slice && like.Kind() != reflect.Array {
		return items
	}
	out := reflect.MakeSlice(sliceType(like), 0, len(items))
	for _, it := range items {
		iv := reflect.ValueOf(it)
		if !iv.IsValid() {
			iv = reflect.Zero(like.Type().Elem())
		}
		if !iv.Type().AssignableTo(like.Type().Elem()) {
			return items
		}
		out = reflect.Append(out, iv)
	}
	return out.Interface()
}

// Uniq drops repeated items.
func (c *collectionsNS) Uniq(l any) (any, error) {
	v, err := list(l)
	if err != nil {
		if l == nil {
			return []any{}, nil
		}
		return nil, err
	}
	var out []any
	seen := c.newSet()
	for i := range v.Len() {
		it := v.Index(i).Interface()
		found, err := seen.has(it)
		if err != nil {
			return nil, err
		}
		if !found {
			seen.add(it)
			out = append(out, it)
		}
	}
	return typedLike(out, v), nil
}

// An itemSet holds the items of the set functions (uniq, intersect, union,
// complement, symdiff), which compare items as Hugo does: normalized, then
// deeply equal. Numbers, strings, booleans and times are found by their
// value in one lookup, so those functions are linear; other items (maps,
// lists, pages) are compared one by one, each comparison a step of the
// page's budget, so no call costs more than the budget allows.
type itemSet struct {
	keys   map[any]bool
	others []any
	steps  func(n int) error
}

func (c *collectionsNS) newSet(items ...any) *itemSet {
	s := &itemSet{keys: map[any]bool{}, steps: c.n.env().Steps}
	for _, it := range items {
		s.add(it)
	}
	return s
}

// key is v's map key when its normalized form compares by == exactly as
// reflect.DeepEqual compares it.
func key(v any) (any, bool) {
	switch n := normalize(v).(type) {
	case nil, int64, uint64, float64, string, bool, time.Time:
		return n, true
	}
	return nil, false
}

func (s *itemSet) add(v any) {
	if k, ok := key(v); ok {
		s.keys[k] = true
		return
	}
	s.others = append(s.others, v)
}

func (s *itemSet) has(v any) (bool, error) {
	if k, ok := key(v); ok {
		return s.keys[k], nil
	}
	if err := s.steps(len(s.others)); err != nil {
		return false, err
	}
	for _, it := range s.others {
		if eqValues(it, v) {
			return true, nil
		}
	}
	return false, nil
}

func items(l any) ([]any, reflect.Value, error) {
	v, err := list(l)
	if err != nil {
		return nil, v, err
	}
	out := make([]any, v.Len())
	for i := range out {
		out[i] = v.Index(i).Interface()
	}
	return out, v, nil
}

// keep is the items of from for which the set holding them says want,
// each item once.
func (c *collectionsNS) keep(from []any, set *itemSet, want bool) ([]any, error) {
	var out []any
	kept := c.newSet()
	for _, x := range from {
		in, err := set.has(x)
		if err != nil {
			return nil, err
		}
		if in != want {
			continue
		}
		dup, err := kept.has(x)
		if err != nil {
			return nil, err
		}
		if !dup {
			kept.add(x)
			out = append(out, x)
		}
	}
	return out, nil
}

// Intersect is the items of a that b holds too.
func (c *collectionsNS) Intersect(a, b any) (any, error) {
	if a == nil || b == nil {
		return []any{}, nil
	}
	as, av, err := items(a)
	if err != nil {
		return nil, err
	}
	bs, _, err := items(b)
	if err != nil {
		return nil, err
	}
	out, err := c.keep(as, c.newSet(bs...), true)
	if err != nil {
		return nil, err
	}
	return typedLike(out, av), nil
}

// Union is the items of both, each once.
func (c *collectionsNS) Union(a, b any) (any, error) {
	if a == nil {
		return b, nil
	}
	if b == nil {
		return a, nil
	}
	as, av, err := items(a)
	if err != nil {
		return nil, err
	}
	bs, _, err := items(b)
	if err != nil {
		return nil, err
	}
	out, err := c.keep(append(as, bs...), c.newSet(), false)
	if err != nil {
		return nil, err
	}
	return c.n.sized(typedLike(out, av), nil)
}

// Complement is the items of the last list that no other list holds.
func (c *collectionsNS) Complement(ls ...any) (any, error) {
	if len(ls) < 2 {
		return nil, errors.New("complement needs at least 2 arguments")
	}
	main, mv, err := items(ls[len(ls)-1])
	if err != nil {
		return nil, err
	}
	var others []any
	for _, l := range ls[:len(ls)-1] {
		if v := reflect.ValueOf(l); v.Kind() == reflect.Slice || v.Kind() == reflect.Array {
			o, _, _ := items(l)
			others = append(others, o...)
		} else {
			others = append(others, l)
		}
	}
	set := c.newSet(others...)
	var out []any
	for _, x := range main {
		in, err := set.has(x)
		if err != nil {
			return nil, err
		}
		if !in {
			out = append(out, x)
		}
	}
	return typedLike(out, mv), nil
}

// SymDiff is the items in one list but not both.
func (c *collectionsNS) SymDiff(a, b any) (any, error) {
	as, av, err := items(a)
	if err != nil {
		return nil, err
	}
	bs, _, err := items(b)
	if err != nil {
		return nil, err
	}
	var out []any
	for _, pass := range []struct {
		from  []any
		other *itemSet
	}{{as, c.newSet(bs...)}, {bs, c.newSet(as...)}} {
		for _, x := range pass.from {
			in, err := pass.other.has(x)
			if err != nil {
				return nil, err
			}
			if !in {
				out = append(out, x)
			}
		}
	}
	return typedLike(out, av), nil
}

// NewScratch makes a scratch pad.
func (c *collectionsNS) NewScratch() *Scratch {
	return NewScratch(func(v any) error { return c.n.env().Size(v) })
}

// cast is used by where for numeric keys.
var _ = cast.ToString
