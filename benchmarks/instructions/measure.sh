#!/usr/bin/env bash
# Instructions per message (send + receive of 64 B over inproc, one thread) of the span path and the Message path, counted by
# valgrind's callgrind in a NativeAOT build, for this working tree and for a git revision to compare with:
#   benchmarks/instructions/measure.sh [REVISION]      (default REVISION: HEAD; needs valgrind and the NativeAOT toolchain)
# Each path runs at SMALL and LARGE counts; (Ir(LARGE) - Ir(SMALL)) / (LARGE - SMALL) is the cost of one message with start-up
# and shutdown cancelled out. Instruction counts do not depend on the machine's load, so one run of each is enough.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
revision="${1:-HEAD}"
small="${SMALL:-20000}"
large="${LARGE:-200000}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rid="linux-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')"

command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 2; }

# The revision's sources, as a plain tree (no worktree, nothing in this repository changes).
mkdir -p "$work/revision"
git -C "$repo" archive "$revision" src Directory.Build.props | tar -x -C "$work/revision"

publish() { # name library-project
    dotnet publish "$here/Instructions.csproj" -c Release -r "$rid" -p:PublishAot=true -p:NetZeroMQLibrary="$2" \
        --artifacts-path "$work/build-$1" -o "$work/bin-$1" --nologo -v q >"$work/publish.log" 2>&1 \
        || { cat "$work/publish.log" >&2; exit 1; }
    # valgrind cannot read the separate debug file NativeAOT writes ("possibly corrupted debuginfo"); totals need none.
    rm -f "$work/bin-$1/Instructions.dbg"
}

instructions() { # binary mode count -> total Ir of the run
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$1" "$2" "$3" 2>"$work/cg.log" >/dev/null \
        || { cat "$work/cg.log" >&2; exit 1; }
    sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$work/cg.out"
}

publish before "$work/revision/src/NetZeroMQ/NetZeroMQ.csproj"
publish after "$repo/src/NetZeroMQ/NetZeroMQ.csproj"
printf '| path | %s | working tree | difference |\n|---|---:|---:|---:|\n' "$revision"
for mode in span message; do
    per=()
    for build in before after; do
        a=$(instructions "$work/bin-$build/Instructions" "$mode" "$small")
        b=$(instructions "$work/bin-$build/Instructions" "$mode" "$large")
        per+=("$(( (b - a) / (large - small) ))")
    done
    printf '| %s (send + receive, Ir/message) | %d | %d | %+d |\n' "$mode" "${per[0]}" "${per[1]}" "$((per[1] - per[0]))"
done
