#!/usr/bin/env bash
# Writes NetZeroMQ.Native's LICENSE.txt to standard output: the terms of everything inside the built libraries, with
# the licence texts taken from the very source tree that was built (never a copy kept in this repository, which could
# drift from what was built).
#   eng/native/license.sh SOURCE DEBIAN_VERSION RID...
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="${1:?usage: license.sh SOURCE DEBIAN_VERSION RID...}"
debian_version="${2:?}"
shift 2
rids=" $* "
zmq_version=$(awk '/define ZMQ_VERSION_(MAJOR|MINOR|PATCH)/ { v = v (v == "" ? "" : ".") $3 } END { print v }' "$src/include/zmq.h")
patches=$(cd "$here/patches" && ls -- *.patch 2>/dev/null | paste -s -d ' ')

for text in COPYING.LESSER COPYING external/sha1/license.txt; do
    [ -f "$src/$text" ] || { echo "the libzmq source lacks $text" >&2; exit 1; }
done
grep -q 'SPECIAL EXCEPTION GRANTED BY COPYRIGHT HOLDERS' "$src/COPYING.LESSER" \
    || { echo "$src/COPYING.LESSER no longer carries the static-linking exception: review the licence" >&2; exit 1; }

section() { printf '\n\n==============================================================================\n%s\n==============================================================================\n\n' "$1"; }

cat <<EOF
NetZeroMQ.Native: licences of the files in this package

The libraries under runtimes/ are libzmq $zmq_version (ZeroMQ), built from Debian's source package zeromq3
$debian_version with these changes of NetZeroMQ's own: ${patches:-none} (in NetZeroMQ's repository, eng/native/patches).

1. libzmq $zmq_version is licensed under the GNU Lesser General Public License, version 3 or later, with the special
   static-linking exception granted by its copyright holders: section A (libzmq's COPYING.LESSER, which ends with the
   exception) and section B (libzmq's COPYING, the GNU GPL version 3 that the LGPL builds on). libzmq 4.3.5 and later
   are relicensed under the Mozilla Public License 2.0; this build is of $zmq_version and carries the terms above.

   Corresponding source: Debian's source package zeromq3 $debian_version ("apt-get source zeromq3=$debian_version" on
   Debian 12; Debian's archive keeps every published version), plus the patches named above. NetZeroMQ's eng/native
   scripts rebuild these libraries from it ("./build.sh native-all").

2. Parts of libzmq's source under other terms, built into these libraries:
   - TweetNaCl (CURVE encryption, src/tweetnacl.c): public domain, carried in libzmq's source under libzmq's licence.
   - SHA-1 (WebSocket handshake, external/sha1): BSD 3-clause licence, WIDE Project: section C.
EOF
cat <<EOF

3. Compiler runtime code linked statically into the libraries:
EOF
if [[ "$rids" == *" linux-"* ]]; then
    cat <<EOF
   - linux-x64, linux-arm64, linux-musl-x64, linux-musl-arm64: LLVM's libc++, libc++abi, libunwind and compiler-rt, as
     shipped with zig 0.11: Apache License 2.0 with LLVM Exception, whose exception waives the attribution conditions
     for such compiled-in code. (The C library, glibc or musl, is the system's and is not part of these files.)
EOF
fi
if [[ "$rids" == *" win-"* ]]; then
    cat <<EOF
   - win-x64, win-x86: GCC's libstdc++ and libgcc (GNU GPL version 3 with the GCC Runtime Library Exception, which
     allows this use under any terms) and the mingw-w64 runtime's start-up code (public domain and Zope Public License 2.1; see
     the mingw-w64 project's COPYING).
EOF
fi

section "A. libzmq: GNU Lesser General Public License v3, with the static-linking exception (COPYING.LESSER)"
cat "$src/COPYING.LESSER"
section "B. GNU General Public License v3 (libzmq's COPYING)"
cat "$src/COPYING"
section "C. SHA-1 implementation (libzmq's external/sha1/license.txt)"
cat "$src/external/sha1/license.txt"
