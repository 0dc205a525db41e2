package pipeline

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/scanner"
	"github.com/goccy/go-yaml/token"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Front matter is bounded before it is decoded, because Hugo's decoders
// are not linear in it: the YAML parser builds a block mapping by
// recursion, one level and one copy of the rest per key, and the TOML
// decoder looks each new key up among its table's keys one by one. A
// mapping of 100,000 keys (a 1 MB file) took 20 s to decode, 500,000 took
// minutes and 2 GB. Real front matter has a few dozen keys; lists are
// linear and are bounded by the size alone.
const (
	// maxFrontMatter is the largest front matter decoded, in bytes.
	maxFrontMatter = 1 << 20
	// maxKeys bounds the keys of one mapping (YAML) or table (TOML,
	// inline tables included); 2,000 keys decode in a few milliseconds.
	maxKeys = 2000
	// maxAliasValues bounds what YAML aliases (*name) repeat: the values
	// under the anchors they name, counted once per alias. The decoder
	// shares them, but whatever walks the result (Hugo's own alias check,
	// a template ranging over .Params) visits every copy: nine aliases of
	// nine aliases … are a billion values in a few hundred bytes.
	maxAliasValues = 10_000
	// maxYAMLBrackets bounds the "[" and "{" of a YAML front matter. The
	// YAML decoder's time grows with the square of the nesting of flow
	// collections ("[[[…", "{a: {b: …") and it sets no limit of its own
	// for them: 100,000 levels, a 200 KB front matter, took minutes.
	// Counting every bracket, quoted or not, bounds the depth whatever
	// the quoting (a depth count that skipped quoted strings could be
	// fooled by a quote the decoder reads as text); real front matter has
	// a handful. JSON and TOML decoders stop at 10,000 levels by
	// themselves, and block nesting needs indentation, which the size
	// limit bounds.
	maxYAMLBrackets = 2000
)

// frontMatterBounds checks a front matter's data against the limits
// above. It returns the line of data (from 1) and the message of the
// first limit passed, or 0 and "" when the data may be decoded.
func frontMatterBounds(format string, data []byte) (int, string) {
	if len(data) > maxFrontMatter {
		return 1, fmt.Sprintf("front matter too large: %d bytes (the limit is %d KiB)", len(data), maxFrontMatter>>10)
	}
	switch format {
	case "yaml":
		if line := yamlBrackets(data); line > 0 {
			return line, fmt.Sprintf("yaml: more than %d flow collections ([ or {); too deep to decode safely", maxYAMLBrackets)
		}
		if yamlWithinBounds(data) {
			return 0, ""
		}
		return yamlBounds(data)
	case "toml":
		if tomlWithinBounds(data) {
			return 0, ""
		}
		return tomlBounds(data)
	}
	return 0, "" // encoding/json is linear
}

// yamlBrackets returns the line of data (from 1) holding its bracket
// past maxYAMLBrackets, 0 if there are not that many.
func yamlBrackets(data []byte) int {
	n := 0
	for i, c := range data {
		if c == '[' || c == '{' {
			if n++; n > maxYAMLBrackets {
				return lineOf(data, i)
			}
		}
	}
	return 0
}

// yamlWithinBounds reports, without scanning, front matter that no YAML
// limit can apply to: every key yamlBounds counts is a ':' or '?' token
// (an implicit key's value indicator, an explicit key's indicator), and
// every alias a '*' token, so with at most maxKeys of those bytes and no
// '*' no mapping has more than maxKeys keys and nothing is repeated.
// That is all real front matter; scanning it took a tenth of reading
// 100,000 posts.
func yamlWithinBounds(data []byte) bool {
	return bytes.Count(data, []byte{':'})+bytes.Count(data, []byte{'?'}) <= maxKeys &&
		bytes.IndexByte(data, '*') < 0
}

// yamlBounds counts the keys of each block mapping on the YAML scanner's
// tokens (the scanner is linear; the parser is what is not), as the parser
// groups them: the keys of one mapping stand in one column, and a key or
// a list entry further left ends it. Keys inside flow collections ({a: 1,
// …}) are parsed in linear time and are not counted. Then, when there
// are aliases, it counts what they repeat.
func yamlBounds(data []byte) (int, string) {
	type mapping struct{ col, keys int }
	var (
		open    []mapping // the block mappings around the current token
		prev    *token.Token
		flow    int
		aliases bool
		s       scanner.Scanner
	)
	s.Init(string(data))
	for {
		tokens, err := s.Scan() // as lexer.Tokenize does, without keeping them all
		if err == io.EOF {
			break
		}
		for _, tk := range tokens {
			switch tk.Type {
			case token.SequenceStartType, token.MappingStartType:
				flow++
			case token.SequenceEndType, token.MappingEndType:
				flow = max(flow-1, 0)
			case token.DocumentHeaderType:
				open = open[:0]
			case token.AliasType:
				aliases = true
			}
			at := tk // the key, or the list entry
			key := tk.Type == token.MappingKeyType
			if tk.Type == token.MappingValueType && prev != nil && prev.Type != token.MappingKeyType {
				at, key = prev, true
			}
			prev = tk
			if flow > 0 || (!key && tk.Type != token.SequenceEntryType) {
				continue
			}
			col := at.Position.Column
			for len(open) > 0 && open[len(open)-1].col > col {
				open = open[:len(open)-1]
			}
			if !key {
				continue
			}
			if n := len(open); n > 0 && open[n-1].col == col {
				if open[n-1].keys++; open[n-1].keys > maxKeys {
					return at.Position.Line, fmt.Sprintf("too many keys: more than %d at one level", maxKeys)
				}
				continue
			}
			open = append(open, mapping{col: col, keys: 1})
		}
	}
	if !aliases {
		return 0, ""
	}
	return yamlAliasBounds(data)
}

// yamlAliasBounds parses the YAML (in linear time, now that its mappings
// are bounded) and counts the values its aliases repeat. A document that
// does not parse is left to the decoder, which reports it.
func yamlAliasBounds(data []byte) (int, string) {
	file, err := parser.ParseBytes(data, 0)
	if err != nil {
		return 0, ""
	}
	c := aliasCounter{anchors: map[string]int{}}
	for _, doc := range file.Docs {
		if doc != nil && doc.Body != nil {
			c.size(doc.Body)
		}
		if c.line > 0 {
			return c.line, fmt.Sprintf("aliases (*name) repeat more than %d values", maxAliasValues)
		}
	}
	return 0, ""
}

// aliasCounter sizes YAML nodes, counting an alias as the size of the
// node its anchor names; every node is visited once.
type aliasCounter struct {
	anchors  map[string]int // the size of the node under each anchor
	repeated int            // the values aliases repeated so far
	line     int            // the alias past maxAliasValues, 0 if none
}

// saturated keeps sizes from overflowing: nine levels of nine aliases
// would be 9^9 values, twenty levels more than an int holds. Far past
// maxAliasValues, and two of it still fit a 32-bit int.
const saturated = 1 << 29

func (c *aliasCounter) size(n ast.Node) int {
	total := 0
	add := func(k int) { total = min(total+k, saturated) }
	ast.Walk(visitor(func(n ast.Node) bool {
		switch n := n.(type) {
		case nil:
			return false
		case *ast.AnchorNode:
			k := 0
			if n.Value != nil {
				k = c.size(n.Value)
			}
			if n.Name != nil {
				c.anchors[n.Name.String()] = k
			}
			add(k + 1)
			return false
		case *ast.AliasNode:
			k := 0
			if n.Value != nil {
				k = c.anchors[n.Value.String()]
			}
			c.repeated = min(c.repeated+k, saturated)
			if c.repeated > maxAliasValues && c.line == 0 {
				c.line = n.GetToken().Position.Line
			}
			add(k)
			return false
		}
		add(1)
		return true
	}), n)
	return total
}

// visitor adapts a function to ast.Visitor: true walks into the node.
type visitor func(ast.Node) bool

func (f visitor) Visit(n ast.Node) ast.Visitor {
	if f(n) {
		return f
	}
	return nil
}

// tomlWithinBounds reports, without parsing, TOML front matter whose
// tables cannot have more than maxKeys keys: each expression adds at most
// one key to any one table (a key-value line or an inline table's entry
// its key's first part, a dotted key or a table header one part to each
// table its parts name), each key-value has its '=' and each header its
// '[', so with at most maxKeys of those bytes no table has more. That is
// all real front matter; go-toml's parser over the tenth of 100,000
// posts written in TOML took 1.5 % of a first start's CPU.
func tomlWithinBounds(data []byte) bool {
	return bytes.Count(data, []byte{'='})+bytes.Count(data, []byte{'['}) <= maxKeys
}

// tomlBounds counts the keys of each TOML table on go-toml's parser (the
// decoder is what is not linear): the keys a table's key-value lines,
// dotted keys and sub-table headers give it, and those of each inline
// table. A document that does not parse is left to the decoder.
func tomlBounds(data []byte) (line int, msg string) {
	var p unstable.Parser
	p.Reset(data)
	t := tomlKeys{children: map[string]map[string]struct{}{}}
	table := ""    // the current table's path
	elements := 0  // array-table elements so far, each a table of its own
	defer func() { // go-toml's parser panics on some invalid input
		if recover() != nil {
			line, msg = 0, ""
		}
	}()
	for p.NextExpression() {
		e := p.Expression()
		var ok bool
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table, ok = t.addPath("", e.Key())
			if e.Kind == unstable.ArrayTable {
				elements++
				table += fmt.Sprintf("\x00[%d]", elements)
			}
		case unstable.KeyValue:
			ok = t.keyValue(table, e)
		default:
			ok = true
		}
		if !ok {
			return exprLine(&p, e), fmt.Sprintf("too many keys: more than %d in one table", maxKeys)
		}
	}
	return 0, ""
}

// exprLine is the line an expression starts on: a table header has no
// range of its own, its key has.
func exprLine(p *unstable.Parser, e *unstable.Node) int {
	r := e.Raw
	if r.Length == 0 && e.Kind != unstable.KeyValue {
		if k := e.Key(); k.Next() {
			r = k.Node().Raw
		}
	}
	return p.Shape(r).Start.Line
}

// tomlKeys holds the distinct keys of each table, by the table's path.
type tomlKeys struct {
	children map[string]map[string]struct{}
	inline   int // inline tables so far, each a table of its own
}

// add notes key in the table at path; false when the table has too many.
func (t *tomlKeys) add(path, key string) bool {
	keys := t.children[path]
	if keys == nil {
		keys = map[string]struct{}{}
		t.children[path] = keys
	}
	keys[key] = struct{}{}
	return len(keys) <= maxKeys
}

// addPath notes a dotted key's parts under path, each in the table the
// parts before it name, and returns the path of the last.
func (t *tomlKeys) addPath(path string, key unstable.Iterator) (string, bool) {
	for key.Next() {
		part := string(key.Node().Data)
		if !t.add(path, part) {
			return path, false
		}
		path += "\x00" + strings.ReplaceAll(part, "\x00", "\x00\x00")
	}
	return path, true
}

// keyValue notes a key-value's key in table and the keys of the inline
// tables in its value.
func (t *tomlKeys) keyValue(table string, kv *unstable.Node) bool {
	path, ok := t.addPath(table, kv.Key())
	return ok && t.value(path, kv.Value())
}

func (t *tomlKeys) value(path string, v *unstable.Node) bool {
	switch v.Kind {
	case unstable.InlineTable:
		t.inline++
		scope := fmt.Sprintf("%s\x00{%d}", path, t.inline)
		for it := v.Children(); it.Next(); {
			if kv := it.Node(); kv.Kind == unstable.KeyValue && !t.keyValue(scope, kv) {
				return false
			}
		}
	case unstable.Array:
		for it := v.Children(); it.Next(); {
			if !t.value(path, it.Node()) {
				return false
			}
		}
	}
	return true
}
