// Package agents makes what agents, and the probes that grade sites for
// them, look for on a blog: robots.txt with AI crawler groups and Content
// Signals, the RFC 9727 API catalog, the Agent Skills index and its
// SKILL.md, JSON-LD for pages, and the token estimate sent with Markdown.
//
// It is pure: every function takes values and returns bytes, so the
// server, the static export and the edge Worker serve the same answers.
// It knows nothing of HTTP routing or of the content pipeline.
//
// # Policy
//
// A site has one Policy: its Content Signals (search, ai-input, ai-train,
// each yes or no; by default search=yes, ai-input=yes, ai-train=no), the
// crawlers it refuses, any crawlers it names besides the major AI ones,
// and the size cap of llms-full.txt. ParsePolicy reads it from the
// [folio.agents] table and refuses anything that could inject a line into
// robots.txt or a header: a crawler name that is not an RFC 9309 product
// token, a signal other than the three, a value other than yes or no. A
// page may narrow its own signals (Signals.Narrow); it never widens the
// site's.
//
// # Token estimate
//
// EstimateTokens counts what a BPE tokenizer of the o200k family spends
// tokens on (words, digit runs, punctuation, line breaks, CJK and other
// non-ASCII letters), weighted by coefficients fitted against o200k on the
// sample blog and the 10,000-post corpus; tokens_test.go holds the
// measured error and the README the method.
package agents
