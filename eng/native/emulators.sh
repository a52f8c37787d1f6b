# Sourced by the native scripts: how a program for another platform is run on this Linux x64 machine.

# linux-arm64 under qemu's user-mode emulator, with the arm64 C library and C++ runtime of Debian's cross packages.
run_arm64() {
    qemu-aarch64-static -L /usr/aarch64-linux-gnu "$@"
}

# win-x64 under wine64, in a private prefix (created on first use: about 20 s) so nothing of the user's is touched.
# Debian's wine64 installs its loader outside PATH. No Mono or Gecko: a .NET app here is self-contained.
run_win64() {
    local loader=/usr/lib/wine/wine64
    [ -x "$loader" ] || loader=$(command -v wine64 || command -v wine)
    WINEPREFIX="${NATIVE_WINEPREFIX:?NATIVE_WINEPREFIX is not set}" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" \
        DISPLAY= "$loader" "$@"
}
