package render

import (
	"io/fs"
	"path"
	"strings"

	"github.com/gohugoio/hugo/parser/metadecoders"
)

// maxDataFiles bounds the data files read.
const maxDataFiles = 4096

// loadData reads the site's data folder, then each theme's for what the
// site lacks, into .Site.Data: data/social.yml is .Site.Data.social,
// data/svg/icons.toml .Site.Data.svg.icons. YAML, TOML and JSON files;
// keys as written (Hugo lower-cases file names only as they are). A file
// that does not decode is a problem. (Hugo's data templates, getJSON and
// getCSV, fetch over the network and are not folio's; the data folder
// is content.)
func (t *Templates) loadData(fsys fs.FS, roots []string) {
	t.data = map[string]any{}
	files := 0
	for _, root := range roots {
		dir := path.Join(root, "data")
		_ = fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			ext := strings.TrimPrefix(path.Ext(p), ".")
			format := metadecoders.FormatFromString(ext)
			if format == "" || format == metadecoders.ORG {
				return nil
			}
			if files++; files > maxDataFiles {
				return fs.SkipAll
			}
			data, err := t.read(fsys, p)
			if err != nil {
				return nil
			}
			v, err := metadecoders.Default.Unmarshal(data, format)
			if err != nil {
				t.problems = append(t.problems, templateProblem(p, err))
				return nil
			}
			keys := strings.Split(strings.TrimSuffix(strings.TrimPrefix(p, dir+"/"), "."+ext), "/")
			m := t.data
			for _, k := range keys[:len(keys)-1] {
				next, ok := m[k].(map[string]any)
				if !ok {
					next = map[string]any{}
					m[k] = next
				}
				m = next
			}
			if _, taken := m[keys[len(keys)-1]]; !taken {
				m[keys[len(keys)-1]] = v
			}
			return nil
		})
	}
}
