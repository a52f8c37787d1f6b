using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// The hosted service behind <c>AddSocketWorker&lt;THandler&gt;(name)</c>: creates the named socket, receives in an
    /// async loop and hands each message to the handler. One awaited receive, top to bottom:
    /// 1. on the host's start: create the socket from configuration (bind/connect, CURVE, peers tracked) and the handler;
    /// 2. await the next multipart message (<c>RecvMultipartAsync</c> with the stopping token);
    ///    it ends with the stopping token, or with <see cref="ZmqError.ContextTerminated"/> once the host began to stop
    ///    (the context's shutdown) — both end the loop; any other error ends it too, logged, and the health check turns
    ///    Unhealthy (this is how a stopped async reactor shows);
    /// 3. if the socket carries trace context: remove the trailing trace frame (a malformed one is logged, never thrown);
    /// 4. start the consumer span (only when a listener samples it) and call the handler with the stopping token;
    /// 5. a handler that throws: log and go on, or log and stop the host (<see cref="SocketDefinition.HandlerErrors"/>);
    /// 6. clear the frames and loop; on the way out dispose the socket (its linger bounds how long queued replies may wait).
    /// </summary>
    internal sealed class SocketWorker<THandler> : BackgroundService
        where THandler : class, ISocketHandler
    {
        private readonly string _name;
        private readonly IServiceProvider _services;
        private NetZeroMQRuntime? _runtime;       // set by StartAsync, before the loop runs
        private THandler? _handler;               // made by StartAsync
        private Socket? _socket;                  // created by StartAsync, disposed by the loop as it ends
        private string? _destination;             // the socket's endpoint, read by StartAsync while the context runs
        private int _closer;                      // who closes the socket: NobodyYet, then TheLoop or TheStop (one wins)

        private const int NobodyYet = 0;
        private const int TheLoop = 1;
        private const int TheStop = 2;

        public SocketWorker(string name, IServiceProvider services)
        {
            _name = name;
            _services = services;
        }

        /// <summary>
        /// Step 1, on the host's start: a socket that cannot be created (an endpoint in use, say) fails the start with its
        /// exception, and once the host has started the socket is bound (its <see cref="SocketPeers.LastEndpoint"/> known).
        /// </summary>
        public override Task StartAsync(CancellationToken cancellationToken)
        {
            _runtime = _services.GetRequiredService<NetZeroMQRuntime>();
            _handler = _services.GetRequiredService<THandler>();
            _socket = _services.GetRequiredService<SocketFactory>().Create(_name);
            _destination = _socket.LastEndpoint;
            Log.WorkerStarted(_runtime.Logger, _name, _socket.Type, _destination);
            return base.StartAsync(cancellationToken);
        }

        protected override async Task ExecuteAsync(CancellationToken stoppingToken)
        {
            // Off the host's start: StartAsync returns at the first await, so a worker never delays the other services.
            await Task.Yield();
            if (Interlocked.CompareExchange(ref _closer, TheLoop, NobodyYet) != NobodyYet)
            {
                return; // the host stopped before the loop ran: StopAsync closed the socket
            }

            NetZeroMQRuntime runtime = _runtime!;
            THandler handler = _handler!;
            Socket socket = _socket!;
            long handled = 0;
            try
            {
                // Nothing here may read the socket: the host may already be stopping when this first runs (the context shut
                // down, so a socket read fails with ContextTerminated), and the socket must still be closed and the stop logged.
                SocketDefinition definition = runtime.Options.Sockets[_name];
                string destination = _destination!;
                using var frames = new MultipartMessage();
                var message = new SocketMessage(_name, socket, frames);
                while (!stoppingToken.IsCancellationRequested)
                {
                    try
                    {
                        await socket.RecvMultipartAsync(frames, stoppingToken).ConfigureAwait(false);
                    }
                    catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
                    {
                        break;
                    }
                    catch (ZmqException e) when (e.Error == ZmqError.ContextTerminated)
                    {
                        break;
                    }
                    catch (ObjectDisposedException) when (runtime.HasStopped)
                    {
                        break;
                    }
                    catch (Exception e)
                    {
                        runtime.ReportFault(_name, e);
                        Log.ReceiveLoopFailed(runtime.Logger, _name, e);
                        break;
                    }

                    try
                    {
                        if (await HandleAsync(runtime, definition, handler, message, destination, stoppingToken).ConfigureAwait(false))
                        {
                            break;
                        }

                        handled++;
                    }
                    finally
                    {
                        frames.Clear();
                    }
                }
            }
            finally
            {
                try
                {
                    socket.Dispose();
                }
                finally
                {
                    // Logged even if closing failed: the record says the worker is gone, which it is.
                    Log.WorkerStopped(runtime.Logger, _name, handled);
                }
            }
        }

        /// <summary>
        /// Ends the loop (the base class cancels it and waits for it). A loop that never ran, because the host stopped before
        /// the thread pool started it (the Generic Host does not start a worker whose token is already cancelled), still has
        /// its socket closed and its stop logged here, exactly once.
        /// </summary>
        public override async Task StopAsync(CancellationToken cancellationToken)
        {
            await base.StopAsync(cancellationToken).ConfigureAwait(false);
            if (_socket is not null && Interlocked.CompareExchange(ref _closer, TheStop, NobodyYet) == NobodyYet)
            {
                try
                {
                    _socket.Dispose();
                }
                finally
                {
                    Log.WorkerStopped(_runtime!.Logger, _name, 0);
                }
            }
        }

        /// <summary>Steps 3 to 5; true when the loop must end (the host is stopping because of the handler).</summary>
        private async ValueTask<bool> HandleAsync(
            NetZeroMQRuntime runtime, SocketDefinition definition, THandler handler, SocketMessage message, string destination, CancellationToken stoppingToken)
        {
            ActivityContext parent = default;
            if (definition.TraceContext)
            {
                TraceFrameStatus status = TraceContextFrame.Extract(message.Frames, out parent);
                if (status == TraceFrameStatus.Malformed)
                {
                    Log.TraceFrameMalformed(runtime.Logger, _name, "not a W3C traceparent");
                }
            }

            message.ParentContext = parent;
            using Activity? activity = ZmqTracing.StartProcess(destination, parent, message.Frames);
            try
            {
                await handler.HandleAsync(message, stoppingToken).ConfigureAwait(false);
                return false;
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return true;
            }
            catch (Exception e)
            {
                activity?.SetStatus(ActivityStatusCode.Error, e.Message);
                if (definition.HandlerErrors == HandlerErrorPolicy.StopHost)
                {
                    Log.HandlerFailedStoppingHost(runtime.Logger, _name, e);
                    _services.GetRequiredService<IHostApplicationLifetime>().StopApplication();
                    return true;
                }

                Log.HandlerFailed(runtime.Logger, _name, e);
                return false;
            }
        }
    }
}
