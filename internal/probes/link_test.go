package probes

import (
	"reflect"
	"testing"
)

func TestParseLinks(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []Link
		err  bool
	}{
		{[]string{`<https://a/x>; rel="api-catalog"`}, []Link{{"https://a/x", map[string]string{"rel": "api-catalog"}}}, false},
		{[]string{`<a>; rel=canonical, <b>;rel="alternate";type="text/markdown"`},
			[]Link{{"a", map[string]string{"rel": "canonical"}}, {"b", map[string]string{"rel": "alternate", "type": "text/markdown"}}}, false},
		{[]string{`<a>; title="x, y; z", <b>; REL=next`},
			[]Link{{"a", map[string]string{"title": "x, y; z"}}, {"b", map[string]string{"rel": "next"}}}, false},
		{[]string{`<a>; rel="one two"; rel=ignored`}, []Link{{"a", map[string]string{"rel": "one two"}}}, false},
		{[]string{`<a>; title="a \"q\""`}, []Link{{"a", map[string]string{"title": `a "q"`}}}, false},
		{[]string{`<a>`, `<b>; rel=x`}, []Link{{"a", map[string]string{}}, {"b", map[string]string{"rel": "x"}}}, false},
		{[]string{`a; rel=x`}, nil, true},
		{[]string{`<a; rel=x`}, nil, true},
		{[]string{`<a>; rel="x`}, nil, true},
		{[]string{`<a> <b>`}, nil, true},
	} {
		got, err := ParseLinks(tc.in)
		if (err != nil) != tc.err || !tc.err && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %+v, %v; want %+v (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
	if l := (Link{Params: map[string]string{"rel": "alternate Canonical"}}); !l.Rel("canonical") || l.Rel("next") {
		t.Error("Rel does not read a list of relations without case")
	}
}
