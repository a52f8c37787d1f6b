#!/usr/bin/env bash
# Downloads and unpacks Debian's libzmq source package (zeromq3, with Debian's patches applied) into DEST, then applies
# this repository's own patches (eng/native/patches/*.patch). Prints the unpacked source folder on the last line.
#   eng/native/fetch-source.sh DEST
#
# The machine's apt configuration is left untouched: the deb-src entries are written to a private apt configuration in
# DEST that mirrors the machine's configured Debian (or Ubuntu) sources, with its own package lists and lock, so nothing
# here can disturb, or be disturbed by, another apt-get running on the machine.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="${1:?usage: fetch-source.sh DEST}"
mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"

apt_dir="$dest/apt"
rm -rf "$apt_dir"
mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial" "$apt_dir/archives/partial"

# Every enabled source of the machine whose URI is Debian's or Ubuntu's archive, turned into deb-src. One-line files
# (sources.list, *.list) and deb822 files (*.sources) are both understood; third-party archives are left out because most
# publish no sources and would fail the update.
archive='(debian|ubuntu)(-security|-ports)?/?$'
for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$file" ] || continue
    awk -v archive="$archive" '
        $1 == "deb" {
            uri = ""
            for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\//) { uri = $i; break }
            if (uri ~ archive) { $1 = "deb-src"; print }
        }' "$file"
done > "$apt_dir/sources.list"
for file in /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    awk -v archive="$archive" '
        BEGIN { RS = ""; FS = "\n" }
        {
            types = 0; match_uri = 0; enabled = 1; out = ""
            for (i = 1; i <= NF; i++) {
                line = $i
                if (line ~ /^#/) continue
                if (line ~ /^Types:/ && line ~ /[ \t]deb([ \t]|$)/) { types = 1; line = "Types: deb-src" }
                if (line ~ /^URIs:/) { n = split(line, uris, /[ \t]+/); for (j = 2; j <= n; j++) if (uris[j] ~ archive) match_uri = 1 }
                if (line ~ /^Enabled:[ \t]*no/) enabled = 0
                out = out line "\n"
            }
            if (types && match_uri && enabled) print out
        }' "$file"
done > "$apt_dir/sources.list.d/deb-src.sources"
if ! grep -q . "$apt_dir/sources.list" "$apt_dir/sources.list.d/deb-src.sources"; then
    echo "no Debian or Ubuntu archive is configured in /etc/apt: cannot fetch libzmq's source package" >&2
    exit 1
fi

apt_options=(
    -o "Dir::Etc::SourceList=$apt_dir/sources.list"
    -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
    -o "Dir::State::Lists=$apt_dir/lists"
    -o "Dir::Cache::Archives=$apt_dir/archives"
    -o "Dir::Cache::pkgcache="
    -o "Dir::Cache::srcpkgcache="
    -o "APT::Sandbox::User=root"
)
echo "==> apt-get update (deb-src only, private lists in $apt_dir)" >&2
apt-get "${apt_options[@]}" update -qq >&2

work="$dest/source"
rm -rf "$work"
mkdir -p "$work"
echo "==> apt-get source zeromq3" >&2
(cd "$work" && apt-get "${apt_options[@]}" source -qq zeromq3 >&2)
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'zeromq3-*' | head -n 1)
[ -n "$src" ] && [ -f "$src/CMakeLists.txt" ] || { echo "apt-get source did not unpack a zeromq3 tree in $work" >&2; exit 1; }

for patch in "$here"/patches/*.patch; do
    [ -f "$patch" ] || continue
    echo "==> applying $(basename "$patch")" >&2
    patch -d "$src" -p1 --forward --quiet < "$patch" >&2
done
echo "$src"
