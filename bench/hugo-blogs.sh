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
  # One checkout into a temporary index (the mirror untouched) of the
  # files whose blobs the snapshot has: it may lack some (large fonts,
  # PDFs), which are skipped; a submodule's folder stays empty.
  gitdir=$(git -C "$mirror" rev-parse --absolute-git-dir)
  git -C "$mirror" ls-tree -r -z HEAD | tr '\0' '\n' |
    awk -F'\t' '{ split($1, m, " ") } m[2] == "blob" { print m[3] "\t" $2 }' > "$work/blobs-$name"
  cut -f1 "$work/blobs-$name" | git -C "$mirror" cat-file --batch-check | awk '$2 == "missing" { print $1 }' > "$work/missing-$name"
  awk -F'\t' 'NR == FNR { gone[$1] = 1; next } !($1 in gone) { printf "%s%c", $2, 0 }' \
    "$work/missing-$name" "$work/blobs-$name" > "$work/paths-$name"
  GIT_LITERAL_PATHSPECS=1 GIT_INDEX_FILE="$work/index-$name" git --git-dir="$gitdir" --work-tree="$dir" \
    checkout -q -f HEAD --pathspec-from-file="$work/paths-$name" --pathspec-file-nul
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
