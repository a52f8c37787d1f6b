# Sourced by eng/consumer-check.sh and eng/native/samples.sh: the NuGet configuration of a project that consumes this
# repository's packages as a user would.
#   write_local_feed_config FEED FOLDER   writes FOLDER/nuget.config
# The local folder feed serves NetZeroMQ and NetZeroMQ.Native, and only them (a package of the same name elsewhere must never
# be picked); the normal registry serves everything else. A private packages folder in FOLDER, so that a package cached by an
# earlier run is not used instead of the one just packed.
write_local_feed_config() {
    local feed="$1" folder="$2"
    cat > "$folder/nuget.config" <<XML
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <clear />
    <add key="local" value="$feed" />
    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" protocolVersion="3" />
  </packageSources>
  <packageSourceMapping>
    <packageSource key="local"><package pattern="NetZeroMQ" /><package pattern="NetZeroMQ.Native" /><package pattern="NetZeroMQ.Hosting" /></packageSource>
    <packageSource key="nuget.org"><package pattern="*" /></packageSource>
  </packageSourceMapping>
  <config>
    <add key="globalPackagesFolder" value="$folder/packages" />
  </config>
</configuration>
XML
}
