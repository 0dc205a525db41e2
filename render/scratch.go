package render

import (
	"reflect"

	"folio/render/funcs"

	"github.com/spf13/cast"
)

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

// newScratch makes a scratch pad whose values the page's budget pays for.
func (st *state) newScratch() *funcs.Scratch {
	root := st.root()
	return funcs.NewScratch(func(v any) error {
		if err := root.limits.size(v); err != nil {
			return err
		}
		return root.limits.charge(sizeOf(v))
	})
}
