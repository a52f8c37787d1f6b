#!/usr/bin/env bash
# Builds libzmq from Debian's source package for the given runtime identifiers, checks and smoke-tests each library on
# its own platform, and packs NetZeroMQ.Native (holding exactly the libraries that passed in this run) and NetZeroMQ
# (which depends on it) into artifacts/package/, the folder eng/consumer-check.sh takes as its local feed.
#   eng/native/native.sh linux-x64                         ./build.sh native
#   eng/native/native.sh linux-x64 linux-arm64 win-x64     ./build.sh native-all
# Per runtime: eng/native/build-libzmq.sh (configure, build), inspect.sh (size, exports, dependencies, glibc floor),
# smoke.sh (the C smoke test, under qemu or wine for the cross builds); for the cross builds also samples.sh (three
# samples, five for win-x64 with the two async ones, published self-contained from the packages and run under qemu or wine). The findings go to
# artifacts/native/report.txt and, with the build options, into the package as build-info.txt.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
artifacts="$repo/artifacts"
native="$artifacts/native"
packages="$artifacts/package"
[ $# -gt 0 ] || { echo "usage: eng/native/native.sh RID... (linux-x64, linux-arm64, win-x64)" >&2; exit 1; }
rids=("$@")
run_start=$(date +%s)
step() { echo "==> $* ($(( $(date +%s) - run_start )) s into the run)"; }

export NATIVE_TOOLS="$native/tools"
step "tools for ${rids[*]}"
"$here/setup.sh" "$NATIVE_TOOLS" "${rids[@]}"

# Nothing from an earlier run may reach this run's package: only the tools (zig and its cache) are kept.
rm -rf "$native/build" "$native/runtimes" "$native/report.txt" "$native/LICENSE.txt" "$native/build-info.txt"
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
    # Staged only now that it passed: the package is made of what is under runtimes/.
    mkdir -p "$native/runtimes/$rid/native"
    cp "$built" "$native/runtimes/$rid/native/$file"
done

# A cross build gets the run-check results from eng/native/cmake/linux-cross-checks.cmake; the native build measured them.
if [ -f "$native/build/linux-x64/platform.hpp" ] && [ -f "$native/build/linux-arm64/platform.hpp" ]; then
    features() { grep -E '^#define (ZMQ_HAVE_|ZMQ_USE_|ZMQ_IOTHREAD_|ZMQ_POLL_|HAVE_)' "$1" | sort; }
    if ! difference=$(diff <(features "$native/build/linux-x64/platform.hpp") <(features "$native/build/linux-arm64/platform.hpp")); then
        echo "linux-arm64 was configured differently from linux-x64 (update eng/native/cmake/linux-cross-checks.cmake):" >&2
        echo "$difference" >&2
        exit 1
    fi
    echo "linux-arm64 and linux-x64: the same platform features in platform.hpp (cross-build run-check values verified)" | tee -a "$report"
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
grep -q "<dependency id=\"NetZeroMQ.Native\" version=\"$version\"" <<<"$(unzip -p "$packages/NetZeroMQ.$version.nupkg" NetZeroMQ.nuspec)" \
    || { echo "NetZeroMQ.$version.nupkg does not depend on NetZeroMQ.Native $version" >&2; exit 1; }

for rid in "${rids[@]}"; do
    [ "$rid" != linux-x64 ] || continue   # linux-x64: the test suite and eng/consumer-check.sh run the package here
    step "$rid: samples from the packages"
    if ! "$here/samples.sh" "$rid" "$version" 2>&1 | tee -a "$report"; then
        echo "$rid: the samples FAILED; the packages are removed" >&2
        rm -f "$packages"/NetZeroMQ.*nupkg
        exit 1
    fi
done

echo
echo "native: $(basename "$native_package") with ${rids[*]}, $(stat -c %s "$native_package") bytes; NetZeroMQ.$version.nupkg depends on it"
echo "native: report in artifacts/native/report.txt; $(( $(date +%s) - run_start )) s in all"
