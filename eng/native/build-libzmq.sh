#!/usr/bin/env bash
# Configures and builds libzmq for one runtime identifier from an unpacked source tree, and copies the shared library to
# OUT (libzmq.so or libzmq.dll). The toolchains come from eng/native/setup.sh.
#   eng/native/build-libzmq.sh RID SOURCE BUILD_DIR OUT
#
# Every build: draft API on; CURVE through the bundled tweetnacl (no libsodium to ship); no TLS/WSS, libbsd, NSS,
# OpenPGM, NORM, TIPC or GSSAPI (each would be another shared library to ship, or an untestable transport); only zmq_*
# exported; the C++ runtime linked in statically; stripped.
#   linux-x64, linux-arm64  zig cc/c++ (clang 16, libc++) against glibc 2.17 stubs, so the library loads on any glibc from
#                           2.17 on (the manylinux2014 floor): Debian 12's gcc would tie it to glibc 2.36.
#   linux-musl-x64, linux-musl-arm64
#                           zig cc/c++ for x86_64-linux-musl / aarch64-linux-musl (Alpine and other musl systems): the same
#                           libc++ linked in, so musl's libc.so is the only library needed. The glibc build cannot serve
#                           them: musl's loader refuses it (glibc-only symbols such as strtoll_l).
#   win-x64, win-x86        Debian's mingw-w64 gcc (win32 threads; x86_64 and i686), without the ipc transport and with
#                           select for the I/O poller: pyzmq's Windows wheel configuration. With ipc, libzmq 4.3.4/4.3.5
#                           makes every context's internal signalling pair from AF_UNIX sockets and has no fallback once
#                           bind succeeds, so on some machines the first socket aborts the process (libzmq#4730, fixed
#                           after 4.3.5); see docs/platforms.md, "ipc on Windows".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rid="${1:?usage: build-libzmq.sh RID SOURCE BUILD_DIR OUT}"
src="$(cd "${2:?}" && pwd)"
build="${3:?}"
out="${4:?}"
tools="${NATIVE_TOOLS:?NATIVE_TOOLS (set by eng/native/setup.sh) is not set}"

rm -rf "$build"
mkdir -p "$build" "$(dirname "$out")"

common=(
    -DCMAKE_BUILD_TYPE=Release
    -DENABLE_DRAFTS=ON
    -DENABLE_CURVE=ON -DWITH_LIBSODIUM=OFF
    -DWITH_TLS=OFF -DWITH_LIBBSD=OFF -DWITH_NSS=OFF
    -DWITH_OPENPGM=OFF -DWITH_NORM=OFF -DWITH_VMCI=OFF
    -DBUILD_SHARED=ON -DBUILD_STATIC=OFF -DBUILD_TESTS=OFF -DWITH_DOCS=OFF -DWITH_PERF_TOOL=OFF -DENABLE_CPACK=OFF
    -DENABLE_PRECOMPILED=OFF
)

# The source lives in a temporary folder: map it to a fixed name, so that the paths compiled into the library (libzmq's
# assertion messages name their source file) do not vary from build to build.
prefix_map="-ffile-prefix-map=$src=libzmq"

case "$rid" in
    linux-x64|linux-arm64|linux-musl-x64|linux-musl-arm64)
        case "$rid" in
            linux-x64) triple=x86_64-linux-gnu.2.17 ;;
            linux-arm64) triple=aarch64-linux-gnu.2.17 ;;
            linux-musl-x64) triple=x86_64-linux-musl ;;
            linux-musl-arm64) triple=aarch64-linux-musl ;;
        esac
        # zig keeps the libc++/glibc stubs it builds in its caches: inside the build tree, never in the user's home.
        export ZIG_GLOBAL_CACHE_DIR="$tools/zig-cache" ZIG_LOCAL_CACHE_DIR="$build/zig-local-cache"
        platform=(
            -DCMAKE_C_COMPILER="$tools/bin/zig-cc-$triple"
            -DCMAKE_CXX_COMPILER="$tools/bin/zig-c++-$triple"
            -DCMAKE_AR="$tools/bin/zig-ar" -DCMAKE_RANLIB="$tools/bin/zig-ranlib"
            "-DCMAKE_C_FLAGS=$prefix_map" "-DCMAKE_CXX_FLAGS=$prefix_map"
            # The run-check probes the build machine's kernel (can it open an AF_TIPC socket?), not the target's.
            -DZMQ_HAVE_TIPC=
            "-DCMAKE_SHARED_LINKER_FLAGS=-Wl,--version-script=$here/zmq-exports.map -Wl,--as-needed -Wl,--strip-all"
        )
        if [[ "$rid" == *-arm64 ]]; then
            # A cross build: libzmq skips its run-checks, so their Linux results are given (see the file). The x64 builds
            # run them (their programs run here: musl's through Debian's musl loader), and native.sh compares the two.
            platform+=(-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 -C "$here/cmake/linux-cross-checks.cmake")
        fi
        built="lib/libzmq.so.5"
        ;;
    win-x64|win-x86)
        platform=(
            -DCMAKE_TOOLCHAIN_FILE="$here/cmake/mingw-w64-$([ "$rid" = win-x64 ] && echo x86_64 || echo i686).cmake"
            # An empty ZMQ_HAVE_IPC answers libzmq's afunix.h check before it runs: no ipc, tcp signalling pairs.
            -DPOLLER=select -DZMQ_HAVE_IPC= -DZMQ_CV_IMPL=win32api
            "-DCMAKE_C_FLAGS=-I$here/mingw-shim $prefix_map" "-DCMAKE_CXX_FLAGS=-I$here/mingw-shim $prefix_map"
            "-DCMAKE_SHARED_LINKER_FLAGS=-static-libgcc -static-libstdc++ -static -s"
        )
        built="bin/libzmq.dll"
        ;;
    *)
        echo "unknown runtime identifier '$rid' (eng/native/runtimes.txt lists the known ones)" >&2
        exit 1
        ;;
esac

echo "==> $rid: configure"
start=$(date +%s)
cmake -S "$src" -B "$build" "${common[@]}" "${platform[@]}" >"$build/configure.log" 2>&1 || {
    tail -n 40 "$build/configure.log" >&2
    exit 1
}
configured=$(date +%s)
echo "==> $rid: build (configure took $((configured - start)) s)"
cmake --build "$build" --target libzmq -j "$(nproc)" >"$build/build.log" 2>&1 || {
    grep -E -m 20 'error|Error' "$build/build.log" >&2 || tail -n 40 "$build/build.log" >&2
    exit 1
}
echo "==> $rid: built in $(( $(date +%s) - configured )) s"
cp -L "$build/$built" "$out"
