package pipeline

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// This file decodes the merged config map into the key structs of
// configkeys_hugo.go (or any struct tagged the same way), collecting the
// keys of the wrong type and the keys nothing knows, with where they are.

// configDecoder decodes one merged config.
type configDecoder struct {
	raw *rawConfig
	// quiet decodes without collecting anything (a language's view of
	// the config, whose keys were checked where they are written).
	quiet    bool
	typeErrs []configIssue
	unknown  []unknownKey
}

// configIssue is a message about one key, with where the key is.
type configIssue struct {
	pos keyPos
	msg string // after "key: "
}

func (i configIssue) String() string {
	return i.pos.place() + toml.Key(i.pos.spelled).String() + ": " + i.msg
}

// place is "file:line: ", "file: " when the line is unknown.
func (p keyPos) place() string {
	switch {
	case p.file == "":
		return ""
	case p.line > 0:
		return p.file + ":" + strconv.Itoa(p.line) + ": "
	}
	return p.file + ": "
}

// configValue is implemented by key types that take more than one shape
// (uglyURLs: a boolean or a table).
type configValue interface {
	decodeConfig(v any) error
}

// scalarTable is implemented by table keys Hugo also takes as one value
// (markup.goldmark.parser.attribute = true sets its title): decodeScalar
// reports whether v was such a value.
type scalarTable interface {
	decodeScalar(v any) bool
}

// fieldInfo is a struct field as a config key.
type fieldInfo struct {
	index  []int
	name   string // canonical spelling
	own    bool
	closed bool
	open   bool
}

// keyFields lists the keys of a struct type, embedded structs flattened.
func keyFields(t reflect.Type) []fieldInfo {
	var out []fieldInfo
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("cfg")
		if tag == "-" {
			continue
		}
		if f.Anonymous && tag == "" {
			for _, sub := range keyFields(f.Type) {
				sub.index = append([]int{i}, sub.index...)
				out = append(out, sub)
			}
			continue
		}
		parts := strings.Split(tag, ",")
		fi := fieldInfo{index: []int{i}, name: parts[0]}
		if fi.name == "" {
			fi.name = strings.ToLower(f.Name[:1]) + f.Name[1:]
		}
		for _, o := range parts[1:] {
			switch o {
			case "own":
				fi.own = true
			case "closed":
				fi.closed = true
			case "open":
				fi.open = true
			}
		}
		out = append(out, fi)
	}
	return out
}

// decodeTable decodes the table m, found at key (lower-cased), into the
// struct dst. own and closed are inherited from the enclosing key.
func (d *configDecoder) decodeTable(key []string, m map[string]any, dst reflect.Value, own, closed, open bool) {
	fields := keyFields(dst.Type())
	byName := make(map[string]fieldInfo, len(fields))
	for _, f := range fields {
		byName[strings.ToLower(f.name)] = f
	}
	for _, k := range sortedKeys(m) {
		sub := append(append([]string(nil), key...), k)
		f, ok := byName[k]
		if !ok {
			if !open {
				d.unknownKey(sub, m[k], closed)
			}
			continue
		}
		d.decodeValue(sub, m[k], dst.FieldByIndex(f.index), own || f.own, closed || f.closed, f.open)
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// unknownKey notes an unknown key, or, for a TOML table made only by
// dotted keys, the keys inside it.
func (d *configDecoder) unknownKey(key []string, v any, closed bool) {
	if sub, ok := v.(map[string]any); ok && d.raw.implicit[keyName(key)] {
		for _, k := range sortedKeys(sub) {
			d.unknownKey(append(append([]string(nil), key...), k), sub[k], closed)
		}
		return
	}
	d.noteUnknown(key, closed)
}

func (d *configDecoder) noteUnknown(key []string, closed bool) {
	if d.quiet {
		return
	}
	pos := d.raw.where(key)
	d.unknown = append(d.unknown, unknownKey{key: pos.spelled, pos: pos, line: pos.line, closed: closed})
}

func (d *configDecoder) wrongType(key []string, want string, v any) {
	if d.quiet {
		return
	}
	d.typeErrs = append(d.typeErrs, configIssue{pos: d.raw.where(key), msg: "must be " + want + ", not " + typeName(v)})
}

func (d *configDecoder) badValue(key []string, err error) {
	if d.quiet {
		return
	}
	d.typeErrs = append(d.typeErrs, configIssue{pos: d.raw.where(key), msg: err.Error()})
}

// decodeValue sets dst from v. Hugo's keys (own false) convert as Hugo's
// weak decoding does; folio's own must have their type.
func (d *configDecoder) decodeValue(key []string, v any, dst reflect.Value, own, closed, open bool) {
	if v == nil {
		// A YAML key with no value (title:, taxonomies:), as Hugo 0.165
		// reads it: an empty value of the key's type (no taxonomies at
		// all), but a table of settings (markup:, pagination:) keeps its
		// defaults.
		switch dst.Kind() {
		case reflect.Struct:
		case reflect.Map:
			dst.Set(reflect.MakeMap(dst.Type()))
		default:
			dst.SetZero()
		}
		return
	}
	if cv, ok := dst.Addr().Interface().(configValue); ok {
		if err := cv.decodeConfig(v); err != nil {
			d.badValue(key, err)
		}
		return
	}
	switch dst.Kind() {
	case reflect.Pointer:
		if dst.IsNil() {
			dst.Set(reflect.New(dst.Type().Elem()))
		}
		d.decodeValue(key, v, dst.Elem(), own, closed, open)
	case reflect.Interface:
		dst.Set(reflect.ValueOf(v))
	case reflect.String:
		if s, ok := toString(v, !own); ok {
			dst.SetString(s)
		} else {
			d.wrongType(key, "a string", v)
		}
	case reflect.Bool:
		if b, ok := toBool(v, !own); ok {
			dst.SetBool(b)
		} else {
			d.wrongType(key, "a boolean", v)
		}
	case reflect.Int:
		if n, ok := toInt(v, !own); ok {
			dst.SetInt(n)
		} else {
			d.wrongType(key, "an integer", v)
		}
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			if st, ok := dst.Addr().Interface().(scalarTable); ok && st.decodeScalar(v) {
				return
			}
			d.wrongType(key, "a table", v)
			return
		}
		d.decodeTable(key, m, dst, own, closed, open)
	case reflect.Map:
		d.decodeMap(key, v, dst, own, closed)
	case reflect.Slice:
		d.decodeSlice(key, v, dst, own, closed)
	default:
		panic(fmt.Sprintf("config: no decoding for %s", dst.Type()))
	}
}

func (d *configDecoder) decodeMap(key []string, v any, dst reflect.Value, own, closed bool) {
	m, ok := v.(map[string]any)
	if !ok {
		d.wrongType(key, "a table", v)
		return
	}
	if dst.Type().Elem().Kind() == reflect.Interface {
		dst.Set(reflect.ValueOf(m)) // params: anything goes, keys lower-cased
		return
	}
	if dst.IsNil() {
		dst.Set(reflect.MakeMap(dst.Type()))
	}
	for _, k := range sortedKeys(m) {
		e := reflect.New(dst.Type().Elem()).Elem()
		if old := dst.MapIndex(reflect.ValueOf(k)); old.IsValid() {
			e.Set(old)
		}
		d.decodeValue(append(append([]string(nil), key...), k), m[k], e, own, closed, false)
		dst.SetMapIndex(reflect.ValueOf(k), e)
	}
}

// decodeSlice reads an array; Hugo's keys also take a single value for a
// one-element array.
func (d *configDecoder) decodeSlice(key []string, v any, dst reflect.Value, own, closed bool) {
	var list []any
	switch v := v.(type) {
	case []any:
		list = v
	case []map[string]any:
		for _, e := range v {
			list = append(list, e)
		}
	default:
		if own || dst.Type().Elem().Kind() != reflect.String {
			d.wrongType(key, "an array", v)
			return
		}
		list = []any{v}
	}
	out := reflect.MakeSlice(dst.Type(), len(list), len(list))
	for i, e := range list {
		d.decodeValue(key, e, out.Index(i), own, closed, false)
	}
	dst.Set(out)
}

// toString converts as Hugo's weak decoding does when weak: numbers and
// booleans become their text.
func toString(v any, weak bool) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case bool, int, int64, uint64, float64:
		if weak {
			return fmt.Sprint(v), true
		}
	}
	return "", false
}

func toBool(v any, weak bool) (bool, bool) {
	switch v := v.(type) {
	case bool:
		return v, true
	case string:
		if weak {
			if v == "" {
				return false, true
			}
			b, err := strconv.ParseBool(v)
			return b, err == nil
		}
	case int64, int, uint64, float64:
		if weak {
			n, _ := toInt(v, true)
			return n != 0, true
		}
	}
	return false, false
}

func toInt(v any, weak bool) (int64, bool) {
	switch v := v.(type) {
	case int64:
		return v, true
	case int:
		return int64(v), true
	case uint64:
		if v <= math.MaxInt64 {
			return int64(v), true
		}
	case float64:
		// JSON has only floats; 10.0 is an integer there. Hugo's weak
		// decoding truncates any other.
		if (weak || v == math.Trunc(v)) && math.Abs(v) < 1<<53 {
			return int64(v), true
		}
	case string:
		if weak {
			if v = strings.TrimSpace(v); v == "" {
				return 0, true // weight = "": Hugo reads 0
			}
			n, err := strconv.ParseInt(v, 0, 64)
			return n, err == nil
		}
	case bool:
		if weak && v {
			return 1, true
		}
		if weak {
			return 0, true
		}
	}
	return 0, false
}

// typeName names a decoded value's type as TOML does, with its article.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int, int64, uint64:
		return "an integer"
	case float64:
		return "a float"
	case map[string]any:
		return "a table"
	case []any, []map[string]any:
		return "an array"
	case time.Time:
		return "a date-time"
	case nil:
		return "empty"
	}
	return fmt.Sprintf("a %T", v)
}

// firstIssue is the first of issues in file order (files as merged, then
// lines); nil when there are none.
func (d *configDecoder) firstIssue(issues []configIssue) *configIssue {
	if len(issues) == 0 {
		return nil
	}
	fileIdx := func(name string) int {
		if i := slices.Index(d.raw.files, name); i >= 0 {
			return i
		}
		return len(d.raw.files)
	}
	slices.SortStableFunc(issues, func(a, b configIssue) int {
		return cmp.Or(cmp.Compare(fileIdx(a.pos.file), fileIdx(b.pos.file)), cmp.Compare(lineOrder(a.pos.line), lineOrder(b.pos.line)))
	})
	return &issues[0]
}

// lineOrder sorts unknown lines last.
func lineOrder(line int) int {
	if line == 0 {
		return math.MaxInt
	}
	return line
}
