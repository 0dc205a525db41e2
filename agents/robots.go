package agents

import "strings"

// Robots is the robots.txt folio writes for a site without its own
// (RFC 9309): a User-agent: * group allowing everything, then a group for
// each crawler the policy names, each with the site's Content-Signal line,
// and the sitemap's absolute URL. A refused crawler's group disallows
// everything. Every name in it passed ParsePolicy's product-token check,
// so nothing an author writes can add a line.
func Robots(p Policy, sitemapURL string) []byte {
	var b strings.Builder
	signal := "Content-Signal: " + p.Signals.String() + "\n"
	b.WriteString("# Content Signals (https://contentsignals.org/) say how this site's content may be\n")
	b.WriteString("# used once accessed: search = building a search index and linking to it;\n")
	b.WriteString("# ai-input = giving it to an AI model as input for an answer; ai-train = training\n")
	b.WriteString("# or fine-tuning AI models. yes allows, no does not.\n\n")
	b.WriteString("User-agent: *\n" + signal + "Allow: /\n")
	for _, c := range p.Crawlers {
		b.WriteString("\nUser-agent: " + c + "\n" + signal)
		if p.Refused(c) {
			b.WriteString("Disallow: /\n")
		} else {
			b.WriteString("Allow: /\n")
		}
	}
	b.WriteString("\nSitemap: " + sitemapURL + "\n")
	return []byte(b.String())
}
