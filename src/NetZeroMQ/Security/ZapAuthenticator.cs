using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ
{
    /// <summary>
    /// A ZAP handler (RFC 27) for one <see cref="Context"/>: on its own thread it answers libzmq's authentication requests for
    /// every socket of that context that has a ZAP domain, by the rules of a <see cref="ZapPolicy"/>. Only one can run per
    /// context (libzmq looks for the handler at <see cref="Endpoint"/>).
    /// See <see href="https://rfc.zeromq.org/spec/27/">RFC 27</see> and <see href="http://api.zeromq.org/4-3:zmq-curve">zmq_curve</see>.
    /// </summary>
    /// <remarks>
    /// <para><b>Defaults: deny.</b> A new authenticator accepts nobody. Accept clients by key
    /// (<see cref="AllowCurveKey"/>), by user name and password (<see cref="AddPlainUser"/>), by callback, by address
    /// (<see cref="AllowAddress"/> with NULL), or any CURVE client explicitly (<see cref="AllowAnyCurveClient"/>). A callback
    /// that throws, returns <c>default</c> or takes longer than <see cref="CallbackTimeout"/>, a malformed request and an
    /// unknown mechanism are all denials (500 or 400), never an allow.</para>
    /// <para><b>Which sockets.</b> libzmq 4.3 asks the handler about every CURVE and PLAIN connection and about NULL connections
    /// of sockets with a ZAP domain. The server setters of <see cref="SocketSecurityExtensions"/> also set
    /// ZapEnforceDomain, so that their connections are rejected while no authenticator runs (before it starts, after it is
    /// disposed). The user id of an allowed peer reaches receivers as <see cref="Message.UserId"/>.</para>
    /// <para><b>Lifetime.</b> Start it before the servers accept connections; keep it until they are closed. <see cref="Dispose"/>
    /// never hangs: the handler thread notices it within 50 ms, releases <see cref="Endpoint"/> and closes its socket; Dispose
    /// waits for that at most <see cref="DisposeWait"/> (a callback still running then is abandoned, its answer discarded).
    /// When Dispose returns, new handshakes on enforced domains are rejected at once; handshakes that were waiting for an
    /// answer are rejected when their handshake interval expires. Disposing the context also ends the authenticator's thread.
    /// Stored passwords are cleared on dispose.</para>
    /// <para><b>Threading.</b> Configuration methods and <see cref="Dispose"/> may be called from any thread.
    /// <see cref="Decided"/> handlers and callbacks run on other threads than the caller's.</para>
    /// </remarks>
    public sealed class ZapAuthenticator : IDisposable
    {
        /// <summary>Where libzmq looks for the ZAP handler of a context (fixed by RFC 27).</summary>
        public const string Endpoint = "inproc://zeromq.zap.01";

        /// <summary>How long <see cref="Dispose"/> waits for the handler thread to finish.</summary>
        public static readonly TimeSpan DisposeWait = TimeSpan.FromSeconds(2);

        /// <summary>How often the handler thread checks whether it was disposed while no request comes (milliseconds).</summary>
        private const int PollInterval = 50;

        /// <summary>How long the constructor retries binding while the endpoint of a disposed authenticator is being released.</summary>
        private static readonly TimeSpan RebindWait = TimeSpan.FromSeconds(1);

        private static readonly byte[] s_version = Encoding.ASCII.GetBytes("1.0");

        /// <summary>The authenticator of each context, so that a second one fails at once instead of after <see cref="RebindWait"/>.</summary>
        private static readonly ConditionalWeakTable<Context, ZapAuthenticator> s_active = new ConditionalWeakTable<Context, ZapAuthenticator>();

        private readonly object _sync = new object();
        private readonly Dictionary<string, ZapPolicy> _domains = new Dictionary<string, ZapPolicy>(StringComparer.Ordinal);
        private readonly Socket _socket;
        private readonly Thread _thread;
        private TimeSpan _callbackTimeout = TimeSpan.FromSeconds(5);
        private int _disposed;
        private volatile Exception? _fault;
        private volatile bool _stopping;

        /// <summary>Binds the handler socket at <see cref="Endpoint"/> in <paramref name="context"/> and starts its thread.
        /// The authenticator denies everything until configured.</summary>
        /// <param name="context">The context whose sockets it serves.</param>
        /// <exception cref="ArgumentNullException"><paramref name="context"/> is null.</exception>
        /// <exception cref="InvalidOperationException">The context already has a ZAP handler (another authenticator, or a
        /// socket of the application's own bound at <see cref="Endpoint"/>; the latter is known only after retrying for one
        /// second, in case it was an authenticator disposed a moment ago).</exception>
        /// <exception cref="ObjectDisposedException">The context was disposed.</exception>
        /// <exception cref="ZmqException">libzmq refused otherwise.</exception>
        public ZapAuthenticator(Context context)
        {
            Context = context ?? throw new ArgumentNullException(nameof(context));
            DefaultPolicy = new ZapPolicy(_sync, domain: null);
            lock (s_active)
            {
                if (s_active.TryGetValue(context, out ZapAuthenticator? running) && !running.IsDisposed)
                {
                    throw AlreadyHandled(null);
                }

                _socket = new Socket(context, SocketType.Rep);
                try
                {
                    _socket.Linger = TimeSpan.Zero;
                    BindHandler(_socket);
                }
                catch
                {
                    _socket.Dispose();
                    throw;
                }

                s_active.Remove(context);
                s_active.Add(context, this);
            }

            _thread = new Thread(Run) { IsBackground = true, Name = "NetZeroMQ ZAP handler" };
            _thread.Start();
        }

        /// <summary>Reports every answer sent, on the handler thread (keep handlers short: they delay authentication).
        /// Exceptions thrown by handlers are ignored. The request's password is cleared when the handlers return.</summary>
        public event EventHandler<ZapDecisionEventArgs>? Decided;

        /// <summary>The context this authenticator serves.</summary>
        public Context Context { get; }

        /// <summary>The policy for every domain that has none of its own (see <see cref="ForDomain(string)"/>). Denies everything
        /// until configured.</summary>
        public ZapPolicy DefaultPolicy { get; }

        /// <summary>How long a PLAIN or CURVE callback may take before the request is denied (500); 5 seconds by default. Keep
        /// it below the sockets' <see cref="SocketOptions.HandshakeInterval"/> (30 s by default).</summary>
        /// <exception cref="ArgumentOutOfRangeException">Not positive.</exception>
        public TimeSpan CallbackTimeout
        {
            get => _callbackTimeout;
            set
            {
                if (value <= TimeSpan.Zero || value.TotalMilliseconds > int.MaxValue)
                {
                    throw new ArgumentOutOfRangeException(nameof(value), value, "The callback timeout must be positive and finite.");
                }

                _callbackTimeout = value;
            }
        }

        /// <summary>Whether <see cref="Dispose"/> has been called.</summary>
        public bool IsDisposed => Volatile.Read(ref _disposed) != 0;

        /// <summary>Whether the handler thread is answering requests (false once disposed, after the context was shut down or
        /// disposed, or after an unexpected failure, see <see cref="Fault"/>).</summary>
        public bool IsRunning => _thread.IsAlive && !IsDisposed && !_socket.IsDisposed;


        /// <summary>The exception that stopped the handler thread unexpectedly, or null. After such a failure the handler
        /// socket is closed, so sockets with an enforced ZAP domain reject every client.</summary>
        public Exception? Fault => _fault;

        /// <summary>The policy for <paramref name="domain"/>, created empty (deny everything) on first use. A domain with a
        /// policy of its own does not use <see cref="DefaultPolicy"/>.</summary>
        /// <param name="domain">The ZAP domain, as set on the server sockets.</param>
        /// <returns>The domain's policy.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="domain"/> is null.</exception>
        /// <exception cref="ObjectDisposedException">The authenticator was disposed.</exception>
        public ZapPolicy ForDomain(string domain)
        {
            if (domain is null)
            {
                throw new ArgumentNullException(nameof(domain));
            }

            lock (_sync)
            {
                if (IsDisposed)
                {
                    ZmqThrow.Disposed(this);
                }

                if (!_domains.TryGetValue(domain, out ZapPolicy? policy))
                {
                    policy = new ZapPolicy(_sync, domain);
                    _domains.Add(domain, policy);
                }

                return policy;
            }
        }

        /// <inheritdoc cref="ZapPolicy.AllowAddress(string)"/>
        public ZapAuthenticator AllowAddress(string address) => Configure(DefaultPolicy.AllowAddress(address));

        /// <inheritdoc cref="ZapPolicy.DenyAddress(string)"/>
        public ZapAuthenticator DenyAddress(string address) => Configure(DefaultPolicy.DenyAddress(address));

        /// <inheritdoc cref="ZapPolicy.AllowNullMechanism"/>
        public ZapAuthenticator AllowNullMechanism() => Configure(DefaultPolicy.AllowNullMechanism());

        /// <inheritdoc cref="ZapPolicy.AddPlainUser(string, string, string?)"/>
        public ZapAuthenticator AddPlainUser(string username, string password, string? userId = null) =>
            Configure(DefaultPolicy.AddPlainUser(username, password, userId));

        /// <inheritdoc cref="ZapPolicy.SetPlainCallback(Func{ZapRequest, ZapDecision}?)"/>
        public ZapAuthenticator SetPlainCallback(Func<ZapRequest, ZapDecision>? callback) => Configure(DefaultPolicy.SetPlainCallback(callback));

        /// <inheritdoc cref="ZapPolicy.AllowCurveKey(CurveKey, string?)"/>
        public ZapAuthenticator AllowCurveKey(CurveKey clientKey, string? userId = null) => Configure(DefaultPolicy.AllowCurveKey(clientKey, userId));

        /// <inheritdoc cref="ZapPolicy.SetCurveCallback(Func{ZapRequest, ZapDecision}?)"/>
        public ZapAuthenticator SetCurveCallback(Func<ZapRequest, ZapDecision>? callback) => Configure(DefaultPolicy.SetCurveCallback(callback));

        /// <inheritdoc cref="ZapPolicy.AllowAnyCurveClient"/>
        public ZapAuthenticator AllowAnyCurveClient() => Configure(DefaultPolicy.AllowAnyCurveClient());

        /// <summary>Stops answering: the handler thread unbinds <see cref="Endpoint"/> and closes its socket (within 50 ms when
        /// idle); waits for that at most <see cref="DisposeWait"/>, then clears stored passwords. Connections already admitted stay; new ones to sockets with an
        /// enforced ZAP domain are rejected from then on. Callable from any thread, more than once.</summary>
        public void Dispose()
        {
            if (Interlocked.Exchange(ref _disposed, 1) != 0)
            {
                return;
            }

            _stopping = true;
            if (Thread.CurrentThread != _thread && !_thread.Join(DisposeWait))
            {
                // The thread is stuck in a callback: close the socket from here (its name is then released by libzmq's
                // reaper, shortly after); the thread ends when the callback returns.
                _socket.Dispose();
            }

            DefaultPolicy.ClearSecrets();
            lock (_sync)
            {
                foreach (ZapPolicy policy in _domains.Values)
                {
                    policy.ClearSecrets();
                }
            }
        }

        /// <inheritdoc/>
        public override string ToString() =>
            "ZapAuthenticator(" + Endpoint + (IsDisposed ? ", disposed)" : IsRunning ? ", running)" : ", stopped)");

        /// <summary>The policy call in the argument has applied the change already; this returns the authenticator for chaining.</summary>
        private ZapAuthenticator Configure(ZapPolicy policy) => this;

        private static InvalidOperationException AlreadyHandled(Exception? inner) => new InvalidOperationException(
            "This context already has a ZAP handler at " + Endpoint + " (another ZapAuthenticator, or a socket bound there): " +
            "a context has at most one.", inner);

        /// <summary>
        /// Binds the handler endpoint. libzmq releases an inproc endpoint when the reaper thread destroys the closed socket,
        /// shortly after <c>zmq_close</c>; so right after a previous authenticator of this context was disposed, the bind is
        /// retried for up to <see cref="RebindWait"/>. A live authenticator was ruled out before (see the constructor).
        /// </summary>
        private static void BindHandler(Socket socket)
        {
            Deadline rebind = Deadline.After(RebindWait);
            while (true)
            {
                try
                {
                    socket.Bind(Endpoint);
                    return;
                }
                catch (ZmqException e)
                {
                    // Decided here, not in a 'when' filter: src/NetZeroMQ/README.md, "Exception filters".
                    if (e.Error != ZmqError.AddressInUse)
                    {
                        throw;
                    }

                    if (rebind.IsExpired)
                    {
                        throw AlreadyHandled(e);
                    }

                    Thread.Sleep(5);
                }
            }
        }

        /// <summary>
        /// The handler loop: polls with a short timeout so that it notices <see cref="Dispose"/> itself, and then unbinds
        /// <see cref="Endpoint"/> before closing the socket. The unbind matters: libzmq releases an inproc name synchronously
        /// on unbind but only later (on its reaper thread) on close, and a handshake that starts in between connects to the
        /// closing handler and waits for the whole handshake interval instead of being rejected at once.
        /// </summary>
        private void Run()
        {
            var request = new MultipartMessage();
            var poller = new Poller();
            try
            {
                poller.Add(_socket, PollEvents.In);
                while (!_stopping)
                {
                    if (poller.Poll(PollInterval) == 0 || !_socket.TryRecvMultipart(request))
                    {
                        continue;
                    }

                    byte[][] reply = Answer(request);
                    _socket.SendMultipart(reply);
                }

                _socket.Unbind(Endpoint);
                _socket.Dispose();
            }
            catch (ObjectDisposedException) when (_socket.IsDisposed)
            {
                // Dispose gave up waiting (a callback ran past DisposeWait) or the context was disposed.
            }
            catch (ZmqException e) when (e.Error == ZmqError.ContextTerminated)
            {
                // The context is being disposed; it closes the socket.
            }
            catch (Exception e)
            {
                // Unexpected: stop answering and close the socket, so that enforced domains reject instead of waiting.
                _fault = e;
                _socket.Dispose();
            }
            finally
            {
                poller.Dispose();
                request.Dispose();
            }
        }

        /// <summary>Builds the reply to one request; any failure of ours becomes a 500, never an allow.</summary>
        private byte[][] Answer(MultipartMessage frames)
        {
            byte[] requestId = frames.Count >= 2 ? frames[1].ToArray() : Array.Empty<byte>();
            ZapRequest? request = null;
            ZapDecision decision;
            try
            {
                request = Parse(frames, out decision);
                if (request is not null)
                {
                    decision = PolicyFor(request.Domain).Decide(request, RunCallback);
                    if (decision.StatusCode == 0)
                    {
                        decision = ZapDecision.InternalError("No decision");
                    }
                }
            }
            catch (Exception)
            {
                decision = ZapDecision.InternalError();
            }

            Record(request, decision);
            try
            {
                Decided?.Invoke(this, new ZapDecisionEventArgs(request, decision));
            }
            catch (Exception)
            {
                // A handler's failure changes nothing about the answer.
            }
            finally
            {
                request?.ClearSecrets();
                if (frames.Count >= 8)
                {
                    frames[7].ClearContent(); // the PLAIN password, in libzmq's buffer
                }
            }

            return new[]
            {
                s_version,
                requestId,
                Encoding.ASCII.GetBytes(decision.StatusCode.ToString(System.Globalization.CultureInfo.InvariantCulture)),
                Encoding.UTF8.GetBytes(decision.StatusText),
                decision.IsAllowed ? Encoding.UTF8.GetBytes(decision.UserId) : Array.Empty<byte>(),
                Array.Empty<byte>(), // metadata: none
            };
        }

        /// <summary>Counts the decision for the metrics, and writes a denial to the NetZeroMQ event source.</summary>
        private static void Record(ZapRequest? request, ZapDecision decision)
        {
            TelemetryCounters.ZapDecision(request?.Mechanism, decision.IsAllowed);
            if (!decision.IsAllowed && NetZeroMQEventSource.Log.IsEnabled())
            {
                NetZeroMQEventSource.Log.AuthenticationDenied(
                    request?.Mechanism ?? "unknown", request?.Address ?? string.Empty, request?.Domain ?? string.Empty, decision.StatusCode);
            }
        }

        /// <summary>Reads the frames of RFC 27; returns null with a 400 for anything malformed or unsupported.</summary>
        private static ZapRequest? Parse(MultipartMessage frames, out ZapDecision failure)
        {
            failure = ZapDecision.Deny("Malformed request");
            if (frames.Count < 6 || !frames[0].ContentEquals(s_version))
            {
                return null;
            }

            string domain = frames[2].GetString();
            string address = frames[3].GetString();
            byte[] identity = frames[4].ToArray();
            string mechanism = frames[5].GetString();
            switch (mechanism)
            {
                case "NULL" when frames.Count == 6:
                    return new ZapRequest(domain, address, identity, mechanism, null, null, null);

                case "PLAIN" when frames.Count == 8:
                    return new ZapRequest(domain, address, identity, mechanism, frames[6].GetString(), frames[7].ToArray(), null);

                case "CURVE" when frames.Count == 7 && frames[6].Size == CurveKey.Size:
                    Span<byte> key = stackalloc byte[CurveKey.Size];
                    frames[6].CopyTo(key);
                    return new ZapRequest(domain, address, identity, mechanism, null, null, CurveKey.FromBytes(key));

                case "NULL":
                case "PLAIN":
                case "CURVE":
                    return null;

                default:
                    failure = ZapDecision.Deny("Unsupported mechanism");
                    return null;
            }
        }

        private ZapPolicy PolicyFor(string domain)
        {
            lock (_sync)
            {
                return _domains.TryGetValue(domain, out ZapPolicy? policy) ? policy : DefaultPolicy;
            }
        }

        /// <summary>Runs a callback on the thread pool, bounded by <see cref="CallbackTimeout"/>; failure of any kind denies.</summary>
        private ZapDecision RunCallback(Func<ZapRequest, ZapDecision> callback, ZapRequest request)
        {
            try
            {
                Task<ZapDecision> task = Task.Run(() => callback(request));
                if (!task.Wait(_callbackTimeout))
                {
                    // Observe a late failure so it is not reported as unobserved; its answer is discarded.
                    task.ContinueWith(t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
                    return ZapDecision.InternalError("Callback timed out");
                }

                ZapDecision decision = task.Result;
                return decision.StatusCode == 0 ? ZapDecision.InternalError("Callback gave no decision") : decision;
            }
            catch (Exception)
            {
                return ZapDecision.InternalError("Callback failed");
            }
        }
    }
}
