package export

import (
	"net/http"
	"regexp"
	"slices"
)

// A keyer writes the keys of nginx maps so that they match exactly.
//
// nginx looks a string key up lower-cased (ASCII only), so a map keyed
// "/api/posts.json" also answers "/API/POSTS.JSON", where folio serve
// answers 404, and two keys that differ only in case are one key to
// nginx, which refuses the config ("conflicting parameter"). So:
//
//   - a key that shares its lower-cased form with no other key of its
//     set stays a string key (one hash lookup); the config then checks,
//     once per request, that the path such a key found is the request's
//     path itself (the map of confValues.Exact, which gives each path's
//     own spelling);
//   - keys that do share it (two aliases "/old/" and "/OLD/") are written
//     as anchored regular expressions, which nginx matches with case and
//     tries only when no string key matched. Such keys are rare (a
//     build refuses routes whose files differ only in case), so the
//     regular expressions cost nothing on the common path.
//
// A keyer is made from every key its maps can be asked for, not only the
// keys a map lists: a map that lists "r:/OLD/" but leaves "r:/old/" to its
// default must still not give "r:/old/" the value of "r:/OLD/".
type keyer map[string]bool // lower-cased forms shared by two keys or more

// newKeyer makes the keyer of the set of keys in list (raw, unquoted).
func newKeyer(list []entry) keyer {
	first := map[string]string{} // lower-cased form → first key with it
	k := keyer{}
	for _, e := range list {
		low := asciiLower(e.Key)
		if prev, ok := first[low]; ok && prev != e.Key {
			k[low] = true
		} else if !ok {
			first[low] = e.Key
		}
	}
	return k
}

// keys returns list with its raw keys written for the config.
func (k keyer) keys(list []entry) []entry {
	out := make([]entry, len(list))
	for i, e := range list {
		out[i] = entry{k.key(e.Key), e.Value}
	}
	return out
}

// key is raw as a map key that matches raw alone, byte for byte. \z, not
// $: PCRE's $ also matches before a final newline.
func (k keyer) key(raw string) string {
	if k[asciiLower(raw)] {
		return quote("~^" + regexp.QuoteMeta(raw) + `\z`)
	}
	return quote(raw)
}

// asciiLower lower-cases s as nginx does (ngx_hash_strlow): A-Z only,
// byte by byte, whatever the bytes are.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// setKeys fills v's maps from entries with raw keys. The path maps
// (routes, markdown, redirects, and Exact, made here) are looked up with
// the request's path; the header maps and ranges with a key made from the
// exact path or file a path map gave (keyed holds every such key).
func (v *confValues) setKeys(routes, markdown, redirects, ranges []entry, keyed map[string]http.Header) {
	all := slices.Concat(routes, redirects)
	paths := newKeyer(all)
	seen := map[string]bool{}
	for _, e := range all {
		if !seen[e.Key] { // a route is no redirect, but be sure: nginx refuses a key twice
			seen[e.Key] = true
			v.Exact = append(v.Exact, entry{e.Key, quoteValue(e.Key)})
		}
	}
	v.Exact = paths.keys(v.Exact)
	v.Routes, v.Markdown, v.Redirects = paths.keys(routes), paths.keys(markdown), paths.keys(redirects)
	keys := make([]entry, 0, len(keyed))
	for k := range keyed {
		keys = append(keys, entry{Key: k})
	}
	others := newKeyer(keys)
	v.Ranges = others.keys(ranges)
	v.Headers = headerMaps(keyed, others)
}
