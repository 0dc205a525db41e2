#!/usr/bin/env bash
# Scale: the same whole site at 10,000 and 100,000 posts (or $1 and $2),
# measured in one run, the two sizes interleaved: folio build's time and
# peak memory, folio serve's start-up (the first 200 on /healthz and on a
# post) and memory, folio dev's save→reload time and memory.
#
#   bench/scale.sh [SMALL] [LARGE]      # ROUNDS (default 2), EDITS (default 50)
#   ONLY=serve bench/scale.sh [SIZE…]   # folio serve's starts only (default both sizes)
#
# Each size is a corpus written by internal/corpus (seed 1) plus one post,
# blog/zz-bench-edit.md, in the largest tags and category (as in
# bench/dev.sh), in a private copy made of hard links (nothing here writes
# the corpus's files; the edits rewrite the added post only). All three
# commands read the peer site's config (../shared/bench/hugo-peer-site,
# or HUGO_PEER) with --source: home, sections, every tag and category page
# and their feeds, paginated by 10.
#
#   - build: folio build to a folder under OUTS (default a folder in
#     /dev/shm: 100,000 posts write 4.2 GB in 577,000 files, which this
#     machine's shared disk takes ten minutes to delete), wall time, CPU
#     time and peak RSS from /usr/bin/time -v; ROUNDS builds of each size,
#     alternating; each output is removed after its build.
#   - serve: SERVE_ROUNDS (default ROUNDS+1, with ONLY=serve 5) rounds;
#     in each, per size and per binary (FOLIO: one or more folio binaries,
#     space-separated, to compare; default the checkout's, built), a cold
#     start (its parse cache folder, on OUTS, emptied first: it parses
#     every post, answers, then saves the cache, which the script waits
#     for) then a warm start (from that cache), so cold and warm, and the
#     binaries, alternate (SERVE_COLD=first: cold in the first round
#     only, the other rounds warm; a binary from before the cache, without
#     --cache-dir, starts once per round instead, "none"). Each start has
#     its own fixed address and base URL (the cache is for one config).
#     Measured: the time from the start
#     to the first 200 on /healthz and on the added post's page (each
#     polled every 5 ms from start), the CPU time used by then (user+sys,
#     /proc/PID/stat), RSS after start-up and after 200 pages were
#     requested, and how many posts the start took from the cache.
#   - dev: folio dev, once per size, without a parse cache (whose save in
#     the background would overlap the edits): bench/devbench's EDITS edits
#     of the added post (write → SSE reload event, write → changed page
#     served; median and p95), then RSS and its peak.
#
# Memory per post is the difference between the two sizes' RSS divided by
# the difference in posts. Needs go, curl, python3 and GNU time; every
# process it starts is stopped on exit and the copies and outputs are
# removed. Prints Markdown tables for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

only=${ONLY:-}
case "$only" in
  "") sizes=("${1:-10000}" "${2:-100000}") ;;
  serve) if [ $# -gt 0 ]; then sizes=("$@"); else sizes=(10000 100000); fi ;;
  *) echo "scale.sh: ONLY is serve or unset" >&2; exit 2 ;;
esac
small=${sizes[0]}
large=${sizes[-1]}
rounds=${ROUNDS:-2}
if [ "$only" = serve ]; then srounds=${SERVE_ROUNDS:-5}; else srounds=${SERVE_ROUNDS:-$((rounds + 1))}; fi
edits=${EDITS:-50}
out=bench/out
mkdir -p "$out"
out=$(cd "$out" && pwd)
. bench/lib.sh # pids, cleanup, free_port, corpus, edit_post, cpu_ms, shared_bench
peer=${HUGO_PEER:-$(shared_bench)/hugo-peer-site}
[ -d "$peer/layouts" ] || { echo "scale.sh: no Hugo peer site at $peer (set HUGO_PEER)" >&2; exit 2; }
work=$out/scale
outs=${OUTS:-/dev/shm/folio-scale-bench}
rm -rf "$work" "$outs"
mkdir -p "$work" "$outs"
trap 'cleanup; rm -rf "$work" "$outs"' EXIT

if [ -n "${FOLIO:-}" ]; then
  read -r -a bins <<< "$FOLIO"
  commit="${FOLIO}"
else
  echo "== build folio" >&2
  CGO_ENABLED=0 go build -trimpath -o "$out/scale-folio" .
  bins=("$out/scale-folio")
  commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench' || echo +changes)
fi
folio=${bins[0]}
[ "$only" = serve ] || go build -o "$out/devbench" ./bench/devbench

site="$work/site"
mkdir -p "$site"
cp -r "$peer/hugo.toml" "$peer/layouts" "$site/"

for n in "${sizes[@]}"; do
  corpus "$out" "$n" > /dev/null
  cp -al "$out/corpus-$n/content" "$work/content-$n"
  edit_post "$work/content-$n"
done
post=/blog/zz-bench-edit/

load() { cut -d' ' -f1-3 /proc/loadavg; }
loads=()
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {m = int((NR+1)/2); print (NR % 2) ? a[m] : (a[m]+a[m+1])/2}'; }
joined() { local IFS=/; echo "$*"; }
rss() { awk -v k="$2:" '$1 == k {printf "%.0f", $2/1024}' "/proc/$1/status"; }

# --- build ---------------------------------------------------------------
declare -A bwall bcpu brss
[ "$only" = serve ] && rounds_build=0 || rounds_build=$rounds
for round in $(seq "$rounds_build"); do
  for n in "${sizes[@]}"; do
    echo "== round $round: folio build, $n posts (load $(load))" >&2
    loads+=("$(load)")
    log="$out/scale-time-$n.log"
    /usr/bin/time -v "$folio" build --source "$site" --content "$work/content-$n" --out "$outs/out-$n" \
      > "$out/scale-build.out" 2> "$log" || { cat "$log" >&2; exit 1; }
    read -r w c r < <(awk -F': ' '
      /Elapsed \(wall clock\)/ { n = split($2, p, ":"); wall = (n == 3) ? p[1]*3600 + p[2]*60 + p[3] : p[1]*60 + p[2] }
      /User time/   { cpu += $2 }
      /System time/ { cpu += $2 }
      /Maximum resident/ { rss = $2 / 1024 }
      END { printf "%.1f %.1f %.0f\n", wall, cpu, rss }' "$log")
    bwall[$n]+="$w " bcpu[$n]+="$c " brss[$n]+="$r "
    files=$(find "$outs/out-$n" -type f | wc -l)
    echo "   $w s, $c s CPU, $r MB, $files files" >&2
    rm -rf "$outs"/* "$outs"/.[!.]*
  done
done

# --- serve ---------------------------------------------------------------
# serve_once SIZE BINARY MODE starts the binary (an index of bins) on the
# corpus of SIZE, cold (its cache folder emptied) or warm, polls /healthz
# and the post every 5 ms from the start until both answer 200, and
# records the times, the CPU time, the RSS and the posts taken from the
# cache. A cold start is left running until it has saved its cache.
declare -A shealth spost scpu srss1 srss2 sfrom port
for n in "${sizes[@]}"; do
  for bi in "${!bins[@]}"; do port[$n,$bi]=$(free_port); done
done
serve_once() {
  local n=$1 bi=$2 mode=$3
  local bin=${bins[$bi]} cache="$outs/cache-$bi-$n" p=${port[$n,$bi]} log="$out/scale-serve-$bi-$n.log"
  [ "$mode" = cold ] && rm -rf "$cache"
  local cacheflag=(--cache-dir "$cache")
  [ "$mode" = none ] && cacheflag=()
  loads+=("$(load)")
  local t0 h="" pt="" now
  t0=$(date +%s%N)
  "$bin" serve --source "$site" --content "$work/content-$n" --addr "127.0.0.1:$p" \
    --base-url "http://127.0.0.1:$p/" "${cacheflag[@]}" 2> "$log" &
  local spid=$!
  pids+=($spid)
  while [ -z "$pt" ]; do
    now=$(date +%s%N)
    if [ -z "$h" ] && curl -sf -o /dev/null "http://127.0.0.1:$p/healthz"; then h=$(( ($(date +%s%N) - t0) / 1000000 )); fi
    if [ -n "$h" ] && curl -sf -o /dev/null "http://127.0.0.1:$p$post"; then pt=$(( ($(date +%s%N) - t0) / 1000000 )); fi
    [ $(( (now - t0) / 1000000000 )) -lt 300 ] || { echo "scale.sh: folio serve did not answer" >&2; cat "$log" >&2; exit 1; }
    [ -n "$pt" ] || sleep 0.005
  done
  local c r1 r2 from
  c=$(cpu_ms $spid) r1=$(rss $spid VmRSS)
  # 200 pages: the home page's pagers and the edited post's term pages.
  for i in $(seq 2 201); do printf 'url = "http://127.0.0.1:%s/page/%s/"\noutput = "/dev/null"\n' "$p" "$i"; done > "$work/urls"
  curl -s -K "$work/urls" || true
  r2=$(rss $spid VmRSS)
  if [ "$mode" = cold ]; then
    for _ in $(seq 3000); do grep -q 'parse cache saved\|parse cache not saved' "$log" && break; sleep 0.1; done
    grep -q 'parse cache saved' "$log" || { echo "scale.sh: the cold start saved no cache" >&2; cat "$log" >&2; exit 1; }
  fi
  from=$(sed -n 's/.*msg="started from the parse cache".*from_cache=\([0-9]*\).*/\1/p' "$log" | head -1)
  from=${from:-0}
  if [ "$mode" = warm ] && [ "$from" = 0 ]; then echo "scale.sh: the warm start took nothing from the cache" >&2; cat "$log" >&2; exit 1; fi
  echo "== serve $n posts, ${bins[$bi]##*/} $mode: /healthz $h ms, post $pt ms, CPU $c ms, RSS $r1 → $r2 MB, $from from the cache (load $(load))" >&2
  local k="$n,$bi,$mode"
  shealth[$k]+="$h " spost[$k]+="$pt " scpu[$k]+="$c " srss1[$k]+="$r1 " srss2[$k]+="$r2 " sfrom[$k]+="$from "
  kill $spid; wait $spid 2>/dev/null || true
}
# A binary without --cache-dir (one from before the parse cache) starts
# once per round, without a cache ("none").
declare -A modes
for bi in "${!bins[@]}"; do
  if "${bins[$bi]}" serve --help | grep -q -- --cache-dir; then modes[$bi]="cold warm"; else modes[$bi]=none; fi
done
# The copies' files were just linked (which sets their status-change
# time): a start within 3 s of that would not trust their stamps (the
# racy window, pipeline/cache.go), and its cache would make the next
# start read and hash every file.
sleep 3
for round in $(seq "$srounds"); do
  for n in "${sizes[@]}"; do
    for bi in "${!bins[@]}"; do
      for mode in ${modes[$bi]}; do
        # SERVE_COLD=first: only the first round starts cold (to compare
        # warm starts without waiting for a parse of everything each round).
        [ "$mode" = cold ] && [ "$round" -gt 1 ] && [ "${SERVE_COLD:-each}" = first ] && continue
        serve_once "$n" "$bi" "$mode"
      done
    done
  done
done

# --- dev -----------------------------------------------------------------
declare -A dline dready
[ "$only" = serve ] && dev_sizes=() || dev_sizes=("${sizes[@]}")
for n in "${dev_sizes[@]}"; do
  loads+=("$(load)")
  port=$(free_port)
  t0=$(date +%s%N)
  "$folio" dev --source "$site" --content "$work/content-$n" --addr "127.0.0.1:$port" \
    --base-url "http://127.0.0.1:$port/" --no-cache 2> "$out/scale-dev-$n.log" &
  dpid=$!
  pids+=($dpid)
  until curl -sf -o /dev/null "http://127.0.0.1:$port$post"; do sleep 0.05; done
  dready[$n]=$(( ($(date +%s%N) - t0) / 1000000 ))
  for p in /tags/go/ /categories/engineering/ /tags/go/index.xml /categories/; do
    curl -sf -o /dev/null "http://127.0.0.1:$port$p" || { echo "scale.sh: folio dev does not answer $p" >&2; exit 1; }
  done
  sleep 1
  echo "== dev $n posts, $edits edits (load $(load))" >&2
  dline[$n]=$("$out/devbench" -kind folio -url "http://127.0.0.1:$port" -page "$post" \
    -file "$work/content-$n/blog/zz-bench-edit.md" -pid $dpid -edits "$edits")
  echo "${dline[$n]}" >&2
  kill $dpid; wait $dpid 2>/dev/null || true
done
loads+=("$(load)")

# --- tables --------------------------------------------------------------
field() { sed -n "s/.*$2=\([0-9.]*\).*/\1/p" <<< "$1"; }
per_post_kb() { python3 -c "print(f'{($2-$1)*1024/($large-$small):.1f}')"; }
range() { printf '%s\n' "$@" | sort -g | sed -n '1p;$p' | paste -sd' ' | sed 's/ /–/'; }
s=$small l=$large
# shellcheck disable=SC2086
{
  echo "$(nproc) cores; folio $commit; $(date -u '+%Y-%m-%d %H:%M UTC'); 1-minute load average over the run: $(printf '%s\n' "${loads[@]}" | awk '{print $1}' | sort -g | sed -n '1p;$p' | paste -sd' ' | sed 's/ / to /')"
  echo
  echo "| folio serve, $srounds rounds | posts | cache | start → 200 on /healthz (ms), median (range) | start → 200 on a post (ms), median (range) | CPU by then (ms), median (range) | RSS after start / after 200 pages (MB) | posts from the cache |"
  echo "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |"
  for n in "${sizes[@]}"; do
    for bi in "${!bins[@]}"; do
      for mode in ${modes[$bi]}; do
        k="$n,$bi,$mode"
        echo "| ${bins[$bi]##*/} | $n | $mode | $(median ${shealth[$k]}) ($(range ${shealth[$k]})) | $(median ${spost[$k]}) ($(range ${spost[$k]})) | $(median ${scpu[$k]}) ($(range ${scpu[$k]})) | $(median ${srss1[$k]}) / $(median ${srss2[$k]}) | $(median ${sfrom[$k]}) |"
      done
    done
  done
  [ "$only" = serve ] && exit 0
  echo
  echo "| | $s posts | $l posts | ratio |"
  echo "| --- | ---: | ---: | ---: |"
  bw_s=$(median ${bwall[$s]}) bw_l=$(median ${bwall[$l]})
  bc_s=$(median ${bcpu[$s]}) bc_l=$(median ${bcpu[$l]})
  br_s=$(median ${brss[$s]}) br_l=$(median ${brss[$l]})
  echo "| build: wall (s), median of $rounds (runs) | $bw_s ($(joined ${bwall[$s]})) | $bw_l ($(joined ${bwall[$l]})) | $(python3 -c "print(f'{$bw_l/$bw_s:.1f}x')") |"
  echo "| build: CPU user+sys (s) | $bc_s | $bc_l | $(python3 -c "print(f'{$bc_l/$bc_s:.1f}x')") |"
  echo "| build: peak RSS (MB) | $br_s | $br_l | $(python3 -c "print(f'{$br_l/$br_s:.1f}x')") |"
  for mode in cold warm; do
    ks="$s,0,$mode" kl="$l,0,$mode"
    echo "| serve, $mode cache: start → 200 on /healthz (ms), median of $srounds (runs) | $(median ${shealth[$ks]}) ($(joined ${shealth[$ks]})) | $(median ${shealth[$kl]}) ($(joined ${shealth[$kl]})) | |"
    echo "| serve, $mode cache: start → 200 on a post (ms) | $(median ${spost[$ks]}) ($(joined ${spost[$ks]})) | $(median ${spost[$kl]}) ($(joined ${spost[$kl]})) | |"
    echo "| serve, $mode cache: CPU used by then (ms) | $(median ${scpu[$ks]}) | $(median ${scpu[$kl]}) | |"
    sr1_s=$(median ${srss1[$ks]}) sr1_l=$(median ${srss1[$kl]})
    sr2_s=$(median ${srss2[$ks]}) sr2_l=$(median ${srss2[$kl]})
    echo "| serve, $mode cache: RSS after start-up / after 200 list pages (MB) | $sr1_s / $sr2_s | $sr1_l / $sr2_l | $(per_post_kb $sr1_s $sr1_l) / $(per_post_kb $sr2_s $sr2_l) KB per post |"
  done
  echo "| dev: start → 200 on a post (ms) | ${dready[$s]} | ${dready[$l]} | |"
  for f in reload_median_ms reload_p95_ms page_median_ms page_p95_ms; do
    echo "| dev: $f ($edits edits) | $(field "${dline[$s]}" $f) | $(field "${dline[$l]}" $f) | |"
  done
  dr_s=$(field "${dline[$s]}" rss_mb) dr_l=$(field "${dline[$l]}" rss_mb)
  dp_s=$(field "${dline[$s]}" peak_rss_mb) dp_l=$(field "${dline[$l]}" peak_rss_mb)
  echo "| dev: RSS after the edits / peak (MB) | $dr_s / $dp_s | $dr_l / $dp_l | $(per_post_kb $dr_s $dr_l) / $(per_post_kb $dp_s $dp_l) KB per post |"
}
