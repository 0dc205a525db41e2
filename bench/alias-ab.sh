#!/usr/bin/env bash
# What alias pages cost a build over the previous one: two folio versions'
# incremental builds, interleaved, of the whole-site corpus with one alias
# per post (bench/incremental-ab.sh's site, "/old/<post>/" added to the
# front matter of every post-*.md: 8,530 alias pages at 10,000 posts).
# Each version builds its own copy cold, then ROUNDS times (default 5)
# the same post of both copies gets the same added paragraph and both
# build over their previous output, A then B in odd rounds, B then A in
# even ones, under /usr/bin/time -v.
#
#   bench/alias-ab.sh OLD NEW [POSTS]
#
# OLD and NEW are git revisions (built here with -trimpath) or paths to
# folio binaries. Outputs go to WORK (default /dev/shm/folio-alias-ab;
# removed at the end unless KEEP=1). Prints one line per build (CPU is
# user+sys seconds) with the load average, then each version's range.
# RT=10 (as root) runs each timed build under chrt -f 10, as
# incremental-ab.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."

old=$1 new=$2 posts=${3:-10000}
rounds=${ROUNDS:-5}
out=bench/out
mkdir -p "$out"
out=$(cd "$out" && pwd)
. bench/lib.sh # corpus, shared_bench, time_v
peer=${HUGO_PEER:-$(shared_bench)/hugo-peer-site}
[ -d "$peer/layouts" ] || { echo "alias-ab.sh: no Hugo peer site at $peer (set HUGO_PEER)" >&2; exit 2; }
work=${WORK:-/dev/shm/folio-alias-ab}
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$work"; cleanup' EXIT
corpus "$out" "$posts" > /dev/null

echo "== build A ($old) and B ($new)" >&2
folio_binary "$old" "$work/A"
folio_binary "$new" "$work/B"

for v in A B; do
  mkdir -p "$work/site-$v"
  cp -r "$peer/hugo.toml" "$peer/layouts" "$work/site-$v/"
  cp -r "$out/corpus-$posts/content" "$work/site-$v/content"
  # One alias per post, in its front matter's own syntax.
  python3 - "$work/site-$v/content/blog" <<'EOF'
import glob, os, sys
for f in glob.glob(os.path.join(sys.argv[1], "post-*.md")):
    s = open(f).read()
    slug = os.path.basename(f)[:-3]
    if s.startswith("+++\n"):
        s = '+++\naliases = ["/old/%s/"]\n' % slug + s[4:]
    elif s.startswith("---\n"):
        s = '---\naliases: ["/old/%s/"]\n' % slug + s[4:]
    open(f, "w").write(s)
EOF
done

run() { # run V LABEL: one build of version V over its output; prints a line
  local v=$1 label=$2 r
  r=$(time_v "$work/time-$v.log" "$work/cmd-$v.out" ${RT:+chrt -f "$RT"} "$work/$v" build --source "$work/site-$v" --out "$work/out-$v")
  echo "$v $label $r $(cut -d' ' -f1 /proc/loadavg)"
}

echo "== cold builds" >&2
run A cold >&2
run B cold >&2
grep -h "wrote" "$work/cmd-A.out" "$work/cmd-B.out" >&2 || true
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

echo "$(nproc) cores, outputs in $work ($(df -T "$work" | awk 'NR==2 {print $2}')), $posts posts with an alias each; A=$old B=$new"
echo "version build wall_s cpu_s rss_mb load1"
printf '%s\n' "${lines[@]}"
for v in A B; do
  cpu=$(printf '%s\n' "${lines[@]}" | awk -v v="$v" '$1 == v {print $4}' | sort -g | paste -sd' ')
  wall=$(printf '%s\n' "${lines[@]}" | awk -v v="$v" '$1 == v {print $3}' | sort -g | paste -sd' ')
  echo "$v after an edit, sorted: CPU $cpu s; wall $wall s"
done
