#!/usr/bin/env bash
# One entry point for a fresh Debian/Ubuntu machine: installs what is missing, restores, builds, then runs a job.
#   ./build.sh test     build and run every test project (CI runs this, samples and package)
#   ./build.sh samples  build and run every program under samples/, each with a timeout; fails if any fails
#   ./build.sh package  pack, then build and run a fresh console project against the package (eng/consumer-check.sh)
#   ./build.sh native   build libzmq for linux-x64 from Debian's source, smoke-test it, pack NetZeroMQ.Native and NetZeroMQ
#                       (eng/native/native.sh; installs cmake, zig and what else it needs; x64 Linux machine)
#   ./build.sh native-all  the same for linux-x64, linux-arm64 and win-x64, with the smoke test and three samples run
#                       under qemu (arm64) and wine (win-x64)
#   ./build.sh aot      publish the samples with NativeAOT and run the native binaries (installs a C toolchain and zlib)
#   ./build.sh soak [minutes]  the reliability suite's long tier: full counts and the soak (default 30 minutes), see docs/reliability.md
#   ./build.sh bench    build and run the benchmark tool (the main job; extra arguments go to the tool, default --quick)
#   ./build.sh setup    only install prerequisites
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"

job="${1:-test}"; shift || true

need_apt=()
# (Not "ldconfig -p | grep -q": with pipefail, grep's early exit kills ldconfig with SIGPIPE and the test reads as false.)
grep -q 'libzmq\.so\.5' <<<"$(ldconfig -p 2>/dev/null)" || need_apt+=(libzmq5)
[ -f /usr/include/zmq.h ] || need_apt+=(libzmq3-dev)
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
/usr/bin/python3 -c 'import zmq' >/dev/null 2>&1 || need_apt+=(python3-zmq)
# The network-partition test drives namespaces with ip (iproute2); the draft-API test lists libzmq's symbols with nm
# (binutils). Minimal images have neither.
command -v ip >/dev/null 2>&1 || [ -x /sbin/ip ] || need_apt+=(iproute2)
command -v nm >/dev/null 2>&1 || need_apt+=(binutils)
if [ "$job" = aot ]; then
    # NativeAOT links with clang or, failing that, gcc (present above), and needs zlib's development files.
    [ -f /usr/include/zlib.h ] || need_apt+=(zlib1g-dev)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "==> installing ${need_apt[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
command -v dotnet >/dev/null 2>&1 || { echo "the .NET SDK (8 or later) is required: https://dot.net" >&2; exit 1; }

case "$job" in
    setup)
        ;;
    test)
        # NETZEROMQ_LIBZMQ chooses the libzmq under test (CI runs the suite twice: the system's, then NetZeroMQ.Native's).
        echo "==> tests against ${NETZEROMQ_LIBZMQ:-the system libzmq (NETZEROMQ_LIBZMQ is not set)}"
        dotnet build NetZeroMQ.sln -c Release --nologo -v q
        # Every test project of the solution, one after the other (they time things; two at once on two cores would skew
        # them). Each prints its own summary; they are added up into the one line CI reads.
        log=$(mktemp)
        rc=0
        projects=$(dotnet sln NetZeroMQ.sln list | grep -E '^tests/.*\.csproj$')
        for project in $projects; do
            set +e
            # The long tier of the reliability suite (Category=Long) runs only with ./build.sh soak.
            dotnet test "$project" -c Release --no-build --nologo --blame-hang-timeout 5m --filter 'Category!=Long' 2>&1 | tee -a "$log"
            prc=${PIPESTATUS[0]}
            set -e
            [ "$prc" -eq 0 ] || rc=$prc
        done
        # Summary lines look like "Passed!  - Failed:     0, Passed:    50, Skipped: ..." (or "Failed!  - ...").
        summaries=$(grep -E '(Passed|Failed)! +- +Failed: ' "$log" || true)
        passed=0; failed=0; runs=0
        while IFS= read -r line; do
            [ -n "$line" ] || continue
            runs=$((runs + 1))
            passed=$((passed + $(sed -n 's/.*Passed: *\([0-9]*\).*/\1/p' <<<"$line")))
            failed=$((failed + $(sed -n 's/.*Failed: *\([0-9]*\),.*/\1/p' <<<"$line")))
        done <<<"$summaries"
        expected_runs=$(wc -w <<<"$projects")
        if [ "$runs" -lt "$expected_runs" ]; then
            # A test host that crashed or hung prints no summary: count each such project as one failure, never as silence.
            echo "$((expected_runs - runs)) of $expected_runs test projects ended without a summary (crash or hang, see above)"
            failed=$((failed + expected_runs - runs))
            [ "$rc" -ne 0 ] || rc=1
        fi
        rm -f "$log"
        echo "tests: $passed passed, $failed failed"
        exit "$rc"
        ;;
    soak)
        # The reliability suite's long tier: the issue's full counts plus the soak, which runs for the given minutes
        # (NETZEROMQ_SOAK_MINUTES). Its RSS/descriptor/thread slopes go to artifacts/soak-report.txt and are printed here.
        minutes="${1:-30}"
        dotnet build NetZeroMQ.sln -c Release --nologo -v q
        mkdir -p artifacts
        set +e
        NETZEROMQ_SOAK_MINUTES="$minutes" dotnet test tests/NetZeroMQ.Tests -c Release --no-build --nologo \
            --filter 'Category=Long' --logger 'console;verbosity=normal' --blame-hang-timeout "$((minutes + 30))m"
        src=$?
        set -e
        [ -f artifacts/soak-report.txt ] && { echo "==> artifacts/soak-report.txt"; head -n 3 artifacts/soak-report.txt; }
        exit "$src"
        ;;
    samples)
        dotnet build NetZeroMQ.sln -c Release --nologo -v q
        failed=()
        count=0
        for project in samples/*/*.csproj; do
            name=$(basename "$project" .csproj)
            count=$((count + 1))
            echo "==> $name"
            set +e
            # A sample ends by itself in well under a second; the timeout only turns a hang into a failure.
            timeout 120 dotnet run --project "$project" -c Release --no-build
            src=$?
            set -e
            if [ "$src" -ne 0 ]; then
                echo "$name: FAILED (exit code $src$([ "$src" -eq 124 ] && echo ', timed out'))"
                failed+=("$name")
            fi
        done
        echo "samples: $((count - ${#failed[@]})) passed, ${#failed[@]} failed${failed:+ (${failed[*]})}"
        [ ${#failed[@]} -eq 0 ]
        ;;
    package)
        eng/consumer-check.sh
        ;;
    native)
        eng/native/native.sh linux-x64
        ;;
    native-all)
        eng/native/native.sh linux-x64 linux-arm64 win-x64
        ;;
    aot)
        # The samples target net10.0, whose NativeAOT runtime pack (Microsoft.NETCore.App.Runtime.NativeAOT.<rid>) is a
        # separate package; where the registry lacks it, the same programs are compiled for net8.0 (the library's own
        # AOT-compatible target) instead. AOT_FRAMEWORK=net8.0 chooses directly.
        rid="linux-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')"
        out=$(mktemp -d)
        trap 'rm -rf "$out"' EXIT
        failed=()
        for project in samples/*/*.csproj; do
            name=$(basename "$project" .csproj)
            framework="${AOT_FRAMEWORK:-net10.0}"
            if ! dotnet restore "$project" -r "$rid" -p:PublishAot=true -p:TargetFramework="$framework" -v q >"$out/restore.log" 2>&1; then
                if [ -z "${AOT_FRAMEWORK:-}" ] && grep -q 'NU1101.*NativeAOT' "$out/restore.log"; then
                    echo "note: $(grep -o 'Unable to find package [^ ]*' "$out/restore.log" | head -n 1 | sed 's/\.$//'); compiling for net8.0"
                    export AOT_FRAMEWORK=net8.0
                    framework=net8.0
                    dotnet restore "$project" -r "$rid" -p:PublishAot=true -p:TargetFramework="$framework" -v q
                else
                    cat "$out/restore.log" >&2
                    exit 1
                fi
            fi
            echo "==> $name ($framework, NativeAOT, $rid)"
            dotnet publish "$project" --no-restore -c Release -r "$rid" -p:PublishAot=true -p:TargetFramework="$framework" \
                -o "$out/$name" --nologo -v q -warnaserror
            size=$(stat -c %s "$out/$name/$name")
            set +e
            timeout 120 "$out/$name/$name"
            src=$?
            set -e
            if [ "$src" -ne 0 ]; then
                echo "$name: FAILED (exit code $src)"
                failed+=("$name")
            else
                echo "$name: native binary of $size bytes ran and exited 0"
            fi
        done
        # The restores above were for one framework and runtime; put the normal ones back for the other jobs.
        dotnet restore NetZeroMQ.sln -v q
        echo "aot: ${#failed[@]} failed${failed:+ (${failed[*]})}"
        [ ${#failed[@]} -eq 0 ]
        ;;
    bench)
        cd benchmarks/NetZeroMQ.Benchmarks
        dotnet run -c Release -- "${@:---quick}"
        ;;
    *)
        echo "usage: ./build.sh [test|samples|package|native|native-all|aot|soak [minutes]|bench|setup] [benchmark arguments]" >&2
        exit 1
        ;;
esac
