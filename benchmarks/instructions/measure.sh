#!/usr/bin/env bash
# Instructions per message (send + receive of 64 B over inproc, one thread) of the span path and the Message path, counted by
# valgrind's callgrind in a NativeAOT build, for this working tree and for a git revision to compare with:
#   benchmarks/instructions/measure.sh [REVISION]      (default REVISION: HEAD; needs valgrind and the NativeAOT toolchain)
# With a libzmq that has the draft API (DRAFT_LIBZMQ, default artifacts/native/runtimes/RID/native/libzmq.so, what
# ./build.sh native makes), the draft paths run too, on the thread-safe sockets: clientserver-span and clientserver (CLIENT to
# SERVER, span and Message path), radiodish (RADIO to DISH, the Message path with the group set on every message).
# The traced paths (always measured) time NetZeroMQ.Hosting's traced send with no listener on its activity source against the
# send it wraps: traced (SendTracedAsync) and untraced (SendMultipartAsync), a one-frame MultipartMessage each, received with
# RecvMultipart; the difference of their counts is what tracing costs a message when nobody listens. The revision must have
# src/NetZeroMQ.Hosting (any commit since the package was added).
# The last column is what native.c (the same loops in C, built here with gcc) spends outside libzmq and libc.
# Each path runs at SMALL and LARGE counts; (Ir(LARGE) - Ir(SMALL)) / (LARGE - SMALL) is the cost of one message with start-up
# and shutdown cancelled out. Instruction counts do not depend on the machine's load, so one run of each is enough.
# Two numbers per path and build: the whole process, and the binding's own share (everything outside libzmq and libc: the
# managed code, the P/Invoke transitions, the runtime's helpers), which is what the binding can change. PROFILE=DIR also
# writes, per path and build, each function's own cost per message (callgrind_annotate --inclusive=no) to DIR/PATH-BUILD.txt
# (BUILD: before = the revision, after = the working tree): where the instructions go.
# Budgets: after the table, each path's working-tree count outside libzmq and libc is checked against its budget in
# budgets.txt (next to this script); the script exits 1, naming the path, when a count exceeds its budget.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
revision="${1:-HEAD}"
small="${SMALL:-20000}"
large="${LARGE:-200000}"
profile="${PROFILE:-}"
draft_lib="${DRAFT_LIBZMQ:-$repo/artifacts/native/runtimes/linux-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')/native/libzmq.so}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rid="linux-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')"

# shellcheck source=benchmarks/instructions/budget.sh
. "$here/budget.sh"
budgets="$here/budgets.txt"

command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
[ -z "$profile" ] || mkdir -p "$profile"

# The revision's sources, as a plain tree (no worktree, nothing in this repository changes).
mkdir -p "$work/revision"
git -C "$repo" archive "$revision" src Directory.Build.props | tar -x -C "$work/revision"

publish() { # name library-project
    # Symbols stay in the binary (StripSymbols=false) so that callgrind names the managed functions, but its DWARF goes:
    # valgrind cannot read NativeAOT's debug information ("possibly corrupted debuginfo"), and the symbol table is enough.
    dotnet publish "$here/Instructions.csproj" -c Release -r "$rid" -p:PublishAot=true -p:StripSymbols=false \
        -p:NetZeroMQLibrary="$2" --artifacts-path "$work/build-$1" -o "$work/bin-$1" --nologo -v q >"$work/publish.log" 2>&1 \
        || { cat "$work/publish.log" >&2; exit 1; }
    objcopy --strip-debug "$work/bin-$1/Instructions"
}

# Self cost of every function of one callgrind run, one "Ir<TAB>function [object]" line each.
functions() {
    callgrind_annotate --threshold=100 --inclusive=no "$1" 2>/dev/null | awk '
        /file:function/ { go = 1; getline; next }
        go && NF >= 2 { n = $1; gsub(",", "", n); $1 = ""; sub(/^ *(\([ 0-9.%]*\))? */, ""); print n "\t" $0 }'
}

is_draft() { [ "$1" != span ] && [ "$1" != message ] && [ "$1" != traced ] && [ "$1" != untraced ]; }

# native.c's loop for a path: the traced paths send one-frame messages, so C's counterpart is its Message loop.
native_mode() { case "$1" in traced | untraced) echo message ;; *) echo "$1" ;; esac; }

run() { # binary mode count build -> callgrind output file
    # The draft paths load the draft libzmq: NETZEROMQ_LIBZMQ for the binding, LD_LIBRARY_PATH (its soname) for native.c.
    local env=()
    if is_draft "$2"; then env=(NETZEROMQ_LIBZMQ="$draft_lib" LD_LIBRARY_PATH="$work/draftlib"); fi
    env "${env[@]}" valgrind --tool=callgrind --callgrind-out-file="$work/cg-$2-$3-$4.out" "$1" "$2" "$3" 2>"$work/cg.log" >/dev/null \
        || { cat "$work/cg.log" >&2; exit 1; }
}

totals() { # callgrind output [binary name] -> "whole binding" (binding: the functions of the program's own binary: the
    # runtime's helpers, which callgrind files under the binary, and the managed code, which it files under "???"; not libzmq,
    # libc, ld.so; for native.c, its own functions)
    local whole binding
    whole=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$1")
    binding=$(functions "$1" | awk -F'\t' -v b="${2:-Instructions}" '
        { n = split($2, w, "/"); last = w[n] } /\[\?\?\?\]$/ || last == b "]" { s += $1 } END { printf "%d", s }')
    echo "$whole $binding"
}

per_function() { # small.out large.out -> per-message self cost of each function, largest first
    join -t $'\t' -1 2 -2 2 -a 2 -e 0 -o 0,1.1,2.1 <(functions "$1" | sort -t $'\t' -k2,2) <(functions "$2" | sort -t $'\t' -k2,2) \
        | awk -F'\t' -v d="$((large - small))" '{ p = ($3 - $2) / d; if (p >= 0.5 || p <= -0.5) printf "%8.1f  %s\n", p, $1 }' \
        | sort -rn
}

modes=(span message traced untraced)
if [ -f "$draft_lib" ]; then
    modes+=(clientserver-span clientserver radiodish)
    mkdir -p "$work/draftlib"
    ln -s "$(cd "$(dirname "$draft_lib")" && pwd)/$(basename "$draft_lib")" "$work/draftlib/libzmq.so.5"
else
    echo "measure.sh: no draft libzmq at $draft_lib (./build.sh native, or DRAFT_LIBZMQ=...): the draft paths are not measured" >&2
fi

gcc -O2 -Wall -Wextra -Werror -o "$work/native" "$here/native.c" -lzmq -ldl \
    || { echo "measure.sh: native.c needs gcc and zmq.h (Debian: apt-get install gcc libzmq3-dev)" >&2; exit 2; }
publish before "$work/revision/src/NetZeroMQ/NetZeroMQ.csproj"
publish after "$repo/src/NetZeroMQ/NetZeroMQ.csproj"
printf '| path (Ir per message, send + receive) | %s whole | %s outside libzmq+libc | working tree whole | working tree outside libzmq+libc | difference whole | difference outside | C program outside libzmq+libc |\n' "$revision" "$revision"
printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
over=0
verdicts=()
for mode in "${modes[@]}"; do
    per=()
    for build in before after; do
        run "$work/bin-$build/Instructions" "$mode" "$small" "$build"
        run "$work/bin-$build/Instructions" "$mode" "$large" "$build"
        read -r wa oa < <(totals "$work/cg-$mode-$small-$build.out")
        read -r wb ob < <(totals "$work/cg-$mode-$large-$build.out")
        per+=("$(( (wb - wa) / (large - small) ))" "$(( (ob - oa) / (large - small) ))")
        if [ -n "$profile" ]; then
            per_function "$work/cg-$mode-$small-$build.out" "$work/cg-$mode-$large-$build.out" >"$profile/$mode-$build.txt"
        fi
    done
    c_mode=$(native_mode "$mode")
    run "$work/native" "$c_mode" "$small" c
    run "$work/native" "$c_mode" "$large" c
    read -r _ ca < <(totals "$work/cg-$c_mode-$small-c.out" native)
    read -r _ cb < <(totals "$work/cg-$c_mode-$large-c.out" native)
    printf '| %s | %d | %d | %d | %d | %+d | %+d | %d |\n' "$mode" "${per[0]}" "${per[1]}" "${per[2]}" "${per[3]}" \
        "$((per[2] - per[0]))" "$((per[3] - per[1]))" "$(( (cb - ca) / (large - small) ))"
    # The working tree's count outside libzmq and libc is what the budget bounds.
    verdict=$(check_budget "$budgets" "$mode" "${per[3]}") || over=1
    verdicts+=("$verdict")
done
printf '\n'
printf '%s\n' "${verdicts[@]}"
if [ "$over" -ne 0 ]; then
    echo "measure.sh: FAILED, a path exceeds its instruction budget or has none (benchmarks/instructions/budgets.txt)" >&2
    exit 1
fi
