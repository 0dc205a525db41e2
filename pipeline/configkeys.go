package pipeline

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/pelletier/go-toml/v2/unstable"
)

// This file turns the keys the decoder did not know into messages a
// person can act on: each key with the line that defines it and, for a
// near miss of a known key, the key meant. BurntSushi keeps TOML key
// positions private, so the lines of a TOML file come from a second,
// position-keeping parse with go-toml's AST parser (already a dependency
// for TOML front matter); YAML and JSON lines come from configread.go.

// keyPositions are where a config file defines its keys.
type keyPositions struct {
	// line maps a key, lower-cased and spelled as toml.Key.String does,
	// to the line that first defines it (a table header counts).
	line map[string]int
	// header holds the tables opened by a [table] or [[table]] line.
	header map[string]bool
	// defined holds the keys written as such: a [table] line or the key
	// of a key = value line; a.b = 1 defines a.b, not a.
	defined map[string]bool
}

// locateKeys parses data for key positions. A key the parser does not
// reach (data BurntSushi reads but go-toml does not) has no line.
func locateKeys(data []byte) keyPositions {
	kp := keyPositions{line: map[string]int{}, header: map[string]bool{}, defined: map[string]bool{}}
	var p unstable.Parser
	p.Reset(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))) // BurntSushi/toml accepts a BOM, go-toml's parser does not
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = kp.addKey(&p, nil, e.Key())
			kp.header[keyName(table)] = true
			kp.defined[keyName(table)] = true
		case unstable.KeyValue:
			kp.addKeyValue(&p, table, e)
		}
	}
	return kp
}

// addKeyValue records the key of a key = value line under prefix, and the
// keys of an inline table value (or of inline tables in an array value).
func (kp keyPositions) addKeyValue(p *unstable.Parser, prefix []string, kv *unstable.Node) {
	key := kp.addKey(p, prefix, kv.Key())
	kp.defined[keyName(key)] = true
	kp.addValue(p, key, kv.Value())
}

func (kp keyPositions) addValue(p *unstable.Parser, key []string, v *unstable.Node) {
	switch v.Kind {
	case unstable.InlineTable:
		for it := v.Children(); it.Next(); {
			if n := it.Node(); n.Kind == unstable.KeyValue {
				kp.addKeyValue(p, key, n)
			}
		}
	case unstable.Array:
		for it := v.Children(); it.Next(); {
			kp.addValue(p, key, it.Node())
		}
	}
}

// addKey records each dotted part of a key (a.b.c defines a, a.b and
// a.b.c) after prefix, and returns the whole key.
func (kp keyPositions) addKey(p *unstable.Parser, prefix []string, it unstable.Iterator) []string {
	key := slices.Clone(prefix)
	for it.Next() {
		n := it.Node()
		key = append(key, string(n.Data))
		name := keyName(key)
		if _, ok := kp.line[name]; !ok {
			kp.line[name] = p.Shape(n.Raw).Start.Line
		}
	}
	return key
}

// keyName is a key as toml.Key.String spells it, lower-cased: BurntSushi
// matches keys to fields regardless of case.
func keyName(k []string) string {
	return strings.ToLower(toml.Key(k).String())
}

// unknownKey is one key of a config that no key of the schema is.
type unknownKey struct {
	key    toml.Key // as written
	pos    keyPos
	line   int // 0 when not found
	hint   string
	closed bool // inside a table where an unknown key is an error ([folio])
}

// describe is the key and, in brackets, whatever of its line and hint is
// known and wanted.
func (u unknownKey) describe(withLine bool) string {
	var notes []string
	if withLine && u.line > 0 {
		notes = append(notes, fmt.Sprintf("line %d", u.line))
	}
	if u.hint != "" {
		notes = append(notes, u.hint)
	}
	if len(notes) == 0 {
		return u.key.String()
	}
	return u.key.String() + " (" + strings.Join(notes, "; ") + ")"
}

// message is the warning or error about one unknown key:
// "hugo.toml:7: unknown key titel (did you mean "title"?)".
func (u unknownKey) message() string {
	return u.pos.place() + "unknown key " + u.describe(false)
}

// unknownKeysError names every unknown key with its line, the first one in
// front ("config.toml:7: unknown key titel (did you mean "title"?)"), so
// that tools reading path:line find the first one to fix, and the others
// after it, so that one run shows them all. The keys are those of one
// file, in file order.
func unknownKeysError(list []unknownKey) error {
	msg := list[0].message()
	if len(list) > 1 {
		more := make([]string, len(list)-1)
		for i, u := range list[1:] {
			more[i] = u.describe(true)
		}
		msg += "; also unknown: " + strings.Join(more, ", ")
	}
	return errors.New(msg)
}

// sortUnknown puts unknown keys in file order, keys without a line last,
// and gives each its hint.
func sortUnknown(list []unknownKey, s *schema, header map[string]bool, files []string) {
	fileIdx := func(name string) int {
		if i := slices.Index(files, name); i >= 0 {
			return i
		}
		return len(files)
	}
	slices.SortStableFunc(list, func(a, b unknownKey) int {
		return cmp.Or(cmp.Compare(fileIdx(a.pos.file), fileIdx(b.pos.file)), cmp.Compare(lineOrder(a.line), lineOrder(b.line)))
	})
	for i := range list {
		list[i].hint = s.suggest(list[i].key, header)
	}
}

// schema is the set of keys a config may hold, as canonical key paths:
// tables, then each table's keys as "table.key", from the cfg tags of a
// key struct (configkeys_hugo.go). Tables whose keys are free (params,
// any) list no keys inside.
type schema struct {
	known [][]string
}

var schemas sync.Map // reflect.Type → *schema

// schemaOf returns the schema of the key struct type t.
func schemaOf(t reflect.Type) *schema {
	if s, ok := schemas.Load(t); ok {
		return s.(*schema)
	}
	s := &schema{}
	var walk func(t reflect.Type, prefix []string, depth int)
	walk = func(t reflect.Type, prefix []string, depth int) {
		for _, f := range keyFields(t) {
			key := append(slices.Clone(prefix), f.name)
			s.known = append(s.known, key)
			ft := t.FieldByIndex(f.index).Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct && depth < 6 {
				walk(ft, key, depth+1)
			}
		}
	}
	walk(t, nil, 0)
	schemas.Store(t, s)
	return s
}

// suggest names the known key an unknown one was probably meant to be:
// the nearest (edit distance at most 2 and at most half its length,
// ignoring case) of the keys in the same table, else of the keys
// elsewhere, with where that key belongs. A top-level key written after
// a [table] line is the usual way to get cache.title; the hint says to
// move it.
func (s *schema) suggest(k toml.Key, header map[string]bool) string {
	last := strings.ToLower(k[len(k)-1])
	parent := keyName(k[:len(k)-1])
	var best []string
	bestDist, bestSame := 3, false
	for _, known := range s.known {
		d := editDistance(last, strings.ToLower(known[len(known)-1]))
		same := keyName(known[:len(known)-1]) == parent
		if d > 2 || 2*d > len([]rune(last)) || (same && d == 0) {
			continue
		}
		if !same && (len(k) > 2 || len(known) > 2) {
			continue // deep in a table, only the table's own keys are likely meant
		}
		if d < bestDist || (d == bestDist && same && !bestSame) {
			best, bestDist, bestSame = known, d, same
		}
	}
	if best == nil {
		return ""
	}
	leaf := best[len(best)-1]
	switch {
	case len(best) == 1 && s.isTable(leaf) && parent != "":
		return didYouMean(leaf, bestDist, "is a table: give it its own ["+leaf+"] section")
	case bestSame:
		return fmt.Sprintf("did you mean %q?", toml.Key(best).String())
	case len(best) == 1 && header[parent]:
		return didYouMean(leaf, bestDist, "is a top-level key: write it above ["+toml.Key(k[:len(k)-1]).String()+"]")
	case len(best) > 1:
		return didYouMean(leaf, bestDist, "belongs in ["+toml.Key(best[:len(best)-1]).String()+"]")
	}
	return didYouMean(leaf, bestDist, "is a top-level key")
}

// isTable reports whether the top-level known key name is a table.
func (s *schema) isTable(name string) bool {
	for _, known := range s.known {
		if len(known) > 1 && known[0] == name {
			return true
		}
	}
	return false
}

// didYouMean says where the known key leaf belongs ("is a top-level
// key…"), first asking whether it was meant when the unknown key is
// spelled differently.
func didYouMean(leaf string, dist int, where string) string {
	if dist == 0 {
		return leaf + " " + where
	}
	return fmt.Sprintf("did you mean %q? it %s", leaf, where)
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of two neighbours ("titel") cost 1.
func editDistance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// d[i][j] is the distance between s[:i] and t[:j].
	d := make([][]int, len(s)+1)
	for i := range d {
		d[i] = make([]int, len(t)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(s); i++ {
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(s)][len(t)]
}
