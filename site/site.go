// Package site holds the default theme: templates, static assets and the
// JavaScript client, embedded into the binary. A config siteDir replaces it
// with a folder of the same layout.
package site

import "embed"

// FS is the embedded default site.
//
//go:embed templates static sdk
var FS embed.FS
