package agents

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Signals are a Content Signals Policy's three answers: may the content
// be used to build a search index (search), as input to an AI answer
// (ai-input), to train or fine-tune a model (ai-train).
type Signals struct {
	Search, AIInput, AITrain bool
}

// DefaultSignals are a public blog's: found and quoted, not trained on.
var DefaultSignals = Signals{Search: true, AIInput: true, AITrain: false}

// signalNames are the policy's names, in the order folio writes them.
var signalNames = []string{"search", "ai-input", "ai-train"}

// String is the value of a Content-Signal line or header:
// "search=yes, ai-input=yes, ai-train=no".
func (s Signals) String() string {
	return "search=" + yesNo(s.Search) + ", ai-input=" + yesNo(s.AIInput) + ", ai-train=" + yesNo(s.AITrain)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (s *Signals) field(name string) *bool {
	switch name {
	case "search":
		return &s.Search
	case "ai-input":
		return &s.AIInput
	case "ai-train":
		return &s.AITrain
	}
	return nil
}

// Narrow returns s with a page's own signals (front matter
// contentSignal: {ai-train: no}) applied. A page can only say no where the
// site says yes; a value that would widen the site's, an unknown signal
// or a value other than yes/no is left out and described in the returned
// warnings, one per key, for the author.
func (s Signals) Narrow(page map[string]any) (Signals, []string) {
	var warnings []string
	keys := make([]string, 0, len(page))
	for k := range page {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f := s.field(strings.ToLower(k))
		if f == nil {
			warnings = append(warnings, fmt.Sprintf("contentSignal.%s: unknown signal (the signals are %s)", k, strings.Join(signalNames, ", ")))
			continue
		}
		v, ok := parseYesNo(page[k])
		switch {
		case !ok:
			warnings = append(warnings, fmt.Sprintf("contentSignal.%s: %v is neither yes nor no; the site's %s applies", k, page[k], yesNo(*f)))
		case v && !*f:
			warnings = append(warnings, fmt.Sprintf("contentSignal.%s: yes would widen the site's no; a page can only narrow the site's signals", k))
		default:
			*f = v
		}
	}
	return s, warnings
}

// parseYesNo reads yes/no as an author writes it: the strings, or the
// booleans YAML 1.1 and TOML make of them.
func parseYesNo(v any) (value, ok bool) {
	switch v := v.(type) {
	case bool:
		return v, true
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "yes":
			return true, true
		case "no":
			return false, true
		}
	}
	return false, false
}

// DefaultCrawlers are the major AI crawlers robots.txt names, each in a
// group of its own, so an author sees where to refuse one.
var DefaultCrawlers = []string{
	"GPTBot", "OAI-SearchBot", "ChatGPT-User",
	"ClaudeBot", "Claude-User", "Claude-SearchBot",
	"Google-Extended", "PerplexityBot", "Perplexity-User", "CCBot",
	"Applebot-Extended", "Meta-ExternalAgent", "Amazonbot", "Bytespider",
}

// Full-text cap of llms-full.txt: the default and the bounds an author
// may set.
const (
	DefaultFullMaxBytes = 2 << 20
	MinFullMaxBytes     = 64 << 10
	MaxFullMaxBytes     = 25 << 20
)

// A Policy is what a site tells agents: its signals, the crawlers it names
// and refuses, and how much of itself llms-full.txt holds.
type Policy struct {
	Signals Signals
	// Crawlers get a group each in robots.txt: DefaultCrawlers, then the
	// ones the author added, without repeats (compared without case).
	Crawlers []string
	// Refuse are the crawlers told Disallow: / (compared without case).
	Refuse       []string
	FullMaxBytes int
}

// DefaultPolicy is the policy of a site that configures none.
func DefaultPolicy() Policy {
	return Policy{Signals: DefaultSignals, Crawlers: slices.Clone(DefaultCrawlers), FullMaxBytes: DefaultFullMaxBytes}
}

// Refused reports whether the policy refuses crawler.
func (p Policy) Refused(crawler string) bool {
	return slices.ContainsFunc(p.Refuse, func(r string) bool { return strings.EqualFold(r, crawler) })
}

// productToken is RFC 9309's product-token: what may follow User-agent:.
var productToken = regexp.MustCompile(`^[A-Za-z_-]+$`)

// ParsePolicy reads the [folio.agents] table over DefaultPolicy:
//
//	[folio.agents]
//	contentSignal = { search = "yes", ai-input = "yes", ai-train = "no" }
//	crawlers = ["MyBot"]        # named besides DefaultCrawlers
//	refuse = ["CCBot"]          # Disallow: / for these
//	fullMaxBytes = 2097152      # llms-full.txt cap, 64 KiB to 25 MiB
//
// key is the table's name for error messages ("folio.agents" or
// "params.folio.agents"). Every error names the key at fault.
func ParsePolicy(table map[string]any, key string) (Policy, error) {
	p := DefaultPolicy()
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	// In a fixed order, so that the crawlers' groups do too: the ones
	// named first, then the refused ones not named.
	slices.SortFunc(keys, func(a, b string) int { return strings.Compare(policyOrder(a), policyOrder(b)) })
	for _, k := range keys {
		v := table[k]
		name := key + "." + k
		if c, ok := policyKeys[strings.ToLower(k)]; ok {
			name = key + "." + c // as the README spells it; loaders may lower-case keys
		}
		switch strings.ToLower(k) {
		case "contentsignal":
			m, ok := v.(map[string]any)
			if !ok {
				return p, keyErr(name, "%s must be a table of signals, such as { ai-train = \"no\" }", name)
			}
			for sk, sv := range m {
				f := p.Signals.field(strings.ToLower(sk))
				if f == nil {
					return p, keyErr(name+"."+sk, "%s.%s: unknown signal (the signals are %s)", name, sk, strings.Join(signalNames, ", "))
				}
				b, ok := parseYesNo(sv)
				if !ok {
					return p, keyErr(name+"."+sk, "%s.%s must be \"yes\" or \"no\", not %q", name, sk, fmt.Sprint(sv))
				}
				*f = b
			}
		case "crawlers", "refuse":
			names, err := tokens(v, name)
			if err != nil {
				return p, err
			}
			if strings.EqualFold(k, "refuse") {
				p.Refuse = names
				p.Crawlers = addCrawlers(p.Crawlers, names) // a refused crawler needs its group
			} else {
				p.Crawlers = addCrawlers(p.Crawlers, names)
			}
		case "fullmaxbytes":
			n, ok := asInt(v)
			if !ok || n < MinFullMaxBytes || n > MaxFullMaxBytes {
				return p, keyErr(name, "%s must be a number of bytes from %d (64 KiB) to %d (25 MiB), not %v", name, MinFullMaxBytes, MaxFullMaxBytes, v)
			}
			p.FullMaxBytes = n
		default:
			return p, keyErr(name, "%s: unknown key (the keys are contentSignal, crawlers, refuse, fullMaxBytes)", name)
		}
	}
	return p, nil
}

// policyOrder sorts the table's keys: crawlers before refuse, the rest by
// name.
func policyOrder(k string) string {
	if strings.EqualFold(k, "refuse") {
		return "~"
	}
	return strings.ToLower(k)
}

// policyKeys are the table's keys by their lower-cased spelling.
var policyKeys = map[string]string{"contentsignal": "contentSignal", "crawlers": "crawlers", "refuse": "refuse", "fullmaxbytes": "fullMaxBytes"}

// tokens reads a list of crawler names, each an RFC 9309 product token:
// nothing else can reach a User-agent line.
func tokens(v any, name string) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		if s, isStrings := v.([]string); isStrings {
			for _, x := range s {
				list = append(list, x)
			}
		} else {
			return nil, keyErr(name, "%s must be a list of crawler names, such as [\"CCBot\"]", name)
		}
	}
	out := make([]string, 0, len(list))
	for i, x := range list {
		s, ok := x.(string)
		if !ok || !productToken.MatchString(s) {
			return nil, keyErr(name, "%s[%d]: %q is not a crawler name (letters, '-' and '_' only, as robots.txt requires)", name, i, fmt.Sprint(x))
		}
		out = append(out, s)
	}
	return out, nil
}

// A KeyError is a mistake in the [folio.agents] table: Key is the dotted
// key at fault, so a config loader can name its line.
type KeyError struct {
	Key, Msg string
}

func (e *KeyError) Error() string { return e.Msg }

func keyErr(key, format string, args ...any) error {
	return &KeyError{Key: key, Msg: fmt.Sprintf(format, args...)}
}

func addCrawlers(list, names []string) []string {
	for _, n := range names {
		if !slices.ContainsFunc(list, func(c string) bool { return strings.EqualFold(c, n) }) {
			list = append(list, n)
		}
	}
	return list
}

func asInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case uint64:
		return int(n), n < 1<<62
	case float64:
		return int(n), n == float64(int(n))
	}
	return 0, false
}
