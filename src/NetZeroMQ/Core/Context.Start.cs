using System.Collections.Generic;
using System.Threading;

namespace NetZeroMQ
{
    public sealed partial class Context
    {
        /// <summary>libzmq's number for ZMQ_THREAD_PRIORITY (write-only; the same number reads ZMQ_SOCKET_LIMIT).</summary>
        private const int ThreadPriorityOption = 3;

        // libzmq cannot read back the thread scheduling options (ZMQ_THREAD_PRIORITY shares its number with a read-only
        // option, the affinity set has no getter), so the context keeps what was set, for the check at the first socket.
        private readonly object _threadOptionsLock = new object();
        private readonly SortedSet<int> _affinityCpus = new SortedSet<int>();
        private int _threadPolicy = -1;
        private int _threadPriority = -1;
        private int _started;

        /// <summary>
        /// Called before each <c>zmq_socket</c>: until the context has a socket, checks that libzmq can start its threads with
        /// the options in force, and throws <see cref="System.InvalidOperationException"/> where libzmq would abort the process
        /// (see <see cref="ContextStart"/>). Costs two volatile reads once the context has started.
        /// A context that was shut down refuses the socket here, with libzmq's own ETERM: libzmq 4.3.3 and later refuse it
        /// themselves, but before 4.3.3 a context that never had a socket accepts new ones after <c>zmq_ctx_shutdown</c>
        /// (libzmq #3792), and the documented refusal must hold on every supported version.
        /// </summary>
        internal void ThrowIfCannotStart()
        {
            if (IsShutdown && !IsDisposed) // a disposed context throws ObjectDisposedException, as before
            {
                throw ZmqThrow.Create(
                    ErrorMap.ETERM, "zmq_socket", detail: "the context was shut down (Context.Shutdown), and a shut-down context makes no new socket");
            }

            if (Volatile.Read(ref _started) != 0)
            {
                return;
            }

            int policy;
            int priority;
            int[] cpus;
            lock (_threadOptionsLock)
            {
                policy = _threadPolicy;
                priority = _threadPriority;
                cpus = new int[_affinityCpus.Count];
                _affinityCpus.CopyTo(cpus);
            }

            ContextStart.ThrowIfCannotStart(this, policy, priority, cpus);
        }

        /// <summary>Records that a socket exists: libzmq has started its threads and reads the thread options no more.</summary>
        private void MarkStarted() => Volatile.Write(ref _started, 1);

        /// <summary>Keeps a copy of the thread options libzmq accepted (it cannot give them back).</summary>
        private void Remember(int option, int value)
        {
            lock (_threadOptionsLock)
            {
                switch (option)
                {
                    case ContextOptions.ThreadSchedulingPolicyId:
                        _threadPolicy = value;
                        break;
                    case ThreadPriorityOption:
                        _threadPriority = value;
                        break;
                    case ContextOptions.ThreadAffinityCpuAddId:
                        _affinityCpus.Add(value);
                        break;
                    case ContextOptions.ThreadAffinityCpuRemoveId:
                        _affinityCpus.Remove(value);
                        break;
                }
            }
        }
    }
}
