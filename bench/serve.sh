#!/usr/bin/env bash
# Production benchmark: folio serve beside nginx serving folio build's
# output, in the same run, on loopback, at 10,000 posts (or $1).
#
#   bench/serve.sh [POSTS]
#
# Needs go, wrk, nginx with the njs module, curl, python3. Writes into
# bench/out/ (ignored by git) and prints a Markdown table for
# BENCHMARKS.md. Every process it starts is stopped on exit. SKIP_BUILD=1
# reuses the previous export; DURATION=10s runs wrk longer.
set -euo pipefail
cd "$(dirname "$0")/.."

posts=${1:-10000}
out=bench/out
duration=${DURATION:-5s}
mkdir -p "$out"
out=$(cd "$out" && pwd)

. bench/lib.sh # pids, cleanup, free_port, corpus

content=$(corpus "$out" "$posts")

echo "== build folio" >&2
CGO_ENABLED=0 go build -trimpath -o "$out/folio" .

fport=$(free_port)
nport=$(free_port)
if [ -n "${SKIP_BUILD:-}" ] && [ -f "$out/nginx/site.conf" ]; then
  # The export's bodies hold the base URL it was built with.
  nport=$(sed -n 's/^ *listen 127.0.0.1:\([0-9]*\);/\1/p' "$out/nginx/site.conf")
  fport=$(cat "$out/nginx/folio-port")
fi
base="http://127.0.0.1:$fport/" # both serve the same bytes, so one base URL

echo "== folio build" >&2
mkdir -p "$out/nginx"
if [ -z "${SKIP_BUILD:-}" ] || [ ! -f "$out/nginx/site.conf" ]; then
  "$out/folio" build --content "$content" --base-url "$base" --out "$out/public" \
    --nginx "$out/nginx/site.conf" --addr "127.0.0.1:$nport" 2>&1 | tail -1 >&2
  echo "$fport" > "$out/nginx/folio-port"
fi

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
until curl -sf -o /dev/null "http://127.0.0.1:$nport/llms.txt"; do sleep 0.05; done
article=$(curl -s "http://127.0.0.1:$nport/api/posts.json" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["url"].split("/",3)[3])')
article="/$article"
markdown="${article%/}.md"

# Start-up to first answer, three times (the last run stays up for wrk),
# and the CPU time folio had used by then, which a busy machine does not
# stretch.
startups=() cpus=()
for run in 1 2 3; do
  t0=$(date +%s.%N)
  "$out/folio" serve --content "$content" --base-url "$base" --addr "127.0.0.1:$fport" 2> "$out/serve.log" &
  fpid=$!
  until curl -sf -o /dev/null "http://127.0.0.1:$fport$article"; do sleep 0.005; done
  t1=$(date +%s.%N)
  startups+=("$(python3 -c "print(f'{($t1-$t0)*1000:.0f}')")")
  s=($(cut -d' ' -f14,15 /proc/$fpid/stat))
  cpus+=("$(( (s[0] + s[1]) * 1000 / $(getconf CLK_TCK) ))")
  rss_start=$(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$fpid/status)
  if [ $run -lt 3 ]; then kill $fpid; wait $fpid || true; fi
done
pids+=($fpid)
startup="$(IFS=/; echo "${startups[*]}") ms (CPU used by then: $(IFS=/; echo "${cpus[*]}") ms)"

# ticks PID: CPU clock ticks used so far by PID and its children
# (nginx's workers).
ticks() {
  local t=0 s
  for q in $1 $(pgrep -P "$1"); do
    s=($(cut -d' ' -f14,15 /proc/$q/stat))
    t=$((t + s[0] + s[1]))
  done
  echo $t
}

# measure PID URL [header…] → "requests/s CPU-µs-per-request"
measure() {
  local pid=$1 url=$2; shift 2
  local args=() a b n
  for h in "$@"; do args+=(-H "$h"); done
  a=$(ticks "$pid")
  n=$(wrk -t1 -c32 -d"$duration" "${args[@]}" "$url" | awk '/requests in/ {print $1}')
  b=$(ticks "$pid")
  python3 -c "d=float('${duration%s}'); print(f'{$n/d:.0f} {($b-$a)/$(getconf CLK_TCK)*1e6/$n:.0f}')"
}

# Warm both (the first answer of a page renders it).
for u in "$article" "$markdown" /api/posts.json; do
  curl -s -o /dev/null "http://127.0.0.1:$fport$u"
  curl -s -o /dev/null "http://127.0.0.1:$nport$u"
done
npid=$(cat "$out/nginx/nginx.pid")

echo "$(nproc) cores; load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| request | folio serve req/s | nginx + export req/s | ratio | folio CPU µs/req | nginx CPU µs/req |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
row() {
  local name=$1 fpath=$2 npath=$3; shift 3
  local f n
  f=($(measure "$fpid" "http://127.0.0.1:$fport$fpath" "${fhdr[@]}" "$@"))
  n=($(measure "$npid" "http://127.0.0.1:$nport$npath" "${nhdr[@]}" "$@"))
  echo "| $name | ${f[0]} | ${n[0]} | $(python3 -c "print(f'{${f[0]}/${n[0]}:.2f}x')") | ${f[1]} | ${n[1]} |"
}
fhdr=() nhdr=()
row "article page (HTML) \`$article\`" "$article" "$article"
row "its Markdown \`$markdown\`" "$markdown" "$markdown"
row "posts.json, gzip" /api/posts.json /api/posts.json "Accept-Encoding: gzip"
etag() { curl -sI "$1" | awk 'tolower($1)=="etag:" {sub(/\r$/,"",$2); print $2}'; }
fhdr=("If-None-Match: $(etag "http://127.0.0.1:$fport$article")")
nhdr=("If-None-Match: $(etag "http://127.0.0.1:$nport$article")")
row "article 304 (If-None-Match)" "$article" "$article"

rss_end=$(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$fpid/status)
hwm=$(awk '/VmHWM/ {printf "%.0f MB", $2/1024}' /proc/$fpid/status)
echo
echo "folio serve at $posts posts: start-up to first answer (an article page), three runs: $startup;"
echo "RSS $rss_start after start, $rss_end after the runs (peak $hwm)."
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
