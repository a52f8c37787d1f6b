#!/usr/bin/env bash
# For a runtime whose .NET programs cannot run on this machine (linux-musl-x64, linux-musl-arm64: no .NET runtime for
# musl can run here): checks what a user's `dotnet publish -r RID` of a program referencing the NetZeroMQ package puts
# beside the program. Its libzmq.so must be byte for byte the package's runtimes/RID/native/libzmq.so (NuGet picks the
# most specific folder: without a musl folder, linux-musl-x64 falls back to linux-x64 and gets the glibc build, which
# musl's loader refuses), and never the glibc one. The library itself is proven by the smoke test under musl's loader.
#   eng/native/publish-check.sh RID VERSION [FEED]    (FEED: the folder holding the two packages, default artifacts/package/)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=eng/local-feed.sh
. "$here/../local-feed.sh"
repo="$(cd "$here/../.." && pwd)"
rid="${1:?usage: publish-check.sh RID VERSION [FEED]}"
version="${2:?}"
feed="$(cd "${3:-$repo/artifacts/package}" && pwd)"
glibc_rid="${rid/-musl/}"

work=$(mktemp -d "${TMPDIR:-/tmp}/netzeromq-publish-$rid.XXXXXX")
trap 'rm -rf "$work"' EXIT
write_local_feed_config "$feed" "$work"
mkdir -p "$work/Consumer" "$work/native"
cat > "$work/Consumer/Program.cs" <<'CS'
System.Console.WriteLine(NetZeroMQ.Libzmq.Version);
CS
cat > "$work/Consumer/Consumer.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net10.0</TargetFramework>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="NetZeroMQ" Version="$version" />
  </ItemGroup>
</Project>
XML
echo "==> $rid: dotnet publish -r $rid of a program referencing NetZeroMQ $version"
# Framework-dependent and without an apphost: what NuGet selects for the RID is the same, and no runtime or host pack for
# musl has to be downloaded for a program that will not run here.
dotnet publish "$work/Consumer" -c Release -r "$rid" --self-contained false -p:UseAppHost=false -o "$work/out" --nologo -v q -clp:NoSummary
(cd "$work/native" && unzip -q -o "$feed/NetZeroMQ.Native.$version.nupkg" "runtimes/*")
published="$work/out/libzmq.so"
[ -f "$published" ] || { echo "$rid: the publish output has no libzmq.so" >&2; exit 1; }
cmp -s "$published" "$work/native/runtimes/$rid/native/libzmq.so" \
    || { echo "$rid: the published libzmq.so is not the package's runtimes/$rid/native/libzmq.so" >&2; exit 1; }
if [ -f "$work/native/runtimes/$glibc_rid/native/libzmq.so" ] && cmp -s "$published" "$work/native/runtimes/$glibc_rid/native/libzmq.so"; then
    echo "$rid: the published libzmq.so is the glibc build of $glibc_rid" >&2
    exit 1
fi
others=$(find "$work/out" -name 'libzmq*' ! -path "$published")
[ -z "$others" ] || { echo "$rid: the publish output holds other libzmq files: $others" >&2; exit 1; }
echo "$rid: the publish output's libzmq.so is the package's $rid build ($(stat -c %s "$published") bytes; $(readelf -d "$published" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | paste -s -d ' ') needed), not the $glibc_rid one"
