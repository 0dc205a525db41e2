#!/usr/bin/env bash
# hugo-blogs.sh MIRROR…: the URLs of real Hugo blogs, Hugo 0.165's against
# folio's, as a new user meets them: folio serve and folio dev started in
# the blog's folder with no other config, and folio build's export, as its
# files and served by nginx with the config it writes (bench/hugocompare
# -folio; nginx with njs installed). Each MIRROR is a bare repository
# brought by the fetch tool
# (/work/.mirror/owner+name/repo); its HEAD is extracted to a temporary
# folder (files the snapshot lacks, such as large images, are skipped) and
# committed to a fresh git repository there, for sites with enableGitInfo.
# Themes need not be there: Hugo builds with the oracle theme. Nothing of
# the blogs is kept. Add -diffs N before the mirrors to see N differences
# per site (default 10), and -cmd LIST (serve,dev,build by default) to run
# only some of folio's commands. Then folio check runs in each blog's
# folder.
set -euo pipefail
cd "$(dirname "$0")/.."
diffs=10
cmds=serve,dev,build
while [ $# -gt 1 ]; do
  case "$1" in
    -diffs) diffs=$2; shift 2 ;;
    -cmd) cmds=$2; shift 2 ;;
    *) break ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/folio" .
go build -o "$work/hugocompare" ./bench/hugocompare
sites=()
for mirror in "$@"; do
  name=$(basename "$(dirname "$mirror")")
  dir="$work/sites/$name"
  mkdir -p "$dir"
  # One checkout (into a temporary index, the mirror untouched) when the
  # snapshot has every blob; else file by file, skipping the ones it
  # lacks (slow: a blog with node_modules has 27,000 files).
  if ! GIT_INDEX_FILE="$work/index-$name" git --git-dir="$(git -C "$mirror" rev-parse --absolute-git-dir)" \
    --work-tree="$dir" checkout -q -f HEAD -- . 2>/dev/null; then
    rm -rf "$dir" && mkdir -p "$dir"
    git -C "$mirror" ls-tree -r -z --name-only HEAD | while IFS= read -r -d '' f; do
      mkdir -p "$dir/$(dirname "$f")"
      git -C "$mirror" cat-file blob "HEAD:$f" > "$dir/$f" 2>/dev/null || rm -rf "$dir/$f"
    done
  fi
  git -C "$dir" init -q
  git -C "$dir" add -A
  git -C "$dir" -c user.name=hugo-blogs -c user.email=hugo-blogs@localhost commit -qm "$name at $(git -C "$mirror" rev-parse --short HEAD)"
  echo "$name: $(git -C "$mirror" rev-parse --short HEAD), $(git -C "$mirror" log -1 --format=%cs HEAD)"
  sites+=("$dir")
done
cd "$work/sites"
status=0
for dir in "${sites[@]}"; do
  "$work/hugocompare" -diffs "$diffs" -folio "$work/folio" -cmd "$cmds" "$(basename "$dir")" || status=1
  # What folio check says there (build refuses what it counts as problems).
  rc=0
  summary=$(cd "$dir" && "$work/folio" check 2>/dev/null | tail -1) || rc=$?
  echo "  folio check in the site's folder: $summary (exit $rc)"
done
exit $status
