package server

import (
	"slices"
	"strings"
	"testing"
)

// FuzzAcceptInvariants checks properties of negotiate that hold for any
// Accept header, beyond FuzzNegotiate's "never panics": the answer does
// not depend on the order of the members, on invalid members added, on
// white space around them, or on the case of ASCII letters. Seeds are in
// testdata/fuzz/FuzzAcceptInvariants (browsers, agents, CONTRACT's edge
// cases, malformed headers).
//
//	go test ./server -run '^$' -fuzz '^FuzzAcceptInvariants$' -fuzztime 1m
func FuzzAcceptInvariants(f *testing.F) {
	f.Add("text/markdown, text/html;q=0.9, */*;q=0.1")
	f.Fuzz(func(t *testing.T, accept string) {
		want := negotiate(accept)
		switch want {
		case mediaNone, mediaHTML, mediaMarkdown:
		default:
			t.Fatalf("negotiate(%q) = %d, not a media", accept, want)
		}
		members := strings.Split(accept, ",")
		reversed := slices.Clone(members)
		slices.Reverse(reversed)
		spaced := make([]string, len(members))
		for i, m := range members {
			spaced[i] = " \t" + m + "\t "
		}
		for _, tc := range []struct{ name, header string }{
			{"reversed", strings.Join(reversed, ",")},
			{"with invalid members", "garbage, ;q=1, text/;q=1," + accept + ",*/markdown, {json}"},
			{"spaced", strings.Join(spaced, ",")},
			{"upper case", asciiUpper(accept)},
			{"repeated", accept + "," + accept},
		} {
			if got := negotiate(tc.header); got != want {
				t.Errorf("%s: negotiate(%q) = %v, but negotiate(%q) = %v", tc.name, tc.header, got, accept, want)
			}
		}
	})
}

// asciiUpper upper-cases ASCII letters only: media types and parameter
// names are case-insensitive; other bytes must stay as they are.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
