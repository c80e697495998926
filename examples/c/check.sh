#!/usr/bin/env bash
# Builds examples/c/query.c with the system C compiler against the static library of the C
# API, and checks that it answers every query exactly as the `silknav` command line does, on
# a generated world with objects: cell, height and the nearest walkable point (with and without
# a reference height), line of sight and movement (with and without a start height), and
# paths (walkable and exact, with and without a budget).
#
#     examples/c/check.sh          # from the repository; uses $CARGO_TARGET_DIR or target/
#
# With SILKNAV_PREBUILT=1 it builds nothing and uses the release build already in the target
# folder (.ci/run builds the whole workspace once for every step that needs it).
#
# Exit status 0 when every answer is byte-identical, else 1 with the first differences.
set -euo pipefail
cd "$(dirname "$0")/../.."

target="${CARGO_TARGET_DIR:-$PWD/target}"
work="$target/c-example"
mkdir -p "$work"

if [ -z "${SILKNAV_PREBUILT:-}" ]; then
  cargo build --release --locked -p silknav-capi -p silknav-cli
fi
cli="$target/release/silknav"
# The libraries the Rust standard library needs beside libsilknav_capi.a on Linux.
cc -std=c11 -Wall -Wextra -Werror -O2 -I crates/silknav-capi/include examples/c/query.c \
  "$target/release/libsilknav_capi.a" -lpthread -ldl -lm -lrt -o "$work/query"

world="$work/world"
"$cli" gen --out "$world" --seed 3 --size 3x3 --force >/dev/null
# Queries over the world (region x 128..131, z 64..67) and a margin around it: points, points
# with reference heights, segments of up to 1500 units, and segments with a start height.
awk 'BEGIN {
  srand(7);
  for (i = 0; i < 4000; i++) {
    x = 245700 + rand() * 5880; z = 122820 + rand() * 5880;
    printf "%.3f %.3f\n", x, z > "'"$work"'/points.txt";
    printf "%.3f %.3f %.1f\n", x, z, rand() * 80 - 20 > "'"$work"'/points-y.txt";
  }
  for (i = 0; i < 1500; i++) {
    x = 245700 + rand() * 5880; z = 122820 + rand() * 5880;
    dx = rand() * 3000 - 1500; dz = rand() * 3000 - 1500;
    printf "%.3f %.3f %.3f %.3f\n", x, z, x + dx, z + dz > "'"$work"'/segments.txt";
    printf "%.3f %.3f %.3f %.3f %.1f\n", x, z, x + dx, z + dz, rand() * 60 > "'"$work"'/segments-y.txt";
  }
  # A path query for every path answer: from far apart open ground, and outside the id space.
  print "246110 123350 251170 128170" > "'"$work"'/segments.txt";
  print "-5 10 246110 123350" > "'"$work"'/segments.txt";
}'

status=0
compare() { # COMMAND QUERIES [BUDGET]
  local command="$1" queries="$2" budget="${3:-}"
  local name="$command-$(basename "$queries" .txt)${budget:+-budget$budget}"
  local cli_args=() c_args=()
  if [ -n "$budget" ]; then cli_args=(--budget "$budget"); c_args=("$budget"); fi
  local cli_command=("$command")
  if [ "$command" = path-exact ]; then cli_command=(path --exact); fi
  "$cli" "${cli_command[@]}" "${cli_args[@]}" "$world" <"$queries" >"$work/$name.cli" 2>/dev/null
  "$work/query" "$world" "$command" "${c_args[@]}" <"$queries" >"$work/$name.c"
  local lines
  lines=$(wc -l <"$work/$name.cli")
  if cmp -s "$work/$name.cli" "$work/$name.c"; then
    echo "c example: $name: $lines answers, identical to the command line's"
  else
    echo "c example: $name: answers differ from the command line's:"
    diff "$work/$name.cli" "$work/$name.c" | head -n 10
    status=1
  fi
}
compare cell "$work/points.txt"
compare cell "$work/points-y.txt"
compare height "$work/points.txt"
compare height "$work/points-y.txt"
compare los "$work/segments.txt"
compare los "$work/segments-y.txt"
compare move "$work/segments.txt"
compare move "$work/segments-y.txt"
compare snap "$work/points.txt"
compare snap "$work/points-y.txt"
compare path "$work/segments.txt"
compare path "$work/segments.txt" 20
compare path-exact "$work/segments.txt"
exit "$status"
