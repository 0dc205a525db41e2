package site

import "embed"

// FS is the embedded default site.
//
//go:embed templates static sdk
var FS embed.FS
