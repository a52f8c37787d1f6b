#!/usr/bin/env bash
# Rewrites the PublicAPI.Unshipped.txt files of both packages from the code: src/NetZeroMQ/PublicAPI/<target>/ (one per
# target) and src/NetZeroMQ.Hosting/PublicAPI/, with the PublicApiAnalyzers code fix (RS0016: a public symbol missing from
# the files), then builds to show the files are complete.
#   eng/update-public-api.sh        (run after changing the public surface; review the diff of the .txt files)
# Unshipped starts over from its header each time, so removed or renamed symbols disappear with it; symbols already in
# PublicAPI.Shipped.txt (after a release) are not repeated. Removing a shipped symbol is written by hand as *REMOVED*<line>.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"

update() {
    local project="$1"
    shift
    local files=("$@")
    for file in "${files[@]}"; do
        printf '#nullable enable\n' > "$file"
    done

    # dotnet format loads one project per target but writes the code fix's file changes of one target per run, so it runs
    # until nothing changes (two runs for two targets; at most four).
    for run in 1 2 3 4; do
        before=$(cat "${files[@]}" | md5sum)
        dotnet format analyzers "$project" --diagnostics RS0016 --severity info
        after=$(cat "${files[@]}" | md5sum)
        [ "$before" = "$after" ] && break
    done

    # The code fix writes the files in no fixed order: sort the entries under the header so that diffs stay small.
    for file in "${files[@]}"; do
        { printf '#nullable enable\n'; tail -n +2 "$file" | LC_ALL=C sort -u; } > "$file.tmp" && mv "$file.tmp" "$file"
    done

    dotnet build "$project" -c Release --nologo -v q
    wc -l "${files[@]}"
}

update "$repo/src/NetZeroMQ/NetZeroMQ.csproj" "$repo"/src/NetZeroMQ/PublicAPI/*/PublicAPI.Unshipped.txt
update "$repo/src/NetZeroMQ.Hosting/NetZeroMQ.Hosting.csproj" "$repo/src/NetZeroMQ.Hosting/PublicAPI/PublicAPI.Unshipped.txt"
