using System;
using System.Diagnostics;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading.Tasks;
using Xunit;

namespace NetZeroMQ.Hosting.Tests
{
    /// <summary>
    /// The issue's definition of done: a fresh Worker Service project (what <c>dotnet new worker</c> makes, written here so
    /// that the test needs no template) that adds NetZeroMQ.Hosting and about ten lines serves a ZeroMQ socket, logs its bind
    /// through ILogger, reports health, and stops on SIGTERM within the shutdown timeout, in a child process. It builds a
    /// project (about a minute): the one such test of the suite.
    /// </summary>
    public class WorkerServiceTests
    {
        /// <summary>The Generic Host's default shutdown timeout, which the project does not change.</summary>
        private static readonly TimeSpan ShutdownTimeout = TimeSpan.FromSeconds(30);

        private static readonly TimeSpan BuildTimeout = TimeSpan.FromMinutes(5);

        private const string ProgramText = """
            using Microsoft.Extensions.Diagnostics.HealthChecks;
            using NetZeroMQ;
            using NetZeroMQ.Hosting;

            var builder = Host.CreateApplicationBuilder(args);
            builder.Services.AddNetZeroMQ().AddSocketWorker<Echo>("frontend");
            builder.Services.AddHealthChecks().AddNetZeroMQ();
            using var host = builder.Build();
            await host.StartAsync();
            Console.WriteLine("health: " + (await host.Services.GetRequiredService<HealthCheckService>().CheckHealthAsync()).Status);
            await host.WaitForShutdownAsync();

            class Echo : ISocketHandler
            {
                public ValueTask HandleAsync(SocketMessage message, CancellationToken token) => message.Socket.SendMultipartAsync(message.Frames, token);
            }
            """;

        private const string SettingsText = """
            {
              "Logging": { "LogLevel": { "Default": "Information" } },
              "NetZeroMQ": { "Sockets": { "frontend": { "Type": "Router", "Bind": [ "tcp://127.0.0.1:*" ] } } }
            }
            """;

        [Fact]
        public async Task FreshWorkerProject_TenLines_ServesLogsBindReportsHealthAndStopsOnSigterm()
        {
            string repository = FindRepository();
            string work = Directory.CreateTempSubdirectory("netzeromq-worker-").FullName;
            try
            {
                string hosting = Path.Combine(repository, "src", "NetZeroMQ.Hosting", "NetZeroMQ.Hosting.csproj");
                File.WriteAllText(Path.Combine(work, "Worker.csproj"), $"""
                    <Project Sdk="Microsoft.NET.Sdk.Worker">
                      <PropertyGroup>
                        <TargetFramework>net10.0</TargetFramework>
                        <Nullable>enable</Nullable>
                        <ImplicitUsings>enable</ImplicitUsings>
                      </PropertyGroup>
                      <ItemGroup>
                        <PackageReference Include="Microsoft.Extensions.Hosting" Version="10.0.0" />
                        <ProjectReference Include="{hosting}" />
                      </ItemGroup>
                    </Project>
                    """);
                File.WriteAllText(Path.Combine(work, "Program.cs"), ProgramText);
                File.WriteAllText(Path.Combine(work, "appsettings.json"), SettingsText);
                Assert.True(ProgramText.Split('\n').Length <= 17);

                // The library is already built (this test references it), so its projects are up to date and build in moments;
                // they are still built, not assumed: a referenced project that the solution's build leaves out (NetZeroMQ.Native,
                // which only packing needs) must not fail a fresh clone's run.
                (int buildCode, string buildOutput) = await RunAsync(work, "dotnet", $"build -c {Configuration} --nologo -v q", BuildTimeout);
                Assert.True(buildCode == 0, "the worker project did not build:\n" + buildOutput);

                string output = Path.Combine(work, "bin", Configuration, "net10.0");
                var start = new ProcessStartInfo("dotnet", "Worker.dll")
                {
                    WorkingDirectory = output,
                    RedirectStandardOutput = true,
                    RedirectStandardError = true,
                    UseShellExecute = false,
                };
                start.Environment["DOTNET_CONSOLE__FORMATTERNAME"] = "simple";
                using var child = Process.Start(start)!;
                var stdout = new StringBuilder();
                child.OutputDataReceived += (_, e) => { lock (stdout) { stdout.AppendLine(e.Data); } };
                child.ErrorDataReceived += (_, e) => { lock (stdout) { stdout.AppendLine(e.Data); } };
                child.BeginOutputReadLine();
                child.BeginErrorReadLine();
                try
                {
                    string log = await WaitForOutputAsync(stdout, child, @"health: \w+[\s\S]*bound to tcp://127\.0\.0\.1:\d+|bound to tcp://127\.0\.0\.1:\d+[\s\S]*health: \w+");
                    Assert.Contains("health: Healthy", log);
                    string endpoint = Regex.Match(log, @"tcp://127\.0\.0\.1:\d+").Value;
                    Assert.Matches(@"info: NetZeroMQ\[3\]\s+Socket \d+ \(router\) bound to " + Regex.Escape(endpoint), log);

                    using (var context = new Context())
                    using (var dealer = new Socket(context, SocketType.Dealer) { Linger = TimeSpan.Zero, ReceiveTimeout = TimeSpan.FromSeconds(10) })
                    {
                        dealer.Connect(endpoint);
                        dealer.Send("served");
                        Assert.Equal("served", dealer.RecvString());
                    }

                    var stopwatch = Stopwatch.StartNew();
                    Assert.Equal(0, Kill(child.Id, Sigterm));
                    bool exited = child.WaitForExit(ShutdownTimeout);
                    stopwatch.Stop();
                    Assert.True(exited, "the worker did not stop within the shutdown timeout after SIGTERM:\n" + Text(stdout));
                    child.WaitForExit();
                    Assert.True(child.ExitCode == 0, "exit code " + child.ExitCode + ":\n" + Text(stdout));
                    Assert.Contains("Application is shutting down", Text(stdout));
                    Assert.Contains("Worker of socket 'frontend' stopped after 1 messages", Text(stdout));
                }
                finally
                {
                    if (!child.HasExited)
                    {
                        child.Kill(entireProcessTree: true);
                    }
                }
            }
            finally
            {
                Directory.Delete(work, recursive: true);
            }
        }

#if DEBUG
        private const string Configuration = "Debug";
#else
        private const string Configuration = "Release";
#endif

        private const int Sigterm = 15;

        [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
        private static extern int Kill(int pid, int signal);

        private static string Text(StringBuilder output)
        {
            lock (output)
            {
                return output.ToString();
            }
        }

        private static async Task<string> WaitForOutputAsync(StringBuilder output, Process child, string pattern)
        {
            DateTime end = DateTime.UtcNow + TimeSpan.FromSeconds(30);
            while (DateTime.UtcNow < end && !child.HasExited)
            {
                string text = Text(output);
                if (Regex.IsMatch(text, pattern))
                {
                    return text;
                }

                await Task.Delay(50);
            }

            throw new TimeoutException("The worker did not log its bind and health in time:\n" + Text(output));
        }

        private static async Task<(int Code, string Output)> RunAsync(string directory, string file, string arguments, TimeSpan timeout)
        {
            var start = new ProcessStartInfo(file, arguments)
            {
                WorkingDirectory = directory,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            };
            using var process = Process.Start(start)!;
            Task<string> stdout = process.StandardOutput.ReadToEndAsync();
            Task<string> stderr = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit(timeout))
            {
                process.Kill(entireProcessTree: true);
                return (-1, "timed out after " + timeout);
            }

            return (process.ExitCode, await stdout + await stderr);
        }

        private static string FindRepository()
        {
            for (DirectoryInfo? directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
            {
                if (File.Exists(Path.Combine(directory.FullName, "NetZeroMQ.sln")))
                {
                    return directory.FullName;
                }
            }

            throw new InvalidOperationException("The repository (NetZeroMQ.sln) is not above " + AppContext.BaseDirectory);
        }
    }
}
