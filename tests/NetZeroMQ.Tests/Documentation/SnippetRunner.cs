using System;
using System.IO;
using System.Reflection;
using System.Runtime.ExceptionServices;
using System.Runtime.Loader;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ.Tests.Documentation
{
    /// <summary>
    /// Runs a compiled documentation program in this process: its own collectible load context (NetZeroMQ and the framework
    /// come from this process, so the snippet uses the library under test), on a background thread, bounded by a timeout.
    /// </summary>
    public static class SnippetRunner
    {
        /// <summary>Runs the program's entry point; returns its exit code (0 for a void or Task entry point).</summary>
        /// <exception cref="TimeoutException">The program did not end within <paramref name="timeout"/>.</exception>
        public static int Run(byte[] image, TimeSpan timeout)
        {
            var context = new AssemblyLoadContext("DocumentationSnippet", isCollectible: true);
            try
            {
                MethodInfo entry = context.LoadFromStream(new MemoryStream(image)).EntryPoint
                    ?? throw new InvalidOperationException("the snippet has no entry point");
                int exitCode = 0;
                ExceptionDispatchInfo? failure = null;
                // A background thread: a snippet that blocks forever fails the test without keeping the process alive.
                var thread = new Thread(() =>
                {
                    try
                    {
                        object?[] arguments = entry.GetParameters().Length == 0 ? Array.Empty<object?>() : new object?[] { Array.Empty<string>() };
                        object? result = entry.Invoke(null, arguments);
                        exitCode = result switch
                        {
                            Task<int> task => task.GetAwaiter().GetResult(),
                            Task task => Completed(task),
                            int code => code,
                            _ => 0,
                        };
                    }
                    catch (Exception e)
                    {
                        failure = ExceptionDispatchInfo.Capture(e is TargetInvocationException { InnerException: { } inner } ? inner : e);
                    }
                })
                { IsBackground = true, Name = "documentation snippet" };
                thread.Start();
                if (!thread.Join(timeout))
                {
                    throw new TimeoutException("the snippet did not end within " + timeout);
                }

                failure?.Throw();
                return exitCode;
            }
            finally
            {
                context.Unload();
            }
        }

        private static int Completed(Task task)
        {
            task.GetAwaiter().GetResult();
            return 0;
        }
    }
}
