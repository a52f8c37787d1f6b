namespace NetZeroMQ.Benchmarks.Transfer.NetMq;

/// <summary>NetMQ's two fast paths for moving a payload.</summary>
public enum NetMqApi
{
    /// <summary>SendFrame(byte[]) of the prepared payload; ReceiveFrameBytes() (a new array per message).</summary>
    Frame,

    /// <summary>A pooled Msg per send (InitPool + copy, buffer-manager pool); receive into one reused Msg.</summary>
    Msg,
}
