using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// NetZeroMQ's spans: the <see cref="ActivitySource"/> <c>NetZeroMQ</c> (<see cref="ActivitySourceName"/>), a producer
    /// span on a traced send (<see cref="SendTracedAsync"/>) and a consumer span around a socket worker's handler, named and
    /// tagged after OpenTelemetry's messaging semantic conventions (<c>messaging.system = zeromq</c>,
    /// <c>messaging.operation.name</c> <c>send</c>/<c>process</c>, <c>messaging.destination.name</c> = the endpoint).
    /// </summary>
    /// <remarks>
    /// With no listener on the source (no tracing SDK, or one that does not subscribe to <c>NetZeroMQ</c>) no span is
    /// created: <see cref="ActivitySource.StartActivity(string, ActivityKind)"/> is one check and returns null, and nothing is
    /// allocated. The trace frame is added only by the traced send, and only when there is a span context to carry.
    /// </remarks>
    public static class ZmqTracing
    {
        /// <summary>The activity source's name, <c>NetZeroMQ</c>: <c>AddSource("NetZeroMQ")</c> in OpenTelemetry.</summary>
        public const string ActivitySourceName = "NetZeroMQ";

        /// <summary>The <c>messaging.system</c> value: <c>zeromq</c>.</summary>
        public const string MessagingSystem = "zeromq";

        internal static readonly ActivitySource Source = new ActivitySource(ActivitySourceName, typeof(ZmqTracing).Assembly.GetName().Version?.ToString());

        /// <summary>
        /// Sends <paramref name="message"/> with the current trace context in a trailing trace frame
        /// (<see cref="TraceContextFrame"/>), inside a producer span <c>send {destination}</c> when a listener samples it.
        /// Without a span and without a current activity, the message is sent as it is. With no listener on the source it costs
        /// the untraced send (<c>SendMultipartAsync</c>) one listener check and a read of <see cref="Activity.Current"/>, and
        /// its argument errors are thrown at the call, as that send's are.
        /// </summary>
        /// <param name="socket">The socket to send on.</param>
        /// <param name="message">The message; the trace frame is appended to it (and sent with it).</param>
        /// <param name="destination">The span's <c>messaging.destination.name</c>; null: the socket's last endpoint.</param>
        /// <param name="cancellationToken">Cancels the send.</param>
        /// <returns>A task that completes when the message was queued.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="socket"/> or <paramref name="message"/> is null.</exception>
        /// <exception cref="ArgumentException">The message has no frame.</exception>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static ValueTask SendTracedAsync(this Socket socket, MultipartMessage message, string? destination = null, CancellationToken cancellationToken = default)
        {
            // Inlined into the caller, so that with no listener the traced send is the untraced one plus a listener check and
            // a read of the current activity (benchmarks/instructions' traced path); SendMultipartAsync checks its arguments.
            if (Source.HasListeners())
            {
                return SendInSpan(socket, message, destination, cancellationToken);
            }

            // No listener, so no span: nothing to end or mark failed after the send, and the send's own task is returned without
            // an async state machine around it. The context carried is the application's current activity, if any, as NATS.Net
            // carries it with its own tracing off.
            if (Activity.Current is { } current)
            {
                InjectCurrent(socket, message, current);
            }

            return socket.SendMultipartAsync(message, cancellationToken);
        }

        /// <summary>Carries the application's activity (the arguments checked first, so that bad ones leave the message as it was).</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void InjectCurrent(Socket socket, MultipartMessage message, Activity current)
        {
            ArgumentNullException.ThrowIfNull(socket);
            ArgumentNullException.ThrowIfNull(message);
            TraceContextFrame.Inject(message, current.Context, current.TraceStateString);
        }

        /// <summary>
        /// The traced send when a listener may want its span: the arguments checked at the call (a message with no frame too, which
        /// the untraced send also refuses at the call), then the send in its span.
        /// </summary>
        private static ValueTask SendInSpan(Socket socket, MultipartMessage message, string? destination, CancellationToken cancellationToken)
        {
            ArgumentNullException.ThrowIfNull(socket);
            ArgumentNullException.ThrowIfNull(message);
            TraceContextFrame.ThrowIfNoFrames(message);
            return SendInSpanAsync(socket, message, destination, cancellationToken);
        }

        // The span starts inside this async method, so that its becoming Activity.Current stays inside the send (the method's
        // execution context is restored when it returns to the caller), as it ends here too.
        private static async ValueTask SendInSpanAsync(Socket socket, MultipartMessage message, string? destination, CancellationToken cancellationToken)
        {
            using Activity? activity = StartSend(socket, destination);
            if ((activity ?? Activity.Current) is { } carried)
            {
                TraceContextFrame.Inject(message, carried.Context, carried.TraceStateString);
            }

            try
            {
                await socket.SendMultipartAsync(message, cancellationToken).ConfigureAwait(false);
            }
            catch (Exception e)
            {
                activity?.SetStatus(ActivityStatusCode.Error, e.Message);
                throw;
            }
        }

        private static Activity? StartSend(Socket socket, string? destination)
        {
            if (!Source.HasListeners())
            {
                return null;
            }

            destination ??= socket.LastEndpoint;
            Activity? activity = Source.StartActivity("send " + destination, ActivityKind.Producer);
            if (activity is { IsAllDataRequested: true })
            {
                Tag(activity, "send", destination);
            }

            return activity;
        }

        /// <summary>The consumer span of a worker's handler, parented on the sender's context when one came (else a new trace).</summary>
        internal static Activity? StartProcess(string destination, ActivityContext parent, MultipartMessage frames)
        {
            if (!Source.HasListeners())
            {
                return null;
            }

            Activity? activity = Source.StartActivity("process " + destination, ActivityKind.Consumer, parent);
            if (activity is { IsAllDataRequested: true })
            {
                Tag(activity, "process", destination);
                activity.SetTag("messaging.message.body.size", BodySize(frames));
            }

            return activity;
        }

        private static int BodySize(MultipartMessage frames)
        {
            int size = 0;
            foreach (Message frame in frames)
            {
                size += frame.Size;
            }

            return size;
        }

        private static void Tag(Activity activity, string operation, string destination)
        {
            activity.SetTag("messaging.system", MessagingSystem);
            activity.SetTag("messaging.operation.name", operation);
            activity.SetTag("messaging.operation.type", operation);
            activity.SetTag("messaging.destination.name", destination);
        }
    }
}
