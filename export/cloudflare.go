package export

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The files of a Cloudflare Workers project, relative to its folder.
const (
	WranglerFile = "wrangler.jsonc"
	PublicDir    = "public"
	WorkerFile   = "worker/folio.js"
	DataFile     = "worker/site.json"
)

// CompatibilityDate is the Workers runtime behaviour the Worker is written
// for. It is fixed, so that a build does not change how the edge runs
// the Worker; a newer folio may move it.
const CompatibilityDate = "2025-10-01"

//go:embed worker.js
var workerJS []byte

// Limits are a Workers plan's limits that a build can exceed.
type Limits struct {
	Plan string
	// Files is the number of static asset files per Worker version, and
	// FileBytes the size of one.
	Files     int
	FileBytes int64
	// WorkerBytes is the Worker's size (its modules together) after gzip,
	// and WorkerRawBytes before.
	WorkerBytes, WorkerRawBytes int
	// Memory is what one Worker may hold.
	Memory int
}

// tableMemory is how many bytes of memory a byte of site.json takes in
// the Worker: the text module's string stays, and the parsed table beside
// it. Measured with V8 (Node 22, --expose-gc) on the 10,000-post corpus:
// 10.4 MB of JSON, 10.4 MB of string and 36.4 MB of table, 4.5 bytes a
// byte; rounded up.
const tableMemory = 5

// memoryLeft is the part of Limits.Memory the table may not take: what
// requests need beside it.
const memoryLeft = 32 << 20

// The plans' limits, as Cloudflare documents them ("Limits" in the
// Workers documentation).
var (
	FreePlan = Limits{Plan: "Workers Free", Files: 20_000, FileBytes: 25 << 20, WorkerBytes: 3 << 20, WorkerRawBytes: 64 << 20, Memory: 128 << 20}
	PaidPlan = Limits{Plan: "Workers Paid", Files: 100_000, FileBytes: 25 << 20, WorkerBytes: 10 << 20, WorkerRawBytes: 64 << 20, Memory: 128 << 20}
)

// CloudflareOptions say how the Worker answers what the export holds no
// file for.
type CloudflareOptions struct {
	// NotFound is the path of the 404 page, one of the exported files.
	NotFound string
	// Refusals are the server's refusal rows, in table order.
	Refusals []Refusal
	// Limits are the plan's; the zero value is FreePlan.
	Limits Limits
	// Name is the Worker's name in a new wrangler.jsonc.
	Name string
}

// A CloudflareProject is what a build writes beside public/: the
// configuration, the Worker and its table.
type CloudflareProject struct {
	Config, Worker, Data []byte
}

// CloudflarePublic is the folder of project dir that holds the export.
func CloudflarePublic(dir string) string { return filepath.Join(dir, PublicDir) }

// Cloudflare makes the Workers project that serves site (exported without
// .gz twins into the project's public/) as folio serve answers. existing
// is the project's wrangler.jsonc as it is (nil when there is none): the
// author's keys are kept, folio's rewritten. A site over the plan's
// limits is an error naming the limit.
func Cloudflare(site *Site, existing []byte, opts CloudflareOptions) (*CloudflareProject, error) {
	if opts.Limits.Plan == "" {
		opts.Limits = FreePlan
	}
	if err := checkAssets(site.Files, opts.Limits); err != nil {
		return nil, err
	}
	d, err := newWorkerData(site, opts.NotFound, opts.Refusals)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("export: cloudflare: %w", err)
	}
	if err := checkWorker(opts.Limits, workerJS, data); err != nil {
		return nil, err
	}
	if need := tableMemory * len(data); need > opts.Limits.Memory-memoryLeft {
		return nil, fmt.Errorf("export: cloudflare: the Worker's table of the site (%d MB of JSON) would take about %d MB of memory once parsed, over what the limit of %d MB for a Worker leaves (a site this large is better served by folio serve or the nginx export)",
			len(data)>>20, need>>20, opts.Limits.Memory>>20)
	}
	config, err := wranglerConfig(existing, opts.Name)
	if err != nil {
		return nil, err
	}
	return &CloudflareProject{Config: config, Worker: workerJS, Data: data}, nil
}

// StageCloudflare stages the project files of dir with st, an export
// staged into dir's public/: they are put in place together, or not at
// all.
func (st *Staged) StageCloudflare(dir string, opts CloudflareOptions) error {
	config := filepath.Join(dir, WranglerFile)
	existing, err := os.ReadFile(config)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("export: cloudflare: %w", err)
	}
	p, err := Cloudflare(st.Site, existing, opts)
	if err != nil {
		if existing != nil {
			err = fmt.Errorf("%s: %w", config, err)
		}
		return err
	}
	for name, data := range map[string][]byte{WorkerFile: p.Worker, DataFile: p.Data, WranglerFile: p.Config} {
		if err := st.AddFile(filepath.Join(dir, filepath.FromSlash(name)), data); err != nil {
			return err
		}
	}
	return nil
}

// CheckCloudflareProject refuses a folder that holds another tool's
// Wrangler configuration: Wrangler would read that one, or refuse both.
func CheckCloudflareProject(dir string) error {
	for _, other := range []string{"wrangler.toml", "wrangler.json"} {
		if _, err := os.Stat(filepath.Join(dir, other)); err == nil {
			return fmt.Errorf("%s holds %s: folio writes %s and Wrangler reads only one; move your keys into %s (folio keeps them) and remove %s",
				dir, other, WranglerFile, WranglerFile, other)
		}
	}
	return nil
}

// ReservedNames lists, among the URL paths of an export, those Cloudflare
// would read as its own configuration rather than serve: _headers and
// _redirects (headers and redirects behind folio's back), _worker.js (a
// Pages Worker, which Wrangler refuses to upload) and .assetsignore
// (files left out of the upload), at the root, and anything in a folder
// of those names (Wrangler leaves them out of the upload).
func ReservedNames(paths []string) []string {
	var out []string
	for _, p := range paths {
		name, err := FileName(p)
		if err != nil {
			continue
		}
		first, _, _ := strings.Cut(name, "/")
		switch first {
		case "_headers", "_redirects", ".assetsignore", "_worker.js":
			out = append(out, p)
		}
	}
	return out
}

// checkAssets holds the files to the plan's limits.
func checkAssets(files []File, l Limits) error {
	if len(files) > l.Files {
		return fmt.Errorf("export: cloudflare: %d files exceed the %s limit of %d static asset files per Worker version", len(files), l.Plan, l.Files)
	}
	for _, f := range files {
		if int64(f.Size) > l.FileBytes {
			return fmt.Errorf("export: cloudflare: %s is %d bytes, over the limit of %d bytes (%d MiB) for one static asset file", f.Name, f.Size, l.FileBytes, l.FileBytes>>20)
		}
	}
	return nil
}

// checkWorker holds the Worker's modules to the plan's size limit, which
// Cloudflare applies to them gzip-compressed together (as Wrangler
// measures them).
func checkWorker(l Limits, modules ...[]byte) error {
	all := bytes.Join(modules, nil)
	if len(all) > l.WorkerRawBytes {
		return fmt.Errorf("export: cloudflare: the Worker is %d bytes, over the limit of %d MiB for a Worker before compression", len(all), l.WorkerRawBytes>>20)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	zw.Write(all)
	zw.Close()
	if buf.Len() > l.WorkerBytes {
		return fmt.Errorf("export: cloudflare: the Worker and its table of the site are %d bytes after gzip, over the %s limit of %d MiB for a Worker's size", buf.Len(), l.Plan, l.WorkerBytes>>20)
	}
	return nil
}
