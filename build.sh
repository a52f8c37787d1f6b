#!/usr/bin/env bash
# One entry point for a fresh Debian/Ubuntu machine: installs what is missing, restores, builds, then runs a job.
#   ./build.sh test     build and run the test suite (what CI runs)
#   ./build.sh bench    build and run the benchmark tool (the main job; extra arguments go to the tool, default --quick)
#   ./build.sh setup    only install prerequisites
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"

need_apt=()
ldconfig -p 2>/dev/null | grep -q 'libzmq\.so\.5' || need_apt+=(libzmq5)
[ -f /usr/include/zmq.h ] || need_apt+=(libzmq3-dev)
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
/usr/bin/python3 -c 'import zmq' >/dev/null 2>&1 || need_apt+=(python3-zmq)
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "==> installing ${need_apt[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
command -v dotnet >/dev/null 2>&1 || { echo "the .NET SDK (8 or later) is required: https://dot.net" >&2; exit 1; }

job="${1:-test}"; shift || true
case "$job" in
    setup)
        ;;
    test)
        dotnet build NetZeroMQ.sln -c Release --nologo -v q
        log=$(mktemp)
        set +e
        dotnet test tests/NetZeroMQ.Tests/NetZeroMQ.Tests.csproj -c Release --no-build --nologo \
            --blame-hang-timeout 5m 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
        set -e
        # One summary line in the plain form CI understands ("tests: N passed, N failed").
        summary=$(grep -E '(Passed|Failed)! +- +Failed: ' "$log" | tail -n 1)
        passed=$(sed -n 's/.*Passed: *\([0-9]*\).*/\1/p' <<<"$summary")
        failed=$(sed -n 's/.*Failed: *\([0-9]*\),.*/\1/p' <<<"$summary")
        rm -f "$log"
        echo "tests: ${passed:-0} passed, ${failed:-0} failed"
        exit "$rc"
        ;;
    bench)
        cd benchmarks/NetZeroMQ.Benchmarks
        dotnet run -c Release -- "${@:---quick}"
        ;;
    *)
        echo "usage: ./build.sh [test|bench|setup] [benchmark arguments]" >&2
        exit 1
        ;;
esac
