#!/usr/bin/env bash
# Two folio versions' incremental builds, interleaved: each builds its own
# copy of the whole-site corpus (bench/incremental.sh's site) cold, then
# ROUNDS times (default 5) the same post of both copies gets the same
# added paragraph and both build over their previous output, A then B in
# odd rounds, B then A in even ones, under /usr/bin/time -v. Then one
# build each with nothing changed. At the end each updated folder is
# compared with the other (diff -r): they must be identical.
#
#   bench/incremental-ab.sh OLD NEW [POSTS]
#
# OLD and NEW are git revisions (built here with -trimpath) or paths to
# folio binaries. Outputs go to WORK (default bench/out/ab, on the
# machine's disk; WORK=/dev/shm/... for tmpfs). Prints one line per build
# (CPU is user+sys seconds) with the load average after it, then each
# version's range. On a machine others are using, RT=10 (as root) runs
# each timed build under chrt -f 10 (real-time FIFO: the others' processes
# wait while it runs, so its wall time is near a quiet machine's; each
# build lasts about a second), or NICE=-10 at that niceness (less so).
set -euo pipefail
cd "$(dirname "$0")/.."

old=$1 new=$2 posts=${3:-10000}
rounds=${ROUNDS:-5}
out=bench/out
mkdir -p "$out"
out=$(cd "$out" && pwd)
. bench/lib.sh # corpus, shared_bench, time_v
peer=${HUGO_PEER:-$(shared_bench)/hugo-peer-site}
[ -d "$peer/layouts" ] || { echo "incremental-ab.sh: no Hugo peer site at $peer (set HUGO_PEER)" >&2; exit 2; }
work=${WORK:-$out/ab}
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd) # the binaries are built elsewhere
corpus "$out" "$posts" > /dev/null

echo "== build A ($old) and B ($new)" >&2
folio_binary "$old" "$work/A"
folio_binary "$new" "$work/B"

for v in A B; do
  mkdir -p "$work/site-$v"
  cp -r "$peer/hugo.toml" "$peer/layouts" "$work/site-$v/"
  cp -r "$out/corpus-$posts/content" "$work/site-$v/content"
done

run() { # run V LABEL: one build of version V over its output; prints a line
  local v=$1 label=$2 r
  r=$(time_v "$work/time-$v.log" "$work/cmd-$v.out" ${NICE:+nice -n "$NICE"} ${RT:+chrt -f "$RT"} "$work/$v" build --source "$work/site-$v" --out "$work/out-$v")
  echo "$v $label $r $(cut -d' ' -f1 /proc/loadavg)"
}

echo "== cold builds" >&2
run A cold >&2
run B cold >&2
# A build keeps the parse cache's stamp in its record only once the cache
# is racyWindow (3 s) older than the build's start; then the next builds
# do not compute its CRC again (Staged.KeepCache). An author's builds are
# seconds apart: wait as one would, so the rounds show that steady state.
sleep 3.5
mapfile -t edits < <(cd "$work/site-A/content/blog" && for f in post-0001*.md; do
  [ -f "$work/out-A/blog/${f%.md}/index.html" ] && echo "$f"; done | head -n "$rounds")

lines=()
for round in $(seq "$rounds"); do
  f=${edits[$((round - 1))]}
  for v in A B; do printf '\nAn added paragraph, round %d.\n' "$round" >> "$work/site-$v/content/blog/$f"; done
  order="A B"
  [ $((round % 2)) = 0 ] && order="B A"
  for v in $order; do lines+=("$(run "$v" "edit$round")"); echo "${lines[-1]}" >&2; done
done
for v in A B; do lines+=("$(run "$v" same)"); echo "${lines[-1]}" >&2; done

if diff -r "$work/out-A" "$work/out-B" > "$work/diff.txt"; then identical=identical; else identical="DIFFERENT (see $work/diff.txt)"; fi

echo "$(nproc) cores, outputs in $work ($(df -T "$work" | awk 'NR==2 {print $2}')), $posts posts; A=$old B=$new; the two folders: $identical"
echo "version build wall_s cpu_s rss_mb load1"
printf '%s\n' "${lines[@]}"
for v in A B; do
  cpu=$(printf '%s\n' "${lines[@]}" | awk -v v="$v" '$1 == v && $2 ~ /^edit/ {print $4}' | sort -g | paste -sd' ')
  wall=$(printf '%s\n' "${lines[@]}" | awk -v v="$v" '$1 == v && $2 ~ /^edit/ {print $3}' | sort -g | paste -sd' ')
  echo "$v after an edit, sorted: CPU $cpu s; wall $wall s"
done
