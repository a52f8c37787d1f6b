using System;
using System.Text;

namespace NetZeroMQ.Benchmarks.Transfer;

/// <summary>
/// One context and the two sockets of a pattern, set up as the native method asks: the receiver binds and the sender connects,
/// LINGER 0, send and receive timeouts so nothing can hang, default HWM, XPUB_NODROP on PUB, ROUTER_MANDATORY on the sending ROUTER.
/// </summary>
public sealed class SocketPair : IDisposable
{
    public static readonly byte[] SenderRoutingId = Encoding.ASCII.GetBytes("S");
    public static readonly byte[] ReceiverRoutingId = Encoding.ASCII.GetBytes("R");

    private readonly bool _ownsContext;

    public SocketPair(Pattern pattern, Transport transport, TimeSpan timeout, Context? context = null)
    {
        Pattern = pattern;
        Transport = transport;
        _ownsContext = context is null;
        Context = context ?? new Context();
        Context.DefaultLinger = TimeSpan.Zero;
        try
        {
            Receiver = new Socket(Context, pattern switch
            {
                Pattern.PushPull => SocketType.Pull,
                Pattern.PubSub => SocketType.Sub,
                _ => SocketType.Router,
            });
            Sender = new Socket(Context, pattern switch
            {
                Pattern.PushPull => SocketType.Push,
                Pattern.PubSub => SocketType.Pub,
                _ => SocketType.Router,
            });
            foreach (Socket socket in new[] { Receiver, Sender })
            {
                socket.Linger = TimeSpan.Zero;
                socket.SendTimeout = timeout;
                socket.ReceiveTimeout = timeout;
            }

            if (pattern == Pattern.PubSub)
            {
                Receiver.Subscribe("");
                Sender.SetOption(SocketOptions.XPubNoDrop, true);
            }
            else if (pattern == Pattern.RouterRouter)
            {
                Receiver.RoutingId = ReceiverRoutingId;
                Sender.RoutingId = SenderRoutingId;
                Sender.SetOption(SocketOptions.RouterMandatory, true);
            }

            string bind = Endpoints.ForBind(transport);
            Receiver.Bind(bind);
            Endpoint = transport == Transport.Inproc ? bind : Receiver.LastEndpoint;
            Sender.Connect(Endpoint);
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    public Pattern Pattern { get; }

    public Transport Transport { get; }

    public Context Context { get; }

    public Socket Sender { get; } = null!;

    public Socket Receiver { get; } = null!;

    public string Endpoint { get; } = "";

    /// <summary>Whether each message is [routing id][payload] on the wire (ROUTER to ROUTER).</summary>
    public bool IsRouted => Pattern == Pattern.RouterRouter;

    public void Dispose()
    {
        Sender?.Dispose();
        Receiver?.Dispose();
        if (_ownsContext)
        {
            Context.Dispose();
        }
    }
}
