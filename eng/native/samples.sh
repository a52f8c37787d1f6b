#!/usr/bin/env bash
# Runs the QuickStart, CurveSecurity and Poller samples (and, for win-x64 and win-x86, the Async and RouterDealer
# samples: the async API on Windows, served by the portable zmq_poll reactor) for another platform the way a user there
# would get them: each sample's Program.cs in a fresh project outside the repository that references only the NetZeroMQ
# package (from artifacts/package/, so NetZeroMQ.Native comes in as its dependency), published self-contained for RID,
# and run under qemu-aarch64 (linux-arm64), wine64 (win-x64) or wine32 (win-x86, where every import and callback crosses
# with the cdecl convention the library declares); then a fourth program, LibzmqInfo, made the same way, prints where
# libzmq was loaded from, its version and its draft API. Fails if any program fails, or if libzmq did not come from the
# package.
#   eng/native/samples.sh RID VERSION [FEED]    (FEED: the folder holding the two packages, default artifacts/package/)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/emulators.sh"
# shellcheck source=eng/local-feed.sh
. "$here/../local-feed.sh"
repo="$(cd "$here/../.." && pwd)"
rid="${1:?usage: samples.sh RID VERSION}"
version="${2:?}"
feed="$(cd "${3:-$repo/artifacts/package}" && pwd)"
samples=(QuickStart CurveSecurity Poller)
# Windows has no epoll: the async samples are the evidence that the portable reactor works there.
[[ "$rid" != win-* ]] || samples+=(Async RouterDealer)
samples+=(LibzmqInfo)
# What each program's output must contain (an extended regular expression), besides exiting 0: an exit code alone
# proves little under an emulator.
declare -A expect=(
    [QuickStart]='^pong$'
    [CurveSecurity]='^unknown client rejected: True$'
    [Poller]='^handled [1-9][0-9]* tasks and [1-9][0-9]* requests on one thread$'
    [Async]='^loop: cancelled after 5 messages$'
    [RouterDealer]='^all 6 requests answered; shutting down$'
    [LibzmqInfo]='^Context.Has\("draft"\) = True'
)

work=$(mktemp -d "${TMPDIR:-/tmp}/netzeromq-samples-$rid.XXXXXX")
# win-x86's samples are the last programs of a run under wine32: its session (eng/native/emulators.sh) ends with them.
trap 'rm -rf "$work"; [ "$rid" != win-x86 ] || stop_win32' EXIT
write_local_feed_config "$feed" "$work"

failed=()
for sample in "${samples[@]}"; do
    project="$work/$sample"
    mkdir -p "$project"
    if [ "$sample" = LibzmqInfo ]; then
        cat > "$project/Program.cs" <<'CS'
using System;
using NetZeroMQ;

bool draft = Context.Has("draft");
Console.WriteLine("libzmq " + Libzmq.Version + " loaded from " + Libzmq.LoadedFrom);
Console.WriteLine("Context.Has(\"draft\") = " + draft + ", Context.Has(\"curve\") = " + Context.Has("curve"));
return draft && Libzmq.LoadedFrom.Contains(AppContext.BaseDirectory) ? 0 : 1;
CS
    else
        cp "$repo/samples/$sample/Program.cs" "$project/"
    fi
    cat > "$project/$sample.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net10.0</TargetFramework>
    <Nullable>enable</Nullable>
    <ImplicitUsings>disable</ImplicitUsings>
    <AllowUnsafeBlocks>true</AllowUnsafeBlocks>
    <!-- arm64 under qemu has no ICU; invariant globalization keeps the runtime from looking for it. -->
    <InvariantGlobalization>true</InvariantGlobalization>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="NetZeroMQ" Version="$version" />
  </ItemGroup>
</Project>
XML
    echo "==> $rid: $sample, published self-contained from the packages"
    dotnet publish "$project" -c Release -r "$rid" --self-contained -o "$project/out" --nologo -v q -clp:NoSummary
    case "$rid" in
        win-*) library="$project/out/libzmq.dll" ;;
        *) library="$project/out/libzmq.so" ;;
    esac
    [ -f "$library" ] || { echo "$rid: the publish output has no $(basename "$library") from NetZeroMQ.Native" >&2; exit 1; }
    set +e
    started=$(date +%s%N)
    case "$rid" in
        linux-arm64) (cd "$project/out" && run_arm64 600 "./$sample") >"$project/output" 2>"$project/errors" ;;
        win-x64) (cd "$project/out" && run_win64 600 "$sample.exe") >"$project/output" 2>"$project/errors" ;;
        win-x86) (cd "$project/out" && run_win32 600 "$sample.exe") >"$project/output" 2>"$project/errors" ;;
        *) echo "no emulator for $rid" >&2; exit 1 ;;
    esac
    rc=$?
    set -e
    seconds=$(awk -v ns=$(( $(date +%s%N) - started )) 'BEGIN { printf "%.1f", ns / 1e9 }')
    tr -d '\r' <"$project/output" | sed 's/^/    /'
    if [ "$rc" -eq 0 ] && tr -d '\r' <"$project/output" | grep -qE "${expect[$sample]}"; then
        echo "$rid: $sample exited 0 and printed what it should ($seconds s, runtime start included)"
    else
        echo "$rid: $sample FAILED (exit code $rc after $seconds s; expected a line matching ${expect[$sample]})"
        sed 's/^/    stderr: /' "$project/errors" | head -n 20
        failed+=("$sample")
    fi
done
echo "$rid samples: $(( ${#samples[@]} - ${#failed[@]} )) passed, ${#failed[@]} failed${failed:+ (${failed[*]})}"
[ ${#failed[@]} -eq 0 ]
