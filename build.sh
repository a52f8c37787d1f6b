#!/usr/bin/env bash
# One entry point for a fresh Debian/Ubuntu machine: installs what is missing, restores, builds, then runs a job.
#   ./build.sh test     build and run every test project, each of its target frameworks, then the net10.0 suite again with
#                       every method fully optimised from its first call (DOTNET_TieredCompilation=0), then the async tests
#                       again against the portable reactor (NETZEROMQ_TEST_PORTABLE_REACTOR=1) and with inline completions
#                       (NETZEROMQ_TEST_INLINE_COMPLETIONS=1) (CI runs this, native, samples, package, aot)
#   ./build.sh test libzmq  the runs that depend on which libzmq is loaded, for a second library (NETZEROMQ_LIBZMQ; CI:
#                       NetZeroMQ.Native's): every test project on its first target framework, and the portable-reactor run;
#                       not the net8.0 and tiering-off runs, which vary the managed side only and ran in ./build.sh test
#   ./build.sh samples  build and run every program under samples/, each with a timeout; fails if any fails. A sample that
#                       needs libzmq's draft API exits 77 when the loaded libzmq lacks it: counted as skipped, unless
#                       NETZEROMQ_DRAFT_LIBZMQ names a draft-enabled libzmq (CI: NetZeroMQ.Native's), which such a sample is
#                       then run against, and where 77 is a failure
#   ./build.sh package  pack, then build and run a fresh console project against the package (eng/consumer-check.sh)
#   ./build.sh native   build libzmq for linux-x64 from Debian's source, smoke-test it, pack NetZeroMQ.Native and NetZeroMQ
#                       (eng/native/native.sh; installs cmake, zig and what else it needs; x64 Linux machine)
#   ./build.sh native-all  the same for every runtime NetZeroMQ.Native ships (eng/native/runtimes.txt: linux-x64,
#                       linux-arm64, linux-musl-x64, linux-musl-arm64, win-x64, win-x86), with the smoke test run under
#                       qemu (arm64), Debian's musl loader (musl) and wine (win-x64, win-x86), and the samples under qemu
#                       and wine (Windows: also the Async and RouterDealer samples); see docs/platforms.md
#   ./build.sh aot      publish the samples with NativeAOT and run the native binaries (installs a C toolchain and zlib);
#                       AOT_FRAMEWORK=net8.0 ./build.sh aot compiles them for net8.0 instead of their own net10.0
#   ./build.sh soak [minutes]  the reliability suite's long tier: full counts and the soak (default 30 minutes), see docs/reliability.md
#   ./build.sh bench    build and run the benchmark tool (the main job; extra arguments go to the tool; without any, about
#                       30 minutes on 2 CPUs: the --quick suite, then the achievement matrix against native C and NetMQ,
#                       its summary, results file, chart and log)
#   ./build.sh bench quick  the matrix's short form (18 cells against native C and NetMQ, about 5 minutes)
#   ./build.sh setup    only install prerequisites
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"

job="${1:-test}"; shift || true

# shellcheck source=eng/prerequisites.sh
. eng/prerequisites.sh

read -r -a need_apt <<<"$(missing_apt_packages "$job")"
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "==> installing ${need_apt[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
# Every project of the repository targets net10.0 (the tests, samples and benchmarks; the library itself builds net8.0 and
# netstandard2.0): building needs the .NET 10 SDK.
sdk=$(dotnet_sdk_major)
if [ -z "$sdk" ] || [ "$sdk" -lt 10 ]; then
    echo "the .NET SDK 10 or later is required (found: ${sdk:-none}): https://dot.net" >&2
    exit 1
fi

# run_sample NAME COMMAND...: runs one sample with a timeout and prints why it failed; returns 0 (passed or skipped), or 1.
# Exit code 77 is the samples' "the loaded libzmq has no draft API": without NETZEROMQ_DRAFT_LIBZMQ the sample is skipped
# (a developer without the native build); with it, the sample runs again against that library, where it must pass.
skipped=()
run_sample() {
    local name="$1" src
    shift
    set +e
    # A sample ends by itself within seconds; the timeout only turns a hang into a failure.
    timeout 120 "$@"
    src=$?
    if [ "$src" -eq 77 ] && [ -n "${NETZEROMQ_DRAFT_LIBZMQ:-}" ]; then
        echo "==> $name again, against the draft-enabled $NETZEROMQ_DRAFT_LIBZMQ"
        NETZEROMQ_LIBZMQ="$NETZEROMQ_DRAFT_LIBZMQ" timeout 120 "$@"
        src=$?
        [ "$src" -ne 77 ] || echo "$name: the library in NETZEROMQ_DRAFT_LIBZMQ has no draft API"
    elif [ "$src" -eq 77 ]; then
        echo "$name: skipped (no draft API in the loaded libzmq; set NETZEROMQ_DRAFT_LIBZMQ to run it)"
        skipped+=("$name")
        src=0
    fi
    set -e
    [ "$src" -eq 0 ] || { echo "$name: FAILED (exit code $src$([ "$src" -eq 124 ] && echo ', timed out'))"; return 1; }
}

case "$job" in
    setup)
        ;;
    test)
        # NETZEROMQ_LIBZMQ chooses the libzmq under test (CI runs the suite twice: the system's, then NetZeroMQ.Native's).
        scope="${1:-all}"
        case "$scope" in
            all|libzmq) ;;
            *) echo "./build.sh test [libzmq]: unknown scope '$scope'" >&2; exit 2 ;;
        esac
        echo "==> tests against ${NETZEROMQ_LIBZMQ:-the system libzmq (NETZEROMQ_LIBZMQ is not set)}"
        dotnet build NetZeroMQ.sln -c Release --nologo -v q
        # Every test project of the solution and each of its target frameworks, one after the other (they time things; two
        # at once on two cores would skew them). NetZeroMQ.Tests targets net10.0 and net8.0: the net8.0 run is self-contained
        # on the .NET 8 runtime pack (see its project file), so the library's net8.0 build is tested on .NET 8 itself. Each run
        # prints its own summary; they are added up into the one line CI reads.
        log=$(mktemp)
        rc=0
        expected_runs=0
        projects=$(dotnet sln NetZeroMQ.sln list | grep -E '^tests/.*\.csproj$')
        for project in $projects; do
            frameworks=$(dotnet msbuild "$project" -getProperty:TargetFrameworks)
            [ -n "$frameworks" ] || frameworks=$(dotnet msbuild "$project" -getProperty:TargetFramework)
            # The libzmq scope: the first target framework only (net10.0; the others run the same calls into libzmq).
            [ "$scope" = all ] || frameworks="${frameworks%%;*}"
            for framework in ${frameworks//;/ }; do
                expected_runs=$((expected_runs + 1))
                set +e
                # The long tier of the reliability suite (Category=Long) runs only with ./build.sh soak.
                dotnet test "$project" -f "$framework" -c Release --no-build --nologo --blame-hang-timeout 5m \
                    --filter 'Category!=Long' 2>&1 | tee -a "$log"
                prc=${PIPESTATUS[0]}
                set -e
                [ "$prc" -eq 0 ] || rc=$prc
            done
        done
        # One more pass of the net10.0 suite, or of part of it, under environment variables that vary it; its summary counts
        # like the others.
        extra_pass() { # description filter NAME=VALUE...
            local description=$1 filter=$2
            shift 2
            expected_runs=$((expected_runs + 1))
            echo "==> $description ($*, net10.0)"
            set +e
            env "$@" dotnet test tests/NetZeroMQ.Tests -f net10.0 -c Release --no-build --nologo --blame-hang-timeout 5m \
                --filter "$filter" 2>&1 | tee -a "$log"
            prc=${PIPESTATUS[0]}
            set -e
            [ "$prc" -eq 0 ] || rc=$prc
        }
        # With tiered compilation off: every method is compiled fully optimised on its first call, as a long-running service's
        # hot paths end up, where the default run mostly executes quick, unoptimised code. A miscompilation there showed only
        # when tiering had recompiled the method in time (src/NetZeroMQ/README.md, "Exception filters"); this run meets it
        # every time.
        [ "$scope" != all ] || extra_pass "the net10.0 suite again, fully optimised from the first call" 'Category!=Long' \
            DOTNET_TieredCompilation=0
        # The async tests (every test whose name has "Async" in it: the Async namespace, and the async cases elsewhere) against
        # the portable reactor (zmq_poll, the one Windows and macOS use), selected on this Linux machine by the AppContext
        # switch NetZeroMQ.UsePortableReactor, which the test assembly sets from the variable
        # (tests/NetZeroMQ.Tests/TestUtilities/AsyncSwitch.cs; the library reads no variable); on net10.0 only (the reactor
        # code is the same on net8.0).
        extra_pass "the async tests again, against the portable reactor" 'FullyQualifiedName~Async&Category!=Long' \
            NETZEROMQ_TEST_PORTABLE_REACTOR=1
        # And with continuations run on the reactor thread (the switch NetZeroMQ.InlineAsyncCompletions, set from the variable
        # the same way): every async test's awaits resume there, after the reactor has released the socket. The managed side
        # only, so not in the libzmq scope.
        [ "$scope" != all ] || extra_pass "the async tests again, with inline completions" 'FullyQualifiedName~Async&Category!=Long' \
            NETZEROMQ_TEST_INLINE_COMPLETIONS=1
        # Summary lines look like "Passed!  - Failed:     0, Passed:    50, Skipped: ..." (or "Failed!  - ...").
        summaries=$(grep -E '(Passed|Failed)! +- +Failed: ' "$log" || true)
        passed=0; failed=0; runs=0
        while IFS= read -r line; do
            [ -n "$line" ] || continue
            runs=$((runs + 1))
            passed=$((passed + $(sed -n 's/.*Passed: *\([0-9]*\).*/\1/p' <<<"$line")))
            failed=$((failed + $(sed -n 's/.*Failed: *\([0-9]*\),.*/\1/p' <<<"$line")))
        done <<<"$summaries"
        if [ "$runs" -lt "$expected_runs" ]; then
            # A test host that crashed or hung prints no summary: count each such run as one failure, never as silence.
            echo "$((expected_runs - runs)) of $expected_runs test runs ended without a summary (crash or hang, see above)"
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
            run_sample "$name" dotnet run --project "$project" -c Release --no-build || failed+=("$name")
        done
        echo "samples: $((count - ${#failed[@]} - ${#skipped[@]})) passed, ${#failed[@]} failed${failed:+ (${failed[*]})}, ${#skipped[@]} skipped${skipped:+ (${skipped[*]})}"
        [ ${#failed[@]} -eq 0 ]
        ;;
    package)
        eng/consumer-check.sh
        ;;
    native)
        eng/native/native.sh linux-x64
        ;;
    native-all)
        eng/native/native.sh --all
        ;;
    aot)
        # Publishes every sample with NativeAOT (warnings, including trimming and AOT analysis, are errors) and runs the
        # native binaries. Each publish restores and builds into a temporary folder of its own (--artifacts-path), never into
        # the tree's obj/ and bin/: a failed or interrupted run leaves the tree as it was, and the other jobs need no restore
        # afterwards. The samples' own framework (net10.0) by default; AOT_FRAMEWORK=net8.0 compiles them for net8.0 instead,
        # on the .NET 8 NativeAOT runtime. It is passed as TargetFrameworks (plural): a global TargetFramework would reach
        # the library's restore too and leave it without the net8.0 assets its build then needs (NETSDK1005).
        rid="linux-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')"
        framework="${AOT_FRAMEWORK:-}"
        framework_args=()
        [ -z "$framework" ] || framework_args=(-p:TargetFrameworks="$framework" -f "$framework")
        out=$(mktemp -d)
        trap 'rm -rf "$out"' EXIT
        failed=()
        count=0
        for project in samples/*/*.csproj; do
            name=$(basename "$project" .csproj)
            count=$((count + 1))
            echo "==> $name (${framework:-its own framework}, NativeAOT, $rid)"
            set +e
            dotnet publish "$project" -c Release -r "$rid" -p:PublishAot=true "${framework_args[@]}" \
                --artifacts-path "$out/build" -o "$out/$name" --nologo -v q -warnaserror
            src=$?
            set -e
            if [ "$src" -ne 0 ]; then
                echo "$name: FAILED to publish (exit code $src)"
                failed+=("$name")
            elif ! run_sample "$name" "$out/$name/$name"; then
                failed+=("$name")
            else
                echo "$name: native binary of $(stat -c %s "$out/$name/$name") bytes ran"
            fi
        done
        echo "aot: $((count - ${#failed[@]} - ${#skipped[@]})) passed, ${#failed[@]} failed${failed:+ (${failed[*]})}, ${#skipped[@]} skipped${skipped:+ (${skipped[*]})}"
        [ ${#failed[@]} -eq 0 ]
        ;;
    bench)
        cd benchmarks/NetZeroMQ.Benchmarks
        if [ "${1:-}" = quick ]; then
            # The short form: the matrix's cells that say most (PUSH/PULL, PUB/SUB, DEALER/ROUTER x inproc, ipc, tcp x 64 B,
            # 64 KiB) against native C and, where NetMQ has the cell, NetMQ; options after "quick" go to --matrix (e.g. --pin).
            shift
            echo "./build.sh bench quick: the achievement matrix's short form, 18 cells against native C and NetMQ: about 5 minutes on a quiet 2-CPU machine."
            dotnet run -c Release -- --matrix --with-netmq --patterns pushpull,pubsub,dealerrouter --sizes 64,65536 "$@"
        elif [ $# -gt 0 ]; then
            dotnet run -c Release -- "$@"
        else
            # The quick suite, then the whole achievement matrix with the NetMQ column. Each prints a line per class (cell)
            # with an estimate of the time left and ends with a summary and the paths of its results, chart and log
            # (artifacts/bench). See benchmarks/NetZeroMQ.Benchmarks/README.md, "Running it".
            # A failing suite case does not skip the matrix; the job still fails afterwards. BENCH_MATRIX_ARGS adds options
            # to the matrix (e.g. "--pin").
            echo "./build.sh bench: the BenchmarkDotNet suite (--quick, about 6 minutes), then the whole achievement matrix against native C"
            echo "and NetMQ (126 cells, about 25 minutes): about 30 minutes on a quiet 2-CPU machine. For a 5-minute answer: ./build.sh bench quick."
            suite=0
            dotnet run -c Release -- --quick || suite=$?
            read -r -a matrix_args <<<"${BENCH_MATRIX_ARGS:-}"
            dotnet run -c Release --no-build -- --matrix --with-netmq "${matrix_args[@]}"
            exit "$suite"
        fi
        ;;
    *)
        echo "usage: ./build.sh [test|samples|package|native|native-all|aot|soak [minutes]|bench|setup] [benchmark arguments]" >&2
        exit 1
        ;;
esac
