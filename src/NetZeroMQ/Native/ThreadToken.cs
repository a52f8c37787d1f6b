using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NetZeroMQ
{
    /// <summary>
    /// A number that names the calling thread, unique for the life of the process, for the usage guard's biased mode. Read on
    /// every claim of a biased object, so it is one thread-static read: <c>Environment.CurrentManagedThreadId</c> is a call into CoreLib on each read in a
    /// NativeAOT build, more than the per-message instruction budgets allow (benchmarks/instructions/budgets.txt), and managed thread ids are
    /// reused after a thread ends, which a token never is.
    /// </summary>
    internal static class ThreadToken
    {
        [ThreadStatic]
        private static int t_token;

        private static int s_last;

        /// <summary>The calling thread's token (never 0).</summary>
        internal static int Current
        {
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            get
            {
                int token = t_token;
                return token != 0 ? token : Assign();
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static int Assign()
        {
            int token;
            do
            {
                token = Interlocked.Increment(ref s_last);
            }
            while (token == 0);

            t_token = token;
            return token;
        }
    }
}
