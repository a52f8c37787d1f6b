using System;
using System.Text;
using NetZeroMQ.Draft;

namespace NetZeroMQ.Benchmarks.Transfer;

/// <summary>
/// One context and the two sockets of a pattern, set up as the native method asks: the receiver binds and the sender connects,
/// LINGER 0, send and receive timeouts so nothing can hang, default HWM, XPUB_NODROP on PUB, ROUTER_MANDATORY on the sending ROUTER,
/// routing id "S" on the sending DEALER of DealerRouter; the draft pairs from <see cref="DraftSockets"/>, the DISH joined to "g".
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
            Receiver = pattern switch
            {
                Pattern.PushPull => new Socket(Context, SocketType.Pull),
                Pattern.PubSub => new Socket(Context, SocketType.Sub),
                Pattern.Pair => new Socket(Context, SocketType.Pair),
                Pattern.DealerDealer => new Socket(Context, SocketType.Dealer),
                Pattern.ClientServer => DraftSockets.Create(Context, DraftSocketType.Server),
                Pattern.RadioDish => DraftSockets.Create(Context, DraftSocketType.Dish),
                _ => new Socket(Context, SocketType.Router),
            };
            Sender = pattern switch
            {
                Pattern.PushPull => new Socket(Context, SocketType.Push),
                Pattern.PubSub => new Socket(Context, SocketType.Pub),
                Pattern.Pair => new Socket(Context, SocketType.Pair),
                Pattern.DealerDealer or Pattern.DealerRouter => new Socket(Context, SocketType.Dealer),
                Pattern.ClientServer => DraftSockets.Create(Context, DraftSocketType.Client),
                Pattern.RadioDish => DraftSockets.Create(Context, DraftSocketType.Radio),
                _ => new Socket(Context, SocketType.Router),
            };
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
            else if (Patterns.SenderRouted(pattern))
            {
                Receiver.RoutingId = ReceiverRoutingId;
                Sender.RoutingId = SenderRoutingId;
                Sender.SetOption(SocketOptions.RouterMandatory, true);
            }
            else if (pattern == Pattern.RadioDish)
            {
                // RADIO drops at the HWM like PUB unless XPUB_NODROP (libzmq's radio reads that option too).
                Receiver.Join(Patterns.RadioGroup);
                Sender.SetOption(SocketOptions.XPubNoDrop, true);
            }
            else if (pattern == Pattern.DealerRouter)
            {
                // A fixed 1-byte id, so the receiver's id frame is predictable (as the native program sets it).
                Sender.RoutingId = SenderRoutingId;
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

    /// <summary>Whether the sender sends each message as [routing id][payload] (it is a ROUTER).</summary>
    public bool SenderRouted => Patterns.SenderRouted(Pattern);

    /// <summary>Whether the receiver gets each message as [routing id][payload] (it is a ROUTER).</summary>
    public bool ReceiverRouted => Patterns.ReceiverRouted(Pattern);

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
