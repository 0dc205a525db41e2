#!/usr/bin/env bash
# First start: folio serve on a site with no parse cache, the CPU it uses
# to the first 200 on a post and in all (to the cache saved after the
# start, which since session 26 hashes the files read and waits a second
# for the first requests), per binary, interleaved.
#
#   FOLIO="old new" bench/firststart.sh [POSTS]   # POSTS 100000; ROUNDS (default 5)
#
# The corpus (internal/corpus, seed 1, in bench/out as bench/scale.sh
# writes it) with bench/scale.sh's added post, in a hard-linked copy, read
# with the whole-site peer's config (../shared/bench/hugo-peer-site); the
# cache folder on OUTS (default a folder in /dev/shm), emptied before each
# start. Each start is polled for /healthz and the post every 5 ms from its
# start; CPU (user+sys) from /proc/PID/stat at the post's 200 and once the
# log says the cache is saved. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
rounds=${ROUNDS:-5}
[ -n "${FOLIO:-}" ] || { echo "firststart.sh: set FOLIO to the binaries to compare" >&2; exit 2; }
read -r -a bins <<< "$FOLIO"
out=bench/out
mkdir -p "$out"
out=$(cd "$out" && pwd)
. bench/lib.sh # pids, cleanup, free_port, corpus, edit_post, cpu_ms, shared_bench
peer=${HUGO_PEER:-$(shared_bench)/hugo-peer-site}
[ -d "$peer/layouts" ] || { echo "firststart.sh: no Hugo peer site at $peer (set HUGO_PEER)" >&2; exit 2; }
work=$out/firststart
outs=${OUTS:-/dev/shm/folio-firststart}
rm -rf "$work" "$outs"
mkdir -p "$work/site" "$outs"
trap 'cleanup; rm -rf "$work" "$outs"' EXIT
cp -r "$peer/hugo.toml" "$peer/layouts" "$work/site/"
corpus "$out" "$n" > /dev/null
cp -al "$out/corpus-$n/content" "$work/content"
edit_post "$work/content"
post=/blog/zz-bench-edit/
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {m = int((NR+1)/2); print (NR % 2) ? a[m] : (a[m]+a[m+1])/2}'; }
range() { printf '%s\n' "$@" | sort -g | sed -n '1p;$p' | paste -sd' ' | sed 's/ /–/'; }
declare -A health posts cpost call
loads=()
sleep 3 # the copy's files were just linked: their stamps are kept only 3 s after
for round in $(seq "$rounds"); do
  for bi in "${!bins[@]}"; do
    bin=${bins[$bi]} cache="$outs/cache" log="$work/serve.log" p=$(free_port)
    rm -rf "$cache"
    loads+=("$(cut -d' ' -f1 /proc/loadavg)")
    t0=$(date +%s%N)
    "$bin" serve --source "$work/site" --content "$work/content" --addr "127.0.0.1:$p" \
      --base-url "http://127.0.0.1:$p/" --cache-dir "$cache" 2> "$log" &
    spid=$!
    pids+=($spid)
    h="" pt=""
    while [ -z "$pt" ]; do
      if [ -z "$h" ] && curl -sf -o /dev/null "http://127.0.0.1:$p/healthz"; then h=$(( ($(date +%s%N) - t0) / 1000000 )); fi
      if [ -n "$h" ] && curl -sf -o /dev/null "http://127.0.0.1:$p$post"; then pt=$(( ($(date +%s%N) - t0) / 1000000 )); fi
      [ $(( ($(date +%s%N) - t0) / 1000000000 )) -lt 300 ] || { echo "firststart.sh: folio serve did not answer" >&2; cat "$log" >&2; exit 1; }
      [ -n "$pt" ] || sleep 0.005
    done
    c1=$(cpu_ms $spid)
    for _ in $(seq 3000); do grep -q 'parse cache saved\|parse cache not saved' "$log" && break; sleep 0.1; done
    grep -q 'parse cache saved' "$log" || { echo "firststart.sh: no cache saved" >&2; cat "$log" >&2; exit 1; }
    c2=$(cpu_ms $spid)
    kill $spid; wait $spid 2>/dev/null || true
    echo "== round $round, ${bin##*/}: /healthz $h ms, post $pt ms, CPU $c1 ms to the post, $c2 ms in all (load ${loads[-1]})" >&2
    health[$bi]+="$h " posts[$bi]+="$pt " cpost[$bi]+="$c1 " call[$bi]+="$c2 "
  done
done
# shellcheck disable=SC2086
{
  echo "$(nproc) cores; $n posts; $(date -u '+%Y-%m-%d %H:%M UTC'); 1-minute load average over the run: $(range ${loads[@]} | sed 's/–/ to /')"
  echo
  echo "| first start, $rounds rounds | start → 200 on /healthz (ms), median (range) | start → 200 on a post (ms), median (range) | CPU to the post (ms), median (range) | CPU to the cache saved (ms), median (range) |"
  echo "| --- | ---: | ---: | ---: | ---: |"
  for bi in "${!bins[@]}"; do
    echo "| ${bins[$bi]##*/} | $(median ${health[$bi]}) ($(range ${health[$bi]})) | $(median ${posts[$bi]}) ($(range ${posts[$bi]})) | $(median ${cpost[$bi]}) ($(range ${cpost[$bi]})) | $(median ${call[$bi]}) ($(range ${call[$bi]})) |"
  done
}
