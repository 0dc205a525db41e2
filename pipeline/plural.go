// The rules and tables in this file are those of github.com/gobuffalo/flect
// v1.0.3, under its licence:
//
// The MIT License (MIT)
//
// Copyright (c) 2019 Mark Bates
//
// Permission is hereby granted, free of charge, to any person obtaining a copy
// of this software and associated documentation files (the "Software"), to deal
// in the Software without restriction, including without limitation the rights
// to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
// copies of the Software, and to permit persons to whom the Software is
// furnished to do so, subject to the following conditions:
//
// The above copyright notice and this permission notice shall be included in all
// copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
// SOFTWARE.

package pipeline

import (
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Pluralize is how Hugo pluralises a section's name for its title
// (pluralizeListTitles), and its pluralize template function:
// github.com/gobuffalo/flect's Pluralize, at the
// version Hugo 0.165 is built with (v1.0.3), written here from flect's
// rules and tables (MIT licence, (c) 2019 Mark Bates) because flect
// builds its tables when the program starts, in every process, whatever
// it does: 4.5 ms and 4.7 MB (each rule list copied again for each rule
// prepended), most of the reason the collector ran four times before
// main. Here they are built the first time a name is pluralised.
// TestInflectIsFlect holds it to flect's answer for every word of its
// tables, in several cases and compounds.
//
// One thing flect does is not done: at start it also reads
// inflections.json and acronyms.json from the working folder (or
// $INFLECT_PATH, $ACRONYMS_PATH) into its tables. folio reads nothing
// from the folder it is started in.
func Pluralize(s string) string {
	t := pluralTables()
	parts := wordParts(s, t.acronyms)
	if len(parts) == 0 {
		return ""
	}
	last := parts[len(parts)-1]
	if p, ok := t.singleToPlural[s]; ok {
		return p
	}
	if _, ok := t.pluralToSingle[s]; ok {
		return s
	}
	lower := strings.ToLower(last)
	if _, ok := t.pluralToSingle[lower]; ok {
		return s
	}
	if p, ok := t.singleToPlural[lower]; ok {
		if capitalized(last) {
			p = capitalize(p)
		}
		return strings.TrimSuffix(s, last) + p
	}
	for _, r := range t.rules {
		if strings.HasSuffix(last, r.suffix) {
			if r.keep {
				return strings.TrimSuffix(s, last) + last
			}
			return strings.TrimSuffix(s, last) + last[:len(last)-len(r.suffix)] + r.repl
		}
	}
	if strings.HasSuffix(lower, "s") {
		return s
	}
	return s + "s"
}

// capitalized reports whether s (not empty) starts with a title-case
// letter: flect's s == Capitalize(s).
func capitalized(s string) bool { return capitalize(s) == s }

// capitalize is flect's Capitalize of a word: its first letter in title
// case.
func capitalize(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	r[0] = unicode.ToTitle(r[0])
	return string(r)
}

// wordParts is flect's toParts: s cut into words at spaces, the
// separators _ : - /, and a capital after a lower-case letter or after
// a known acronym; a known acronym upper-cased.
func wordParts(s string, acronyms map[string]bool) []string {
	var parts []string
	s = strings.TrimSpace(s)
	if s == "" {
		return parts
	}
	if acronyms[strings.ToUpper(s)] {
		return []string{strings.ToUpper(s)}
	}
	add := func(w string) {
		if w = cleanWord(w, acronyms); w != "" {
			parts = append(parts, w)
		}
	}
	// A word longer than the longest acronym is none: it is not
	// upper-cased to be looked up (strings.ToUpper keeps the number of
	// runes), which made a long run of capitals quadratic.
	longest := acronymRunes()
	var prev rune
	var x strings.Builder
	n := 0 // runes in x
	for _, c := range s {
		switch {
		case isWordSeparator(c),
			unicode.IsUpper(c) && !unicode.IsUpper(prev),
			unicode.IsUpper(c) && n <= longest && acronyms[strings.ToUpper(x.String())]:
			add(x.String())
			x.Reset()
			x.WriteRune(c)
			n = 1
		case unicode.IsLetter(c) || unicode.IsDigit(c) || unicode.IsPunct(c) || c == '`':
			x.WriteRune(c)
			n++
		default:
			add(x.String())
			x.Reset()
			n = 0
		}
		prev = c
	}
	add(x.String())
	return parts
}

// acronymRunes is the length in runes of the longest known acronym.
var acronymRunes = sync.OnceValue(func() int {
	longest := 0
	for _, a := range pluralAcronyms {
		longest = max(longest, utf8.RuneCountInString(a))
	}
	return longest
})

// cleanWord is a word as flect keeps it (its xappend): trimmed of spaces
// and separators, a known acronym upper-cased; "" for none.
func cleanWord(w string, acronyms map[string]bool) string {
	w = strings.TrimSpace(w)
	for _, sep := range wordSeparators {
		w = strings.Trim(w, string(sep))
	}
	if acronyms[strings.ToUpper(w)] {
		w = strings.ToUpper(w)
	}
	return w
}

var wordSeparators = []rune{'_', ' ', ':', '-', '/'}

func isWordSeparator(c rune) bool {
	for _, r := range wordSeparators {
		if r == c {
			return true
		}
	}
	return unicode.IsSpace(c)
}

// A pluralRule replaces a word's suffix with repl, or keeps the word
// (keep: the suffix is already a plural's).
type pluralRule struct {
	suffix, repl string
	keep         bool
}

type pluralWords struct {
	singleToPlural, pluralToSingle map[string]string
	acronyms                       map[string]bool
	// rules in flect's order: the dictionary's words last to first, then
	// the suffixes first to last; each word's or suffix's plural (kept
	// as it is) before its singular.
	rules []pluralRule
	// singularRules the same for Singularize: each singular (kept)
	// before its plural, and a word's alternative plural before its
	// plural; no rule for a word flect marks one-way.
	singularRules []pluralRule
}

var pluralTables = sync.OnceValue(func() *pluralWords {
	t := &pluralWords{
		singleToPlural: make(map[string]string, len(pluralDictionary)),
		pluralToSingle: make(map[string]string, len(pluralDictionary)),
		acronyms:       make(map[string]bool, len(pluralAcronyms)),
	}
	for _, a := range pluralAcronyms {
		t.acronyms[a] = true
	}
	for _, w := range pluralDictionary {
		if w.uncountable && w.plural == "" {
			w.plural = w.singular
		}
		t.singleToPlural[w.singular] = w.plural
		if !w.unidirectional {
			t.pluralToSingle[w.plural] = w.singular
			if w.alternative != "" {
				t.pluralToSingle[w.alternative] = w.singular
			}
		}
	}
	for i := len(pluralDictionary) - 1; i >= 0; i-- {
		w := pluralDictionary[i]
		if w.exact {
			continue
		}
		if w.uncountable && w.plural == "" {
			w.plural = w.singular
		}
		t.rules = append(t.rules, pluralRule{suffix: w.plural, keep: true}, pluralRule{suffix: w.singular, repl: w.plural})
	}
	for _, r := range pluralSuffixes {
		t.rules = append(t.rules, pluralRule{suffix: r.plural, keep: true}, pluralRule{suffix: r.singular, repl: r.plural})
	}
	for i := len(pluralDictionary) - 1; i >= 0; i-- {
		w := pluralDictionary[i]
		if w.exact || w.unidirectional {
			continue
		}
		if w.uncountable && w.plural == "" {
			w.plural = w.singular
		}
		if w.alternative != "" {
			t.singularRules = append(t.singularRules, pluralRule{suffix: w.singular, keep: true}, pluralRule{suffix: w.alternative, repl: w.singular})
		}
		t.singularRules = append(t.singularRules, pluralRule{suffix: w.singular, keep: true}, pluralRule{suffix: w.plural, repl: w.singular})
	}
	for _, r := range pluralSuffixes {
		t.singularRules = append(t.singularRules, pluralRule{suffix: r.singular, keep: true}, pluralRule{suffix: r.plural, repl: r.singular})
	}
	return t
})

// Singularize is flect's Singularize, as Hugo 0.165 has it: the
// singularize template function ("people" → "person", "data" →
// "datum", "Categories" → "Category").
func Singularize(s string) string {
	t := pluralTables()
	parts := wordParts(s, t.acronyms)
	if len(parts) == 0 {
		return s
	}
	last := parts[len(parts)-1]
	if p, ok := t.pluralToSingle[s]; ok {
		return p
	}
	if _, ok := t.singleToPlural[s]; ok {
		return s
	}
	lower := strings.ToLower(last)
	if p, ok := t.pluralToSingle[lower]; ok {
		if capitalized(last) {
			p = capitalize(p)
		}
		return strings.TrimSuffix(s, last) + p
	}
	if _, ok := t.singleToPlural[lower]; ok {
		return s
	}
	for _, r := range t.singularRules {
		if strings.HasSuffix(last, r.suffix) {
			if r.keep {
				return strings.TrimSuffix(s, last) + last
			}
			return strings.TrimSuffix(s, last) + last[:len(last)-len(r.suffix)] + r.repl
		}
	}
	if strings.HasSuffix(last, "s") {
		return strings.TrimSuffix(s, "s")
	}
	return s
}

// Humanize is flect's Humanize: s cut into words, the first one's words
// title-cased, joined by spaces ("my-first_post" → "My first post",
// "fooBar" → "Foo bar"). A string of separators alone, where flect
// would fail, is kept as it is.
func Humanize(s string) string {
	if s == "" || strings.TrimSpace(s) == "" {
		return s
	}
	t := pluralTables()
	parts := wordParts(s, t.acronyms)
	if len(parts) == 0 {
		return s
	}
	var out []string
	for i, w := range parts {
		if i == 0 {
			w = titleize(w, t.acronyms)
		}
		if w = cleanWord(w, t.acronyms); w != "" {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// titleize is flect's Titleize: each word of s with its first letter in
// title case, joined by spaces.
func titleize(s string, acronyms map[string]bool) string {
	parts := wordParts(s, acronyms)
	for i, w := range parts {
		parts[i] = capitalize(w)
	}
	return strings.Join(parts, " ")
}

// Ordinalize is flect's Ordinalize: an integer with its English ordinal
// suffix ("1" → "1st", "12" → "12th", "-3" → "-3rd"); anything else as
// it is.
func Ordinalize(s string) string {
	n, err := strconv.Atoi(s)
	if err != nil {
		return s
	}
	a := n
	if a < 0 {
		a = -a
	}
	suffix := "th"
	if a%100 < 11 || a%100 > 13 {
		switch a % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

type pluralWord struct {
	singular, plural, alternative      string
	unidirectional, uncountable, exact bool
}

// pluralDictionary is flect's dictionary (plural_rules.go).
var pluralDictionary = []pluralWord{
	{singular: "aircraft", plural: "aircraft"},
	{singular: "beef", plural: "beef", alternative: "beefs"},
	{singular: "bison", plural: "bison"},
	{singular: "blues", plural: "blues", unidirectional: true},
	{singular: "chassis", plural: "chassis"},
	{singular: "deer", plural: "deer"},
	{singular: "fish", plural: "fish", alternative: "fishes"},
	{singular: "moose", plural: "moose"},
	{singular: "police", plural: "police"},
	{singular: "salmon", plural: "salmon", alternative: "salmons"},
	{singular: "series", plural: "series"},
	{singular: "sheep", plural: "sheep"},
	{singular: "shrimp", plural: "shrimp", alternative: "shrimps"},
	{singular: "species", plural: "species"},
	{singular: "swine", plural: "swine", alternative: "swines"},
	{singular: "trout", plural: "trout", alternative: "trouts"},
	{singular: "tuna", plural: "tuna", alternative: "tunas"},
	{singular: "you", plural: "you"},
	{singular: "child", plural: "children"},
	{singular: "ox", plural: "oxen", exact: true},
	{singular: "foot", plural: "feet"},
	{singular: "goose", plural: "geese"},
	{singular: "man", plural: "men"},
	{singular: "human", plural: "humans"},
	{singular: "louse", plural: "lice", exact: true},
	{singular: "mouse", plural: "mice"},
	{singular: "tooth", plural: "teeth"},
	{singular: "woman", plural: "women"},
	{singular: "die", plural: "dice", exact: true},
	{singular: "person", plural: "people"},
	{singular: "adieu", plural: "adieux", alternative: "adieus"},
	{singular: "fabliau", plural: "fabliaux"},
	{singular: "bureau", plural: "bureaus", alternative: "bureaux"},
	{singular: "criterion", plural: "criteria"},
	{singular: "ganglion", plural: "ganglia", alternative: "ganglions"},
	{singular: "lexicon", plural: "lexica", alternative: "lexicons"},
	{singular: "mitochondrion", plural: "mitochondria", alternative: "mitochondrions"},
	{singular: "noumenon", plural: "noumena"},
	{singular: "phenomenon", plural: "phenomena"},
	{singular: "taxon", plural: "taxa"},
	{singular: "media", plural: "media"},
	{singular: "medium", plural: "media", alternative: "mediums", unidirectional: true},
	{singular: "stadium", plural: "stadiums", alternative: "stadia"},
	{singular: "aquarium", plural: "aquaria", alternative: "aquariums"},
	{singular: "auditorium", plural: "auditoria", alternative: "auditoriums"},
	{singular: "symposium", plural: "symposia", alternative: "symposiums"},
	{singular: "curriculum", plural: "curriculums", alternative: "curricula"},
	{singular: "quota", plural: "quotas"},
	{singular: "alumnus", plural: "alumni", alternative: "alumnuses"},
	{singular: "bacillus", plural: "bacilli"},
	{singular: "cactus", plural: "cacti", alternative: "cactuses"},
	{singular: "coccus", plural: "cocci"},
	{singular: "focus", plural: "foci", alternative: "focuses"},
	{singular: "locus", plural: "loci", alternative: "locuses"},
	{singular: "nucleus", plural: "nuclei", alternative: "nucleuses"},
	{singular: "octopus", plural: "octupuses", alternative: "octopi"},
	{singular: "radius", plural: "radii", alternative: "radiuses"},
	{singular: "syllabus", plural: "syllabi"},
	{singular: "corpus", plural: "corpora", alternative: "corpuses"},
	{singular: "genus", plural: "genera"},
	{singular: "alumna", plural: "alumnae"},
	{singular: "vertebra", plural: "vertebrae"},
	{singular: "differentia", plural: "differentiae"},
	{singular: "minutia", plural: "minutiae"},
	{singular: "vita", plural: "vitae"},
	{singular: "larva", plural: "larvae"},
	{singular: "postcava", plural: "postcavae"},
	{singular: "praecava", plural: "praecavae"},
	{singular: "uva", plural: "uvae"},
	{singular: "apex", plural: "apices", alternative: "apexes"},
	{singular: "codex", plural: "codices", alternative: "codexes"},
	{singular: "index", plural: "indices", alternative: "indexes"},
	{singular: "latex", plural: "latices", alternative: "latexes"},
	{singular: "vertex", plural: "vertices", alternative: "vertexes"},
	{singular: "vortex", plural: "vortices", alternative: "vortexes"},
	{singular: "appendix", plural: "appendices", alternative: "appendixes"},
	{singular: "radix", plural: "radices", alternative: "radixes"},
	{singular: "helix", plural: "helices", alternative: "helixes"},
	{singular: "axis", plural: "axes", exact: true},
	{singular: "crisis", plural: "crises"},
	{singular: "ellipsis", plural: "ellipses", unidirectional: true},
	{singular: "genesis", plural: "geneses"},
	{singular: "oasis", plural: "oases"},
	{singular: "thesis", plural: "theses"},
	{singular: "testis", plural: "testes"},
	{singular: "base", plural: "bases"},
	{singular: "basis", plural: "bases", unidirectional: true},
	{singular: "alias", plural: "aliases", exact: true},
	{singular: "vedalia", plural: "vedalias"},
	{singular: "use", plural: "uses", exact: true},
	{singular: "abuse", plural: "abuses"},
	{singular: "cause", plural: "causes"},
	{singular: "clause", plural: "clauses"},
	{singular: "cruse", plural: "cruses"},
	{singular: "excuse", plural: "excuses"},
	{singular: "fuse", plural: "fuses"},
	{singular: "house", plural: "houses"},
	{singular: "misuse", plural: "misuses"},
	{singular: "muse", plural: "muses"},
	{singular: "pause", plural: "pauses"},
	{singular: "ache", plural: "aches"},
	{singular: "topaz", plural: "topazes"},
	{singular: "buffalo", plural: "buffaloes", alternative: "buffalos"},
	{singular: "potato", plural: "potatoes"},
	{singular: "tomato", plural: "tomatoes"},
	{singular: "equipment", uncountable: true},
	{singular: "information", uncountable: true},
	{singular: "jeans", uncountable: true},
	{singular: "money", uncountable: true},
	{singular: "news", uncountable: true},
	{singular: "rice", uncountable: true},
	{singular: "dwarf", plural: "dwarfs", alternative: "dwarves"},
	{singular: "hoof", plural: "hoofs", alternative: "hooves"},
	{singular: "thief", plural: "thieves"},
	{singular: "chive", plural: "chives"},
	{singular: "hive", plural: "hives"},
	{singular: "move", plural: "moves"},
	{singular: "movie", plural: "movies"},
	{singular: "cookie", plural: "cookies"},
	{singular: "pretorium", plural: "pretoriums"},
	{singular: "agenda", plural: "agendas"},
	{singular: "formula", plural: "formulas", alternative: "formulae"},
	{singular: "shoe", plural: "shoes"},
	{singular: "toe", plural: "toes", exact: true},
	{singular: "graffiti", plural: "graffiti"},
	{singular: "ID", plural: "IDs", exact: true},
}

// pluralSuffixes is flect's singularToPluralSuffixList, in its order,
// which is the rules' priority.
var pluralSuffixes = []struct{ singular, plural string }{
	{"tive", "tives"},
	{"eaf", "eaves"},
	{"oaf", "oaves"},
	{"afe", "aves"},
	{"arf", "arves"},
	{"rfe", "rves"},
	{"rf", "rves"},
	{"lf", "lves"},
	{"fe", "ves"},
	{"ay", "ays"},
	{"ey", "eys"},
	{"oy", "oys"},
	{"quy", "quies"},
	{"uy", "uys"},
	{"y", "ies"},
	{"eau", "eaux"},
	{"bula", "bulae"},
	{"dula", "bulae"},
	{"lula", "bulae"},
	{"nula", "bulae"},
	{"vula", "bulae"},
	{"hedron", "hedra"},
	{"ium", "ia"},
	{"seum", "seums"},
	{"eum", "ea"},
	{"oum", "oa"},
	{"stracum", "straca"},
	{"dum", "da"},
	{"elum", "ela"},
	{"ilum", "ila"},
	{"olum", "ola"},
	{"ulum", "ula"},
	{"llum", "lla"},
	{"ylum", "yla"},
	{"imum", "ima"},
	{"ernum", "erna"},
	{"gnum", "gna"},
	{"brum", "bra"},
	{"crum", "cra"},
	{"terum", "tera"},
	{"serum", "sera"},
	{"trum", "tra"},
	{"antum", "anta"},
	{"atum", "ata"},
	{"entum", "enta"},
	{"etum", "eta"},
	{"itum", "ita"},
	{"otum", "ota"},
	{"utum", "uta"},
	{"ctum", "cta"},
	{"ovum", "ova"},
	{"trix", "trices"},
	{"iasis", "iases"},
	{"mesis", "meses"},
	{"kinesis", "kineses"},
	{"resis", "reses"},
	{"gnosis", "gnoses"},
	{"opsis", "opses"},
	{"ysis", "yses"},
	{"ouse", "ouses"},
	{"lause", "lauses"},
	{"us", "uses"},
	{"ch", "ches"},
	{"io", "ios"},
	{"sh", "shes"},
	{"ss", "sses"},
	{"ez", "ezzes"},
	{"iz", "izzes"},
	{"tz", "tzes"},
	{"zz", "zzes"},
	{"ano", "anos"},
	{"lo", "los"},
	{"to", "tos"},
	{"oo", "oos"},
	{"o", "oes"},
	{"x", "xes"},
	{"S", "Ses"},
}

// pluralAcronyms is flect's baseAcronyms.
var pluralAcronyms = []string{
	"OK",
	"UTF8",
	"HTML",
	"JSON",
	"JWT",
	"ID",
	"UUID",
	"SQL",
	"ACK",
	"ACL",
	"ADSL",
	"AES",
	"ANSI",
	"API",
	"ARP",
	"ATM",
	"BGP",
	"BSS",
	"CCITT",
	"CHAP",
	"CIDR",
	"CIR",
	"CLI",
	"CPE",
	"CPU",
	"CRC",
	"CRT",
	"CSMA",
	"CMOS",
	"DCE",
	"DEC",
	"DES",
	"DHCP",
	"DNS",
	"DRAM",
	"DSL",
	"DSLAM",
	"DTE",
	"DMI",
	"EHA",
	"EIA",
	"EIGRP",
	"EOF",
	"ESS",
	"FCC",
	"FCS",
	"FDDI",
	"FTP",
	"GBIC",
	"gbps",
	"GEPOF",
	"HDLC",
	"HTTP",
	"HTTPS",
	"IANA",
	"ICMP",
	"IDF",
	"IDS",
	"IEEE",
	"IETF",
	"IMAP",
	"IP",
	"IPS",
	"ISDN",
	"ISP",
	"kbps",
	"LACP",
	"LAN",
	"LAPB",
	"LAPF",
	"LLC",
	"MAC",
	"Mbps",
	"MC",
	"MDF",
	"MIB",
	"MoCA",
	"MPLS",
	"MTU",
	"NAC",
	"NAT",
	"NBMA",
	"NIC",
	"NRZ",
	"NRZI",
	"NVRAM",
	"OSI",
	"OSPF",
	"OUI",
	"PAP",
	"PAT",
	"PC",
	"PIM",
	"PCM",
	"PDU",
	"POP3",
	"POTS",
	"PPP",
	"PPTP",
	"PTT",
	"PVST",
	"RAM",
	"RARP",
	"RFC",
	"RIP",
	"RLL",
	"ROM",
	"RSTP",
	"RTP",
	"RCP",
	"SDLC",
	"SFD",
	"SFP",
	"SLARP",
	"SLIP",
	"SMTP",
	"SNA",
	"SNAP",
	"SNMP",
	"SOF",
	"SRAM",
	"SSH",
	"SSID",
	"STP",
	"SYN",
	"TDM",
	"TFTP",
	"TIA",
	"TOFU",
	"UDP",
	"URL",
	"URI",
	"USB",
	"UTP",
	"VC",
	"VLAN",
	"VLSM",
	"VPN",
	"W3C",
	"WAN",
	"WEP",
	"WiFi",
	"WPA",
	"WWW",
}
