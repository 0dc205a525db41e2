package server

import "io/fs"

// theme is the parsed site: templates and static assets. It is loaded once
// (and again when the site folder changes in dev).
type theme struct {
	site fs.FS
}

func loadTheme(site fs.FS, dev bool) (*theme, error) {
	return &theme{site: site}, nil
}
