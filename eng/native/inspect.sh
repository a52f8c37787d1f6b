#!/usr/bin/env bash
# Reports what one built library is, and fails if it is not what the package promises:
#   size; exported symbols (zmq_* only); dependencies (the C library and the OS's own DLLs only: no C++ runtime,
#   libsodium or libgcc to install); and for Linux the newest glibc symbol version it needs (at most 2.17).
#   eng/native/inspect.sh RID LIBRARY
set -euo pipefail
rid="${1:?usage: inspect.sh RID LIBRARY}"
lib="${2:?}"
glibc_floor="2.17"

fail() { echo "$rid: $*" >&2; exit 1; }
size=$(stat -c %s "$lib")
echo "$rid: $(basename "$lib"), $size bytes ($(file -b "$lib" | cut -d, -f1-2))"

case "$rid" in
    linux-*)
        # Defined, global dynamic symbols (readelf works for every architecture; binutils' objdump only for the host's).
        exports=$(readelf -W --dyn-syms "$lib" | awk '$7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") && ($4 == "FUNC" || $4 == "OBJECT") { sub(/@.*/, "", $8); print $8 }' | sort -u)
        needed=$(readelf -W -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
        versions=$(readelf -W -V "$lib" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -u -V)
        newest=$(tail -n 1 <<<"$versions" | sed 's/GLIBC_//')
        echo "$rid: needs (NEEDED) $(tr '\n' ' ' <<<"$needed")"
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
        ;;
    win-*)
        dump=$(x86_64-w64-mingw32-objdump -p "$lib")
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
