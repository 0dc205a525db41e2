#!/usr/bin/env bash
# Production benchmark: folio serve beside nginx serving folio build's
# output, in the same run, on loopback, at 10,000 posts (or $1).
#
#   bench/serve.sh [POSTS]
#
# Needs go, wrk, nginx with the njs module, curl. Writes into bench/out/
# (ignored by git) and prints a Markdown table for BENCHMARKS.md. Every
# process it starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

posts=${1:-10000}
out=bench/out
duration=${DURATION:-5s}
mkdir -p "$out"
out=$(cd "$out" && pwd)

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

echo "== corpus of $posts posts" >&2
if [ ! -d "$out/corpus-$posts/content" ]; then
  go run ./internal/corpus/cmd/gencorpus "$out/corpus-$posts" "$posts"
fi
content="$out/corpus-$posts/content"

echo "== build folio" >&2
CGO_ENABLED=0 go build -trimpath -o "$out/folio" .

fport=$(free_port)
nport=$(free_port)
base="http://127.0.0.1:$fport/" # both serve the same bytes, so one base URL

echo "== folio build" >&2
mkdir -p "$out/nginx"
"$out/folio" build --content "$content" --base-url "$base" --out "$out/public" \
  --nginx "$out/nginx/site.conf" --addr "127.0.0.1:$nport" 2>&1 | tail -1 >&2

echo "== nginx" >&2
module=/usr/lib/nginx/modules/ngx_http_js_module.so
[ -f "$module" ] || module=/usr/share/nginx/modules/ngx_http_js_module.so
cat > "$out/nginx/nginx.conf" <<EOF
load_module $module;
daemon off;
worker_processes auto;
user root;
pid $out/nginx/nginx.pid;
error_log $out/nginx/error.log warn;
events { worker_connections 4096; }
http {
    access_log $out/nginx/access.log;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    client_body_temp_path $out/nginx/body;
    proxy_temp_path $out/nginx/proxy;
    fastcgi_temp_path $out/nginx/fastcgi;
    uwsgi_temp_path $out/nginx/uwsgi;
    scgi_temp_path $out/nginx/scgi;
    include $out/nginx/site.conf;
}
EOF
nginx -p "$out/nginx" -c "$out/nginx/nginx.conf" -e "$out/nginx/error.log" &
pids+=($!)

echo "== folio serve" >&2
article=$(curl -s --retry 50 --retry-connrefused --retry-delay 0 "http://127.0.0.1:$nport/api/posts.json" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["url"].split("/",3)[3])')
article="/$article"
markdown="${article%/}.md"

# Start-up to first answer, three times (the last run stays up for wrk).
startups=()
for run in 1 2 3; do
  t0=$(date +%s.%N)
  "$out/folio" serve --content "$content" --base-url "$base" --addr "127.0.0.1:$fport" 2> "$out/serve.log" &
  fpid=$!
  until curl -sf -o /dev/null "http://127.0.0.1:$fport$article"; do sleep 0.005; done
  t1=$(date +%s.%N)
  startups+=("$(python3 -c "print(f'{($t1-$t0)*1000:.0f}')")")
  rss_start=$(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$fpid/status)
  if [ $run -lt 3 ]; then kill $fpid; wait $fpid || true; fi
done
pids+=($fpid)
startup="$(IFS=/; echo "${startups[*]}") ms"

etag() { curl -sI "$1" | awk 'tolower($1)=="etag:" {sub(/\r$/,"",$2); print $2}'; }

rate() { # URL [header…] → requests/s
  local url=$1; shift
  local args=()
  for h in "$@"; do args+=(-H "$h"); done
  wrk -t1 -c32 -d"$duration" "${args[@]}" "$url" | awk '/Requests\/sec/ {printf "%.0f", $2}'
}

# Warm both (the first answer of a page renders it).
for u in "$article" "$markdown" /api/posts.json; do
  curl -s -o /dev/null "http://127.0.0.1:$fport$u"
  curl -s -o /dev/null "http://127.0.0.1:$nport$u"
done

echo "$(nproc) cores; load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| request | folio serve (req/s) | nginx + export (req/s) | ratio |"
echo "| --- | ---: | ---: | ---: |"
row() {
  local name=$1 path=$2; shift 2
  local f n
  f=$(rate "http://127.0.0.1:$fport$path" "$@")
  n=$(rate "http://127.0.0.1:$nport$path" "$@")
  echo "| $name | $f | $n | $(python3 -c "print(f'{$f/$n:.2f}x')") |"
}
row "article page (HTML) \`$article\`" "$article"
row "its Markdown \`$markdown\`" "$markdown"
row "posts.json, gzip" /api/posts.json "Accept-Encoding: gzip"
fe=$(etag "http://127.0.0.1:$fport$article")
ne=$(etag "http://127.0.0.1:$nport$article")
f=$(rate "http://127.0.0.1:$fport$article" "If-None-Match: $fe")
n=$(rate "http://127.0.0.1:$nport$article" "If-None-Match: $ne")
echo "| article 304 (If-None-Match) | $f | $n | $(python3 -c "print(f'{$f/$n:.2f}x')") |"

rss_end=$(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$fpid/status)
hwm=$(awk '/VmHWM/ {printf "%.0f MB", $2/1024}' /proc/$fpid/status)
echo
echo "folio serve at $posts posts: start-up to first answer (an article page), three runs: $startup;"
echo "RSS $rss_start after start, $rss_end after the runs (peak $hwm)."
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
