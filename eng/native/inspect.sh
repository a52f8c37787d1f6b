#!/usr/bin/env bash
# Reports what one built library is, and fails if it is not what the package promises:
#   size and machine (the RID's processor); exported symbols (zmq_* only, undecorated: a 32-bit Windows export named
#   zmq_send@16 would be stdcall); dependencies (the C library and the OS's own DLLs only: no C++ runtime, libsodium or
#   libgcc to install); for glibc Linux the newest glibc symbol version it needs (at most 2.17); for musl Linux that it
#   needs musl's libc.so alone and no glibc symbol version at all.
#   eng/native/inspect.sh RID LIBRARY
set -euo pipefail
rid="${1:?usage: inspect.sh RID LIBRARY}"
lib="${2:?}"
glibc_floor="2.17"

fail() { echo "$rid: $*" >&2; exit 1; }
size=$(stat -c %s "$lib")
description=$(file -b "$lib")
echo "$rid: $(basename "$lib"), $size bytes ($(cut -d, -f1-2 <<<"$description"))"
case "$rid" in
    linux-*x64) machine='ELF 64-bit LSB shared object, x86-64' ;;
    linux-*arm64) machine='ELF 64-bit LSB shared object, ARM aarch64' ;;
    win-x64) machine='PE32\+ executable \(DLL\).* x86-64' ;;
    win-x86) machine='PE32 executable \(DLL\).* Intel 80386' ;;
    *) fail "unknown runtime identifier" ;;
esac
grep -qE "^$machine" <<<"$description" || fail "is not for this runtime's processor: $description"

case "$rid" in
    linux-*)
        # Defined, global dynamic symbols (readelf works for every architecture; binutils' objdump only for the host's).
        exports=$(readelf -W --dyn-syms "$lib" | awk '$7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") && ($4 == "FUNC" || $4 == "OBJECT") { sub(/@.*/, "", $8); print $8 }' | sort -u)
        needed=$(readelf -W -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
        # A musl build has no GLIBC_ version, and grep's "no match" must not end the script (pipefail, set -e): it is the
        # answer the musl check below wants.
        versions=$(readelf -W -V "$lib" | { grep -o 'GLIBC_[0-9][0-9.]*' || true; } | sort -u -V)
        newest=$(tail -n 1 <<<"$versions" | sed 's/GLIBC_//')
        echo "$rid: needs (NEEDED) $(tr '\n' ' ' <<<"$needed")"
        if [[ "$rid" == linux-musl-* ]]; then
            # musl has no symbol versions: any GLIBC_ one would be a glibc build in the wrong folder. libc.so is the name
            # zig's musl gives libc; musl's loader answers every libc.* name with itself (Alpine's libc.musl-<arch>.so.1).
            [ -z "$versions" ] || fail "needs glibc symbol versions ($(tr '\n' ' ' <<<"$versions")): not a musl build"
            unexpected=$(grep -v -E '^(libc\.so|libc\.musl-(x86_64|aarch64)\.so\.1)$' <<<"$needed" || true)
            [ -z "$unexpected" ] || fail "depends on $(tr '\n' ' ' <<<"$unexpected")(only musl's libc may be needed)"
            echo "$rid: no glibc symbol versions; only musl's libc needed"
        else
            echo "$rid: glibc floor GLIBC_$newest (symbol versions used: $(tr '\n' ' ' <<<"$versions"))"
            if [ "$rid" = "linux-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')" ]; then
                echo "$rid: ldd:"
                ldd "$lib" | sed 's/^/    /'
                echo "$rid: objdump -T | grep GLIBC_ | sort -V | tail -1: $(objdump -T "$lib" | grep -o 'GLIBC_[0-9.]*' | sort -V | tail -1)"
            fi
            [ "$(printf '%s\n%s\n' "$newest" "$glibc_floor" | sort -V | tail -n 1)" = "$glibc_floor" ] \
                || fail "needs GLIBC_$newest, newer than the promised floor $glibc_floor"
            unexpected=$(grep -v -E '^(libc\.so\.6|libpthread\.so\.0|libdl\.so\.2|libm\.so\.6|librt\.so\.1|ld-linux[-a-z0-9_.]*\.so\.[0-9])$' <<<"$needed" || true)
            [ -z "$unexpected" ] || fail "depends on $(tr '\n' ' ' <<<"$unexpected")(only the C library may be needed)"
        fi
        ;;
    win-*)
        dump=$("$([ "$rid" = win-x86 ] && echo i686 || echo x86_64)-w64-mingw32-objdump" -p "$lib")
        exports=$(awk '/^\[Ordinal\/Name Pointer\] Table/ { table = 1; next } table && /^\t\[/ { print $NF; next } table && !/^\t/ { table = 0 }' <<<"$dump" | sort -u)
        needed=$(sed -n 's/^\tDLL Name: //p' <<<"$dump")
        echo "$rid: imports $(tr '\n' ' ' <<<"$needed")"
        # Windows' own DLLs only: no libstdc++-6.dll, libgcc_s_seh-1.dll or libwinpthread-1.dll to ship beside it.
        unexpected=$(grep -v -i -E '^(kernel32|ws2_32|advapi32|iphlpapi|rpcrt4|msvcrt|user32|shell32|ole32|api-ms-win-[a-z0-9-]+)\.dll$' <<<"$needed" || true)
        [ -z "$unexpected" ] || fail "imports $(tr '\n' ' ' <<<"$unexpected")(only Windows' own DLLs may be imported)"
        ;;
    *) fail "unknown runtime identifier" ;;
esac

count=$(grep -c . <<<"$exports" || true)
others=$(grep -v '^zmq_' <<<"$exports" || true)
echo "$rid: exports $count symbols, all zmq_*: $([ -z "$others" ] && echo yes || echo no)"
[ -z "$others" ] || fail "exports symbols other than zmq_*: $(head -n 10 <<<"$others" | tr '\n' ' ')"
for draft in zmq_poller_new zmq_join zmq_msg_set_routing_id zmq_msg_set_group zmq_socket_monitor_versioned; do
    grep -qx "$draft" <<<"$exports" || fail "does not export the draft function $draft"
done
[ "$count" -ge 80 ] || fail "exports only $count symbols"
