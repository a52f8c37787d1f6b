using System;
using System.IO;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>Locates files of this repository from the test's output folder.</summary>
    public static class Repository
    {
        /// <summary>The folder that holds NetZeroMQ.sln.</summary>
        public static string Root { get; } = FindRoot();

        private static string FindRoot()
        {
            string? dir = AppContext.BaseDirectory;
            while (dir is not null && !File.Exists(Path.Combine(dir, "NetZeroMQ.sln")))
            {
                dir = Path.GetDirectoryName(dir);
            }

            return dir ?? throw new InvalidOperationException("NetZeroMQ.sln not found above " + AppContext.BaseDirectory);
        }
    }
}
