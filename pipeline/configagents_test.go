package pipeline

import (
	"strings"
	"testing"
	"testing/fstest"

	"folio/agents"
)

// TestConfigAgents: [folio.agents] is read by both loaders (folio's
// config.toml and a Hugo site's config, where it is params.folio.agents),
// its mistakes are errors naming the file, line and key, and a config
// without it gets the default policy.
func TestConfigAgents(t *testing.T) {
	load := func(name, src string) (*Config, error) {
		if name == "folio" {
			return ParseConfig([]byte(src), "config.toml")
		}
		return LoadSite(SiteOptions{FS: fstest.MapFS{name: {Data: []byte(src)}}})
	}
	for _, tc := range []struct {
		file, src string
		want      agents.Signals
		refused   string
		err       string
	}{
		{"folio", `title = "T"`, agents.DefaultSignals, "", ""},
		{"hugo.toml", `title = "T"`, agents.DefaultSignals, "", ""},
		{"folio", "title = \"T\"\n[folio.agents]\ncontentSignal = { ai-input = \"no\" }\nrefuse = [\"CCBot\"]\n", agents.Signals{Search: true}, "CCBot", ""},
		{"hugo.toml", "[folio.agents]\ncontentSignal = { ai-input = \"no\" }\nrefuse = [\"CCBot\"]\n", agents.Signals{Search: true}, "CCBot", ""},
		{"hugo.yaml", "params:\n  folio:\n    agents:\n      contentSignal:\n        search: no\n", agents.Signals{AIInput: true}, "", ""},
		{"folio", "title = \"T\"\n[folio.agents]\nrefuse = [\"GPT Bot\"]\n", agents.Signals{}, "", `config.toml:3: folio.agents.refuse[0]: "GPT Bot" is not a crawler name`},
		{"hugo.toml", "[params.folio.agents]\nrefuse = [\"a:b\"]\n", agents.Signals{}, "", `hugo.toml:2: params.folio.agents.refuse[0]: "a:b" is not a crawler name`},
		{"hugo.toml", "[folio.agents]\ncontentSignal = { ai-train = \"maybe\" }\n", agents.Signals{}, "", `hugo.toml:2: folio.agents.contentSignal.ai-train must be "yes" or "no"`},
		{"folio", "[folio.agents]\nfullMaxBytes = 10\n", agents.Signals{}, "", "config.toml:2: folio.agents.fullMaxBytes must be a number of bytes"},
		{"folio", "[folio.agents]\nsignals = 1\n", agents.Signals{}, "", "config.toml:2: folio.agents.signals: unknown key"},
	} {
		cfg, err := load(tc.file, tc.src)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %q: error %v; want %q", tc.file, tc.src, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %q: %v", tc.file, tc.src, err)
			continue
		}
		if cfg.Agents.Signals != tc.want || cfg.Agents.FullMaxBytes != agents.DefaultFullMaxBytes {
			t.Errorf("%s %q: policy %+v", tc.file, tc.src, cfg.Agents)
		}
		if tc.refused != "" && !cfg.Agents.Refused(tc.refused) {
			t.Errorf("%s %q: %s not refused", tc.file, tc.src, tc.refused)
		}
	}
}

// TestRobotsTemplateWarning: a Hugo robots.txt template, the site's or its
// theme's, is not run, and a warning says so and where.
func TestRobotsTemplateWarning(t *testing.T) {
	cfg, err := LoadSite(SiteOptions{Source: "site", FS: fstest.MapFS{
		"hugo.toml":                          {Data: []byte("theme = \"paper\"\nenableRobotsTXT = true\n")},
		"layouts/robots.txt":                 {Data: []byte("User-agent: *\n")},
		"themes/paper/layouts/robots.txt":    {Data: []byte("User-agent: *\n")},
		"themes/paper/layouts/_default/x.md": {Data: []byte("")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range cfg.Warnings {
		if strings.Contains(w.Message, "robots.txt templates") {
			got = append(got, w.Path)
		}
	}
	if strings.Join(got, " ") != "site/layouts/robots.txt site/themes/paper/layouts/robots.txt" {
		t.Errorf("robots.txt template warnings on %q", got)
	}
}
