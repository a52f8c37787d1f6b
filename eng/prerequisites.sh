# Sourced by build.sh (and by the test that checks it): how the build finds what this machine lacks. Functions only, no
# side effects, so that each detection can be called, and tested, on its own.
#
# Every check reads a command's whole output first and searches it afterwards. `producer | grep -q pattern` under
# `set -o pipefail` is a trap: grep exits at the first match, the producer's next write then fails with SIGPIPE, pipefail
# makes that the pipeline's status, and the check reports "missing" for something that is there (ldconfig -p | grep -q
# did so about once in eight runs, and apt-get then ran again, through sudo on a machine without root).

# shared_library_present NAME: whether the dynamic loader's cache lists NAME (such as libzmq.so.5).
shared_library_present() {
    local ldconfig cache
    # ldconfig lives in /sbin, which is not on an ordinary user's PATH on Debian.
    ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
    cache=$("$ldconfig" -p 2>/dev/null) || return 1
    # Lines look like "<tab>libzmq.so.5 (libc6,x86-64) => /lib/x86_64-linux-gnu/libzmq.so.5".
    [[ $cache == *$'\t'"$1 ("* ]]
}

# dotnet_sdk_major: the major version of the .NET SDK that `dotnet` in this folder uses (empty when there is none).
dotnet_sdk_major() {
    local version
    version=$(dotnet --version 2>/dev/null) || return 0
    echo "${version%%.*}"
}

# missing_apt_packages JOB: the Debian packages that JOB needs and this machine lacks, one line, space-separated.
missing_apt_packages() {
    local job="$1" missing=()
    shared_library_present libzmq.so.5 || missing+=(libzmq5)
    [ -f /usr/include/zmq.h ] || missing+=(libzmq3-dev)
    command -v gcc >/dev/null 2>&1 || missing+=(gcc)
    /usr/bin/python3 -c 'import zmq' >/dev/null 2>&1 || missing+=(python3-zmq)
    # The network-partition test drives namespaces with ip (iproute2); the draft-API test lists libzmq's symbols with nm
    # (binutils). Minimal images have neither.
    command -v ip >/dev/null 2>&1 || [ -x /sbin/ip ] || missing+=(iproute2)
    command -v nm >/dev/null 2>&1 || missing+=(binutils)
    if [ "$job" = aot ]; then
        # NativeAOT links with clang or, failing that, gcc (above), and needs zlib's development files.
        [ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
    fi
    echo "${missing[*]}"
}
