#!/usr/bin/env bash
# Compiles eng/native/smoke/smoke.c against one built library and runs it on that library's platform: natively
# (linux-x64), under qemu-aarch64 (linux-arm64), under Debian's musl loader (linux-musl-x64; linux-musl-arm64 with qemu),
# or under wine64 (win-x64) and wine32 (win-x86). Fails if any check fails.
#   eng/native/smoke.sh RID LIBRARY INCLUDE_DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/emulators.sh"
rid="${1:?usage: smoke.sh RID LIBRARY INCLUDE_DIR}"
lib="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
include="${3:?}"
tools="${NATIVE_TOOLS:?NATIVE_TOOLS (set by eng/native/setup.sh) is not set}"

work=$(mktemp -d "${TMPDIR:-/tmp}/zmq-smoke-$rid.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "==> $rid: smoke test (eng/native/smoke/smoke.c)"

case "$rid" in
    linux-x64|linux-arm64|linux-musl-x64|linux-musl-arm64)
        case "$rid" in
            linux-x64) triple=x86_64-linux-gnu.2.17 ;;
            linux-arm64) triple=aarch64-linux-gnu.2.17 ;;
            linux-musl-x64) triple=x86_64-linux-musl ;;
            linux-musl-arm64) triple=aarch64-linux-musl ;;
        esac
        export ZIG_GLOBAL_CACHE_DIR="$tools/zig-cache" ZIG_LOCAL_CACHE_DIR="$work/zig-cache"
        # The program asks for the library by its soname, libzmq.so.5; the package ships it as libzmq.so.
        ln -s "$lib" libzmq.so.5
        "$tools/bin/zig-cc-$triple" -O2 -I "$include" -o smoke "$here/smoke/smoke.c" "$lib" -lpthread
        case "$rid" in
            linux-x64) LD_LIBRARY_PATH="$work" timeout 120 ./smoke ;;
            linux-arm64) LD_LIBRARY_PATH="$work" run_arm64 300 ./smoke ;;
            linux-musl-x64) LD_LIBRARY_PATH="$work" run_musl_x64 120 ./smoke ;;
            linux-musl-arm64) LD_LIBRARY_PATH="$work" run_musl_arm64 300 ./smoke ;;
        esac
        ;;
    win-x64)
        cp "$lib" libzmq.dll
        x86_64-w64-mingw32-gcc-win32 -O2 -I "$include" -o smoke.exe "$here/smoke/smoke.c" libzmq.dll -lws2_32
        run_win64 300 smoke.exe
        ;;
    win-x86)
        cp "$lib" libzmq.dll
        i686-w64-mingw32-gcc-win32 -O2 -I "$include" -o smoke.exe "$here/smoke/smoke.c" libzmq.dll -lws2_32
        run_win32 300 smoke.exe
        ;;
    *)
        echo "unknown runtime identifier '$rid'" >&2
        exit 1
        ;;
esac
