# Sourced by the native scripts: how a program for another platform is run on this Linux x64 machine, with a time limit
# in seconds (so that a hang fails the run instead of stalling it).
#   run_arm64 SECONDS PROGRAM [ARGS...]          run_win64 SECONDS PROGRAM.exe [ARGS...]
#   run_musl_x64 SECONDS PROGRAM [ARGS...]       run_win32 SECONDS PROGRAM.exe [ARGS...]
#   run_musl_arm64 SECONDS PROGRAM [ARGS...]

# linux-arm64 under qemu's user-mode emulator, with the arm64 C library and C++ runtime of Debian's cross packages.
run_arm64() {
    local seconds="$1"
    shift
    timeout "$seconds" qemu-aarch64-static -L /usr/aarch64-linux-gnu "$@"
}

# linux-musl-x64 under Debian's musl: its dynamic loader, started as a command, loads the program and its libraries
# (LD_LIBRARY_PATH is honoured) against musl's libc, never glibc. Named explicitly rather than left to the program's
# interpreter path, so that nothing of this glibc system can stand in for it.
run_musl_x64() {
    local seconds="$1"
    shift
    timeout "$seconds" /lib/ld-musl-x86_64.so.1 "$@"
}

# linux-musl-arm64: the arm64 musl loader (Debian's musl:arm64) under qemu's user-mode emulator.
run_musl_arm64() {
    local seconds="$1"
    shift
    timeout "$seconds" qemu-aarch64-static /lib/ld-musl-aarch64.so.1 "$@"
}

# win-x64 under wine64, in a private prefix (created on first use: about 20 s) so nothing of the user's is touched.
# Debian's wine64 installs its loader outside PATH. winedbg is switched off: with it, an unhandled exception starts the
# debugger and the process then exits with code 0, hiding the failure. mscoree must stay: wine's loader needs it to load
# IL-only images such as .NET's facade assemblies ("Module not found" for System.Runtime.dll without it). No Gecko.
run_win64() {
    local seconds="$1"
    shift
    local loader=/usr/lib/wine/wine64
    [ -x "$loader" ] || loader=$(command -v wine64 || command -v wine)
    WINEPREFIX="${NATIVE_WINEPREFIX:?NATIVE_WINEPREFIX is not set}" WINEDEBUG=-all WINEDLLOVERRIDES="mshtml=;winedbg.exe=d" \
        DISPLAY= timeout "$seconds" "$loader" "$@"
}

# win-x86 under wine32 (Debian's i386 wine32 package puts the 32-bit loader at /usr/lib/wine/wine), in a 32-bit prefix
# of its own beside the 64-bit one, with the same switches as run_win64.
# Where the kernel cannot run i386 programs, eng/native/setup.sh has registered qemu-i386-static for them, and every
# process wine starts is emulated: each costs about a minute of CPU before the program's own code runs, a new prefix
# (wineboot's dozen processes) took 28 minutes on a two-CPU machine at a load of 15 to 45, and the session wine's first
# program starts (wineboot, services.exe, plugplay.exe, winedevice.exe, explorer.exe) over 15 more. So win32_session
# makes the prefix and the session once, under a limit of their own (WIN32_SESSION_SECONDS, default an hour), and keeps
# the session's wineserver for an hour after its last program: the smoke test and each sample then pay only for their
# own process. stop_win32 ends it.
win32_wine() {
    WINEPREFIX="${NATIVE_WINEPREFIX:?NATIVE_WINEPREFIX is not set}-x86" WINEARCH=win32 WINEDEBUG=-all \
        WINEDLLOVERRIDES="mshtml=;winedbg.exe=d" DISPLAY= "$@"
}

win32_session() {
    local prefix="$NATIVE_WINEPREFIX-x86" limit="${WIN32_SESSION_SECONDS:-3600}" started
    # Signal 0 reaches the prefix's wineserver only while it runs, and then its session runs too.
    ! win32_wine /usr/lib/wine/wineserver -k0 2>/dev/null || return 0
    started=$(date +%s)
    # The seconds left of the limit, at least 1 (timeout 0 would mean no limit).
    win32_left() { local n=$(( started + limit - $(date +%s) )); echo $(( n > 0 ? n : 1 )); }
    echo "==> win-x86: wine32 prefix and session (limit $limit s)"
    if [ ! -f "$prefix/system.reg" ]; then
        # wineboot returns before the installation it started has ended; the server ends with the last of it.
        win32_wine timeout "$(win32_left)" /usr/lib/wine/wine wineboot --init
        win32_wine timeout "$(win32_left)" /usr/lib/wine/wineserver -w
        echo "==> win-x86: wine32 prefix made in $(( $(date +%s) - started )) s"
    fi
    win32_wine /usr/lib/wine/wineserver -p3600
    win32_wine timeout "$(win32_left)" /usr/lib/wine/wine wineboot --init
    echo "==> win-x86: wine32 session running after $(( $(date +%s) - started )) s"
}

run_win32() {
    local seconds="$1"
    shift
    win32_session
    win32_wine timeout "$seconds" /usr/lib/wine/wine "$@"
}

stop_win32() {
    win32_wine /usr/lib/wine/wineserver -k 2>/dev/null || true
}
