#!/usr/bin/env bash
# Scale: the same whole site at 10,000 and 100,000 posts (or $1 and $2),
# measured in one run, the two sizes interleaved: folio build's time and
# peak memory, folio serve's start-up (the first 200 on /healthz and on a
# post) and memory, folio dev's save→reload time and memory.
#
#   bench/scale.sh [SMALL] [LARGE]      # ROUNDS (default 2), EDITS (default 50)
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
#   - serve: folio serve started ROUNDS+1 times per size, alternating; the
#     time from the start to the first 200 on /healthz and on the added
#     post's page (each polled every 5 ms from start), the CPU time used by
#     then, and RSS after start-up and after 200 pages were requested.
#   - dev: folio dev, once per size: bench/devbench's EDITS edits of the
#     added post (write → SSE reload event, write → changed page served;
#     median and p95), then RSS and its peak.
#
# Memory per post is the difference between the two sizes' RSS divided by
# the difference in posts. Needs go, curl, python3 and GNU time; every
# process it starts is stopped on exit and the copies and outputs are
# removed. Prints Markdown tables for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

small=${1:-10000}
large=${2:-100000}
rounds=${ROUNDS:-2}
edits=${EDITS:-50}
out=bench/out
mkdir -p "$out"
out=$(cd "$out" && pwd)
. bench/lib.sh # pids, cleanup, free_port, corpus, shared_bench
peer=${HUGO_PEER:-$(shared_bench)/hugo-peer-site}
[ -d "$peer/layouts" ] || { echo "scale.sh: no Hugo peer site at $peer (set HUGO_PEER)" >&2; exit 2; }
work=$out/scale
outs=${OUTS:-/dev/shm/folio-scale-bench}
rm -rf "$work" "$outs"
mkdir -p "$work" "$outs"
trap 'cleanup; rm -rf "$work" "$outs"' EXIT

echo "== build folio" >&2
CGO_ENABLED=0 go build -trimpath -o "$out/scale-folio" .
go build -o "$out/devbench" ./bench/devbench
folio="$out/scale-folio"
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench' || echo +changes)

site="$work/site"
mkdir -p "$site"
cp -r "$peer/hugo.toml" "$peer/layouts" "$site/"

sizes=("$small" "$large")
for n in "${sizes[@]}"; do
  corpus "$out" "$n" > /dev/null
  cp -al "$out/corpus-$n/content" "$work/content-$n"
  cat > "$work/content-$n/blog/zz-bench-edit.md" <<'EOF'
---
title: "BENCH-TITLE"
date: 2020-01-01T00:00:00Z
tags: [go, performance, 日本語]
categories: [engineering]
---
The post bench/scale.sh edits. Its title changes with every edit.
EOF
done
post=/blog/zz-bench-edit/

load() { cut -d' ' -f1-3 /proc/loadavg; }
loads=()
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {m = int((NR+1)/2); print (NR % 2) ? a[m] : (a[m]+a[m+1])/2}'; }
joined() { local IFS=/; echo "$*"; }
rss() { awk -v k="$2:" '$1 == k {printf "%.0f", $2/1024}' "/proc/$1/status"; }
cpu_ms() { local s; s=($(cut -d' ' -f14,15 "/proc/$1/stat")); echo $(( (s[0] + s[1]) * 1000 / $(getconf CLK_TCK) )); }

# --- build ---------------------------------------------------------------
declare -A bwall bcpu brss
for round in $(seq "$rounds"); do
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
# first_200 URL… polls each URL every 5 ms until it answers 200 and
# prints, per URL, the milliseconds since t0 (the caller's start).
declare -A shealth spost scpu srss1 srss2
for round in $(seq $((rounds + 1))); do
  for n in "${sizes[@]}"; do
    loads+=("$(load)")
    port=$(free_port)
    t0=$(date +%s%N)
    "$folio" serve --source "$site" --content "$work/content-$n" --addr "127.0.0.1:$port" \
      --base-url "http://127.0.0.1:$port/" 2> "$out/scale-serve.log" &
    spid=$!
    pids+=($spid)
    h="" p=""
    while [ -z "$p" ]; do
      now=$(date +%s%N)
      if [ -z "$h" ] && curl -sf -o /dev/null "http://127.0.0.1:$port/healthz"; then h=$(( ($(date +%s%N) - t0) / 1000000 )); fi
      if [ -n "$h" ] && curl -sf -o /dev/null "http://127.0.0.1:$port$post"; then p=$(( ($(date +%s%N) - t0) / 1000000 )); fi
      [ $(( (now - t0) / 1000000000 )) -lt 300 ] || { echo "scale.sh: folio serve did not answer" >&2; cat "$out/scale-serve.log" >&2; exit 1; }
      [ -n "$p" ] || sleep 0.005
    done
    c=$(cpu_ms $spid) r1=$(rss $spid VmRSS)
    # 200 pages: the home page's pagers and the edited post's term pages.
    for i in $(seq 2 201); do printf 'url = "http://127.0.0.1:%s/page/%s/"\noutput = "/dev/null"\n' "$port" "$i"; done > "$work/urls"
    curl -s -K "$work/urls" || true
    r2=$(rss $spid VmRSS)
    echo "== serve $n posts: /healthz $h ms, post $p ms, CPU $c ms, RSS $r1 → $r2 MB (load $(load))" >&2
    shealth[$n]+="$h " spost[$n]+="$p " scpu[$n]+="$c " srss1[$n]+="$r1 " srss2[$n]+="$r2 "
    kill $spid; wait $spid 2>/dev/null || true
  done
done

# --- dev -----------------------------------------------------------------
declare -A dline dready
for n in "${sizes[@]}"; do
  loads+=("$(load)")
  port=$(free_port)
  t0=$(date +%s%N)
  "$folio" dev --source "$site" --content "$work/content-$n" --addr "127.0.0.1:$port" \
    --base-url "http://127.0.0.1:$port/" 2> "$out/scale-dev-$n.log" &
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
s=$small l=$large
# shellcheck disable=SC2086
{
  echo "$(nproc) cores; folio $commit; $(date -u '+%Y-%m-%d %H:%M UTC'); 1-minute load average over the run: $(printf '%s\n' "${loads[@]}" | awk '{print $1}' | sort -g | sed -n '1p;$p' | paste -sd' ' | sed 's/ / to /')"
  echo
  echo "| | $s posts | $l posts | ratio |"
  echo "| --- | ---: | ---: | ---: |"
  bw_s=$(median ${bwall[$s]}) bw_l=$(median ${bwall[$l]})
  bc_s=$(median ${bcpu[$s]}) bc_l=$(median ${bcpu[$l]})
  br_s=$(median ${brss[$s]}) br_l=$(median ${brss[$l]})
  echo "| build: wall (s), median of $rounds (runs) | $bw_s ($(joined ${bwall[$s]})) | $bw_l ($(joined ${bwall[$l]})) | $(python3 -c "print(f'{$bw_l/$bw_s:.1f}x')") |"
  echo "| build: CPU user+sys (s) | $bc_s | $bc_l | $(python3 -c "print(f'{$bc_l/$bc_s:.1f}x')") |"
  echo "| build: peak RSS (MB) | $br_s | $br_l | $(python3 -c "print(f'{$br_l/$br_s:.1f}x')") |"
  sh_s=$(median ${shealth[$s]}) sh_l=$(median ${shealth[$l]})
  sp_s=$(median ${spost[$s]}) sp_l=$(median ${spost[$l]})
  echo "| serve: start → 200 on /healthz (ms), median of $((rounds + 1)) (runs) | $sh_s ($(joined ${shealth[$s]})) | $sh_l ($(joined ${shealth[$l]})) | |"
  echo "| serve: start → 200 on a post (ms) | $sp_s ($(joined ${spost[$s]})) | $sp_l ($(joined ${spost[$l]})) | |"
  echo "| serve: CPU used by then (ms) | $(median ${scpu[$s]}) | $(median ${scpu[$l]}) | |"
  sr1_s=$(median ${srss1[$s]}) sr1_l=$(median ${srss1[$l]})
  sr2_s=$(median ${srss2[$s]}) sr2_l=$(median ${srss2[$l]})
  echo "| serve: RSS after start-up / after 200 list pages (MB) | $sr1_s / $sr2_s | $sr1_l / $sr2_l | $(per_post_kb $sr1_s $sr1_l) / $(per_post_kb $sr2_s $sr2_l) KB per post |"
  echo "| dev: start → 200 on a post (ms) | ${dready[$s]} | ${dready[$l]} | |"
  for f in reload_median_ms reload_p95_ms page_median_ms page_p95_ms; do
    echo "| dev: $f ($edits edits) | $(field "${dline[$s]}" $f) | $(field "${dline[$l]}" $f) | |"
  done
  dr_s=$(field "${dline[$s]}" rss_mb) dr_l=$(field "${dline[$l]}" rss_mb)
  dp_s=$(field "${dline[$s]}" peak_rss_mb) dp_l=$(field "${dline[$l]}" peak_rss_mb)
  echo "| dev: RSS after the edits / peak (MB) | $dr_s / $dp_s | $dr_l / $dp_l | $(per_post_kb $dr_s $dr_l) / $(per_post_kb $dp_s $dp_l) KB per post |"
}
