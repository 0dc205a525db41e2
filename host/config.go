package host

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"

	"folio/pipeline"
)

// ErrConfig marks an error caused by the config or the flags (a command
// exits 2 on it at start) rather than by the content or the system.
var ErrConfig = errors.New("config")

// configError marks err as ErrConfig without changing its text (which
// fmt.Errorf("%w: %w", ErrConfig, err) would prefix with "config: ").
type configError struct{ err error }

func (e configError) Error() string        { return e.err.Error() }
func (e configError) Unwrap() error        { return e.err }
func (e configError) Is(target error) bool { return target == ErrConfig }

// ReadConfig reads the site's configuration as Hugo finds and merges it
// (pipeline.LoadSite: hugo.*, else config.*, then config/_default/ and the
// environment's folder, development for dev and production otherwise),
// or the file --config names, and applies the flags. It is the only place
// folio reads a config: the commands' start-up checks, Load and every
// reload call it. Every error is ErrConfig.
func ReadConfig(spec Spec) (*pipeline.Config, error) {
	opts := pipeline.SiteOptions{Source: spec.Source, Environment: "production"}
	if spec.Dev {
		opts.Environment = "development"
	}
	if spec.ConfigFile != "" {
		if _, err := os.Stat(spec.ConfigFile); errors.Is(err, fs.ErrNotExist) {
			return nil, configError{fmt.Errorf("--config %s: no such file (without --config, the site's hugo.toml, config.toml or config/ is read when present)", spec.ConfigFile)}
		}
		opts.Files = []string{spec.ConfigFile}
		if opts.Source == "" {
			opts.Source = filepath.Dir(spec.ConfigFile) // paths in it are relative to its folder
		}
	}
	cfg, err := pipeline.LoadSite(opts)
	if err != nil {
		return nil, configError{err}
	}
	if spec.Content != "" {
		cfg.SetContent(spec.Content)
	}
	if spec.BaseURL != "" {
		cfg.BaseURL, cfg.BaseSet = spec.BaseURL, true
		if err := cfg.Validate(); err != nil {
			return nil, configError{fmt.Errorf("--base-url: %w", err)}
		}
	}
	if spec.Addr != nil && (!cfg.BaseSet || spec.AddrIsBase && spec.BaseURL == "") {
		// A path in the config's baseURL is dropped, whether the baseURL
		// is a full one (dev) or only a path, which Hugo accepts
		// ("/blog/"): folio answers at the root of its address, so its
		// links must too.
		cfg.BaseURL, cfg.BaseSet = BaseOf(spec.Addr), false
	}
	return cfg, nil
}

// DefaultConfigFile is the config file folio's own sites were written
// with; a Hugo site's (hugo.toml, config/…) are found as Hugo finds them.
const DefaultConfigFile = "config.toml"

// ConfigFile is the config file a spec reads or would read, for messages:
// --config, else the first file found in the site's folder, else
// ./config.toml, which need not exist.
func ConfigFile(spec Spec) string {
	if spec.ConfigFile != "" {
		return spec.ConfigFile
	}
	for _, name := range []string{"hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config.toml", "config.yaml", "config.yml", "config.json"} {
		p := filepath.Join(spec.Source, name)
		if statOrNil(p) != nil {
			return p
		}
	}
	return filepath.Join(spec.Source, DefaultConfigFile)
}

// BaseOf is the base URL for an address: http://host:port/, an empty or
// unspecified host written as localhost.
func BaseOf(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://localhost/"
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// ServedElsewhere reports whether base, a base URL on a loopback host
// (localhost, 127.0.0.0/8, ::1), names another server than the one at
// addr: another port, https (folio serves http), or addr a specific
// address that is not loopback; with addr nil (nothing is served yet) any
// loopback base URL is elsewhere. Pages link to their base URL, so such a
// server's pages lead to a server that is likely not running (a sample
// config's dev address under serve). A base URL on any other host is a
// proxy's or a CDN's, which folio cannot check, and is never reported.
func ServedElsewhere(base string, addr net.Addr) bool {
	u, err := url.Parse(base)
	if err != nil || !isLoopback(u.Hostname()) {
		return false
	}
	if addr == nil || u.Scheme != "http" {
		return true
	}
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return true
	}
	basePort := u.Port()
	if basePort == "" {
		basePort = "80"
	}
	ip := net.ParseIP(host)
	served := host == "" || host == "localhost" || ip != nil && (ip.IsUnspecified() || ip.IsLoopback())
	return basePort != port || !served
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckFolder checks that dir is a folder; what names it in the error
// ("content folder x: no such file or directory", without Go's "stat x:").
func CheckFolder(what, dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return folderError(what, dir, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("%s %s: not a directory", what, dir)
	}
	return nil
}

func folderError(what, dir string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s %s: %w", what, dir, err)
}

// openContent opens the folder the snapshot reads (the site's folder, or
// the content folder of folio's own config) as an fs.FS that symlinks
// cannot lead out of.
func openContent(cfg *pipeline.Config) (fs.FS, error) {
	dir, what := rootOf(cfg)
	if err := CheckFolder(what, dir); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, folderError(what, dir, err)
	}
	return newContentFS(root), nil
}

// checkContent checks that the site's content folder (the one the config
// names, or content/) is a folder: there when the config names one (a
// mistyped contentDir should not quietly empty the site), and never a
// file.
func checkContent(cfg *pipeline.Config) error {
	root, _ := rootOf(cfg)
	for _, m := range cfg.Mounts {
		if m.Target != "content" || m.Lang != "" || m.Source == "." {
			continue
		}
		dir := filepath.Join(root, filepath.FromSlash(m.Source))
		if _, err := os.Stat(dir); m.Source == "content" && errors.Is(err, fs.ErrNotExist) {
			continue // Hugo's default: a site may have no content yet
		}
		if err := CheckFolder("content folder", dir); err != nil {
			return err
		}
	}
	return nil
}

// NoContentYet reports whether cfg is a Hugo site whose default content
// folder (content/, contentDir unset) is not there: Hugo 0.165 builds
// such a site, its home page, feeds and taxonomies' pages, and so does
// folio (checkContent lets it be).
func NoContentYet(cfg *pipeline.Config) bool {
	if cfg.Source == "" || filepath.Clean(cfg.ContentDir) != filepath.Join(cfg.Root(), "content") {
		return false
	}
	_, err := os.Stat(cfg.ContentDir)
	return errors.Is(err, fs.ErrNotExist)
}

// rootOf is the folder the snapshot reads and what messages call it.
func rootOf(cfg *pipeline.Config) (dir, what string) {
	if cfg.Source == "" {
		return cfg.ContentDir, "content folder"
	}
	return cfg.Root(), "site folder"
}

// sameFolder reports whether fsys still reads the folder at dir: a folder
// replaced whole (mv content.new content, a checkout) is not, and the
// snapshot, which reads through a handle on the old one, must be built
// afresh from the new.
func sameFolder(fsys fs.FS, dir string) bool {
	a, err := fs.Stat(fsys, ".")
	if err != nil {
		return false
	}
	b, err := os.Stat(dir)
	return err == nil && os.SameFile(a, b)
}
