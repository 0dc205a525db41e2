package funcs

import (
	"html/template"

	"github.com/spf13/cast"
)

// castNS is Hugo's cast namespace: int, float and string.
type castNS struct{ n *namespaces }

// ToInt converts a value to an int; "07" is 7, not octal.
func (c *castNS) ToInt(v any) (int, error) {
	if s, ok := v.(string); ok {
		v = trimZeros(s)
	}
	return cast.ToIntE(indirectHTML(v))
}

// ToFloat converts a value to a float64.
func (c *castNS) ToFloat(v any) (float64, error) { return cast.ToFloat64E(indirectHTML(v)) }

// ToString converts a value to a string.
func (c *castNS) ToString(v any) (string, error) { return cast.ToStringE(indirectHTML(v)) }

// trimZeros drops leading zeros so that cast does not read octal.
func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9' {
		s = s[1:]
	}
	return s
}

// indirectHTML turns the html/template string types into strings.
func indirectHTML(v any) any {
	switch s := v.(type) {
	case template.HTML:
		return string(s)
	case template.HTMLAttr:
		return string(s)
	case template.CSS:
		return string(s)
	case template.JS:
		return string(s)
	case template.JSStr:
		return string(s)
	case template.URL:
		return string(s)
	}
	return v
}

// toString converts a template value to a string, as Hugo's functions do
// with their arguments.
func toString(v any) (string, error) { return cast.ToStringE(indirectHTML(v)) }

// toInt converts an argument to an int.
func toInt(v any) (int, error) {
	if s, ok := v.(string); ok {
		v = trimZeros(s)
	}
	return cast.ToIntE(indirectHTML(v))
}
