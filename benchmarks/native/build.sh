#!/bin/sh
# Build NetZeroMQ's native libzmq reference benchmark.
# Usage: benchmarks/native/build.sh [output-path]   (default: artifacts/native/nzmq_native in the repository)
# Needs gcc and the libzmq headers/library (Debian: apt-get install gcc libzmq3-dev).
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/../../artifacts/native/nzmq_native}"

if ! command -v gcc >/dev/null 2>&1; then
    echo "build.sh: gcc not found (Debian: apt-get install gcc)" >&2
    exit 1
fi
if ! printf '#include <zmq.h>\n' | gcc -E -x c - >/dev/null 2>&1; then
    echo "build.sh: zmq.h not found (Debian: apt-get install libzmq3-dev)" >&2
    exit 1
fi

mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
gcc -O2 -Wall -Wextra -Werror -o "$out" "$here/nzmq_native.c" -lzmq -lpthread -ldl
echo "built $out against libzmq $(pkg-config --modversion libzmq 2>/dev/null || echo '(version unknown)')"
