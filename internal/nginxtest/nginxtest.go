// Package nginxtest starts real nginx and Varnish processes for tests:
// in the foreground, under a temporary prefix, on 127.0.0.1 and a free
// port, stopped when the test ends. Where the program is not installed
// the test is skipped, except in CI (CI=true), where that is a failure.
package nginxtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"folio/internal/syncbuf"
)

// FreePort returns a loopback port nothing listens on right now.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Need skips the test when program is not installed, or fails it in CI.
func Need(t testing.TB, program string) string {
	t.Helper()
	path, err := exec.LookPath(program)
	if err == nil {
		return path
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not installed; CI must install it", program)
	}
	t.Skipf("%s is not installed", program)
	return ""
}

// jsModules are where distributions put the njs module.
var jsModules = []string{
	"/usr/lib/nginx/modules/ngx_http_js_module.so",
	"/usr/share/nginx/modules/ngx_http_js_module.so",
	"/etc/nginx/modules/ngx_http_js_module.so",
	"/usr/lib64/nginx/modules/ngx_http_js_module.so",
}

// JSModule is the path of the installed njs module, "" when there is
// none.
func JSModule() string {
	for _, m := range jsModules {
		if _, err := os.Stat(m); err == nil {
			return m
		}
	}
	return ""
}

// Config is an nginx.conf that runs include (an http-context file, such
// as the one folio build --nginx writes) in the foreground under prefix,
// with the njs module at module. Workers is the number of worker
// processes; 0 runs a single process.
func Config(module, prefix, include string, workers int) string {
	process := "master_process off;"
	if workers > 0 {
		process = fmt.Sprintf("master_process on; worker_processes %d; user root;", workers)
	}
	return fmt.Sprintf(`load_module %s;
daemon off;
%s
pid %s/nginx.pid;
error_log stderr warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path %[3]s/body;
    proxy_temp_path %[3]s/proxy;
    fastcgi_temp_path %[3]s/fastcgi;
    uwsgi_temp_path %[3]s/uwsgi;
    scgi_temp_path %[3]s/scgi;
    include %s;
}
`, module, process, prefix, include)
}

// Nginx runs nginx with include (an http-context file, such as the one
// folio build --nginx writes) and returns once it answers on addr.
// Workers is the number of worker processes; 0 runs a single process.
func Nginx(t testing.TB, include, addr string, workers int) {
	t.Helper()
	bin := Need(t, "nginx")
	module := JSModule()
	if module == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("the nginx njs module is not installed; CI must install libnginx-mod-http-js")
		}
		t.Skip("the nginx njs module is not installed")
	}
	prefix := t.TempDir()
	confFile := filepath.Join(prefix, "nginx.conf")
	if err := os.WriteFile(confFile, []byte(Config(module, prefix, include, workers)), 0o644); err != nil {
		t.Fatal(err)
	}
	start(t, addr, bin, "-p", prefix, "-c", confFile, "-e", "stderr")
}

// Varnish runs varnishd in front of backend (host:port) with the built-in
// VCL and returns once it answers on addr.
func Varnish(t testing.TB, addr, backend string) {
	t.Helper()
	bin := Need(t, "varnishd")
	dir := t.TempDir()
	start(t, addr, bin, "-F", "-n", dir, "-a", addr, "-b", backend, "-s", "malloc,32m",
		"-p", "default_ttl=60", "-j", "none")
}

// VarnishVCL runs varnishd on addr with the VCL file vcl, its backend
// moved to backend ("127.0.0.1:PORT").
func VarnishVCL(t testing.TB, addr, backend, vcl string) {
	t.Helper()
	bin := Need(t, "varnishd")
	src, err := os.ReadFile(vcl)
	if err != nil {
		t.Fatal(err)
	}
	host, port, err := net.SplitHostPort(backend)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	text := regexp.MustCompile(`\.host = "[^"]*";`).ReplaceAllString(string(src), `.host = "`+host+`";`)
	text = regexp.MustCompile(`\.port = "[^"]*";`).ReplaceAllString(text, `.port = "`+port+`";`)
	file := filepath.Join(dir, "site.vcl")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	start(t, addr, bin, "-F", "-n", filepath.Join(dir, "work"), "-a", addr, "-f", file, "-s", "malloc,32m",
		"-p", "default_ttl=60", "-j", "none")
}

// start runs the command until the test ends and waits for addr to accept
// connections.
func start(t testing.TB, addr, bin string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out syncbuf.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		// The whole process group: nginx workers, varnish's child.
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
		if t.Failed() {
			t.Logf("%s output:\n%s", filepath.Base(bin), out.String())
		}
	})
	deadline := time.Now().Add(15 * time.Second)
	for {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("%s exited: %v\n%s", bin, err, out.String())
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not answer on %s\n%s", bin, addr, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
