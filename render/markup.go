package render

// Markup is the part of a Hugo site's markup configuration a rendering
// follows: markup.goldmark (renderer, extensions, parser), markup.highlight
// and the top-level enableEmoji. Start from DefaultMarkup, which holds
// Hugo 0.165's defaults, and change what the site's configuration sets;
// Options.Markup nil means DefaultMarkup. Raw HTML
// (markup.goldmark.renderer.unsafe) is Options.Unsafe.
type Markup struct {
	// HardWraps renders every line break as <br>
	// (markup.goldmark.renderer.hardWraps).
	HardWraps bool

	// Typographer is markup.goldmark.extensions.typographer.
	Typographer Typographer
	// Footnote, DefinitionList, Table, Strikethrough, Linkify and
	// TaskList are markup.goldmark.extensions.<name> (footnote.enable
	// for footnotes). Hugo enables all of them by default.
	Footnote       bool
	DefinitionList bool
	Table          bool
	Strikethrough  bool
	Linkify        bool
	TaskList       bool
	// LinkifyProtocol is the scheme given to "www." links
	// (markup.goldmark.extensions.linkifyProtocol), "https" by default.
	LinkifyProtocol string
	// Emoji turns :smile: into its character, as enableEmoji does.
	Emoji bool
	// Extras are markup.goldmark.extensions.extras: the inline elements
	// Hugo adds, all off by default.
	Extras Extras
	// Passthrough is markup.goldmark.extensions.passthrough: text
	// between its delimiters (math) is left as written.
	Passthrough Passthrough
	// CJK is markup.goldmark.extensions.cjk.
	CJK CJK

	// TOCStart, TOCEnd and TOCOrdered are markup.tableOfContents:
	// the levels of the headings .TableOfContents lists, and its list.
	TOCStart, TOCEnd int
	TOCOrdered       bool

	// AutoHeadingID gives headings ids (markup.goldmark.parser.autoHeadingID).
	AutoHeadingID bool
	// AutoIDType is markup.goldmark.parser.autoHeadingIDType: "github"
	// (letters of every script kept), "github-ascii" (accents removed,
	// other non-ASCII dropped) or "blackfriday".
	AutoIDType string
	// AttributeTitle allows {#id .class} after headings
	// (markup.goldmark.parser.attribute.title, on by default).
	AttributeTitle bool
	// AttributeBlock allows attribute lists after other blocks
	// (markup.goldmark.parser.attribute.block, off by default).
	AttributeBlock bool

	// Highlight is markup.highlight.
	Highlight Highlight
}

// Typographer is Hugo's typographer configuration: the HTML each
// punctuation becomes. An empty string keeps the character as written.
type Typographer struct {
	Disable          bool
	LeftSingleQuote  string
	RightSingleQuote string
	LeftDoubleQuote  string
	RightDoubleQuote string
	EnDash           string
	EmDash           string
	Ellipsis         string
	LeftAngleQuote   string
	RightAngleQuote  string
	Apostrophe       string
}

// Extras are Hugo's extras extension: ~~delete~~ (<del>), ++insert++
// (<ins>), ==mark== (<mark>), H~2~O (<sub>) and x^2^ (<sup>), each
// when enabled.
type Extras struct {
	Delete, Insert, Mark, Subscript, Superscript bool
}

// Passthrough is Hugo's passthrough extension: what sits between an
// inline pair of delimiters ("$", "$") or a block pair ("$$", "$$") is
// neither parsed nor escaped, but written as it is, delimiters
// included, or handed to a render-passthrough hook. A block pair in the
// middle of a paragraph splits it, as in Hugo.
type Passthrough struct {
	Enable bool
	// Inline and Block are the delimiter pairs, open then close; a pair
	// with an empty delimiter is ignored.
	Inline, Block [][2]string
}

// CJK is goldmark's CJK extension as Hugo configures it.
type CJK struct {
	Enable bool
	// EastAsianLineBreaks drops a line break between two East Asian
	// wide characters instead of writing it as a space; with Style
	// "css3draft" (not "simple", the default) a break next to one
	// wide character is dropped too, as CSS Text Level 3 draft says.
	EastAsianLineBreaks bool
	Style               string
	// EscapedSpace makes "\ " an escape that writes nothing, so that
	// emphasis can close next to CJK punctuation.
	EscapedSpace bool
}

// Highlight is markup.highlight: how code blocks (fenced, and the
// highlight shortcode) are highlighted.
//
// Hugo's noClasses (true by default) writes colours as inline style
// attributes; folio's Content-Security-Policy forbids inline styles, so
// folio always writes chroma's classes and serves a stylesheet for them
// (HighlightCSS), in the configured Style. noClasses is therefore not a
// field here: the markup is Hugo's with noClasses = false.
type Highlight struct {
	// Style is the chroma style of the stylesheet; "" means folio's own
	// pair, github for light and github-dark for dark reading modes.
	Style string
	// CodeFences highlights fenced code blocks (default true).
	CodeFences bool
	// GuessSyntax guesses the language of code blocks that name none.
	GuessSyntax bool
	// LineNos shows line numbers, in a table when LineNumbersInTable
	// (default true), else inline.
	LineNos            bool
	LineNumbersInTable bool
	// AnchorLineNos links each line number to itself; LineAnchors
	// prefixes those ids.
	AnchorLineNos bool
	LineAnchors   string
	// LineNoStart is the first line's number (default 1).
	LineNoStart int
	// HlLines highlights lines: "1 3-5".
	HlLines string
	// TabWidth is the width of a tab (default 4).
	TabWidth int
	// WrapperClass is the class of the outer <div> (default "highlight").
	WrapperClass string

	// hlRanges are highlighted lines given as a list in a fenced block's
	// attributes ({hl_lines=[2,"4-5"]}), already numbered as chroma
	// counts them.
	hlRanges [][2]int
}

// DefaultMarkup returns Hugo 0.165's default markup configuration.
func DefaultMarkup() Markup {
	return Markup{
		Typographer: Typographer{
			LeftSingleQuote:  "&lsquo;",
			RightSingleQuote: "&rsquo;",
			LeftDoubleQuote:  "&ldquo;",
			RightDoubleQuote: "&rdquo;",
			EnDash:           "&ndash;",
			EmDash:           "&mdash;",
			Ellipsis:         "&hellip;",
			LeftAngleQuote:   "&laquo;",
			RightAngleQuote:  "&raquo;",
			Apostrophe:       "&rsquo;",
		},
		Footnote:        true,
		DefinitionList:  true,
		Table:           true,
		Strikethrough:   true,
		Linkify:         true,
		TaskList:        true,
		LinkifyProtocol: "https",
		AutoHeadingID:   true,
		AutoIDType:      "github",
		TOCStart:        2,
		TOCEnd:          3,
		AttributeTitle:  true,
		CJK:             CJK{Style: "simple"},
		Highlight: Highlight{
			CodeFences:         true,
			LineNumbersInTable: true,
			LineNoStart:        1,
			TabWidth:           4,
			WrapperClass:       "highlight",
		},
	}
}
