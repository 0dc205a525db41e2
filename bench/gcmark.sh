#!/usr/bin/env bash
# The collector's price per request in folio serve (issue 17): each binary
# serves the same corpus under GODEBUG=gctrace=1, pinned to one core, and
# wrk asks one route for DURATION, ROUNDS times, the binaries alternating
# (A B A B …). For each run: the requests, the collections that ended
# during it, their CPU (gctrace's assist + background + idle mark time),
# the server's whole CPU (/proc/PID/stat) and the live heap after the last
# collection (gctrace's third heap size), and the resident size after the
# run and at its peak (VmRSS, VmHWM: the price of a collector that runs
# less often).
#
#   bench/gcmark.sh [POSTS]
#
#   FOLIO="old new"     the binaries to compare (default: this checkout, built)
#   ROUTE=notmod        article (gzip page), notmod (its 304), markdown, cursor
#   ROUNDS=5 DURATION=10s
#   SERVER_CPU=0 WRK_CPU=1
#   RT=5                each run with the server's threads and wrk at SCHED_FIFO
#                       RT (chrt, as in ceiling.sh), then a 1 s pause
#   NO_BARE=1           leave out bench/peers/nethttp (the bare net/http server
#                       answering folio's bytes and headers, as in ceiling.sh),
#                       which otherwise runs last in each round, under gctrace too
#   BARE_HEAP=98        also the bare server holding that many MB of live objects
#                       with pointers at BARE_GOGC (default 258), as in ceiling.sh:
#                       the collector's price of folio's heap without folio
#   BARE_HEAPSCAN=28    that heap shaped as folio's (as in ceiling.sh)
#
# Every binary is started the same way: no parse cache (--no-cache, so
# each parses the corpus), the routes of bench/ceiling.sh asked once
# (posts.json and llms-full.txt included, which memoize every post's
# Markdown), then 5 s for start-up's collector setting to lapse. Raw runs
# in bench/out/gcmark/runs.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."

posts=${1:-10000}
duration=${DURATION:-10s}
rounds=${ROUNDS:-5}
route=${ROUTE:-notmod}
scpu=${SERVER_CPU:-0}
wcpu=${WRK_CPU:-1}
out=bench/out/gcmark
mkdir -p "$out"
out=$(cd "$out" && pwd)

. bench/lib.sh # pids, cleanup, free_port, corpus

content=$(corpus "$out" "$posts")
bins=()
if [ -n "${FOLIO:-}" ]; then
  for b in $FOLIO; do bins+=("$(cd "$(dirname "$b")" && pwd)/$(basename "$b")"); done
else
  echo "== build folio" >&2
  CGO_ENABLED=0 go build -trimpath -o "$out/folio" .
  bins=("$out/folio")
fi

up() { curl -s --retry 100 --retry-connrefused --retry-delay 0 --retry-max-time 120 -o /dev/null "$1"; }
base="http://127.0.0.1:8080/"
declare -a port pid log
for i in "${!bins[@]}"; do
  port[$i]=$(free_port)
  log[$i]=$out/serve-$i.log
  (cd "$out" && GODEBUG=gctrace=1 exec taskset -c "$scpu" "${bins[$i]}" serve --no-cache --content "$content" \
    --base-url "$base" --addr "127.0.0.1:${port[$i]}") 2> "${log[$i]}" &
  pid[$i]=$!
  pids+=(${pid[$i]})
  up "http://127.0.0.1:${port[$i]}/healthz"
done
F="http://127.0.0.1:${port[0]}"
article=$(curl -sf "$F/api/posts.json" |
  python3 -c 'import json,sys; print("/" + json.load(sys.stdin)["items"][0]["url"].split("/",3)[3])')
cursor=$(curl -sf "$F/api/posts/cursor/0.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["nextCursor"])')
case $route in
  article|notmod) p=$article ;;
  markdown) p=${article%/}.md ;;
  cursor) p=/api/posts/cursor/$cursor.json ;;
  *) echo "bench: unknown ROUTE $route" >&2; exit 2 ;;
esac
declare -a inm
names=()
for i in "${!bins[@]}"; do names[$i]="$(basename "${bins[$i]}")-$i"; done
if [ -z "${NO_BARE:-}" ]; then
  echo "== the bare net/http peer" >&2
  (cd bench/peers && CGO_ENABLED=0 go build -trimpath -o "$out/bare-nethttp" ./nethttp)
  i=${#bins[@]}
  port[$i]=$(free_port)
  log[$i]=$out/bare.log
  GODEBUG=gctrace=1 taskset -c "$scpu" "$out/bare-nethttp" -addr "127.0.0.1:${port[$i]}" -from "$F" \
    -paths "$article,${article%/}.md,/api/posts/cursor/$cursor.json,/api/posts.json,/llms-full.txt" 2> "${log[$i]}" &
  pid[$i]=$!
  pids+=(${pid[$i]})
  names[$i]=bare
  up "http://127.0.0.1:${port[$i]}$article"
  if [ -n "${BARE_HEAP:-}" ]; then
    i=$((i + 1))
    port[$i]=$(free_port)
    log[$i]=$out/bare-heap.log
    GODEBUG=gctrace=1 taskset -c "$scpu" "$out/bare-nethttp" -addr "127.0.0.1:${port[$i]}" -from "$F" \
      -paths "$article,${article%/}.md,/api/posts/cursor/$cursor.json,/api/posts.json,/llms-full.txt" \
      -heap "$BARE_HEAP" -heapscan "${BARE_HEAPSCAN:-0}" -gogc "${BARE_GOGC:-258}" 2> "${log[$i]}" &
    pid[$i]=$!
    pids+=(${pid[$i]})
    names[$i]=bare-heap
    up "http://127.0.0.1:${port[$i]}$article"
  fi
fi
for i in "${!names[@]}"; do
  for q in "$article" "${article%/}.md" "/api/posts/cursor/$cursor.json" /api/posts.json /llms-full.txt; do
    curl -s -o /dev/null "http://127.0.0.1:${port[$i]}$q"
    curl -s -o /dev/null -H 'Accept-Encoding: gzip' "http://127.0.0.1:${port[$i]}$q"
  done
  inm[$i]=$(curl -sI -H 'Accept-Encoding: gzip' "http://127.0.0.1:${port[$i]}$article" | awk 'tolower($1)=="etag:" {sub(/\r$/,"",$2); print $2}')
done
sleep 5

hz=$(getconf CLK_TCK)
cpu() { cut -d' ' -f14,15 "/proc/$1/stat" | awk '{print $1 + $2}'; }
# gctrace's lines, found anywhere: they may land inside an access line.
gctrace() { grep -ao 'gc [0-9]* @[0-9.]*s [0-9]*%: [^,]*, [0-9.+/]* ms cpu, [0-9]*->[0-9]*->[0-9]* MB' "$1" || true; }
gclines() { gctrace "$1" | wc -l; }
runs=$out/runs.tsv
load0=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date -u +%H:%M)
{
  echo "# $(date -u +%FT%TZ) posts=$posts route=$route duration=$duration rounds=$rounds load=$load0"
  printf 'binary\tround\treqs\tcpu_us_per_req\tgcs\tgc_cpu_ms\tgc_us_per_req\tlive_mb\trss_mb\tpeak_rss_mb\n'
} > "$runs"
for r in $(seq "$rounds"); do
  for i in "${!names[@]}"; do
    args=(-H 'Accept-Encoding: gzip')
    [ "$route" = notmod ] && args+=(-H "If-None-Match: ${inm[$i]}")
    g0=$(gclines "${log[$i]}")
    c0=$(cpu "${pid[$i]}")
    if [ -n "${RT:-}" ]; then
      chrt -a -f -p "$RT" "${pid[$i]}" > /dev/null
      o=$(timeout 120 chrt -f "$RT" taskset -c "$wcpu" wrk -t1 -c32 -d"$duration" "${args[@]}" "http://127.0.0.1:${port[$i]}$p")
      c1=$(cpu "${pid[$i]}")
      chrt -a -o -p 0 "${pid[$i]}" > /dev/null
      sleep 1
    else
      o=$(taskset -c "$wcpu" wrk -t1 -c32 -d"$duration" "${args[@]}" "http://127.0.0.1:${port[$i]}$p")
      c1=$(cpu "${pid[$i]}")
    fi
    n=$(echo "$o" | awk '/requests in/ {print $1}')
    # gc N @T s P%: a+b+c ms clock, a+b/c/d+e ms cpu, x->y->z MB, …
    read -r gcs gcms live <<< "$(gctrace "${log[$i]}" | tail -n +"$((g0 + 1))" | awk '
      { split($0, a, " ms cpu"); k = split(a[1], w, " "); gsub(/[+\/]/, " ", w[k]); m = split(w[k], c, " ");
        for (j = 1; j <= m; j++) ms += c[j]; n++
        for (j = 1; j <= NF; j++) if ($j ~ /->.*->/) { split($j, h, "->"); lv = h[3] } }
      END { printf "%d %.1f %s\n", n, ms, (lv == "" ? "-" : lv) }')"
    printf '%s\t%s\t%s\t%.2f\t%s\t%s\t%.2f\t%s\t%s\t%s\n' "${names[$i]}" "$r" "$n" \
      "$(echo "$c1 $c0 $hz $n" | awk '{print ($1 - $2) * 1e6 / $3 / $4}')" "$gcs" "$gcms" \
      "$(echo "$gcms $n" | awk '{print $1 * 1000 / $2}')" "$live" \
      "$(awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/${pid[$i]}/status")" \
      "$(awk '/^VmHWM/ {print int($2 / 1024)}' "/proc/${pid[$i]}/status")" >> "$runs"
  done
done
echo "$(nproc) cores; $posts posts; route $route ($p); $(date -u +%F) $start–$(date -u +%H:%M) UTC; load average before $load0, after $(cut -d' ' -f1-3 /proc/loadavg)"
column -t "$runs" | grep -v '^#'
echo
python3 - "$runs" <<'PY'
import csv, statistics as st, sys
by = {}
with open(sys.argv[1]) as f:
    for r in csv.DictReader((l for l in f if not l.startswith("#")), delimiter="\t"):
        by.setdefault(r["binary"], []).append(r)
# A run has a collection or none (folio: one every few hundred thousand
# requests), so a run's collector CPU per request is 0 or a collection's
# worth; "all runs" is the collector's CPU over all the runs' requests.
print("| server | runs | µs CPU/req | collections/run | ms CPU per collection | µs collector CPU/req, per run | µs collector CPU/req, all runs | live heap MB | RSS MB after a run | peak RSS MB |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for b, rs in by.items():
    cpu = [float(r["cpu_us_per_req"]) for r in rs]
    gcs = [int(r["gcs"]) for r in rs]
    per = [float(r["gc_cpu_ms"]) / int(r["gcs"]) for r in rs if int(r["gcs"])]
    gus = [float(r["gc_us_per_req"]) for r in rs]
    live = [float(r["live_mb"]) for r in rs if r["live_mb"] != "-"]
    rss = [float(r["rss_mb"]) for r in rs]
    peak = max(float(r["peak_rss_mb"]) for r in rs)
    pooled = sum(float(r["gc_cpu_ms"]) for r in rs) * 1000 / sum(int(r["reqs"]) for r in rs)
    m = lambda xs, f="%.1f": (f % st.median(xs) + " (" + f % min(xs) + "–" + f % max(xs) + ")") if xs else "-"
    print(f"| {b} | {len(rs)} | {m(cpu)} | {m(gcs, '%.0f')} | {m(per)} | {m(gus, '%.2f')} | {pooled:.2f} | {m(live, '%.0f')} | {m(rss, '%.0f')} | {peak:.0f} |")
PY
