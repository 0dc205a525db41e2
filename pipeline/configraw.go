package pipeline

import (
	"maps"
	"strings"
)

// rawConfig is the merged configuration before decoding: one map whose
// keys are lower-cased (Hugo's keys ignore case), and where each key was
// last defined, for messages.
type rawConfig struct {
	m      map[string]any
	pos    map[string]keyPos // by keyName of the lower-cased path
	header map[string]bool   // tables opened by a TOML [table] line
	// implicit holds TOML tables made only by dotted keys, by keyName
	implicit map[string]bool
	files    []string // the files merged, in order
}

func newRawConfig() *rawConfig {
	return &rawConfig{m: map[string]any{}, pos: map[string]keyPos{}, header: map[string]bool{}, implicit: map[string]bool{}}
}

// merge sets f's keys over r's at the key path under (nil: the root), as
// Hugo's config Set does: a table merges into a table key by key, any
// other value replaces what was there.
func (r *rawConfig) merge(f *configFile, under []string) {
	r.files = append(r.files, f.name)
	dst := r.m
	for _, k := range under {
		k = strings.ToLower(k)
		next, ok := dst[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			dst[k] = next
		}
		dst = next
	}
	setParams(dst, lowerTree(f.m))
	r.notePositions(f, under, nil, f.m)
	for h := range f.header {
		r.header[h] = true
	}
	prefix := ""
	if len(under) > 0 {
		prefix = keyName(under) + "."
	}
	for k := range f.implicit {
		r.implicit[prefix+k] = true
	}
}

// notePositions records where each key of m (a table of f at the path
// key, written spelled) is defined.
func (r *rawConfig) notePositions(f *configFile, under, spelled []string, m map[string]any) {
	for k, v := range m {
		sp := append(append([]string(nil), spelled...), k)
		full := append(append([]string(nil), under...), sp...)
		r.pos[keyName(full)] = keyPos{file: f.name, line: f.line[keyName(sp)], spelled: full}
		if sub, ok := v.(map[string]any); ok {
			r.notePositions(f, under, sp, sub)
		}
	}
}

// where is the position of the key path (lower-cased), or of its nearest
// enclosing key that has one.
func (r *rawConfig) where(key []string) keyPos {
	for n := len(key); n > 0; n-- {
		if p, ok := r.pos[keyName(key[:n])]; ok {
			if n < len(key) {
				p.spelled = append(append([]string(nil), p.spelled...), key[n:]...) // on the enclosing table's line
			}
			return p
		}
	}
	file := ""
	if len(r.files) > 0 {
		file = r.files[0]
	}
	return keyPos{file: file, spelled: key}
}

// setParams merges src into dst: tables key by key, other values
// replacing.
func setParams(dst, src map[string]any) {
	for k, v := range src {
		if sv, ok := v.(map[string]any); ok {
			if dv, ok := dst[k].(map[string]any); ok {
				setParams(dv, sv)
				continue
			}
			dst[k] = maps.Clone(sv)
			continue
		}
		dst[k] = v
	}
}

// lowerTree returns m with every table key lower-cased, at every depth,
// inside arrays too. m is not modified.
func lowerTree(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[strings.ToLower(k)] = lowerValue(v)
	}
	return out
}

func lowerValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return lowerTree(v)
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			if s, ok := k.(string); ok {
				m[s] = e
			}
		}
		return lowerTree(m)
	case []map[string]any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = lowerTree(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = lowerValue(e)
		}
		return out
	}
	return v
}
