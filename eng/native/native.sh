#!/usr/bin/env bash
# Builds libzmq from Debian's source package for the given runtime identifiers, checks and runs each library on its own
# platform, and packs NetZeroMQ.Native (holding exactly the libraries that passed in this run) and NetZeroMQ (which
# depends on it) into artifacts/package/, the folder eng/consumer-check.sh takes as its local feed.
#   eng/native/native.sh linux-x64      ./build.sh native
#   eng/native/native.sh --all          ./build.sh native-all: every runtime eng/native/runtimes.txt lists
# Per runtime: eng/native/build-libzmq.sh (configure, build), inspect.sh (size, machine, exports, dependencies, C library
# floor), smoke.sh (the C smoke test, natively, under musl's loader, qemu or wine); then, from the packages, samples.sh for
# the cross builds a .NET runtime can run here (three samples, five for Windows with the two async ones, published
# self-contained and run under qemu or wine) and publish-check.sh for musl (what `dotnet publish -r linux-musl-*` puts in
# its output: no .NET runtime for musl runs here). The findings go to artifacts/native/report.txt and, with the build
# options, into the package as build-info.txt; the runtimes that passed, to artifacts/native/passed-runtimes.txt, which
# NetZeroMQ.Native.csproj checks every staged runtime against.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
artifacts="$repo/artifacts"
native="$artifacts/native"
packages="$artifacts/package"
# The runtimes the package may ship: what native-all builds and runs (comments and blank lines aside).
mapfile -t shipped < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$here/runtimes.txt" | grep .)
[ $# -gt 0 ] || { echo "usage: eng/native/native.sh --all | RID... (one of: ${shipped[*]})" >&2; exit 1; }
if [ "$1" = --all ]; then
    rids=("${shipped[@]}")
else
    rids=("$@")
fi
for rid in "${rids[@]}"; do
    [[ " ${shipped[*]} " == *" $rid "* ]] \
        || { echo "'$rid' is not in eng/native/runtimes.txt (${shipped[*]}): the package ships only what is listed there" >&2; exit 1; }
done
run_start=$(date +%s)
step() { echo "==> $* ($(( $(date +%s) - run_start )) s into the run)"; }

export NATIVE_TOOLS="$native/tools"
step "tools for ${rids[*]}"
"$here/setup.sh" "$NATIVE_TOOLS" "${rids[@]}"

# Nothing from an earlier run may reach this run's package: only the tools (zig and its cache) are kept.
rm -rf "$native/build" "$native/runtimes" "$native/report.txt" "$native/LICENSE.txt" "$native/build-info.txt" "$native/passed-runtimes.txt"
rm -f "$packages"/NetZeroMQ.*nupkg
mkdir -p "$native/build"
export NATIVE_WINEPREFIX="$native/build/wineprefix"

source_dir=$(mktemp -d "${TMPDIR:-/tmp}/netzeromq-libzmq-source.XXXXXX")
trap 'rm -rf "$source_dir"' EXIT
step "libzmq source"
src=$("$here/fetch-source.sh" "$source_dir" | tail -n 1)
source_version=$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' "$src/debian/changelog")
zmq_version=$(awk '/define ZMQ_VERSION_(MAJOR|MINOR|PATCH)/ { v = v (v == "" ? "" : ".") $3 } END { print v }' "$src/include/zmq.h")
echo "    libzmq $zmq_version, Debian source package zeromq3 $source_version"

report="$native/report.txt"
{
    echo "NetZeroMQ.Native build report, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "libzmq $zmq_version from Debian's source package zeromq3 $source_version (apt-get source zeromq3), plus eng/native/patches"
    echo "options: draft API on; CURVE through the bundled tweetnacl; no TLS/wss, GSSAPI, PGM, NORM, TIPC, libbsd, NSS;"
    echo "         only zmq_* exported; C++ runtime linked statically; stripped"
} > "$report"

for rid in "${rids[@]}"; do
    case "$rid" in
        win-*) file=libzmq.dll ;;
        *) file=libzmq.so ;;
    esac
    built="$native/build/$rid/out/$file"
    step "$rid"
    rid_start=$(date +%s)
    "$here/build-libzmq.sh" "$rid" "$src" "$native/build/$rid" "$built"
    build_seconds=$(( $(date +%s) - rid_start ))
    if ! {
        echo
        echo "== $rid (configure and build: $build_seconds s)"
        "$here/inspect.sh" "$rid" "$built" && "$here/smoke.sh" "$rid" "$built" "$src/include"
    } 2>&1 | tee -a "$report"; then
        echo "$rid: FAILED, nothing is packed" >&2
        exit 1
    fi
    # Staged only now that it passed: the package is made of what is under runtimes/, and may hold a runtime only if
    # this run recorded it as passed (NetZeroMQ.Native.csproj checks).
    mkdir -p "$native/runtimes/$rid/native"
    cp "$built" "$native/runtimes/$rid/native/$file"
    echo "$rid" >> "$native/passed-runtimes.txt"
done

# An arm64 build is a cross build: it gets the run-check results from eng/native/cmake/linux-cross-checks.cmake, which
# the x64 build of the same C library measured by running them.
features() { grep -E '^#define (ZMQ_HAVE_|ZMQ_USE_|ZMQ_IOTHREAD_|ZMQ_POLL_|HAVE_)' "$1" | sort; }
for pair in "linux-x64 linux-arm64" "linux-musl-x64 linux-musl-arm64"; do
    read -r measured given <<<"$pair"
    [ -f "$native/build/$measured/platform.hpp" ] && [ -f "$native/build/$given/platform.hpp" ] || continue
    if ! difference=$(diff <(features "$native/build/$measured/platform.hpp") <(features "$native/build/$given/platform.hpp")); then
        echo "$given was configured differently from $measured (update eng/native/cmake/linux-cross-checks.cmake):" >&2
        echo "$difference" >&2
        exit 1
    fi
    echo "$given and $measured: the same platform features in platform.hpp (cross-build run-check values verified)" | tee -a "$report"
done
if [ -f "$native/build/linux-x64/platform.hpp" ] && [ -f "$native/build/linux-musl-x64/platform.hpp" ]; then
    # Reported, not required: the two C libraries differ (musl has strlcpy, for one).
    echo "linux-musl-x64 against linux-x64, platform.hpp: $(diff <(features "$native/build/linux-x64/platform.hpp") \
        <(features "$native/build/linux-musl-x64/platform.hpp") | grep -E '^[<>]' | paste -s -d ' ' || true)" | tee -a "$report"
fi

step "licence texts"
"$here/license.sh" "$src" "$source_version" "${rids[@]}" > "$native/LICENSE.txt"
cp "$report" "$native/build-info.txt"

step "pack"
version=$(dotnet msbuild "$repo/src/NetZeroMQ/NetZeroMQ.csproj" -getProperty:Version -p:Configuration=Release)
dotnet pack "$repo/src/NetZeroMQ.Native/NetZeroMQ.Native.csproj" -c Release -o "$packages" --nologo -v q -warnaserror
dotnet pack "$repo/src/NetZeroMQ/NetZeroMQ.csproj" -c Release -o "$packages" --nologo -v q -warnaserror
native_package="$packages/NetZeroMQ.Native.$version.nupkg"
entries=$(unzip -Z1 "$native_package")
for rid in "${rids[@]}"; do
    grep -qx "runtimes/$rid/native/libzmq\.\(so\|dll\)" <<<"$entries" || { echo "$native_package lacks $rid" >&2; exit 1; }
done
packed=$(grep -o '^runtimes/[^/]*/' <<<"$entries" | sort -u | sed 's|^runtimes/||; s|/$||' | paste -s -d ' ')
[ "$packed" = "$(printf '%s\n' "${rids[@]}" | sort | paste -s -d ' ')" ] \
    || { echo "$native_package holds runtimes/ $packed, not exactly this run's ${rids[*]}" >&2; exit 1; }
grep -q "<dependency id=\"NetZeroMQ.Native\" version=\"$version\"" <<<"$(unzip -p "$packages/NetZeroMQ.$version.nupkg" NetZeroMQ.nuspec)" \
    || { echo "NetZeroMQ.$version.nupkg does not depend on NetZeroMQ.Native $version" >&2; exit 1; }

for rid in "${rids[@]}"; do
    case "$rid" in
        linux-x64) continue ;; # the test suite and eng/consumer-check.sh run the package here
        linux-musl-*) step "$rid: what a publish for it holds"; check=("$here/publish-check.sh" "$rid" "$version") ;;
        *) step "$rid: samples from the packages"; check=("$here/samples.sh" "$rid" "$version") ;;
    esac
    if ! "${check[@]}" 2>&1 | tee -a "$report"; then
        echo "$rid: $(basename "${check[0]}") FAILED; the packages are removed" >&2
        rm -f "$packages"/NetZeroMQ.*nupkg
        exit 1
    fi
done

echo
echo "native: $(basename "$native_package") with ${rids[*]}, $(stat -c %s "$native_package") bytes; NetZeroMQ.$version.nupkg depends on it"
echo "native: report in artifacts/native/report.txt; $(( $(date +%s) - run_start )) s in all"
