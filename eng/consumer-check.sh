#!/usr/bin/env bash
# Packs NetZeroMQ and uses the package the way a user would: a fresh console project in a temporary folder outside this
# repository, the packages from a local folder feed, a build with warnings as errors, and a request/reply round trip.
# The program runs where no system libzmq is visible (a mount namespace in which every libzmq file of the system is
# whited out by an overlay), so the libzmq it loads can only be NetZeroMQ.Native's, which NetZeroMQ brings in as its
# dependency; it must report that library and its draft API. A second run, outside the namespace, checks the documented
# way to prefer the system libzmq (NETZEROMQ_LIBZMQ=libzmq.so.5).
#   eng/consumer-check.sh   (needs the .NET SDK, root or sudo for the namespace, and NetZeroMQ.Native in artifacts/package/:
#                            when it is missing, eng/native/native.sh linux-x64 builds it first; ./build.sh package
#                            installs what else is missing, then runs this)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=eng/local-feed.sh
. "$repo/eng/local-feed.sh"
# The packages' folder of its own: the other jobs keep their results in artifacts/ too (the soak report, the native
# benchmark, the native build's tools and report), and a fresh pack must not delete them. eng/native/native.sh packs
# NetZeroMQ.Native into the same folder, which is this check's local feed.
artifacts="$repo/artifacts/package"
version=$(dotnet msbuild "$repo/src/NetZeroMQ/NetZeroMQ.csproj" -getProperty:Version -p:Configuration=Release)
rid="linux-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')"

native_package="$artifacts/NetZeroMQ.Native.$version.nupkg"
if [ ! -f "$native_package" ]; then
    echo "==> $(basename "$native_package") is not in artifacts/package/: building it (eng/native/native.sh $rid)"
    "$repo/eng/native/native.sh" "$rid"
fi
grep -qx "runtimes/$rid/native/libzmq.so" <<<"$(unzip -Z1 "$native_package")" \
    || { echo "$(basename "$native_package") holds no runtimes/$rid/native/libzmq.so" >&2; exit 1; }

# The repository's URL is given at pack time (it is not hard-coded: this repository has no public home yet). The stand-in
# below has the form of the real one, so that Source Link's mapping is checked as a release would make it.
repository_url="${NETZEROMQ_REPOSITORY_URL:-https://github.com/example/NetZeroMQ}"
commit=$(git -C "$repo" rev-parse HEAD)

echo "==> packing (a CI build: Source Link, repository-relative paths; package validation runs with it)"
# Only NetZeroMQ's own packages are replaced: NetZeroMQ.Native stays.
rm -f "$artifacts/NetZeroMQ.$version.nupkg" "$artifacts/NetZeroMQ.$version.snupkg"
dotnet pack "$repo/src/NetZeroMQ/NetZeroMQ.csproj" -c Release -o "$artifacts" --nologo -v q -warnaserror \
    -p:ContinuousIntegrationBuild=true -p:RepositoryUrl="$repository_url"
nupkg="$artifacts/NetZeroMQ.$version.nupkg"
snupkg="$artifacts/NetZeroMQ.$version.snupkg"
[ -f "$nupkg" ] || { echo "missing $nupkg" >&2; exit 1; }
[ -f "$snupkg" ] || { echo "missing the symbol package" >&2; exit 1; }

# The package must carry both builds with their XML docs, the README its page shows and its icon.
contents=$(unzip -Z1 "$nupkg")
for entry in README.md icon.png lib/net8.0/NetZeroMQ.dll lib/net8.0/NetZeroMQ.xml lib/netstandard2.0/NetZeroMQ.dll lib/netstandard2.0/NetZeroMQ.xml; do
    grep -qx "$entry" <<<"$contents" || { echo "the package lacks $entry" >&2; exit 1; }
done
nuspec=$(unzip -p "$nupkg" NetZeroMQ.nuspec)
for field in '<license type="expression">MPL-2.0</license>' '<readme>README.md</readme>' '<icon>icon.png</icon>' \
    "<projectUrl>$repository_url</projectUrl>" "<repository type=\"git\" url=\"$repository_url\"" "commit=\"$commit\"" '<releaseNotes>' \
    "<dependency id=\"NetZeroMQ.Native\" version=\"$version\""; do
    grep -qF "$field" <<<"$nuspec" || { echo "the nuspec lacks $field" >&2; exit 1; }
done
# The package page's readme is the one written for package users (src/NetZeroMQ/PACKAGE.md), not the repository's README.
unzip -p "$nupkg" README.md | cmp -s - "$repo/src/NetZeroMQ/PACKAGE.md" \
    || { echo "the package's README.md is not src/NetZeroMQ/PACKAGE.md" >&2; exit 1; }
unzip -p "$nupkg" icon.png | cmp -s - "$repo/src/NetZeroMQ/icon.png" \
    || { echo "the package's icon.png is not src/NetZeroMQ/icon.png" >&2; exit 1; }
[ "$(unzip -p "$nupkg" icon.png | head -c 8 | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] \
    || { echo "the package's icon is not a PNG" >&2; exit 1; }
# The release notes are CHANGELOG.md's section of this version (its first line, as XML text, is enough to recognise it).
notes=$(awk -v v="## ${version%%-*}" '$0 == v {on=1; next} on && /^## / {exit} on && NF {print; exit}' "$repo/CHANGELOG.md")
[ -n "$notes" ] && grep -qF "$(sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g' <<<"$notes")" <<<"$nuspec" \
    || { echo "the release notes are not CHANGELOG.md's section for $version" >&2; exit 1; }
# Source Link: each PDB of the symbol package maps the repository-relative paths (/_/, from the CI build) to the packed
# commit's files at the repository's URL. The mapping is the PDB's Source Link JSON, stored as plain UTF-8.
raw_url="$repository_url"
case "$raw_url" in https://github.com/*) raw_url="https://raw.githubusercontent.com/${raw_url#https://github.com/}" ;; esac
for pdb in lib/net8.0/NetZeroMQ.pdb lib/netstandard2.0/NetZeroMQ.pdb; do
    # (grep reads to the end, no -q: with pipefail, unzip cut off by an early exit would fail the pipeline.)
    unzip -p "$snupkg" "$pdb" | grep -aF "{\"documents\":{\"/_/*\":\"$raw_url/$commit/*\"}}" >/dev/null \
        || { echo "$pdb in the symbol package has no Source Link mapping to $raw_url/$commit" >&2; exit 1; }
done
echo "    $(basename "$nupkg"): $(wc -l <<<"$contents") entries, icon, readme, release notes, URLs present"

echo "==> packing NetZeroMQ.Hosting (the Generic Host package, same version)"
rm -f "$artifacts/NetZeroMQ.Hosting.$version.nupkg" "$artifacts/NetZeroMQ.Hosting.$version.snupkg"
dotnet pack "$repo/src/NetZeroMQ.Hosting/NetZeroMQ.Hosting.csproj" -c Release -o "$artifacts" --nologo -v q -warnaserror \
    -p:ContinuousIntegrationBuild=true -p:RepositoryUrl="$repository_url"
hosting_nupkg="$artifacts/NetZeroMQ.Hosting.$version.nupkg"
[ -f "$hosting_nupkg" ] || { echo "missing $hosting_nupkg" >&2; exit 1; }
hosting_contents=$(unzip -Z1 "$hosting_nupkg")
for entry in README.md icon.png lib/net8.0/NetZeroMQ.Hosting.dll lib/net8.0/NetZeroMQ.Hosting.xml; do
    grep -qx "$entry" <<<"$hosting_contents" || { echo "NetZeroMQ.Hosting's package lacks $entry" >&2; exit 1; }
done
hosting_nuspec=$(unzip -p "$hosting_nupkg" NetZeroMQ.Hosting.nuspec)
# It depends on NetZeroMQ of the same version and on abstractions only (never the OpenTelemetry SDK).
for field in "<dependency id=\"NetZeroMQ\" version=\"$version\"" '<readme>README.md</readme>' '<license type="expression">MPL-2.0</license>'; do
    grep -qF "$field" <<<"$hosting_nuspec" || { echo "NetZeroMQ.Hosting's nuspec lacks $field" >&2; exit 1; }
done
! grep -q 'id="OpenTelemetry' <<<"$hosting_nuspec" || { echo "NetZeroMQ.Hosting depends on OpenTelemetry" >&2; exit 1; }
unzip -p "$hosting_nupkg" README.md | cmp -s - "$repo/src/NetZeroMQ.Hosting/PACKAGE.md" \
    || { echo "NetZeroMQ.Hosting's README.md is not src/NetZeroMQ.Hosting/PACKAGE.md" >&2; exit 1; }
echo "    $(basename "$hosting_nupkg"): $(wc -l <<<"$hosting_contents") entries, readme, depends on NetZeroMQ $version"
echo "    $(basename "$snupkg"): both PDBs map /_/* to $raw_url/$commit/*"

# Outside the repository, so that none of its Directory.Build.props, global.json or nuget.config applies.
work=$(mktemp -d "${TMPDIR:-/tmp}/netzeromq-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
case "$work" in "$repo"/*) echo "the temporary folder is inside the repository" >&2; exit 1 ;; esac

write_local_feed_config "$artifacts" "$work"

echo "==> a fresh console project in $work"
cd "$work"
dotnet new console -o Consumer --framework net10.0 --no-restore >/dev/null
cd Consumer
dotnet add package NetZeroMQ --version "$version" >/dev/null
dotnet add package NetZeroMQ.Hosting --version "$version" >/dev/null
# The Generic Host itself, as a Worker Service has it.
dotnet add package Microsoft.Extensions.Hosting --version 10.0.0 >/dev/null
cat > Program.cs <<'CS'
using System;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using NetZeroMQ;
using NetZeroMQ.Hosting;

// First, before NetZeroMQ loads anything: could the system's libzmq be loaded at all, by the name the resolver would
// use? (Asked later, the answer would be yes whatever the system has: the package's library, already loaded, has the
// same soname.)
bool system = NativeLibrary.TryLoad("libzmq.so.5", out IntPtr handle);
if (system)
{
    NativeLibrary.Free(handle);
}

using var context = new Context();
using var server = new Socket(context, SocketType.Rep) { ReceiveTimeout = TimeSpan.FromSeconds(10) };
server.Bind("tcp://127.0.0.1:*");
using var client = new Socket(context, SocketType.Req) { ReceiveTimeout = TimeSpan.FromSeconds(10) };
client.Connect(server.LastEndpoint);

client.Send("ping");
Console.WriteLine(server.RecvString());
server.Send("pong");
Console.WriteLine(client.RecvString());
Console.WriteLine("package build: " + typeof(Context).Assembly.GetCustomAttribute<TargetFrameworkAttribute>()!.FrameworkName);
Console.WriteLine("Libzmq.LoadedFrom: " + Libzmq.LoadedFrom);
Console.WriteLine("Libzmq.Version: " + Libzmq.Version);
Console.WriteLine("Context.Has(\"draft\"): " + Context.Has("draft"));
Console.WriteLine("system libzmq.so.5 loadable: " + system);

// NetZeroMQ.Hosting: a host with a REP worker from configuration, asked once, then stopped.
var builder = Host.CreateApplicationBuilder();
builder.Logging.ClearProviders();
builder.Configuration["NetZeroMQ:Sockets:echo:Type"] = "Rep";
builder.Configuration["NetZeroMQ:Sockets:echo:Bind:0"] = "tcp://127.0.0.1:*";
builder.Services.AddNetZeroMQ().AddSocketWorker<Echo>("echo");
using (var host = builder.Build())
{
    await host.StartAsync();
    using var hostClient = new Socket(context, SocketType.Req) { ReceiveTimeout = TimeSpan.FromSeconds(10) };
    hostClient.Connect(host.Services.GetRequiredService<SocketFactory>().GetPeers("echo").LastEndpoint);
    hostClient.Send("hosted");
    Console.WriteLine("hosting: " + hostClient.RecvString());
    await host.StopAsync();
}

sealed class Echo : ISocketHandler
{
    public System.Threading.Tasks.ValueTask HandleAsync(SocketMessage message, System.Threading.CancellationToken token) =>
        message.Socket.SendMultipartAsync(message.Frames, token);
}
CS

echo "==> build"
dotnet build -c Release --nologo -v q -clp:NoSummary -warnaserror -p:Nullable=enable
app="$work/Consumer/bin/Release/net10.0"
[ -f "$app/runtimes/$rid/native/libzmq.so" ] || { echo "the build output lacks runtimes/$rid/native/libzmq.so" >&2; exit 1; }

# Every libzmq file the system has, in every folder the dynamic loader searches (its cache, the default folders).
hide=$( { ldconfig -p 2>/dev/null | awk '$1 ~ /^libzmq/ { print $NF }'; \
          ls -d /lib/*/libzmq.so* /usr/lib/libzmq.so* /usr/lib/*/libzmq.so* /usr/local/lib/libzmq.so* /usr/local/lib/*/libzmq.so* 2>/dev/null || true; } \
        | while read -r file; do readlink -f "$(dirname "$file")"; done | sort -u)
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "==> run with no system libzmq visible (a mount namespace whiting out libzmq in: ${hide:-nowhere, none is installed})"
# In the namespace, each such folder is overlaid by a tmpfs layer holding a whiteout (a 0:0 character device) per libzmq
# file: the folder's other files stay, libzmq's are gone (ENOENT), and the rest of the machine never sees a change.
set +e
output=$($SUDO unshare --mount --propagation private -- bash -euc '
    layers=$(mktemp -d)
    mount -t tmpfs tmpfs "$layers"
    n=0
    for dir in $1; do
        n=$((n + 1))
        mkdir -p "$layers/$n/upper" "$layers/$n/work"
        for file in "$dir"/libzmq.so*; do
            [ -e "$file" ] || [ -L "$file" ] || continue
            mknod "$layers/$n/upper/$(basename "$file")" c 0 0
        done
        mount -t overlay overlay -o "lowerdir=$dir,upperdir=$layers/$n/upper,workdir=$layers/$n/work" "$dir"
        if ls "$dir"/libzmq.so* >/dev/null 2>&1; then echo "libzmq is still visible in $dir" >&2; exit 1; fi
    done
    cd "$2"
    exec timeout 60 dotnet Consumer.dll
' hide-libzmq "$hide" "$app" 2>"$work/stderr")
rc=$?
set -e
expected=$(printf '%s\n' ping pong 'package build: .NETCoreApp,Version=v8.0' \
    "Libzmq.LoadedFrom: $app/runtimes/$rid/native/libzmq.so" 'Libzmq.Version: 4.3.4' 'Context.Has("draft"): True' \
    'system libzmq.so.5 loadable: False' 'hosting: hosted')
if [ "$rc" -ne 0 ] || [ "$output" != "$expected" ]; then
    printf 'consumer check FAILED (exit code %s)\n--- expected\n%s\n--- got\n%s\n' "$rc" "$expected" "$output" >&2
    cat "$work/stderr" >&2
    exit 1
fi
echo "$output" | sed 's/^/    /'

echo "==> run preferring the system libzmq (NETZEROMQ_LIBZMQ=libzmq.so.5, as the README documents)"
system=$(cd "$app" && NETZEROMQ_LIBZMQ=libzmq.so.5 timeout 60 dotnet Consumer.dll | sed -n 's/^Libzmq.LoadedFrom: //p')
[ "$system" = libzmq.so.5 ] || { echo "with NETZEROMQ_LIBZMQ=libzmq.so.5 libzmq came from '$system'" >&2; exit 1; }
echo "    Libzmq.LoadedFrom: $system"

resolved=$(find "$work/packages" -name '*.nupkg' -path '*netzeromq*' -printf '%f\n' | sort | paste -s -d ' ')
grep -q "netzeromq.hosting.$version.nupkg" <<<"$resolved" || { echo "NetZeroMQ.Hosting did not come from the local feed ($resolved)" >&2; exit 1; }
echo "consumer check: OK ($resolved from the local feed; round trip through the package's libzmq with no system libzmq visible)"
