namespace NetZeroMQ.Benchmarks.Transfer.RoundTrip;

/// <summary>The ping-pong pairs, named client-server as the native program (benchmarks/native, --roundtrip) names them.</summary>
public enum RoundTripPattern
{
    /// <summary>REQ (connects) sends the payload; REP (binds) echoes it.</summary>
    ReqRep,

    /// <summary>DEALER "S" (connects) sends the payload; ROUTER (binds) receives [S][payload] and echoes it back to S.</summary>
    DealerRouter,
}
