package host

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"

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

// ReadConfig reads the config file the spec names (or the defaults) and
// applies the flags. It is the only place folio reads a config: the
// commands' start-up checks, Load and every reload call it. Every error
// is ErrConfig.
func ReadConfig(spec Spec) (*pipeline.Config, error) {
	cfg, err := readConfigFile(spec.ConfigFile)
	if err != nil {
		return nil, configError{err}
	}
	if spec.Content != "" {
		cfg.ContentDir = spec.Content
	}
	if spec.BaseURL != "" {
		cfg.BaseURL, cfg.BaseSet = spec.BaseURL, true
		if err := cfg.Validate(); err != nil {
			return nil, configError{fmt.Errorf("--base-url: %w", err)}
		}
	}
	if spec.Addr != nil && (!cfg.BaseSet || spec.AddrIsBase && spec.BaseURL == "") {
		cfg.BaseURL, cfg.BaseSet = BaseOf(spec.Addr), false
	}
	return cfg, nil
}

// readConfigFile reads file, or ./config.toml when file is "" (the
// defaults when that is not there either).
func readConfigFile(file string) (*pipeline.Config, error) {
	if file == "" {
		cfg, err := pipeline.LoadConfig(DefaultConfigFile)
		if errors.Is(err, fs.ErrNotExist) {
			return pipeline.DefaultConfig(), nil
		}
		return cfg, err
	}
	cfg, err := pipeline.LoadConfig(file)
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("--config %s: no such file (without --config, ./%s is read when present)", file, DefaultConfigFile)
	case errors.As(err, &pe):
		return nil, fmt.Errorf("--config %s: %w", file, pe.Err)
	}
	return cfg, err
}

// DefaultConfigFile is the config file read without --config, when it is
// there.
const DefaultConfigFile = "config.toml"

// ConfigFile is the config file a spec reads or would read: --config,
// else ./config.toml, which need not exist.
func ConfigFile(spec Spec) string {
	if spec.ConfigFile != "" {
		return spec.ConfigFile
	}
	return DefaultConfigFile
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

// openContent opens the content folder as an fs.FS that symlinks cannot
// lead out of.
func openContent(dir string) (fs.FS, error) {
	if err := CheckFolder("content folder", dir); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, folderError("content folder", dir, err)
	}
	return root.FS(), nil
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
