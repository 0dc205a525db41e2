# What the benchmark scripts share; each sources it after changing to the
# repository's root.

# Every process a script starts goes into pids and is stopped on exit.
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

# folio_binary REV DEST puts the folio of REV (a path to a binary, or a
# git revision, its tree built in a temporary folder beside DEST) at DEST.
folio_binary() {
  if [ -x "$1" ] && [ -f "$1" ]; then cp "$1" "$2"; return; fi
  local tree="$2.src"
  mkdir -p "$tree"
  git archive "$1" | tar -x -C "$tree"
  (cd "$tree" && CGO_ENABLED=0 go build -trimpath -o "$2" .)
  rm -rf "$tree"
}

# free_port prints a TCP port that is free on loopback.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# corpus OUT POSTS generates the corpus of POSTS posts into OUT/corpus-POSTS
# unless it is there, and prints its content folder.
corpus() {
  echo "== corpus of $2 posts" >&2
  if [ ! -d "$1/corpus-$2/content" ]; then
    go run ./internal/corpus/cmd/gencorpus "$1/corpus-$2" "$2" >&2
  fi
  echo "$1/corpus-$2/content"
}

# edit_post CONTENT adds to the content folder CONTENT the post the
# scripts edit (bench/devbench, serve's first page): in the largest tags
# and category, its title changed with every edit.
edit_post() {
  cat > "$1/blog/zz-bench-edit.md" <<'EOF'
---
title: "BENCH-TITLE"
date: 2020-01-01T00:00:00Z
tags: [go, performance, 日本語]
categories: [engineering]
---
The post the benchmarks edit. Its title changes with every edit.
EOF
}

# cpu_ms PID prints the user+system CPU time the process PID has used,
# in milliseconds.
cpu_ms() { local s; s=($(cut -d' ' -f14,15 "/proc/$1/stat")); echo $(( (s[0] + s[1]) * 1000 / $(getconf CLK_TCK) )); }

# shared_bench prints ../shared/bench as seen from the main checkout, so
# that a script run in a worktree (/work/wt/NAME) finds the peers too.
shared_bench() {
  local common
  common=$(cd "$(git rev-parse --git-common-dir)" && pwd)
  for d in ../shared/bench "$common/../../shared/bench"; do
    if [ -d "$d" ]; then (cd "$d" && pwd); return; fi
  done
  echo ../shared/bench
}

# time_v LOG OUT CMD… runs CMD under GNU time (its output to OUT, time's
# report to LOG) and prints "wall cpu rss_mb": wall and user+system CPU
# seconds, peak RSS in MB.
time_v() {
  local log=$1 cmdout=$2; shift 2
  /usr/bin/time -v "$@" > "$cmdout" 2> "$log" || { cat "$log" >&2; exit 1; }
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); wall = (n == 3) ? p[1]*3600 + p[2]*60 + p[3] : p[1]*60 + p[2] }
    /User time/   { cpu += $2 }
    /System time/ { cpu += $2 }
    /Maximum resident/ { rss = $2 / 1024 }
    END { printf "%.2f %.2f %.0f\n", wall, cpu, rss }' "$log"
}
