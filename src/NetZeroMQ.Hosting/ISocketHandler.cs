using System.Threading;
using System.Threading.Tasks;

namespace NetZeroMQ.Hosting
{
    /// <summary>
    /// Handles the messages of a socket worker (<c>AddSocketWorker&lt;THandler&gt;(name)</c>): one call per received
    /// multipart message, one at a time, in arrival order.
    /// </summary>
    /// <remarks>
    /// The handler is created once per worker from the service provider (constructor injection). When it throws, the
    /// socket's <see cref="SocketDefinition.HandlerErrors"/> policy applies: log and go on with the next message (the
    /// default), or log and stop the host. An <see cref="System.OperationCanceledException"/> thrown because the stopping
    /// token was cancelled is not an error.
    /// </remarks>
    public interface ISocketHandler
    {
        /// <summary>Handles one message.</summary>
        /// <param name="message">The received message and the socket to reply on; valid only until the returned task completes.</param>
        /// <param name="stoppingToken">Cancelled when the host stops: a handler should end promptly then.</param>
        /// <returns>A task that completes when the message was handled.</returns>
        ValueTask HandleAsync(SocketMessage message, CancellationToken stoppingToken);
    }
}
