package agents

import (
	"reflect"
	"strings"
	"testing"
)

func TestSignalsString(t *testing.T) {
	if got := DefaultSignals.String(); got != "search=yes, ai-input=yes, ai-train=no" {
		t.Errorf("DefaultSignals = %q", got)
	}
	if got := (Signals{}).String(); got != "search=no, ai-input=no, ai-train=no" {
		t.Errorf("Signals{} = %q", got)
	}
}

// TestNarrow: a page can say no where the site says yes, never yes where
// it says no; anything else is a warning and the site's signal applies.
func TestNarrow(t *testing.T) {
	for _, tc := range []struct {
		name     string
		page     map[string]any
		want     Signals
		warnings []string
	}{
		{"nothing", nil, DefaultSignals, nil},
		{"narrow ai-input", map[string]any{"ai-input": "no"}, Signals{Search: true}, nil},
		{"YAML 1.1 boolean", map[string]any{"ai-input": false}, Signals{Search: true}, nil},
		{"case", map[string]any{"AI-Input": "NO"}, Signals{Search: true}, nil},
		{"same as the site", map[string]any{"search": "yes", "ai-train": "no"}, DefaultSignals, nil},
		{"widen", map[string]any{"ai-train": "yes"}, DefaultSignals,
			[]string{"contentSignal.ai-train: yes would widen the site's no; a page can only narrow the site's signals"}},
		{"bad value", map[string]any{"search": "maybe"}, DefaultSignals,
			[]string{"contentSignal.search: maybe is neither yes nor no; the site's yes applies"}},
		{"unknown", map[string]any{"ai-summarize": "no", "search": "no"}, Signals{AIInput: true},
			[]string{"contentSignal.ai-summarize: unknown signal (the signals are search, ai-input, ai-train)"}},
	} {
		got, warnings := DefaultSignals.Narrow(tc.page)
		if got != tc.want || !reflect.DeepEqual(warnings, tc.warnings) {
			t.Errorf("%s: %+v %q; want %+v %q", tc.name, got, warnings, tc.want, tc.warnings)
		}
	}
}

func TestParsePolicy(t *testing.T) {
	p, err := ParsePolicy(map[string]any{
		"contentSignal": map[string]any{"ai-input": "no", "search": true},
		"crawlers":      []any{"MyBot", "gptbot"},
		"refuse":        []any{"CCBot", "Other_Bot"},
		"fullMaxBytes":  int64(1 << 20),
	}, "folio.agents")
	if err != nil {
		t.Fatal(err)
	}
	if p.Signals != (Signals{Search: true}) || p.FullMaxBytes != 1<<20 {
		t.Errorf("policy %+v", p)
	}
	want := append(append([]string(nil), DefaultCrawlers...), "MyBot", "Other_Bot")
	if !reflect.DeepEqual(p.Crawlers, want) {
		t.Errorf("crawlers %q, want %q", p.Crawlers, want)
	}
	if !p.Refused("ccbot") || !p.Refused("Other_Bot") || p.Refused("GPTBot") {
		t.Errorf("refused: %q", p.Refuse)
	}
	if d, err := ParsePolicy(nil, "folio.agents"); err != nil || !reflect.DeepEqual(d, DefaultPolicy()) {
		t.Errorf("empty table: %+v, %v", d, err)
	}
}

// TestParsePolicyErrors: nothing an author writes reaches robots.txt or a
// header unless it is a signal, yes/no or a product token; each error
// names the key.
func TestParsePolicyErrors(t *testing.T) {
	for _, tc := range []struct {
		table map[string]any
		want  string
	}{
		{map[string]any{"contentSignal": map[string]any{"ai-train": "sometimes"}}, `folio.agents.contentSignal.ai-train must be "yes" or "no", not "sometimes"`},
		{map[string]any{"contentSignal": map[string]any{"ai-train": "no\nDisallow: /"}}, `folio.agents.contentSignal.ai-train must be "yes" or "no"`},
		{map[string]any{"contentSignal": map[string]any{"ai-summary": "no"}}, "folio.agents.contentSignal.ai-summary: unknown signal"},
		{map[string]any{"contentSignal": "ai-train=no"}, "folio.agents.contentSignal must be a table"},
		{map[string]any{"refuse": []any{"Bad\nBot"}}, `folio.agents.refuse[0]: "Bad\nBot" is not a crawler name`},
		{map[string]any{"refuse": []any{"GPTBot", "a:b"}}, `folio.agents.refuse[1]: "a:b" is not a crawler name`},
		{map[string]any{"crawlers": []any{"GPT Bot"}}, `folio.agents.crawlers[0]: "GPT Bot" is not a crawler name`},
		{map[string]any{"crawlers": []any{"Bot\x00"}}, `folio.agents.crawlers[0]`},
		{map[string]any{"crawlers": []any{"*"}}, `folio.agents.crawlers[0]: "*" is not a crawler name`},
		{map[string]any{"crawlers": []any{""}}, `folio.agents.crawlers[0]: "" is not a crawler name`},
		{map[string]any{"crawlers": "GPTBot"}, "folio.agents.crawlers must be a list"},
		{map[string]any{"crawlers": []any{42}}, `folio.agents.crawlers[0]: "42" is not a crawler name`},
		{map[string]any{"fullMaxBytes": int64(100)}, "folio.agents.fullMaxBytes must be a number of bytes from 65536"},
		{map[string]any{"fullMaxBytes": int64(26 << 20)}, "folio.agents.fullMaxBytes must be"},
		{map[string]any{"fullMaxBytes": "2MB"}, "folio.agents.fullMaxBytes must be"},
		{map[string]any{"signals": map[string]any{}}, "folio.agents.signals: unknown key"},
	} {
		_, err := ParsePolicy(tc.table, "folio.agents")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v; want %q", tc.table, err, tc.want)
		}
	}
}
