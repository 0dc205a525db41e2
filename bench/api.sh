#!/usr/bin/env bash
# API benchmark: folio serve beside nginx serving the very same bytes from
# files, in the same run, on loopback, at 10,000 posts (or $1).
#
#   bench/api.sh [POSTS]          (FOLIO=path/to/folio to skip the build,
#                                  ROUNDS=n, DURATION=5s)
#
# nginx gets /api/posts.json and one cursor page exactly as folio answers
# them, identity and gzip (the .gz files hold folio's own gzip bytes;
# gzip_static on), so both send the same bodies. wrk -t1 -c32 with
# Accept-Encoding: gzip measures posts.json, the cursor page, and a 304
# revalidation of posts.json (If-None-Match with each server's own ETag).
# The machine is shared, so each figure is the median of $ROUNDS runs (3)
# taken alternately, folio then nginx, so that both see the same load;
# the CPU columns (user+system time of the server's processes during the
# run, over the requests answered) are what that load disturbs least.
#
# For the two small answers it also measures the ceiling: bench/peers'
# bare servers answer the cursor page and posts.json with folio's bytes and
# headers (copied from this folio serve; a 304 for its ETag) and do
# nothing else, one through
# net/http (an http.Handler, as folio is), one through valyala/fasthttp (a
# different HTTP server; bench/peers is a module of its own, so folio never
# depends on it). Their columns say how near folio comes to what its HTTP
# server allows, and what another server would allow.
#
# Needs go, wrk, nginx, curl, python3. Writes into bench/out/api/ (ignored
# by git) and prints a Markdown table for BENCHMARKS.md. Every process it
# starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

posts=${1:-10000}
duration=${DURATION:-5s}
rounds=${ROUNDS:-3}
out=bench/out/api
mkdir -p "$out"
out=$(cd "$out" && pwd)

. bench/lib.sh # pids, cleanup, free_port, corpus

content=$(corpus "$out" "$posts")

if [ -n "${FOLIO:-}" ]; then # a binary built elsewhere, e.g. from a clean checkout
  cp "$FOLIO" "$out/folio"
else
  echo "== build folio" >&2
  CGO_ENABLED=0 go build -trimpath -o "$out/folio" .
fi
echo "== build the bare peers" >&2
(cd bench/peers && CGO_ENABLED=0 go build -trimpath -o "$out/bare-nethttp" ./nethttp &&
  CGO_ENABLED=0 go build -trimpath -o "$out/bare-fasthttp" ./fasthttp)

fport=$(free_port)
nport=$(free_port)
base="http://127.0.0.1:$fport/"

echo "== folio serve" >&2
# Run from $out so that no config.toml of the working folder applies.
(cd "$out" && exec ./folio serve --content "$content" --base-url "$base" --addr "127.0.0.1:$fport") 2> "$out/serve.log" &
fpid=$!
pids+=($fpid)
curl -s --retry 50 --retry-connrefused --retry-delay 0 -o /dev/null "http://127.0.0.1:$fport/healthz"

echo "== the same bytes as files for nginx" >&2
root="$out/root"
rm -rf "$root"
mkdir -p "$root/api/posts/cursor"
cursor=$(curl -sf "http://127.0.0.1:$fport/api/posts/cursor/0.json" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["nextCursor"])')
page="/api/posts/cursor/$cursor.json"
for path in /api/posts.json "$page"; do
  curl -sf -o "$root$path" "http://127.0.0.1:$fport$path"
  curl -sf -H 'Accept-Encoding: gzip' -o "$root$path.gz" "http://127.0.0.1:$fport$path"
done

mkdir -p "$out/nginx"
cat > "$out/nginx/nginx.conf" <<EOF
daemon off;
worker_processes auto;
pid $out/nginx/nginx.pid;
error_log $out/nginx/error.log warn;
events { worker_connections 4096; }
http {
    access_log $out/nginx/access.log combined buffer=64k flush=1s; # folio serve logs every request too
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    client_body_temp_path $out/nginx/body;
    proxy_temp_path $out/nginx/proxy;
    fastcgi_temp_path $out/nginx/fastcgi;
    uwsgi_temp_path $out/nginx/uwsgi;
    scgi_temp_path $out/nginx/scgi;
    types { application/json json; }
    server {
        listen 127.0.0.1:$nport;
        root $root;
        gzip_static on;
        gzip_vary on;
        etag on;
        add_header Cache-Control "public, max-age=300";
        add_header Access-Control-Allow-Origin "*";
    }
}
EOF
echo "== nginx" >&2
nginx -p "$out/nginx" -c "$out/nginx/nginx.conf" -e "$out/nginx/error.log" &
npid=$!
pids+=($npid)
curl -s --retry 50 --retry-connrefused --retry-delay 0 -o /dev/null "http://127.0.0.1:$nport/api/posts.json"

# Both must send the same bytes, or the comparison means nothing.
for path in /api/posts.json "$page"; do
  for enc in identity gzip; do
    a=$(curl -sf -H "Accept-Encoding: $enc" "http://127.0.0.1:$fport$path" | sha256sum)
    b=$(curl -sf -H "Accept-Encoding: $enc" "http://127.0.0.1:$nport$path" | sha256sum)
    [ "$a" = "$b" ] || { echo "bench: $path ($enc) differs between folio and nginx" >&2; exit 1; }
  done
done

echo "== the bare peers" >&2
hport=$(free_port)
xport=$(free_port)
etag() { curl -sI -H 'Accept-Encoding: gzip' "$1" | awk 'tolower($1)=="etag:" {sub(/\r$/,"",$2); print $2}'; }
fe=$(etag "http://127.0.0.1:$fport/api/posts.json")
"$out/bare-nethttp" -addr "127.0.0.1:$hport" -from "http://127.0.0.1:$fport" -paths "$page,/api/posts.json" &
hpid=$!
pids+=($hpid)
"$out/bare-fasthttp" -addr "127.0.0.1:$xport" -from "http://127.0.0.1:$fport" -paths "$page,/api/posts.json" &
xpid=$!
pids+=($xpid)
for port in "$hport" "$xport"; do
  curl -s --retry 50 --retry-connrefused --retry-delay 0 -o /dev/null "http://127.0.0.1:$port/"
  a=$(curl -sf -H "Accept-Encoding: gzip" "http://127.0.0.1:$port$page" | sha256sum)
  b=$(curl -sf -H "Accept-Encoding: gzip" "http://127.0.0.1:$fport$page" | sha256sum)
  [ "$a" = "$b" ] || { echo "bench: the bare peer on $port does not send folio's cursor page" >&2; exit 1; }
done


# cpu PID… → user+system clock ticks used so far by those processes.
cpu() { for p in "$@"; do cut -d' ' -f14,15 "/proc/$p/stat"; done | awk '{t += $1 + $2} END {print t}'; }
servers() { # the processes of one server: folio, nginx and its workers, or a bare peer
  case $1 in
  folio) echo "$fpid" ;;
  nginx) echo "$npid" $(ps -o pid= --ppid "$npid") ;;
  nethttp) echo "$hpid" ;;
  fasthttp) echo "$xpid" ;;
  esac
}
port() { case $1 in folio) echo "$fport" ;; nginx) echo "$nport" ;; nethttp) echo "$hport" ;; fasthttp) echo "$xport" ;; esac; }

measure() { # folio|nginx URL [header…] → "requests/s µs-of-CPU/request"
  local who=$1 url=$2; shift 2
  local args=(-H "Accept-Encoding: gzip") ps c0 c1 out
  for h in "$@"; do args+=(-H "$h"); done
  ps=$(servers "$who")
  c0=$(cpu $ps)
  out=$(wrk -t1 -c32 -d"$duration" "${args[@]}" "$url")
  c1=$(cpu $ps)
  echo "$out" | awk -v c="$((c1 - c0))" -v hz="$(getconf CLK_TCK)" \
    '/requests in/ {n = $1} /Requests\/sec/ {r = $2} END {printf "%.0f %.0f", r, c * 1e6 / hz / n}'
}

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

ratio() { python3 -c "print(f'{$1/$2:.2f}x')"; }

row() { # name path peers(yes|no) [folio-header nginx-header]
  local name=$1 path=$2 peers=$3 fh=${4:-} nh=${5:-} who m
  local -A rs cs
  local all=(folio nginx)
  [ "$peers" = yes ] && all+=(nethttp fasthttp)
  for _ in $(seq "$rounds"); do # alternately, so that all see the same load
    for who in "${all[@]}"; do
      local h=$fh
      [ "$who" = nginx ] && h=$nh
      read -r -a m <<< "$(measure "$who" "http://127.0.0.1:$(port "$who")$path" ${h:+"$h"})"
      rs[$who]+="${m[0]} "
      cs[$who]+="${m[1]} "
    done
  done
  local -A med
  for who in "${all[@]}"; do med[$who]=$(median ${rs[$who]}); done
  local fm=${med[folio]} nm=${med[nginx]} bare="— | —"
  if [ "$peers" = yes ]; then
    bare="${med[nethttp]} = $(ratio "${med[nethttp]}" "$nm"); folio at $(ratio "$fm" "${med[nethttp]}") of it | ${med[fasthttp]} = $(ratio "${med[fasthttp]}" "$nm")"
  fi
  echo "| $name | $fm (${rs[folio]% }) | $nm (${rs[nginx]% }) | **$(ratio "$fm" "$nm")** | $(median ${cs[folio]}) | $(median ${cs[nginx]}) | $bare |"
}

size=$(stat -c %s "$root/api/posts.json")
gzsize=$(stat -c %s "$root/api/posts.json.gz")
echo "$(nproc) cores; $posts posts; posts.json $size bytes, $gzsize gzipped; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| request (Accept-Encoding: gzip) | folio serve, req/s: median (runs) | nginx, same bytes, req/s: median (runs) | folio ÷ nginx | folio µs CPU/req | nginx µs CPU/req | bare net/http req/s ÷ nginx | bare fasthttp req/s ÷ nginx |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |"
row "/api/posts.json" /api/posts.json no
row "cursor page (2nd)" "$page" yes
ne=$(etag "http://127.0.0.1:$nport/api/posts.json")
row "posts.json 304 (If-None-Match)" /api/posts.json yes "If-None-Match: $fe" "If-None-Match: $ne"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
