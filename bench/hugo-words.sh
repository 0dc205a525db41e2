#!/usr/bin/env bash
# hugo-words.sh MIRROR…: compare folio's rendering of real Hugo blogs with
# Hugo 0.165's, word for word and by HTML (internal/hugowords). Each MIRROR is a bare
# repository brought by the fetch tool (/work/.mirror/owner+name/repo);
# its HEAD is extracted to a temporary folder (files the snapshot lacks,
# such as large images, are skipped: they hold no words) and compared.
# Nothing of the blogs is kept. Add -v before the mirrors for every page
# and folio's problems.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=()
if [ "${1:-}" = "-v" ]; then flags=(-v); shift; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sites=()
for mirror in "$@"; do
  name=$(basename "$(dirname "$mirror")")
  dir="$work/$name"
  mkdir -p "$dir"
  git -C "$mirror" ls-tree -r -z --name-only HEAD | while IFS= read -r -d '' f; do
    mkdir -p "$dir/$(dirname "$f")"
    git -C "$mirror" cat-file blob "HEAD:$f" > "$dir/$f" 2>/dev/null || rm -f "$dir/$f"
  done
  sites+=("$dir")
done
go run ./internal/hugowords/cmd/hugowords "${flags[@]}" "${sites[@]}"
