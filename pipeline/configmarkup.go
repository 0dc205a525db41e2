package pipeline

// MarkupConfig is the [markup] table: how Markdown becomes HTML. Its
// fields mirror Hugo 0.165's markup configuration, with Hugo's defaults
// (DefaultMarkup), so that a Hugo site's settings carry over; Unsafe is
// also folio's own [markup] unsafe from before Hugo sites.
type MarkupConfig struct {
	// Unsafe passes raw HTML in posts through: folio's [markup] unsafe,
	// or Hugo's markup.goldmark.renderer.unsafe.
	Unsafe bool `cfg:"unsafe,own"`

	Goldmark               GoldmarkConfig  `cfg:"goldmark"`
	Highlight              HighlightConfig `cfg:"highlight"`
	TableOfContents        TOCConfig       `cfg:"tableOfContents"`
	DefaultMarkdownHandler string          `cfg:"defaultMarkdownHandler"`

	// Hugo's settings for markup engines folio does not run.
	AsciiDocExt any `cfg:"asciidocExt"`
	RST         any `cfg:"rst"`
	Pandoc      any `cfg:"pandoc"`
}

// GoldmarkConfig is markup.goldmark.
type GoldmarkConfig struct {
	Renderer               GoldmarkRenderer   `cfg:"renderer"`
	Parser                 GoldmarkParser     `cfg:"parser"`
	Extensions             GoldmarkExtensions `cfg:"extensions"`
	DuplicateResourceFiles bool               `cfg:"duplicateResourceFiles"`
	// RenderHooks is Hugo's choice of its embedded link and image hooks.
	RenderHooks any `cfg:"renderHooks"`
}

// GoldmarkRenderer is markup.goldmark.renderer.
type GoldmarkRenderer struct {
	HardWraps bool `cfg:"hardWraps"`
	XHTML     bool `cfg:"xhtml"`
	Unsafe    bool `cfg:"unsafe"`
}

// GoldmarkParser is markup.goldmark.parser.
type GoldmarkParser struct {
	AutoHeadingID                      bool            `cfg:"autoHeadingID"`
	AutoDefinitionTermID               bool            `cfg:"autoDefinitionTermID"`
	AutoIDType                         string          `cfg:"autoIDType"` // github, github-ascii or blackfriday
	AutoHeadingIDType                  string          `cfg:"autoHeadingIDType"`
	Attribute                          ParserAttribute `cfg:"attribute"`
	WrapStandAloneImageWithinParagraph bool            `cfg:"wrapStandAloneImageWithinParagraph"`
}

// ParserAttribute is markup.goldmark.parser.attribute: where {.class}
// attributes are read.
type ParserAttribute struct {
	Title bool `cfg:"title"`
	Block bool `cfg:"block"`
}

// decodeScalar takes attribute = true or false, the key's shape before
// Hugo 0.81 that Hugo 0.165 still reads: it sets title (headings'
// attributes) and leaves block as it was.
func (a *ParserAttribute) decodeScalar(v any) bool {
	b, ok := toBool(v, true)
	if ok {
		a.Title = b
	}
	return ok
}

// GoldmarkExtensions is markup.goldmark.extensions.
type GoldmarkExtensions struct {
	Typographer     Typographer `cfg:"typographer"`
	Footnote        Footnote    `cfg:"footnote"`
	DefinitionList  bool        `cfg:"definitionList"`
	Extras          Extras      `cfg:"extras"`
	Passthrough     Passthrough `cfg:"passthrough"`
	Table           bool        `cfg:"table"`
	Strikethrough   bool        `cfg:"strikethrough"`
	Linkify         bool        `cfg:"linkify"`
	LinkifyProtocol string      `cfg:"linkifyProtocol"`
	TaskList        bool        `cfg:"taskList"`
	CJK             CJK         `cfg:"cjk"`
}

// Typographer is the typographer extension: the entities it writes.
type Typographer struct {
	Disable          bool   `cfg:"disable"`
	LeftSingleQuote  string `cfg:"leftSingleQuote"`
	RightSingleQuote string `cfg:"rightSingleQuote"`
	LeftDoubleQuote  string `cfg:"leftDoubleQuote"`
	RightDoubleQuote string `cfg:"rightDoubleQuote"`
	EnDash           string `cfg:"enDash"`
	EmDash           string `cfg:"emDash"`
	Ellipsis         string `cfg:"ellipsis"`
	LeftAngleQuote   string `cfg:"leftAngleQuote"`
	RightAngleQuote  string `cfg:"rightAngleQuote"`
	Apostrophe       string `cfg:"apostrophe"`
}

// Footnote is the footnote extension.
type Footnote struct {
	Enable             bool   `cfg:"enable"`
	EnableAutoIDPrefix bool   `cfg:"enableAutoIDPrefix"`
	BacklinkHTML       string `cfg:"backlinkHTML"`
}

// Extras are the extras extension's inline elements.
type Extras struct {
	Delete      Toggle `cfg:"delete"`
	Insert      Toggle `cfg:"insert"`
	Mark        Toggle `cfg:"mark"`
	Subscript   Toggle `cfg:"subscript"`
	Superscript Toggle `cfg:"superscript"`
}

// Toggle is a table with one enable key.
type Toggle struct {
	Enable bool `cfg:"enable"`
}

// Passthrough is the passthrough extension: delimiters whose content is
// left as written (math).
type Passthrough struct {
	Enable     bool `cfg:"enable"`
	Delimiters struct {
		Inline [][]string `cfg:"inline"`
		Block  [][]string `cfg:"block"`
	} `cfg:"delimiters"`
}

// CJK is the CJK extension.
type CJK struct {
	Enable                   bool   `cfg:"enable"`
	EastAsianLineBreaks      bool   `cfg:"eastAsianLineBreaks"`
	EastAsianLineBreaksStyle string `cfg:"eastAsianLineBreaksStyle"`
	EscapedSpace             bool   `cfg:"escapedSpace"`
}

// HighlightConfig is markup.highlight, the code highlighter's defaults.
type HighlightConfig struct {
	Style       string `cfg:"style"`
	CodeFences  bool   `cfg:"codeFences"`
	NoClasses   bool   `cfg:"noClasses"`
	GuessSyntax bool   `cfg:"guessSyntax"`
	// LineNos is lineNos true, "table" or "inline"; "table" and "inline"
	// set LineNumbersInTable too.
	LineNos            bool   `cfg:"lineNos"`
	LineNumbersInTable bool   `cfg:"lineNumbersInTable"`
	AnchorLineNos      bool   `cfg:"anchorLineNos"`
	LineAnchors        string `cfg:"lineAnchors"`
	LineNoStart        int    `cfg:"lineNoStart"`
	HlLines            string `cfg:"hl_Lines"`
	HlInline           bool   `cfg:"hl_inline"`
	TabWidth           int    `cfg:"tabWidth"`
	WrapperClass       string `cfg:"wrapperClass"`
	NoHl               bool   `cfg:"noHl"`
}

// TOCConfig is markup.tableOfContents.
type TOCConfig struct {
	StartLevel int  `cfg:"startLevel"`
	EndLevel   int  `cfg:"endLevel"`
	Ordered    bool `cfg:"ordered"`
}

// DefaultMarkup is Hugo 0.165's markup configuration.
func DefaultMarkup() MarkupConfig {
	return MarkupConfig{
		DefaultMarkdownHandler: "goldmark",
		Goldmark: GoldmarkConfig{
			Parser: GoldmarkParser{
				AutoHeadingID:                      true,
				AutoIDType:                         "github",
				Attribute:                          ParserAttribute{Title: true},
				WrapStandAloneImageWithinParagraph: true,
			},
			Extensions: GoldmarkExtensions{
				Typographer: Typographer{
					LeftSingleQuote: "&lsquo;", RightSingleQuote: "&rsquo;",
					LeftDoubleQuote: "&ldquo;", RightDoubleQuote: "&rdquo;",
					EnDash: "&ndash;", EmDash: "&mdash;", Ellipsis: "&hellip;",
					LeftAngleQuote: "&laquo;", RightAngleQuote: "&raquo;", Apostrophe: "&rsquo;",
				},
				Footnote:        Footnote{Enable: true, BacklinkHTML: "&#x21a9;&#xfe0e;"},
				DefinitionList:  true,
				Table:           true,
				Strikethrough:   true,
				Linkify:         true,
				LinkifyProtocol: "https",
				TaskList:        true,
				CJK:             CJK{EastAsianLineBreaksStyle: "simple"},
			},
		},
		Highlight: HighlightConfig{
			Style: "monokai", LineNoStart: 1, CodeFences: true, NoClasses: true,
			LineNumbersInTable: true, TabWidth: 4, WrapperClass: "highlight",
		},
		TableOfContents: TOCConfig{StartLevel: 2, EndLevel: 3},
	}
}

// validate refuses what Hugo cannot build its converter from (it
// stops with a panic): a passthrough delimiter pair that is not a pair
// of non-empty strings, when the extension is on. Past the first two,
// an entry's strings are ignored, as Hugo ignores them.
func (m *MarkupConfig) validate() error {
	p := m.Goldmark.Extensions.Passthrough
	if !p.Enable {
		return nil
	}
	for _, kind := range []string{"inline", "block"} {
		pairs := p.Delimiters.Inline
		if kind == "block" {
			pairs = p.Delimiters.Block
		}
		for i, d := range pairs {
			if len(d) < 2 || d[0] == "" || d[1] == "" {
				k := "markup.goldmark.extensions.passthrough.delimiters." + kind
				return badField(k, "%s: entry %d is %q: a pair of delimiters is [open, close], neither empty", k, i+1, d)
			}
		}
	}
	return nil
}

// settle applies what Hugo derives after decoding: the renderer's unsafe
// is folio's Unsafe, the older spelling of the heading ID type wins.
func (m *MarkupConfig) settle() {
	m.Unsafe = m.Unsafe || m.Goldmark.Renderer.Unsafe
	m.Goldmark.Renderer.Unsafe = m.Unsafe
	if p := &m.Goldmark.Parser; p.AutoHeadingIDType != "" {
		p.AutoIDType = p.AutoHeadingIDType
	}
	if p := &m.Goldmark.Parser; p.AutoDefinitionTermID && !m.Goldmark.Extensions.DefinitionList {
		p.AutoDefinitionTermID = false
	}
}
