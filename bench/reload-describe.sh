#!/usr/bin/env bash
# reload-describe.sh A B SITE [SAVES] [ROUNDS]: the cost of the reloads that
# may describe posts again (Session 31, desc9), folio dev binaries A and B
# interleaved (A B B A per round). In a copy of the Hugo site SITE (one with
# layouts/_shortcodes/hi.html, e.g. a gencorpus corpus with a shortcode file
# added), each run starts `folio dev`, saves the shortcode SAVES times, then
# changes hugo.toml's title SAVES times, and keeps the "took=" of each
# reload's log line. Prints one line per reload: binary, kind, took.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
a=$1 b=$2 site=$3 saves=${4:-5} rounds=${5:-1}
work=$(mktemp -d /dev/shm/reload-describe.XXXXXX)
pids+=()
trap 'cleanup; rm -rf "$work"' EXIT
cp -r "$site" "$work/site"
took_lines() { grep -c 'took=' "$1" 2>/dev/null || true; }
wait_lines() { # LOG N: wait until LOG has N reload lines
  for _ in $(seq 600); do
    [ "$(grep -c 'msg=reloaded' "$1" 2>/dev/null || true)" -ge "$2" ] && return 0
    sleep 0.1
  done
  echo "timed out waiting for reload $2 in $1" >&2; return 1
}
run() { # BIN NAME
  local log="$work/$2.log" port n=0
  port=$(free_port)
  : > "$log"
  (cd "$work/site" && exec "$1" dev --addr "127.0.0.1:$port" >"$log" 2>&1) &
  local pid=$!
  for _ in $(seq 600); do grep -q 'serving' "$log" && break; sleep 0.1; done
  sleep 1
  for i in $(seq "$saves"); do
    echo "HI-$RANDOM-$i" > "$work/site/layouts/_shortcodes/hi.html"; n=$((n+1)); wait_lines "$log" $n; sleep 0.5
  done
  for i in $(seq "$saves"); do
    sed -i "s/^title = .*/title = \"corp $RANDOM $i\"/" "$work/site/hugo.toml"; n=$((n+1)); wait_lines "$log" $n; sleep 0.5
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
  grep 'msg=reloaded' "$log" | sed -n "1,${saves}p" | sed -E "s/.*took=([^ ]+).*/$2 shortcode \1/"
  grep 'msg=reloaded' "$log" | sed -n "$((saves+1)),$((2*saves))p" | sed -E "s/.*took=([^ ]+).*/$2 title \1/"
}
for r in $(seq "$rounds"); do
  echo "# round $r, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  run "$a" A; run "$b" B; run "$b" B; run "$a" A
done
