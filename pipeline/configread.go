package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/gohugoio/hugo/common/herrors"
	"github.com/gohugoio/hugo/parser/metadecoders"
)

// This file reads one config file (TOML, YAML or JSON) into a map, keys
// spelled as written, and finds the line of each key, so that a message
// about a key can say where it is. TOML is read with BurntSushi/toml (its
// syntax errors are the ones folio has always shown), YAML and JSON with
// Hugo's own decoders, so that a value means what it means to Hugo.

// keyPos is where a key is defined: the file, the line (0 when not known)
// and the key as written there.
type keyPos struct {
	file    string
	line    int
	spelled []string
}

// configFile is one decoded config file.
type configFile struct {
	name string         // as messages name it
	m    map[string]any // keys as written
	// line maps each key path, lower-cased and joined as keyName does, to
	// its line; header holds the tables opened by a TOML [table] line.
	line   map[string]int
	header map[string]bool
	// implicit holds the TOML tables made only by dotted keys (a in
	// a.b = 1): an unknown one is named by its keys, not as a table.
	implicit map[string]bool
}

// readConfigFile decodes data in the format its name's extension says.
// A syntax error names the file and line.
func readConfigFile(name string, data []byte) (*configFile, error) {
	return readConfigAs(name, strings.TrimPrefix(strings.ToLower(path.Ext(name)), "."), data)
}

// readConfigAs decodes data in format (toml, yaml, yml or json).
func readConfigAs(name, format string, data []byte) (*configFile, error) {
	f := &configFile{name: name}
	var err error
	switch format {
	case "toml":
		err = f.readTOML(data)
	case "yaml", "yml":
		err = f.readYAML(data)
	case "json":
		err = f.readJSON(data)
	default:
		return nil, fmt.Errorf("%s: not a config file (want .toml, .yaml or .json)", name)
	}
	if err != nil {
		return nil, err
	}
	if f.m == nil {
		f.m = map[string]any{}
	}
	return f, nil
}

func (f *configFile) readTOML(data []byte) error {
	if _, err := toml.Decode(string(data), &f.m); err != nil {
		var perr toml.ParseError
		if errors.As(err, &perr) {
			return fmt.Errorf("%s:%d: %s", f.name, perr.Position.Line, perr.Message)
		}
		return fmt.Errorf("%s: %w", f.name, err)
	}
	kp := locateKeys(data)
	f.line, f.header = kp.line, kp.header
	f.implicit = map[string]bool{}
	for k := range kp.line {
		if !kp.defined[k] {
			f.implicit[k] = true
		}
	}
	return nil
}

func (f *configFile) readYAML(data []byte) error {
	m, err := metadecoders.Default.UnmarshalToMap(data, metadecoders.YAML)
	if err != nil {
		return f.decoderError(err)
	}
	f.m = m
	f.line = map[string]int{}
	if file, err := parser.ParseBytes(data, 0); err == nil {
		for _, doc := range file.Docs {
			f.yamlLines(nil, doc.Body)
		}
	}
	return nil
}

// yamlLines records the line of every key of a YAML mapping, nested ones
// included.
func (f *configFile) yamlLines(prefix []string, n ast.Node) {
	switch n := n.(type) {
	case *ast.MappingNode:
		for _, v := range n.Values {
			f.yamlLines(prefix, v)
		}
	case *ast.MappingValueNode:
		key := append(append([]string(nil), prefix...), strings.Trim(n.Key.String(), `"'`))
		if _, ok := f.line[keyName(key)]; !ok {
			f.line[keyName(key)] = n.Key.GetToken().Position.Line
		}
		f.yamlLines(key, n.Value)
	case *ast.TagNode:
		f.yamlLines(prefix, n.Value)
	case *ast.AnchorNode:
		f.yamlLines(prefix, n.Value)
	}
}

func (f *configFile) readJSON(data []byte) error {
	m, err := metadecoders.Default.UnmarshalToMap(data, metadecoders.JSON)
	if err != nil {
		return f.decoderError(err)
	}
	f.m = m
	f.line = map[string]int{}
	f.jsonLines(data)
	return nil
}

// jsonLines walks the tokens of a JSON object, recording the line of each
// object key.
func (f *configFile) jsonLines(data []byte) {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object bool
		key    []string // the key path of this container
		next   string   // object: the key whose value comes next
		want   bool     // object: a key is due
	}
	var stack []*frame
	lineAt := func(off int64) int { return bytes.Count(data[:min(int(off), len(data))], []byte("\n")) + 1 }
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.want {
			if k, ok := tok.(string); ok {
				key := append(append([]string(nil), top.key...), k)
				// The key starts after the separators before the token.
				start := before + int64(len(data[before:dec.InputOffset()])-len(bytes.TrimLeft(data[before:dec.InputOffset()], " \t\r\n,:")))
				if _, seen := f.line[keyName(key)]; !seen {
					f.line[keyName(key)] = lineAt(start)
				}
				top.next, top.want = k, false
				continue
			}
		}
		var path []string
		if top != nil {
			path = top.key
			if top.object {
				path = append(append([]string(nil), top.key...), top.next)
				top.want = true
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, key: path, want: true})
		case json.Delim('['):
			stack = append(stack, &frame{key: path})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].want = true
			}
		}
	}
}

// decoderError gives an error of Hugo's decoders the file's name and,
// when the decoder knows it, the line.
func (f *configFile) decoderError(err error) error {
	if fe := herrors.UnwrapFileError(err); fe != nil {
		pos := fe.Position()
		msg := err.Error()
		var cause error = fe
		for errors.Unwrap(cause) != nil {
			cause = errors.Unwrap(cause)
		}
		if cause != nil {
			msg = cause.Error()
		}
		if pos.LineNumber > 0 {
			return fmt.Errorf("%s:%d: %s", f.name, pos.LineNumber, firstLine(msg))
		}
		return f.yamlError(firstLine(msg))
	}
	return f.yamlError(firstLine(err.Error()))
}

// yamlError is a YAML decoder's message ("[37:3] mapping key "hours"
// already defined at [36:3]") as folio says one: its line after the
// file's name, a key set twice said as front matter's is.
func (f *configFile) yamlError(msg string) error {
	m := yamlAt.FindStringSubmatch(msg)
	if m == nil {
		return fmt.Errorf("%s: %s", f.name, msg)
	}
	line, msg := m[1], m[2]
	if d := yamlDuplicate.FindStringSubmatch(msg); d != nil {
		msg = fmt.Sprintf("%s: set twice (first on line %s)", d[1], d[2])
	}
	return fmt.Errorf("%s:%s: %s", f.name, line, msg)
}

var (
	yamlAt        = regexp.MustCompile(`^\[(\d+):\d+\] (.*)$`)
	yamlDuplicate = regexp.MustCompile(`^mapping key "(.*)" already defined at \[(\d+):\d+\]`)
)

// firstLine is the first line of a message: YAML errors go on with a
// picture of the source.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// readAllLimited reads a config file, refusing one over maxConfigSize.
func readAllLimited(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxConfigSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxConfigSize {
		return nil, fmt.Errorf("larger than %d MiB", maxConfigSize>>20)
	}
	return data, nil
}

// maxConfigSize bounds a config file: configs are kilobytes; a larger
// file is a mistake (a data file in config/) that should not cost a build
// its memory.
const maxConfigSize = 4 << 20
