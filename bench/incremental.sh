#!/usr/bin/env bash
# Incremental build: folio build over its previous output after a one-post
# edit, beside Hugo's full build of the same whole site (its tag and
# category pages and feeds included), in the same run, at 10,000 posts
# (or $1), ROUNDS times (default 5), alternating which goes first.
#
#   bench/incremental.sh [POSTS]
#
# One private copy of the corpus of internal/corpus (seed 1) in a site
# folder holding the whole-site peer's config and layouts
# (../shared/bench/hugo-peer-site, or HUGO_PEER): Hugo builds it with
# `hugo --quiet`, folio with `folio build --source` (its hugo.toml read as
# Hugo reads it). Each round appends a paragraph to the body of another
# published post, then times folio build over its previous output and
# Hugo's build into an empty folder, under /usr/bin/time -v. Also timed:
# folio's cold build into an empty folder, and a build with nothing
# changed. At the end a cold build of the final content is compared with
# the updated folder, file for file (diff -r): they must be identical.
# Outputs go to WORK (default bench/out/incr, on the machine's disk; set
# WORK=/dev/shm/... for tmpfs). Prints a Markdown table for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

posts=${1:-10000}
rounds=${ROUNDS:-5}
out=bench/out
mkdir -p "$out"
out=$(cd "$out" && pwd)
. bench/lib.sh # corpus, shared_bench
peer=${HUGO_PEER:-$(shared_bench)/hugo-peer-site}
hugo=${HUGO:-$(command -v hugo || echo "$HOME/bin/hugo")}
[ -x "$hugo" ] || { echo "incremental.sh: no hugo at $hugo (set HUGO)" >&2; exit 2; }
[ -d "$peer/layouts" ] || { echo "incremental.sh: no Hugo peer site at $peer (set HUGO_PEER)" >&2; exit 2; }

work=${WORK:-$out/incr}
rm -rf "$work"
mkdir -p "$work"
corpus "$out" "$posts" > /dev/null
site="$work/site"
mkdir -p "$site"
cp -r "$peer/hugo.toml" "$peer/layouts" "$site/"
cp -r "$out/corpus-$posts/content" "$site/content"

echo "== build folio" >&2
CGO_ENABLED=0 go build -trimpath -o "$out/incr-folio" .

# measure NAME CMD… runs CMD under GNU time and prints "wall cpu rss_mb".
measure() { local name=$1; shift; time_v "$out/incr-time-$name.log" "$out/incr-cmd.out" "$@"; }
folio_build() { measure "$1" "$out/incr-folio" build --source "$site" --out "$2"; }
hugo_build() {
  rm -rf "$work/hugo-public"
  measure hugo "$hugo" --quiet --source "$site" --destination "$work/hugo-public"
}

echo "== folio cold build" >&2
cold=$(folio_build cold "$work/folio")
echo "== folio build, nothing changed" >&2
same=$(folio_build same "$work/folio")
grep -o '([0-9]* files\? written[^)]*)' "$out/incr-time-same.log" >&2 || true

# The published posts, to edit: those whose page the cold build wrote.
mapfile -t edits < <(cd "$site/content/blog" && for f in post-0001*.md; do
  [ -f "$work/folio/blog/${f%.md}/index.html" ] && echo "$f"; done | head -n "$rounds")

hugo_runs=() folio_runs=()
for round in $(seq "$rounds"); do
  f=${edits[$((round - 1))]}
  printf '\nAn added paragraph, round %d.\n' "$round" >> "$site/content/blog/$f"
  if [ $((round % 2)) = 1 ]; then
    echo "== round $round ($f): folio, then hugo" >&2
    folio_runs+=("$(folio_build edit "$work/folio")")
    grep -o '([0-9]* files\? written[^)]*)' "$out/incr-time-edit.log" >&2 || true
    hugo_runs+=("$(hugo_build)")
  else
    echo "== round $round ($f): hugo, then folio" >&2
    hugo_runs+=("$(hugo_build)")
    folio_runs+=("$(folio_build edit "$work/folio")")
    grep -o '([0-9]* files\? written[^)]*)' "$out/incr-time-edit.log" >&2 || true
  fi
done

echo "== folio cold build of the final content, compared" >&2
folio_build check "$work/folio-cold" > /dev/null
if diff -r "$work/folio" "$work/folio-cold" > "$out/incr-diff.txt"; then
  identical="identical"
else
  identical="DIFFERENT ($(wc -l < "$out/incr-diff.txt") lines of diff -r in $out/incr-diff.txt)"
fi

median() { local f=$1; shift; printf '%s\n' "$@" | awk -v f="$f" '{print $f}' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
all() { local f=$1; shift; printf '%s\n' "$@" | awk -v f="$f" '{printf "%s%s", sep, $f; sep="/"}'; }
hw=$(median 1 "${hugo_runs[@]}") fw=$(median 1 "${folio_runs[@]}")
hc=$(median 2 "${hugo_runs[@]}") fc=$(median 2 "${folio_runs[@]}")
hr=$(median 3 "${hugo_runs[@]}") fr=$(median 3 "${folio_runs[@]}")
read -r cw cc cr <<< "$cold"
read -r sw sc sr <<< "$same"

echo "$(nproc) cores; load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg); outputs in $work ($(df -T "$work" | awk 'NR==2 {print $2}'))"
echo "$("$hugo" version | cut -d' ' -f1-2); folio $(git rev-parse --short HEAD)"
echo "updated folder against a cold build of the final content: $identical"
echo
echo "| $posts posts, whole site | wall (s) | runs (s) | CPU user+sys (s) | peak RSS (MB) |"
echo "| --- | ---: | --- | ---: | ---: |"
echo "| hugo, full build (median of $rounds) | $hw | $(all 1 "${hugo_runs[@]}") | $hc | $hr |"
echo "| folio build after a one-post edit (median of $rounds) | $fw | $(all 1 "${folio_runs[@]}") | $fc | $fr |"
echo "| folio build, nothing changed | $sw | | $sc | $sr |"
echo "| folio build, cold | $cw | | $cc | $cr |"
echo "| hugo ÷ folio after an edit | $(awk -v a="$hw" -v b="$fw" 'BEGIN {printf "%.1fx", a/b}') | | $(awk -v a="$hc" -v b="$fc" 'BEGIN {printf "%.1fx", a/b}') | $(awk -v a="$hr" -v b="$fr" 'BEGIN {printf "%.1fx", a/b}') |"
