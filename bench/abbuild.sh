#!/usr/bin/env bash
# Two folio binaries building the whole site, interleaved: A B B A A B …,
# so that both meet the same load. What a change to folio build costs or
# saves, in CPU time (user+system), the figure other people's load on a
# shared machine disturbs least; wall time and peak RSS beside it.
#
#   bench/abbuild.sh OLD NEW [POSTS]
#
# ROUNDS (default 5) builds each. The site is the one of WHOLE=1
# bench/render.sh: ../shared/bench/hugo-peer-site's hugo.toml and layouts
# beside the corpus's content (internal/corpus, seed 1, POSTS default
# 10,000), built with folio build --source into WORK (default a folder in
# /dev/shm). With DIFF=1 the last export of each binary is kept and
# compared file by file (diff -r): a change that should leave the bytes
# alone must print no difference. As in bench/render.sh, each build
# removes the previous export but not the parse cache folio keeps beside
# it (.NAME.folio-cache), so every build after a binary's first reads the
# content through it; COLD=1 removes it too. Prints each run, then a Markdown table
# (median, range) for BENCHMARKS.md. Build a binary with
#   CGO_ENABLED=0 go build -trimpath -o bench/out/folio-NAME .
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/abbuild.sh OLD NEW [POSTS]" >&2; exit 2; }
a=$(realpath "$1") b=$(realpath "$2")
cd "$(dirname "$0")/.."
posts=${3:-10000}
rounds=${ROUNDS:-5}
out=bench/out
mkdir -p "$out"
out=$(cd "$out" && pwd)
. bench/lib.sh # corpus, shared_bench, time_v
peer=${HUGO_PEER:-$(shared_bench)/hugo-peer-site}
[ -d "$peer/layouts" ] || { echo "abbuild.sh: no Hugo peer site at $peer (set HUGO_PEER)" >&2; exit 2; }
content=$(corpus "$out" "$posts")

work=${WORK:-/dev/shm/folio-abbuild}
rm -rf "$work"
mkdir -p "$work/site"
trap 'rm -rf "$work"' EXIT
cp -r "$peer/hugo.toml" "$peer/layouts" "$work/site/"
ln -s "$content" "$work/site/content"

# build BIN DEST prints "wall cpu rss_mb" of one cold build into DEST.
build() {
  rm -rf "$2"
  if [ "${COLD:-0}" = 1 ]; then rm -rf "$(dirname "$2")/.$(basename "$2").folio-"*; fi
  time_v "$out/abbuild-time.log" "$out/abbuild-cmd.out" "$1" build --source "$work/site" --content "$content" --out "$2"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "A $a"
echo "B $b"
ra=() rb=()
runa() { ra+=("$(build "$a" "$work/a")"); echo "round $round A: ${ra[-1]}   (load $(cut -d' ' -f1 /proc/loadavg))"; }
runb() { rb+=("$(build "$b" "$work/b")"); echo "round $round B: ${rb[-1]}   (load $(cut -d' ' -f1 /proc/loadavg))"; }
for round in $(seq "$rounds"); do
  # A B, then B A: a load that rises or falls through the run weighs on
  # both alike.
  if [ $((round % 2)) = 1 ]; then runa; runb; else runb; runa; fi
done
load=$(cut -d' ' -f1-3 /proc/loadavg)

# stat F RUNS… prints "median (min–max)" of field F (1 wall, 2 cpu, 3 rss).
stat() {
  local f=$1; shift
  printf '%s\n' "$@" | awk -v f="$f" '{print $f}' | sort -g |
    awk '{v[NR]=$1} END {printf "%s (%s–%s)", v[int((NR+1)/2)], v[1], v[NR]}'
}
all() { local f=$1; shift; printf '%s\n' "$@" | awk -v f="$f" '{printf "%s%s", sep, $f; sep="/"}'; }
med() { local f=$1; shift; printf '%s\n' "$@" | awk -v f="$f" '{print $f}' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

echo
echo "load average after: $load; $(nproc) cores; $rounds builds each, interleaved"
echo
echo "| binary | CPU user+sys (s), median (range) | CPU runs | wall (s), median (range) | peak RSS (MB) |"
echo "| --- | --- | --- | --- | --- |"
echo "| A $(basename "$a") | $(stat 2 "${ra[@]}") | $(all 2 "${ra[@]}") | $(stat 1 "${ra[@]}") | $(med 3 "${ra[@]}") |"
echo "| B $(basename "$b") | $(stat 2 "${rb[@]}") | $(all 2 "${rb[@]}") | $(stat 1 "${rb[@]}") | $(med 3 "${rb[@]}") |"
echo "| B ÷ A | $(awk -v a="$(med 2 "${ra[@]}")" -v b="$(med 2 "${rb[@]}")" 'BEGIN {printf "%.3f", b/a}') | | $(awk -v a="$(med 1 "${ra[@]}")" -v b="$(med 1 "${rb[@]}")" 'BEGIN {printf "%.3f", b/a}') | |"

if [ "${DIFF:-0}" = 1 ]; then
  echo
  if diff -r "$work/a" "$work/b" > "$out/abbuild-diff.txt"; then
    echo "diff -r of the two exports: identical ($(find "$work/a" -type f | wc -l) files)"
  else
    echo "diff -r of the two exports: DIFFERENT, see $out/abbuild-diff.txt ($(wc -l < "$out/abbuild-diff.txt") lines)"
  fi
fi
