#!/usr/bin/env bash
# Packs NetZeroMQ and uses the package the way a user would: a fresh console project in a temporary folder outside this
# repository, the package from a local folder feed, a build with warnings as errors, and a request/reply round trip.
#   eng/consumer-check.sh            (needs libzmq and the .NET SDK; ./build.sh package installs what is missing, then runs this)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
# A folder of its own: the other jobs keep their results in artifacts/ too (the soak report, the native benchmark), and
# a fresh pack must not delete them.
artifacts="$repo/artifacts/package"

# The repository's URL is given at pack time (it is not hard-coded: this repository has no public home yet). The stand-in
# below has the form of the real one, so that Source Link's mapping is checked as a release would make it.
repository_url="${NETZEROMQ_REPOSITORY_URL:-https://github.com/example/NetZeroMQ}"
commit=$(git -C "$repo" rev-parse HEAD)

echo "==> packing (a CI build: Source Link, repository-relative paths; package validation runs with it)"
rm -rf "$artifacts"
dotnet pack "$repo/src/NetZeroMQ/NetZeroMQ.csproj" -c Release -o "$artifacts" --nologo -v q -warnaserror \
    -p:ContinuousIntegrationBuild=true -p:RepositoryUrl="$repository_url"
version=$(dotnet msbuild "$repo/src/NetZeroMQ/NetZeroMQ.csproj" -getProperty:Version -p:Configuration=Release)
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
    "<projectUrl>$repository_url</projectUrl>" "<repository type=\"git\" url=\"$repository_url\"" "commit=\"$commit\"" '<releaseNotes>'; do
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
echo "    $(basename "$snupkg"): both PDBs map /_/* to $raw_url/$commit/*"

# Outside the repository, so that none of its Directory.Build.props, global.json or nuget.config applies.
work=$(mktemp -d "${TMPDIR:-/tmp}/netzeromq-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
case "$work" in "$repo"/*) echo "the temporary folder is inside the repository" >&2; exit 1 ;; esac

# The local folder feed for NetZeroMQ (and only for it: a package of the same name elsewhere must never be picked), the
# normal registry for anything else. A private packages folder, so that a NetZeroMQ.<version> cached by an earlier run is
# not used instead of the one just packed.
cat > "$work/nuget.config" <<XML
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <clear />
    <add key="local" value="$artifacts" />
    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" protocolVersion="3" />
  </packageSources>
  <packageSourceMapping>
    <packageSource key="local"><package pattern="NetZeroMQ" /></packageSource>
    <packageSource key="nuget.org"><package pattern="*" /></packageSource>
  </packageSourceMapping>
  <config>
    <add key="globalPackagesFolder" value="$work/packages" />
  </config>
</configuration>
XML

echo "==> a fresh console project in $work"
cd "$work"
dotnet new console -o Consumer --framework net10.0 --no-restore >/dev/null
cd Consumer
dotnet add package NetZeroMQ --version "$version" >/dev/null
cat > Program.cs <<'CS'
using System;
using System.Reflection;
using System.Runtime.Versioning;
using NetZeroMQ;

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
Console.Error.WriteLine("libzmq " + Libzmq.Version + " from " + Libzmq.LoadedFrom);
CS

echo "==> build and run"
dotnet build -c Release --nologo -v q -clp:NoSummary -warnaserror -p:Nullable=enable
output=$(timeout 60 dotnet bin/Release/net10.0/Consumer.dll 2>"$work/stderr")
expected=$'ping\npong\npackage build: .NETCoreApp,Version=v8.0'
if [ "$output" != "$expected" ]; then
    printf 'consumer check FAILED\n--- expected\n%s\n--- got\n%s\n' "$expected" "$output" >&2
    exit 1
fi

resolved=$(find "$work/packages/netzeromq" -name '*.nupkg' -printf '%f\n')
echo "$output" | sed 's/^/    /'
sed 's/^/    /' "$work/stderr"
echo "consumer check: OK ($resolved from the local feed, request/reply round trip through the package)"
