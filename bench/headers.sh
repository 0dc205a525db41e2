#!/usr/bin/env bash
# What issue 19's headers cost: folio serve built before them beside folio
# serve built now, on the same corpus, in the same run, alternately.
#
#   bench/headers.sh [POSTS] [BEFORE] [AFTER]   (ROUNDS=n (5), DURATION=5s)
#
# BEFORE and AFTER are the commits compared (default: the one before the
# agent headers, cdffd93^, and the commit that added them, cdffd93, so
# that nothing else differs). Both servers are pinned to core 0 and wrk to core 1
# (taskset). For one article page (gzip, a browser's Accept) and its
# Markdown twin (gzip), each round runs wrk -t1 -c32 against before and
# then after; the columns are medians over the rounds of requests per
# second and of CPU time per request (user+system time of the server
# process over the requests answered): on a shared machine the CPU time
# is what the other load disturbs least.
#
# Needs go, git, wrk, curl, taskset. Writes into bench/out/headers/.
set -euo pipefail
cd "$(dirname "$0")/.."

posts=${1:-10000}
before=${2:-cdffd93^}
after=${3:-cdffd93}
duration=${DURATION:-5s}
rounds=${ROUNDS:-5}
out=bench/out/headers
mkdir -p "$out"
out=$(cd "$out" && pwd)

. bench/lib.sh # pids, cleanup, free_port, corpus

content=$(corpus "$out" "$posts")

for who in before after; do
  echo "== build folio at ${!who}" >&2
  rm -rf "$out/src-$who"
  mkdir -p "$out/src-$who"
  git archive "${!who}" | tar -x -C "$out/src-$who"
  (cd "$out/src-$who" && CGO_ENABLED=0 go build -trimpath -o "$out/folio-$who" .)
done

declare -A port pid
for who in before after; do
  port[$who]=$(free_port)
  (cd "$out" && exec taskset -c 0 "./folio-$who" serve --content "$content" --base-url "http://127.0.0.1:${port[$who]}/" \
    --addr "127.0.0.1:${port[$who]}") 2> "$out/serve-$who.log" &
  pid[$who]=$!
  pids+=(${pid[$who]})
  curl -s --retry 50 --retry-connrefused --retry-delay 0 -o /dev/null "http://127.0.0.1:${port[$who]}/healthz"
done

slug=$(curl -sf "http://127.0.0.1:${port[after]}/api/posts/cursor/0.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["slug"])')
page="/blog/$slug/"
browser='Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
agent='Accept: text/markdown'
for h in "$browser" "$agent"; do # warm both: every representation made once
  for who in before after; do curl -sf -o /dev/null -H "$h" -H 'Accept-Encoding: gzip' "http://127.0.0.1:${port[$who]}$page"; done
done

cpu() { cut -d' ' -f14,15 "/proc/$1/stat" | awk '{print $1 + $2}'; }
measure() { # who header → "req/s µs-CPU/req"
  local c0 c1 res
  c0=$(cpu "${pid[$1]}")
  res=$(taskset -c 1 wrk -t1 -c32 -d"$duration" -H "Accept-Encoding: gzip" -H "$2" "http://127.0.0.1:${port[$1]}$page")
  c1=$(cpu "${pid[$1]}")
  echo "$res" | awk -v c="$((c1 - c0))" -v hz="$(getconf CLK_TCK)" \
    '/requests in/ {n = $1} /Requests\/sec/ {r = $2} END {printf "%.0f %.2f", r, c * 1e6 / hz / n}'
}
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "$(nproc) cores; $posts posts; $page; before = $(git rev-parse --short "$before"), after = $(git rev-parse --short "$after"); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| request (gzip) | before req/s (runs) | after req/s (runs) | after ÷ before | before µs CPU/req (runs) | after µs CPU/req (runs) | CPU after ÷ before |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for row in "article page, browser Accept|$browser" "Markdown twin, Accept: text/markdown|$agent"; do
  name=${row%%|*} h=${row#*|}
  declare -A rs=() cs=()
  for _ in $(seq "$rounds"); do
    for who in before after; do
      read -r r c <<< "$(measure "$who" "$h")"
      rs[$who]+="$r " cs[$who]+="$c "
    done
  done
  rb=$(median ${rs[before]}) ra=$(median ${rs[after]}) cb=$(median ${cs[before]}) ca=$(median ${cs[after]})
  echo "| $name | $rb (${rs[before]% }) | $ra (${rs[after]% }) | $(python3 -c "print(f'{$ra/$rb:.3f}')") | $cb (${cs[before]% }) | $ca (${cs[after]% }) | $(python3 -c "print(f'{$ca/$cb:.3f}')") |"
done
