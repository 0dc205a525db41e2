#!/usr/bin/env bash
# Serving at the net/http ceiling (issue 17): folio serve beside a bare
# net/http server answering the same bytes and headers, nginx serving the
# static export and Caddy serving it too, in the same run, on loopback, at
# 10,000 posts (or $1).
#
#   bench/ceiling.sh [POSTS]
#
#   FOLIO=path/to/folio   a binary built elsewhere (e.g. a clean checkout)
#   ROUNDS=5              interleaved rounds per route (at least 5 for a claim)
#   DURATION=5s           each wrk run
#   ROUTES="article …"    a subset of: article markdown cursor notmod postsjson llmsfull
#   CADDY=path/to/caddy   else it is installed into ~/.cache/folio-bench/caddy
#                         (go install …/caddy/v2/cmd/caddy@latest); NO_CADDY=1 skips it
#   FASTHTTP=1            also run bench/peers' fasthttp server
#   BASELINE=path/to/folio  also run another folio binary ("base", e.g. main
#                         before a change) on the same corpus, for an A/B
#   FOLIO_ENV="gogc32:GOGC=32 tight:GOGC=off,GOMEMLIMIT=140MiB"  also run
#                         folio's binary again with those environment
#                         variables, each a server "folio:NAME" (an A/B of
#                         a runtime setting without a second build)
#   BARE_EXTRA="cold:-gogc=8000"  also run the bare server with those flags
#                         (comma-separated), each a server "bare:NAME"
#   NO_NGINX=1            leave nginx out (with NO_CADDY=1: an A/B of folio alone)
#   BARE_HEAP=98          also run the bare server holding that many MB of live
#                         objects with pointers (about folio's heap at 10,000
#                         posts) at BARE_GOGC (default 258, folio serve's there):
#                         "heap", what the heap alone costs a bare server
#   BARE_WORK="300ns 600ns"  also run the bare server spending that much CPU
#                         on each request beyond its answer (a busy loop):
#                         "bare+300ns", what a request's own cost of that
#                         size costs a server in the whole request, the
#                         client's wake-ups included (set it to folio's own
#                         work per request to see whether that explains
#                         the gap)
#   BARE_FRONT="cap coalesce log log+heap"  also run the bare server through
#                         folio's own front end (package front) with those
#                         layers, each a server "front:LAYERS" (see
#                         bench/peers/nethttp/front.go): cap = front.Serve
#                         (folio's http.Server settings, the connection cap),
#                         coalesce = + the coalescing connection, log = + the
#                         access log into a LogWriter to a file, as folio
#                         serve's (discard: the lines made, thrown away);
#                         "+heap" adds BARE_HEAP's heap (98 MB if unset):
#                         the bare server built up to folio a layer at a time
#   BARE_HEAPSCAN=28      shape BARE_HEAP's heap (heap, +heap) as folio's: that
#                         many MB of small objects with pointers, the rest
#                         pointer-free text (folio at 10,000 posts: 28.5 MB of
#                         100 scannable); unset, all of it is 648-byte objects
#                         the collector scans whole (113 MB scannable of 98)
#   SERVER_CPU=0 WRK_CPU=1  the cores: every server is pinned to one, wrk to the other;
#                         WRK_CPU=0 puts wrk on the server's core: no
#                         wake-up of an idle core then, so a server's CPU
#                         per request is its own work (with RT, server and
#                         wrk take turns, each running until it waits), and
#                         the rounds spread far less (BENCHMARKS.md,
#                         "Session 30")
#   WARMUP=10s            wrk on the first route before any round, every server
#                         (each route then gets 1 s more): folio's heap grows to
#                         its collector's goal for the first time then, and the
#                         pages it touches first fault (about 0.5 page per
#                         request until then), a start-up cost, not a request's
#   RT=10                 on a machine others are using: each measured run with
#                         the server's threads and wrk at SCHED_FIFO priority
#                         RT (as root; chrt), set for the run only, with a 1 s
#                         pause after it for everyone else
#
# The servers:
#   folio   folio serve (default config, access log on stderr to a file)
#   bare    bench/peers/nethttp: an http.Handler that answers the routes
#           with folio's exact answers (every header but Date, the body
#           identity and gzip, the 304), copied from this folio serve at
#           its start, and does nothing else: no access log, one map lookup,
#           "gzip" found in Accept-Encoding. folio's ceiling on net/http.
#   heap    (BARE_HEAP) the same bare server holding a live heap of folio's
#           size at folio's GOGC: what remains between it and folio is
#           folio's own work per request, not its heap's
#   nginx   nginx serving `folio build`'s export of the same corpus as
#           static files: one worker, sendfile on, tcp_nopush on,
#           gzip_static on, access log buffered (buffer=64k flush=1s)
#   caddy   Caddy's file_server on the same export, precompressed gzip,
#           no access log (Caddy writes each line in its own system call)
# All get the same base URL, so all send byte-identical bodies; the script
# checks that first (and that bare sends folio's headers too), and stops
# if not.
#
# Each server runs pinned to one core (taskset; the Go servers then run
# with GOMAXPROCS=1), wrk (-t1 -c32, Accept-Encoding: gzip) pinned to the
# other. For each route, ROUNDS rounds; in each, every server once, the
# order rotating from round to round, so that all see the same load. Each
# run gives requests/s and the server's CPU time (user+system of its
# processes, nginx's master and worker, from /proc/PID/stat) over the
# requests answered. The table gives medians with their ranges and
# folio's ratios: req/s folio ÷ other, and CPU other ÷ folio (so that both
# read "1.00x = as cheap, more is better"). A second table gives the
# rescheduling interrupts wrk's core took per request (each a wake-up of
# wrk's idle core, paid inside the server's write(2)) and how a run's CPU
# per request follows them. Raw runs go to bench/out/ceiling/runs.tsv.
#
# Needs go, wrk, nginx, curl, python3, taskset. Writes into
# bench/out/ceiling/ (ignored by git). Every process it starts is stopped
# on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

posts=${1:-10000}
duration=${DURATION:-5s}
rounds=${ROUNDS:-5}
routes=(${ROUTES:-article markdown cursor notmod postsjson llmsfull})
scpu=${SERVER_CPU:-0}
wcpu=${WRK_CPU:-1}
out=bench/out/ceiling
mkdir -p "$out"
out=$(cd "$out" && pwd)

. bench/lib.sh # pids, cleanup, free_port, corpus

content=$(corpus "$out" "$posts")

if [ -n "${FOLIO:-}" ]; then
  rm -f "$out/folio" && cp "$FOLIO" "$out/folio"
else
  echo "== build folio" >&2
  CGO_ENABLED=0 go build -trimpath -o "$out/folio" .
fi
echo "== build the bare peers" >&2
(cd bench/peers && CGO_ENABLED=0 go build -trimpath -o "$out/bare-nethttp" ./nethttp &&
  CGO_ENABLED=0 go build -trimpath -o "$out/bare-fasthttp" ./fasthttp)

caddy=
if [ -z "${NO_CADDY:-}" ]; then
  caddy=${CADDY:-$HOME/.cache/folio-bench/caddy/bin/caddy}
  if [ ! -x "$caddy" ]; then
    echo "== install Caddy into $HOME/.cache/folio-bench/caddy (once)" >&2
    if ! (cd /tmp && GOBIN=$HOME/.cache/folio-bench/caddy/bin GOFLAGS=-mod=mod \
      go install github.com/caddyserver/caddy/v2/cmd/caddy@latest) >&2; then
      echo "bench: Caddy could not be installed; running without it" >&2
      caddy=
    fi
  fi
fi

# One base URL for all: the bodies hold it. Nothing listens there.
base="http://127.0.0.1:8080/"

# The export, unless this binary already made it from this corpus.
stamp="$(sha256sum "$out/folio" | cut -c1-16) $posts"
if [ -n "${NO_NGINX:-}" ] && [ -z "$caddy" ]; then
  : # neither serves it
elif [ "$(cat "$out/public.stamp" 2>/dev/null)" != "$stamp" ]; then
  echo "== folio build (the export nginx and Caddy serve)" >&2
  rm -rf "$out/public" "$out/public.stamp"
  # From $out, as folio serve: no config.toml of the working folder applies.
  (cd "$out" && ./folio build --content "$content" --base-url "$base" --out "$out/public") 2>&1 | tail -1 >&2
  echo "$stamp" > "$out/public.stamp"
fi

up() { curl -s --retry 100 --retry-connrefused --retry-delay 0 --retry-max-time 120 -o /dev/null "$1"; }

declare -A port pid
port[folio]=$(free_port)
echo "== folio serve" >&2
# Run from $out so that no config.toml of the working folder applies.
(cd "$out" && exec taskset -c "$scpu" ./folio serve --content "$content" --base-url "$base" --addr "127.0.0.1:${port[folio]}") 2> "$out/serve.log" &
pid[folio]=$!
pids+=(${pid[folio]})
up "http://127.0.0.1:${port[folio]}/healthz"
F="http://127.0.0.1:${port[folio]}"

# The routes, from folio's own answers.
article=$(curl -sf "$F/api/posts.json" |
  python3 -c 'import json,sys; print("/" + json.load(sys.stdin)["items"][0]["url"].split("/",3)[3])')
markdown="${article%/}.md"
cursor=$(curl -sf "$F/api/posts/cursor/0.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["nextCursor"])')
cursor="/api/posts/cursor/$cursor.json"
declare -A path name
path[article]=$article;    name[article]="article page \`$article\`"
path[markdown]=$markdown;  name[markdown]="its Markdown twin"
path[cursor]=$cursor;      name[cursor]="cursor page (2nd)"
path[notmod]=$article;     name[notmod]="article 304 (If-None-Match)"
path[postsjson]=/api/posts.json; name[postsjson]="\`/api/posts.json\`"
path[llmsfull]=/llms-full.txt;   name[llmsfull]="\`/llms-full.txt\`"
all_paths="$article,$markdown,$cursor,/api/posts.json,/llms-full.txt"
for p in ${all_paths//,/ }; do # the first answer of a page renders it
  curl -s -o /dev/null "$F$p"
  curl -s -o /dev/null -H 'Accept-Encoding: gzip' "$F$p"
done

servers=(folio bare)
if [ -n "${BASELINE:-}" ]; then
  echo "== baseline folio ($BASELINE)" >&2
  rm -f "$out/folio-base" && cp "$BASELINE" "$out/folio-base"
  port[base]=$(free_port)
  (cd "$out" && exec taskset -c "$scpu" ./folio-base serve --content "$content" --base-url "$base" --addr "127.0.0.1:${port[base]}") 2> "$out/serve-base.log" &
  pid[base]=$!
  pids+=(${pid[base]})
  up "http://127.0.0.1:${port[base]}/healthz"
  for p in ${all_paths//,/ }; do
    curl -s -o /dev/null "http://127.0.0.1:${port[base]}$p"
    curl -s -o /dev/null -H 'Accept-Encoding: gzip' "http://127.0.0.1:${port[base]}$p"
  done
  servers+=(base)
fi
for v in ${FOLIO_ENV:-}; do
  s="folio:${v%%:*}"
  IFS=, read -r -a envs <<< "${v#*:}"
  echo "== folio with ${envs[*]}" >&2
  port[$s]=$(free_port)
  (cd "$out" && exec env "${envs[@]}" taskset -c "$scpu" ./folio serve --content "$content" --base-url "$base" --addr "127.0.0.1:${port[$s]}") 2> "$out/serve-${v%%:*}.log" &
  pid[$s]=$!
  pids+=(${pid[$s]})
  up "http://127.0.0.1:${port[$s]}/healthz"
  for p in ${all_paths//,/ }; do
    curl -s -o /dev/null "http://127.0.0.1:${port[$s]}$p"
    curl -s -o /dev/null -H 'Accept-Encoding: gzip' "http://127.0.0.1:${port[$s]}$p"
  done
  servers+=("$s")
done
[ -z "${NO_NGINX:-}" ] && servers+=(nginx)
echo "== bare net/http peer" >&2
port[bare]=$(free_port)
taskset -c "$scpu" "$out/bare-nethttp" -addr "127.0.0.1:${port[bare]}" -from "$F" -paths "$all_paths" &
pid[bare]=$!
pids+=(${pid[bare]})
if [ -n "${BARE_HEAP:-}" ]; then
  port[heap]=$(free_port)
  taskset -c "$scpu" "$out/bare-nethttp" -addr "127.0.0.1:${port[heap]}" -from "$F" -paths "$all_paths" -heap "$BARE_HEAP" -heapscan "${BARE_HEAPSCAN:-0}" -gogc "${BARE_GOGC:-258}" &
  pid[heap]=$!
  pids+=(${pid[heap]})
  servers+=(heap)
fi
for w in ${BARE_WORK:-}; do
  port[bare+$w]=$(free_port)
  taskset -c "$scpu" "$out/bare-nethttp" -addr "127.0.0.1:${port[bare+$w]}" -from "$F" -paths "$all_paths" -work "$w" &
  pid[bare+$w]=$!
  pids+=(${pid[bare+$w]})
  servers+=("bare+$w")
done
for v in ${BARE_EXTRA:-}; do
  s="bare:${v%%:*}"
  IFS=, read -r -a flags <<< "${v#*:}"
  port[$s]=$(free_port)
  taskset -c "$scpu" "$out/bare-nethttp" -addr "127.0.0.1:${port[$s]}" -from "$F" -paths "$all_paths" "${flags[@]}" &
  pid[$s]=$!
  pids+=(${pid[$s]})
  servers+=("$s")
done
for l in ${BARE_FRONT:-}; do
  s="front:$l" fl=${l%+heap} extra=()
  [ "$fl" != "$l" ] && extra=(-heap "${BARE_HEAP:-98}" -heapscan "${BARE_HEAPSCAN:-0}" -gogc "${BARE_GOGC:-258}")
  port[$s]=$(free_port)
  taskset -c "$scpu" "$out/bare-nethttp" -addr "127.0.0.1:${port[$s]}" -from "$F" -paths "$all_paths" -front "$fl" "${extra[@]}" 2> "$out/front-$l.log" &
  pid[$s]=$!
  pids+=(${pid[$s]})
  servers+=("$s")
done
if [ -n "${FASTHTTP:-}" ]; then
  port[fasthttp]=$(free_port)
  taskset -c "$scpu" "$out/bare-fasthttp" -addr "127.0.0.1:${port[fasthttp]}" -from "$F" -paths "$all_paths" &
  pid[fasthttp]=$!
  pids+=(${pid[fasthttp]})
  servers+=(fasthttp)
fi

if [ -z "${NO_NGINX:-}" ]; then
echo "== nginx" >&2
port[nginx]=$(free_port)
mkdir -p "$out/nginx"
rm -f "$out/nginx/access.log"
cat > "$out/nginx/nginx.conf" <<EOF
daemon off;
worker_processes 1;
pid $out/nginx/nginx.pid;
error_log $out/nginx/error.log warn;
events { worker_connections 4096; }
http {
    include /etc/nginx/mime.types;
    types { text/markdown md; }
    access_log $out/nginx/access.log combined buffer=64k flush=1s;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    client_body_temp_path $out/nginx/body;
    proxy_temp_path $out/nginx/proxy;
    fastcgi_temp_path $out/nginx/fastcgi;
    uwsgi_temp_path $out/nginx/uwsgi;
    scgi_temp_path $out/nginx/scgi;
    server {
        listen 127.0.0.1:${port[nginx]};
        root $out/public;
        gzip_static on;
        gzip_vary on;
    }
}
EOF
taskset -c "$scpu" nginx -p "$out/nginx" -c "$out/nginx/nginx.conf" -e "$out/nginx/error.log" &
pid[nginx]=$!
pids+=(${pid[nginx]})
fi

if [ -n "$caddy" ]; then
  echo "== caddy $(go version -m "$caddy" | awk '$2 == "github.com/caddyserver/caddy/v2" {print $3}')" >&2
  port[caddy]=$(free_port)
  mkdir -p "$out/caddy"
  cat > "$out/caddy/Caddyfile" <<EOF
{
	admin off
	auto_https off
	persist_config off
	storage file_system $out/caddy/data
}
http://127.0.0.1:${port[caddy]} {
	root * $out/public
	file_server {
		precompressed gzip
	}
}
EOF
  HOME=$out/caddy XDG_DATA_HOME=$out/caddy XDG_CONFIG_HOME=$out/caddy \
    taskset -c "$scpu" "$caddy" run --config "$out/caddy/Caddyfile" --adapter caddyfile 2> "$out/caddy/caddy.log" &
  pid[caddy]=$!
  pids+=(${pid[caddy]})
  servers+=(caddy)
else
  echo "bench: no Caddy in this run (NO_CADDY set or it could not be installed)" >&2
fi

for s in "${servers[@]}"; do up "http://127.0.0.1:${port[$s]}$article"; done

# Everyone sends the same bodies, and bare the same headers as folio, or
# the comparison means nothing.
echo "== check bodies and headers" >&2
hdrs() { curl -sf -D - -o /dev/null "$@" | tr -d '\r' | grep -iv '^date:' | grep -v '^$' | sort; }
for p in ${all_paths//,/ }; do
  for enc in identity gzip; do
    want=$(curl -sf -H "Accept-Encoding: $enc" "$F$p" | sha256sum)
    for s in "${servers[@]}"; do
      got=$(curl -sf -H "Accept-Encoding: $enc" "http://127.0.0.1:${port[$s]}$p" | sha256sum)
      [ "$got" = "$want" ] || { echo "bench: $s sends another body for $p ($enc) than folio" >&2; exit 1; }
    done
    [ "$(hdrs -H "Accept-Encoding: $enc" "$F$p")" = "$(hdrs -H "Accept-Encoding: $enc" "http://127.0.0.1:${port[bare]}$p")" ] ||
      { echo "bench: bare sends other headers for $p ($enc) than folio" >&2; exit 1; }
  done
done
etag() { curl -sI -H 'Accept-Encoding: gzip' "$1" | awk 'tolower($1)=="etag:" {sub(/\r$/,"",$2); print $2}'; }
declare -A inm
for s in "${servers[@]}"; do
  inm[$s]=$(etag "http://127.0.0.1:${port[$s]}$article")
  code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Accept-Encoding: gzip' -H "If-None-Match: ${inm[$s]}" "http://127.0.0.1:${port[$s]}$article")
  [ "$code" = 304 ] || { echo "bench: $s answers $code, not 304, to its own ETag" >&2; exit 1; }
done
[ "$(hdrs -H 'Accept-Encoding: gzip' -H "If-None-Match: ${inm[folio]}" "$F$article")" = \
  "$(hdrs -H 'Accept-Encoding: gzip' -H "If-None-Match: ${inm[folio]}" "http://127.0.0.1:${port[bare]}$article")" ] ||
  { echo "bench: bare's 304 headers differ from folio's" >&2; exit 1; }

# procs SERVER: its processes (nginx: master and worker).
procs() {
  if [ "$1" = nginx ]; then echo "${pid[nginx]}" $(ps -o pid= --ppid "${pid[nginx]}"); else echo "${pid[$1]}"; fi
}
cpu() { for p in "$@"; do cut -d' ' -f14,15 "/proc/$p/stat"; done | awk '{t += $1 + $2} END {print t}'; }
hz=$(getconf CLK_TCK)

# ipis: the rescheduling interrupts CPU $wcpu has taken (/proc/interrupts,
# RES): each is wrk's core woken from idle by a server's wake-up of wrk
# (its write(2) of an answer to a wrk asleep in epoll_wait), which the
# server's core pays for inside that write.
ipis() { awk -v c="$wcpu" '$1 == "RES:" {print $(c + 2)}' /proc/interrupts; }

measure() { # SERVER ROUTE → "req/s µs-CPU/req non-2xx IPIs/req"
  local s=$1 r=$2 args=(-H "Accept-Encoding: gzip") ps c0 c1 i0 i1 o q
  [ "$r" = notmod ] && args+=(-H "If-None-Match: ${inm[$s]}")
  ps=$(procs "$s")
  c0=$(cpu $ps) i0=$(ipis)
  if [ -n "${RT:-}" ]; then
    for q in $ps; do chrt -a -f -p "$RT" "$q" > /dev/null; done
    o=$(timeout 120 chrt -f "$RT" taskset -c "$wcpu" wrk -t1 -c32 -d"$duration" "${args[@]}" "http://127.0.0.1:${port[$s]}${path[$r]}")
    c1=$(cpu $ps) i1=$(ipis)
    for q in $ps; do chrt -a -o -p 0 "$q" > /dev/null; done
    sleep 1
  else
    o=$(taskset -c "$wcpu" wrk -t1 -c32 -d"$duration" "${args[@]}" "http://127.0.0.1:${port[$s]}${path[$r]}")
    c1=$(cpu $ps) i1=$(ipis)
  fi
  echo "$o" | awk -v c="$((c1 - c0))" -v hz="$hz" -v ipi="$((i1 - i0))" \
    '/requests in/ {n = $1} /Requests\/sec/ {r = $2} /Non-2xx/ {bad = $NF} END {printf "%.0f %.2f %d %.4f", r, c * 1e6 / hz / n, bad, ipi / n}'
}

runs=$out/runs.tsv
warm=${WARMUP:-10s}
{
  echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null) posts=$posts duration=$duration rounds=$rounds warmup=$warm rt=${RT:-} load=$(cut -d' ' -f1-3 /proc/loadavg)"
  printf 'route\tserver\tround\treqs\tcpu_us\tipis\n'
} > "$runs"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date -u +%H:%M)
echo "== warm-up: $warm of ${routes[0]} each" >&2
for s in "${servers[@]}"; do taskset -c "$wcpu" wrk -t1 -c32 -d"$warm" -H 'Accept-Encoding: gzip' "http://127.0.0.1:${port[$s]}${path[${routes[0]}]}" > /dev/null; done
for r in "${routes[@]}"; do
  echo "== $r (${path[$r]})" >&2
  for s in "${servers[@]}"; do taskset -c "$wcpu" wrk -t1 -c32 -d1s -H 'Accept-Encoding: gzip' "http://127.0.0.1:${port[$s]}${path[$r]}" > /dev/null; done
  n=${#servers[@]}
  for i in $(seq "$rounds"); do
    for j in $(seq 0 $((n - 1))); do
      s=${servers[$(((i + j) % n))]}
      read -r rps us bad ipi <<< "$(measure "$s" "$r")"
      if [ "$r" = notmod ]; then bad=0; fi # a 304 is wrk's "non-2xx"
      [ "$bad" = 0 ] || { echo "bench: $s answered $bad non-2xx to $r" >&2; exit 1; }
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$s" "$i" "$rps" "$us" "$ipi" >> "$runs"
    done
  done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

echo "$(nproc) cores; $posts posts; $(date -u +%F) $start–$(date -u +%H:%M) UTC; folio at $(git rev-parse --short HEAD 2>/dev/null); load average before $load0, after $load1"
echo "each server pinned to CPU $scpu, wrk -t1 -c32 -d$duration pinned to CPU $wcpu${RT:+, both at SCHED_FIFO $RT during each run}; warm-up $warm; $rounds interleaved rounds; medians (min–max)"
echo
python3 - "$runs" "$([ "$scpu" = "$wcpu" ] && echo 1 || echo 0)" "${servers[@]}" <<'EOF'
import csv, statistics as st, sys
runs, samecore, servers = sys.argv[1], sys.argv[2] == "1", sys.argv[3:]
names = {"article": "article page (gzip)", "markdown": "its Markdown twin (gzip)",
         "cursor": "cursor page, 2nd (gzip)", "notmod": "article 304 (If-None-Match)",
         "postsjson": "/api/posts.json (gzip, 510 KB)", "llmsfull": "/llms-full.txt (gzip, 406 KB)"}
rows = {}
with open(runs) as f:
    for rec in csv.DictReader((l for l in f if not l.startswith("#")), delimiter="\t"):
        rows.setdefault(rec["route"], {}).setdefault(rec["server"], {})[int(rec["round"])] = (float(rec["reqs"]), float(rec["cpu_us"]), float(rec["ipis"]))
def med(xs): return st.median(xs)
def rng(xs, fmt): return f"{fmt(med(xs))} ({fmt(min(xs))}–{fmt(max(xs))})"
i0 = lambda x: f"{x:.0f}"
f1 = lambda x: f"{x:.1f}"
others = [s for s in servers if s != "folio"]
print("| route | " + " | ".join(f"{s} req/s" for s in servers) + " | " + " | ".join(f"{s} µs CPU/req" for s in servers) + " | " +
      " | ".join(f"folio ÷ {s}: req/s, CPU" for s in others) + " |")
print("| --- |" + " ---: |" * (2 * len(servers)) + " --- |" * len(others))
for route, by in rows.items():
    cells = [rng([v[0] for v in by[s].values()], i0) for s in servers]
    cells += [rng([v[1] for v in by[s].values()], f1) for s in servers]
    for o in others:
        # per round, paired: folio's req/s over the other's, the other's CPU over folio's
        rr = [by["folio"][k][0] / by[o][k][0] for k in by["folio"] if k in by[o]]
        cr = [by[o][k][1] / by["folio"][k][1] for k in by["folio"] if k in by[o]]
        cells.append(f"**{med(rr):.2f}x** ({min(rr):.2f}–{max(rr):.2f}), **{med(cr):.2f}x** ({min(cr):.2f}–{max(cr):.2f})")
    print(f"| {names.get(route, route)} | " + " | ".join(cells) + " |")
# wrk's core woken from idle per request (see ipis), and how much of a
# run's CPU per request goes with it: the least-squares line of µs CPU
# per request on IPIs per request over every run of the route, all
# servers together (slope: µs per IPI; r: the correlation). Not when
# wrk shares the server's core: it is never woken from idle then.
if samecore:
    sys.exit()
print()
print("| route | " + " | ".join(f"{s} IPIs/req" for s in servers) + " | µs CPU per IPI, r |")
print("| --- |" + " ---: |" * len(servers) + " --- |")
f2 = lambda x: f"{x:.2f}"
for route, by in rows.items():
    cells = [rng([v[2] for v in by[s].values()], f2) for s in servers]
    xs = [v[2] for s in servers for v in by[s].values()]
    ys = [v[1] for s in servers for v in by[s].values()]
    try:
        fit = st.linear_regression(xs, ys)
        cells.append(f"{fit.slope:.1f}, {st.correlation(xs, ys):.2f}")
    except st.StatisticsError:
        cells.append("")
    print(f"| {names.get(route, route)} | " + " | ".join(cells) + " |")
EOF
