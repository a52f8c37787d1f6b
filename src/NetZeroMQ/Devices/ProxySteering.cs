using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ
{
    /// <summary>A command of a <see cref="SteerableProxy"/>, taken by its loop between two messages.</summary>
    internal enum ProxyCommand
    {
        None,
        Pause,
        Resume,
        Terminate,
        Statistics,
    }

    /// <summary>Where a steerable proxy is in its one life.</summary>
    internal enum ProxyState
    {
        /// <summary>Nothing has claimed it yet; commands set how it will start.</summary>
        NotStarted,

        /// <summary>Run has claimed it and is taking its sockets' guards; commands still set how it will start.</summary>
        Starting,

        /// <summary>The loop runs: commands go to it and are answered by it.</summary>
        Running,

        /// <summary>The loop has ended and released the sockets (terminated, context shut down, or failed).</summary>
        Finished,
    }

    /// <summary>
    /// The exchange between the threads that steer a proxy and the loop that runs it: the state machine of its life, the one
    /// pending command, and the loop's answer. Every field is read and written under <see cref="_sync"/>; a caller waits on it
    /// for the loop's answer (<see cref="Monitor.Wait(object, int)"/>), and the loop pulses it when it answers or ends.
    /// </summary>
    /// <remarks>
    /// 1. A caller (one at a time: <see cref="SteerableProxy"/> serialises them) hands a command over with <see cref="TryIssue"/>,
    ///    which gives it a ticket, then wakes the loop with a frame on the control socket.
    /// 2. The loop, woken, drains the control socket and takes the command with <see cref="Take"/>, acts on it between two
    ///    messages, and reports it done with <see cref="Complete"/>.
    /// 3. The caller returns once its ticket is done (<see cref="WaitCompleted"/>) or the loop has ended
    ///    (<see cref="WaitFinished"/>, what <c>Terminate</c> waits for, so that the sockets are free when it returns).
    /// A command given before the loop runs is not sent: it sets how the loop starts (paused, or terminated at once).
    /// A command whose caller stopped waiting (a statistics timeout) may be replaced by the next one; the tickets keep an old
    /// answer from being taken for a new one.
    /// </remarks>
    internal sealed class ProxySteering
    {
        /// <summary>Guards every field below; the monitor callers wait on.</summary>
        private readonly object _sync = new object();

        /// <summary>Where the proxy is in its life; moves only forward (NotStarted, Starting, Running, Finished).</summary>
        private ProxyState _state;

        /// <summary>Before the loop runs: whether it starts paused (the last Pause or Resume given before it ran).</summary>
        private bool _startPaused;

        /// <summary>Before the loop runs: whether Terminate was given, so that the loop ends as soon as it starts.</summary>
        private bool _terminateAtStart;

        /// <summary>The command waiting for the loop, or None.</summary>
        private ProxyCommand _pending;

        /// <summary>The ticket of the last command issued (1, 2, ...).</summary>
        private long _issued;

        /// <summary>The ticket of the last command the loop completed.</summary>
        private long _completed;

        /// <summary>The loop's answer to the statistics command of ticket <see cref="_completed"/>, or null.</summary>
        private ProxyStatistics? _statistics;

        /// <summary>Where the proxy is in its life now.</summary>
        internal ProxyState State
        {
            get
            {
                lock (_sync)
                {
                    return _state;
                }
            }
        }

        /// <summary>Claims the proxy for a run: false if it was claimed before (it runs once).</summary>
        internal bool TryClaim()
        {
            lock (_sync)
            {
                if (_state != ProxyState.NotStarted)
                {
                    return false;
                }

                _state = ProxyState.Starting;
                return true;
            }
        }

        /// <summary>
        /// Caller: hands <paramref name="command"/> to the running loop and returns true with its ticket (the caller then wakes
        /// the loop), or returns false when there is no loop to send it to: before the loop runs the command sets how it will
        /// start (Pause, Resume, Terminate; Statistics does nothing), and after it ended every command does nothing.
        /// </summary>
        internal bool TryIssue(ProxyCommand command, out long ticket)
        {
            Debug.Assert(command != ProxyCommand.None, "a command is issued");
            lock (_sync)
            {
                ticket = 0;
                switch (_state)
                {
                    case ProxyState.NotStarted:
                    case ProxyState.Starting:
                        if (command == ProxyCommand.Terminate)
                        {
                            _terminateAtStart = true;
                        }
                        else if (command != ProxyCommand.Statistics)
                        {
                            _startPaused = command == ProxyCommand.Pause;
                        }

                        return false;
                    case ProxyState.Running:
                        _pending = command;
                        ticket = ++_issued;
                        return true;
                    default:
                        return false;
                }
            }
        }

        /// <summary>
        /// Caller: waits until the loop has completed <paramref name="ticket"/> (true, with the statistics it answered if the
        /// command asked for them) or has ended without completing it (false); throws a timeout after
        /// <paramref name="milliseconds"/> (-1: no limit).
        /// </summary>
        internal bool WaitCompleted(long ticket, int milliseconds, string operation, out ProxyStatistics? statistics)
        {
            Deadline deadline = Deadline.After(milliseconds);
            lock (_sync)
            {
                while (_completed < ticket && _state != ProxyState.Finished)
                {
                    if (!Monitor.Wait(_sync, deadline.RemainingMilliseconds))
                    {
                        ZmqThrow.Timeout(operation);
                    }
                }

                statistics = _completed == ticket ? _statistics : null;
                return _completed >= ticket;
            }
        }

        /// <summary>Caller: waits until the loop runs or has ended (the end of a start).</summary>
        internal void WaitStarted()
        {
            lock (_sync)
            {
                while (_state < ProxyState.Running)
                {
                    Monitor.Wait(_sync);
                }
            }
        }

        /// <summary>Caller: waits until the loop has ended and released the sockets; false if <paramref name="milliseconds"/>
        /// passed first (-1: no limit).</summary>
        internal bool WaitFinished(int milliseconds)
        {
            Deadline deadline = Deadline.After(milliseconds);
            lock (_sync)
            {
                while (_state != ProxyState.Finished)
                {
                    if (!Monitor.Wait(_sync, deadline.RemainingMilliseconds))
                    {
                        return false;
                    }
                }

                return true;
            }
        }

        /// <summary>
        /// Loop: the sockets are held; runs unless Terminate came first (false: the loop ends at once). <paramref name="paused"/>
        /// is how it starts.
        /// </summary>
        internal bool TryEnterRunning(out bool paused)
        {
            lock (_sync)
            {
                Debug.Assert(_state == ProxyState.Starting, "the loop enters Running once, from Starting");
                paused = _startPaused;
                if (_terminateAtStart)
                {
                    return false;
                }

                _state = ProxyState.Running;
                Monitor.PulseAll(_sync);
                return true;
            }
        }

        /// <summary>Loop: the pending command (None if there is none) and its ticket; the command is no longer pending.</summary>
        internal ProxyCommand Take(out long ticket)
        {
            lock (_sync)
            {
                Debug.Assert(_state == ProxyState.Running, "only the running loop takes commands");
                ProxyCommand command = _pending;
                _pending = ProxyCommand.None;
                ticket = _issued;
                return command;
            }
        }

        /// <summary>Loop: it has acted on the command of <paramref name="ticket"/> (and answered <paramref name="statistics"/>).</summary>
        internal void Complete(long ticket, ProxyStatistics? statistics)
        {
            lock (_sync)
            {
                Debug.Assert(ticket > _completed, "tickets complete in order");
                _completed = ticket;
                _statistics = statistics;
                Monitor.PulseAll(_sync);
            }
        }

        /// <summary>
        /// Loop: it has ended and released the sockets (or could not start); every waiter returns. <paramref name="completion"/>,
        /// the task of a proxy started on its own thread, completes with the state (faulted with <paramref name="failure"/>, if
        /// any), so that whoever sees the one ended sees the other ended too; its continuations run asynchronously, never here.
        /// </summary>
        internal void Finish(TaskCompletionSource<bool>? completion, Exception? failure)
        {
            lock (_sync)
            {
                _state = ProxyState.Finished;
                _pending = ProxyCommand.None;
                if (failure is not null)
                {
                    completion?.TrySetException(failure);
                }
                else
                {
                    completion?.TrySetResult(true);
                }

                Monitor.PulseAll(_sync);
            }
        }
    }
}
