#!/usr/bin/env bash
# Full render: folio build beside Hugo building the same corpus, in the same
# run, at 10,000 posts (or $1), alternating the two ROUNDS times (default 3).
#
#   bench/render.sh [POSTS]
#
# Both read one content folder written by internal/corpus (seed 1). Hugo
# uses the minimal peer site of ../shared/bench/hugo-peer (article HTML, a
# Markdown alternate per page, a JSON list, RSS), or the one HUGO_PEER
# names. With WHOLE=1 the peer is ../shared/bench/hugo-peer-site, which
# adds the tag and category pages and their feeds, and folio builds that
# same site folder (folio build --source, its hugo.toml read as Hugo reads
# it: services.rss.limit and all): the whole-site comparison of issue 13.
# folio build writes every
# route the server answers (article HTML and Markdown, the API with every
# cursor page, feeds, sitemap, .gz twins). Wall time, CPU time and peak RSS
# come from /usr/bin/time -v. Needs go, hugo (HUGO, default ~/bin/hugo or on
# PATH) and GNU time. The corpus and binary go to bench/out/ (ignored by
# git); both outputs go to WORK (default a folder in /dev/shm), so that the
# figures are the tools' work and not a shared disk's queue. Prints a
# Markdown table for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

posts=${1:-10000}
rounds=${ROUNDS:-3}
out=bench/out
mkdir -p "$out"
out=$(cd "$out" && pwd)
whole=${WHOLE:-0}
. bench/lib.sh # shared_bench
if [ "$whole" = 1 ]; then
  peer=${HUGO_PEER:-$(shared_bench)/hugo-peer-site}
else
  peer=${HUGO_PEER:-$(shared_bench)/hugo-peer}
fi
hugo=${HUGO:-$(command -v hugo || echo "$HOME/bin/hugo")}
[ -x "$hugo" ] || { echo "render.sh: no hugo at $hugo (set HUGO)" >&2; exit 2; }
[ -d "$peer/layouts" ] || { echo "render.sh: no Hugo peer site at $peer (set HUGO_PEER)" >&2; exit 2; }

work=${WORK:-/dev/shm/folio-render-bench}
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

echo "== corpus of $posts posts" >&2
corpus="$out/corpus-$posts"
if [ ! -d "$corpus/content" ]; then
  go run ./internal/corpus/cmd/gencorpus "$corpus" "$posts"
fi

echo "== build folio" >&2
CGO_ENABLED=0 go build -trimpath -o "$out/render-folio" .

# The Hugo site: the peer's config and layouts beside the corpus's content.
site="$work/hugo"
rm -rf "$site"
mkdir -p "$site"
cp -r "$peer/hugo.toml" "$peer/layouts" "$site/"
ln -s "$corpus/content" "$site/content"

# measure NAME CMD… runs CMD under GNU time and prints "wall cpu rss_mb".
measure() { local name=$1; shift; time_v "$out/render-time-$name.log" "$out/render-cmd.out" "$@"; }

hugo_runs=() folio_runs=()
for round in $(seq "$rounds"); do
  echo "== round $round: hugo" >&2
  rm -rf "$site/public" "$site/resources"
  hugo_runs+=("$(cd "$site" && measure hugo "$hugo" --quiet --destination public)")
  echo "== round $round: folio build" >&2
  # A cold build: no previous export, and neither the parse cache nor the
  # record folio build keeps beside it (.folio.folio-cache,
  # .folio.folio-build), which would spare it the parsing Hugo does.
  rm -rf "$work/folio" "$work"/.folio.folio-*
  if [ "$whole" = 1 ]; then
    folio_runs+=("$(measure folio "$out/render-folio" build --source "$site" --content "$corpus/content" --out "$work/folio")")
  else
    folio_runs+=("$(measure folio "$out/render-folio" build --content "$corpus/content" \
      --base-url https://blog.example.org/ --out "$work/folio")")
  fi
done

html=$(find "$work/folio/blog" -name index.html | wc -l)
hhtml=$(find "$site/public" -path '*/blog/*/index.html' | wc -l)
terms() { find "$1/tags" "$1/categories" -name index.html 2>/dev/null | wc -l; }
fterms=$(terms "$work/folio") hterms=$(terms "$site/public")

# median of the runs' field $1 (1 wall, 2 cpu, 3 rss)
median() { local f=$1; shift; printf '%s\n' "$@" | awk -v f="$f" '{print $f}' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
all() { local f=$1; shift; printf '%s\n' "$@" | awk -v f="$f" '{printf "%s%s", sep, $f; sep="/"}'; }

hw=$(median 1 "${hugo_runs[@]}") fw=$(median 1 "${folio_runs[@]}")
hc=$(median 2 "${hugo_runs[@]}") fc=$(median 2 "${folio_runs[@]}")
hr=$(median 3 "${hugo_runs[@]}") fr=$(median 3 "${folio_runs[@]}")

echo "$(nproc) cores; load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg); outputs in $work"
echo "$("$hugo" version | cut -d' ' -f1-2); folio $(git rev-parse --short HEAD)"
echo "article pages written: folio $html, hugo $hhtml; tag and category pages: folio $fterms, hugo $hterms"
echo
echo "| $posts posts | wall (s), median of $rounds | runs (s) | CPU user+sys (s) | peak RSS (MB) |"
echo "| --- | ---: | --- | ---: | ---: |"
echo "| hugo | $hw | $(all 1 "${hugo_runs[@]}") | $hc | $hr |"
echo "| folio build | $fw | $(all 1 "${folio_runs[@]}") | $fc | $fr |"
echo "| hugo ÷ folio | $(awk -v a="$hw" -v b="$fw" 'BEGIN {printf "%.1fx", a/b}') | | $(awk -v a="$hc" -v b="$fc" 'BEGIN {printf "%.1fx", a/b}') | $(awk -v a="$hr" -v b="$fr" 'BEGIN {printf "%.1fx", a/b}') |"
