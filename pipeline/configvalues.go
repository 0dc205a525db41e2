package pipeline

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Config keys that take more than one shape decode themselves.

// stringsKey is a string or an array of strings (staticDir).
type stringsKey []string

func (s *stringsKey) decodeConfig(v any) error {
	switch v := v.(type) {
	case string:
		*s = []string{v}
		return nil
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			str, ok := e.(string)
			if !ok {
				return fmt.Errorf("must be an array of strings, not one holding %s", typeName(e))
			}
			out = append(out, str)
		}
		*s = out
		return nil
	}
	return fmt.Errorf("must be a string or an array of strings, not %s", typeName(v))
}

// uglyURLKeys is uglyURLs: a boolean, or a table of sections.
type uglyURLKeys UglyURLs

func (u *uglyURLKeys) decodeConfig(v any) error {
	switch v := v.(type) {
	case bool:
		u.All = v
		return nil
	case string:
		u.All = v == "true"
		return nil
	case map[string]any:
		u.Sections = map[string]bool{}
		for k, e := range v {
			b, ok := toBool(e, true)
			if !ok {
				return fmt.Errorf("section %s must be a boolean, not %s", k, typeName(e))
			}
			u.Sections[k] = b
		}
		return nil
	}
	return fmt.Errorf("must be a boolean or a table of sections, not %s", typeName(v))
}

// permalinkKinds are the kinds a [permalinks.kind] table may name.
var permalinkKinds = []string{"page", "home", "section", "taxonomy", "term"}

// permalinkKeys is the permalinks table in one of Hugo's three forms:
// section = pattern (pages and terms of that section), kind.section =
// pattern, or an array of {target = {kind, path}, pattern}.
type permalinkKeys struct {
	list Permalinks
}

func (p *permalinkKeys) decodeConfig(v any) error {
	p.list = nil
	switch v := v.(type) {
	case map[string]any:
		return p.decodeMap(v)
	case []any:
		return p.decodeSlice(v)
	}
	return fmt.Errorf("must be a table, not %s", typeName(v))
}

func (p *permalinkKeys) decodeMap(m map[string]any) error {
	for _, k := range sortedKeys(m) {
		switch v := m[k].(type) {
		case string:
			glob := sectionGlob(k)
			p.list = append(p.list, PermalinkRule{Kind: "page", Path: glob, Pattern: v}, PermalinkRule{Kind: "term", Path: glob, Pattern: v})
		case map[string]any:
			if !slices.Contains(permalinkKinds, k) {
				return fmt.Errorf("%s: not a kind permalinks are for (%s)", k, strings.Join(permalinkKinds, ", "))
			}
			for _, sec := range sortedKeys(v) {
				pattern, ok := v[sec].(string)
				if !ok {
					return fmt.Errorf("%s.%s must be a string, not %s", k, sec, typeName(v[sec]))
				}
				p.list = append(p.list, PermalinkRule{Kind: k, Path: sectionGlob(sec), Pattern: pattern})
			}
		default:
			return fmt.Errorf("%s must be a string or a table, not %s", k, typeName(v))
		}
	}
	return nil
}

func (p *permalinkKeys) decodeSlice(list []any) error {
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return fmt.Errorf("entry %d must be a table, not %s", i+1, typeName(e))
		}
		pattern, ok := m["pattern"].(string)
		if !ok {
			return fmt.Errorf("entry %d: pattern must be a string", i+1)
		}
		rule := PermalinkRule{Pattern: pattern}
		if t, ok := m["target"].(map[string]any); ok {
			rule.Kind, _ = t["kind"].(string)
			rule.Path, _ = t["path"].(string)
			rule.Kind, rule.Path = strings.ToLower(rule.Kind), strings.ToLower(rule.Path)
		} else if m["target"] != nil {
			return errors.New("target must be a table with kind and path")
		}
		p.list = append(p.list, rule)
	}
	return nil
}

// rules is the decoded list; nil for an unset key.
func (p *permalinkKeys) rules() Permalinks {
	if p == nil {
		return nil
	}
	return p.list
}

// sectionGlob is Hugo's path glob for a section name: the section and
// everything below it; "/*" for the root.
func sectionGlob(section string) string {
	section = strings.Trim(section, " /")
	if section == "" {
		return "/*"
	}
	return "/{" + section + "," + section + "/**}"
}
