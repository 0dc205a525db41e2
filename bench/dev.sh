#!/usr/bin/env bash
# Dev server: folio dev beside hugo server on the same corpus, in the same
# run, at 10,000 posts (or $1): the time from a file write to the live-reload
# message and to the changed page being served (median and p95 over EDITS,
# default 50, edits of one post), and resident memory.
#
#   bench/dev.sh [POSTS]
#
# ONLY=folio skips hugo server; FOLIO=path uses that folio binary instead of
# building one from this tree (to compare two versions).
#
# Both servers build the whole site (pages, sections, tag and category
# pages, feeds) of one copy of the corpus written by internal/corpus (seed
# 1) plus one post that the edits rewrite, in the tags and the category
# with the most pages, so that every edit changes large term lists; they
# run one after the other, not at once, in one site folder holding the
# peer's config (../shared/bench/hugo-peer-site, or HUGO_PEER), which
# folio dev reads as Hugo does (--source). folio's reload message is its SSE "reload" event;
# Hugo's is the "reload" command on its livereload WebSocket. Needs go,
# hugo (HUGO, default ~/bin/hugo or on PATH), curl and python3. Writes into
# bench/out/ (ignored by git) and prints a Markdown table for
# BENCHMARKS.md. Every process it starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

posts=${1:-10000}
edits=${EDITS:-50}
out=bench/out
mkdir -p "$out"
out=$(cd "$out" && pwd)
. bench/lib.sh # pids, cleanup, free_port, corpus, edit_post, cpu_ms, shared_bench
peer=${HUGO_PEER:-$(shared_bench)/hugo-peer-site}
hugo=${HUGO:-$(command -v hugo || echo "$HOME/bin/hugo")}
[ -x "$hugo" ] || { echo "dev.sh: no hugo at $hugo (set HUGO)" >&2; exit 2; }
[ -d "$peer/layouts" ] || { echo "dev.sh: no Hugo peer site at $peer (set HUGO_PEER)" >&2; exit 2; }


# wait_for URL SECONDS: until URL answers 200.
wait_for() {
  local deadline=$((SECONDS + $2))
  until curl -sf -o /dev/null "$1"; do
    [ $SECONDS -lt $deadline ] || { echo "dev.sh: $1 did not come up" >&2; exit 1; }
    sleep 0.2
  done
}

corpus "$out" "$posts" > /dev/null
# A private copy: the edits must not touch the corpus other benchmarks read.
work="$out/dev-$posts"
rm -rf "$work"
mkdir -p "$work"
cp -r "$out/corpus-$posts/content" "$work/content"
content="$work/content"
edit_post "$content"

site="$work/site"
mkdir -p "$site"
cp -r "$peer/hugo.toml" "$peer/layouts" "$site/"

echo "== build" >&2
folio_bin=${FOLIO:-$out/dev-folio}
[ -n "${FOLIO:-}" ] || CGO_ENABLED=0 go build -trimpath -o "$folio_bin" .
go build -o "$out/devbench" ./bench/devbench

echo "== folio dev" >&2
port=$(free_port)
"$folio_bin" dev --source "$site" --content "$content" --addr "127.0.0.1:$port" \
  --base-url "http://127.0.0.1:$port/" 2> "$out/dev-folio.log" &
fpid=$!
pids+=($fpid)
wait_for "http://127.0.0.1:$port/healthz" 120
# The whole site is served: the edited post's term pages and feeds.
for p in /tags/go/ /categories/engineering/ /tags/go/index.xml /categories/; do
  curl -sf -o /dev/null "http://127.0.0.1:$port$p" || { echo "dev.sh: folio dev does not answer $p" >&2; exit 1; }
done
sleep 1
folio=$("$out/devbench" -kind folio -url "http://127.0.0.1:$port" -page /blog/zz-bench-edit/ \
  -file "$content/blog/zz-bench-edit.md" -pid $fpid -edits "$edits")
echo "$folio" >&2
kill $fpid; wait $fpid 2>/dev/null || true
if [ "${ONLY:-}" = folio ]; then
  exit 0
fi

echo "== hugo server" >&2
port=$(free_port)
"$hugo" server --source "$site" --contentDir "$content" --bind 127.0.0.1 --port "$port" \
  --baseURL "http://127.0.0.1:$port/" --logLevel warn > "$out/dev-hugo.log" 2>&1 &
hpid=$!
pids+=($hpid)
wait_for "http://127.0.0.1:$port/blog/zz-bench-edit/" 600
sleep 1
hugo_line=$("$out/devbench" -kind hugo -url "http://127.0.0.1:$port" -page /blog/zz-bench-edit/ \
  -file "$content/blog/zz-bench-edit.md" -pid $hpid -edits "$edits" -pause 500ms)
echo "$hugo_line" >&2
kill $hpid; wait $hpid 2>/dev/null || true

field() { sed -n "s/.*$2=\([0-9.]*\).*/\1/p" <<< "$1"; }
echo
echo "| $posts posts, $edits edits | folio dev | hugo server | hugo / folio |"
echo "| --- | ---: | ---: | ---: |"
for f in reload_median_ms reload_p95_ms page_median_ms page_p95_ms rss_mb peak_rss_mb; do
  a=$(field "$folio" $f) b=$(field "$hugo_line" $f)
  ratio=$(python3 -c "print(f'{$b/$a:.1f}x' if $a else '-')")
  echo "| $f | $a | $b | $ratio |"
done
