namespace NetZeroMQ
{
    /// <summary>Where the path or name of the libzmq that was loaded (or failed to load) came from.</summary>
    internal enum LibzmqSource
    {
        /// <summary><c>Libzmq.LibraryPath</c>, set by the application.</summary>
        LibraryPath,

        /// <summary>The <c>NETZEROMQ_LIBZMQ</c> environment variable.</summary>
        EnvironmentVariable,

        /// <summary>The search of the package folders and the system names, used when no explicit path is given.</summary>
        Search,
    }
}
