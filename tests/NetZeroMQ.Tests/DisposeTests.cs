using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using NetZeroMQ.Draft;
using NetZeroMQ.Tests.TestUtilities;
using Xunit;

namespace NetZeroMQ.Tests
{
    /// <summary>
    /// The boring exhaustive file: every public instance member of <see cref="Socket"/>, <see cref="Message"/>,
    /// <see cref="Poller"/> and <see cref="Context"/> throws <see cref="ObjectDisposedException"/> after Dispose. The member
    /// lists are checked against reflection, so a member added without an entry here fails
    /// <c>PublicSurface_EveryMember_IsCoveredOrExempt</c>.
    /// </summary>
    public class DisposeTests
    {
        private const string Endpoint = "inproc://dispose-tests";

        // Members that legitimately work after Dispose: Dispose itself, the IsDisposed query, and identity/diagnostic members
        // that read managed state only (no native call can follow from them).
        private static readonly HashSet<string> s_socketExempt = new HashSet<string>
        {
            "Dispose()", "get_IsDisposed()", "get_Type()", "get_Context()", "ToString()", "get_IsMultipartSendBroken()",
        };

        private static readonly HashSet<string> s_messageExempt = new HashSet<string> { "Dispose()", "get_IsDisposed()", "ToString()" };

        private static readonly HashSet<string> s_pollerExempt = new HashSet<string> { "Dispose()" };

        private static readonly HashSet<string> s_contextExempt = new HashSet<string> { "Dispose()", "get_IsDisposed()", "get_IsShutdown()" };

        private static readonly Dictionary<string, Action<Socket>> s_socketMembers = new Dictionary<string, Action<Socket>>
        {
            ["Bind(String)"] = s => s.Bind(Endpoint),
            ["Connect(String)"] = s => s.Connect(Endpoint),
            ["Unbind(String)"] = s => s.Unbind(Endpoint),
            ["Disconnect(String)"] = s => s.Disconnect(Endpoint),
            ["Subscribe(String)"] = s => s.Subscribe("a"),
            ["Subscribe(ReadOnlySpan<Byte>)"] = s => s.Subscribe(new byte[] { 1 }.AsSpan()),
            ["Unsubscribe(String)"] = s => s.Unsubscribe("a"),
            ["Unsubscribe(ReadOnlySpan<Byte>)"] = s => s.Unsubscribe(new byte[] { 1 }.AsSpan()),
            ["GetOption(SocketOption<Int32>)"] = s => s.GetOption(SocketOptions.SendHighWatermark),
            ["GetOption(SocketOption<Int64>)"] = s => s.GetOption(SocketOptions.MaxMessageSize),
            ["GetOption(SocketOption<UInt64>)"] = s => s.GetOption(SocketOptions.Affinity),
            ["GetOption(SocketOption<Boolean>)"] = s => s.GetOption(SocketOptions.Immediate),
            ["GetOption(SocketOption<TimeSpan>)"] = s => s.GetOption(SocketOptions.Linger),
            ["GetOption(SocketOption<String>)"] = s => s.GetOption(SocketOptions.LastEndpoint),
            ["GetOption(SocketOption<Byte[]>)"] = s => s.GetOption(SocketOptions.RoutingId),
            ["SetOption(SocketOption<Int32>,Int32)"] = s => s.SetOption(SocketOptions.SendHighWatermark, 10),
            ["SetOption(SocketOption<Int64>,Int64)"] = s => s.SetOption(SocketOptions.MaxMessageSize, 100L),
            ["SetOption(SocketOption<UInt64>,UInt64)"] = s => s.SetOption(SocketOptions.Affinity, 1UL),
            ["SetOption(SocketOption<Boolean>,Boolean)"] = s => s.SetOption(SocketOptions.Immediate, true),
            ["SetOption(SocketOption<TimeSpan>,TimeSpan)"] = s => s.SetOption(SocketOptions.Linger, TimeSpan.Zero),
            ["SetOption(SocketOption<String>,String)"] = s => s.SetOption(SocketOptions.ZapDomain, "global"),
            ["SetOption(SocketOption<Byte[]>,Byte[])"] = s => s.SetOption(SocketOptions.RoutingId, new byte[] { 1 }),
            ["SetOption(SocketOption<Byte[]>,ReadOnlySpan<Byte>)"] = s => s.SetOption(SocketOptions.Subscribe, new byte[] { 1 }.AsSpan()),
            ["SetOptionRaw(Int32,ReadOnlySpan<Byte>)"] = s => s.SetOptionRaw(17, new byte[4]),
            ["GetOptionRaw(Int32,Span<Byte>)"] = s => s.GetOptionRaw(17, new byte[4]),
            ["get_Linger()"] = s => _ = s.Linger,
            ["set_Linger(TimeSpan)"] = s => s.Linger = TimeSpan.Zero,
            ["get_SendHighWatermark()"] = s => _ = s.SendHighWatermark,
            ["set_SendHighWatermark(Int32)"] = s => s.SendHighWatermark = 10,
            ["get_ReceiveHighWatermark()"] = s => _ = s.ReceiveHighWatermark,
            ["set_ReceiveHighWatermark(Int32)"] = s => s.ReceiveHighWatermark = 10,
            ["get_SendTimeout()"] = s => _ = s.SendTimeout,
            ["set_SendTimeout(TimeSpan)"] = s => s.SendTimeout = TimeSpan.Zero,
            ["get_ReceiveTimeout()"] = s => _ = s.ReceiveTimeout,
            ["set_ReceiveTimeout(TimeSpan)"] = s => s.ReceiveTimeout = TimeSpan.Zero,
            ["get_RoutingId()"] = s => _ = s.RoutingId,
            ["set_RoutingId(Byte[])"] = s => s.RoutingId = new byte[] { 1 },
            ["get_MaxMessageSize()"] = s => _ = s.MaxMessageSize,
            ["set_MaxMessageSize(Int64)"] = s => s.MaxMessageSize = 100,
            ["get_LastEndpoint()"] = s => _ = s.LastEndpoint,
            ["get_HasMore()"] = s => _ = s.HasMore,
            ["get_Events()"] = s => _ = s.Events,
            // Blocking forms: the socket has timeouts (Zmq.NewSocket), so a call that failed to see the Dispose could not hang.
            ["Recv(Span<Byte>)"] = s => s.Recv(new byte[8].AsSpan()),
            ["TryRecv(Span<Byte>,RecvResult&)"] = s => s.TryRecv(new byte[8].AsSpan(), out _),
            ["TryRecv(Span<Byte>,TimeSpan,RecvResult&,CancellationToken)"] = s => s.TryRecv(new byte[8].AsSpan(), TimeSpan.Zero, out _),
            ["Recv(Message)"] = s => RecvInto(s, (sock, m) => sock.Recv(m)),
            ["TryRecv(Message)"] = s => RecvInto(s, (sock, m) => sock.TryRecv(m)),
            ["TryRecv(Message,TimeSpan,CancellationToken)"] = s => RecvInto(s, (sock, m) => sock.TryRecv(m, TimeSpan.Zero)),
            ["RecvBytes()"] = s => s.RecvBytes(),
            ["TryRecvBytes(Byte[]&)"] = s => s.TryRecvBytes(out _),
            ["TryRecvBytes(TimeSpan,Byte[]&,CancellationToken)"] = s => s.TryRecvBytes(TimeSpan.Zero, out _),
            ["RecvString()"] = s => s.RecvString(),
            ["TryRecvString(String&)"] = s => s.TryRecvString(out _),
            ["TryRecvString(TimeSpan,String&,CancellationToken)"] = s => s.TryRecvString(TimeSpan.Zero, out _),
            ["Send(ReadOnlySpan<Byte>,SendFlags)"] = s => s.Send(new byte[] { 1 }.AsSpan()),
            ["Send(Byte[],SendFlags)"] = s => s.Send(new byte[] { 1 }),
            ["Send(String,SendFlags)"] = s => s.Send("x"),
            ["Send(Message,SendFlags)"] = s => RecvInto(s, (sock, m) => sock.Send(m)),
            ["TrySend(ReadOnlySpan<Byte>,SendFlags)"] = s => s.TrySend(new byte[] { 1 }.AsSpan()),
            ["TrySend(Byte[],SendFlags)"] = s => s.TrySend(new byte[] { 1 }),
            ["TrySend(String,SendFlags)"] = s => s.TrySend("x"),
            ["TrySend(Message,SendFlags)"] = s => RecvInto(s, (sock, m) => sock.TrySend(m)),
            ["TrySend(ReadOnlySpan<Byte>,TimeSpan,SendFlags,CancellationToken)"] = s => s.TrySend(new byte[] { 1 }.AsSpan(), TimeSpan.Zero),
            ["TrySend(Byte[],TimeSpan,SendFlags,CancellationToken)"] = s => s.TrySend(new byte[] { 1 }, TimeSpan.Zero),
            ["TrySend(String,TimeSpan,SendFlags,CancellationToken)"] = s => s.TrySend("x", TimeSpan.Zero),
            ["TrySend(Message,TimeSpan,SendFlags,CancellationToken)"] = s => RecvInto(s, (sock, m) => sock.TrySend(m, TimeSpan.Zero)),
            ["Recv(IBufferWriter<Byte>)"] = s => s.Recv(new System.Buffers.ArrayBufferWriter<byte>()),
            ["TryRecv(IBufferWriter<Byte>,Int32&)"] = s => s.TryRecv(new System.Buffers.ArrayBufferWriter<byte>(), out _),
            ["TryRecv(IBufferWriter<Byte>,TimeSpan,Int32&,CancellationToken)"] = s => s.TryRecv(new System.Buffers.ArrayBufferWriter<byte>(), TimeSpan.Zero, out _),
            ["RecvPooled()"] = s => s.RecvPooled(),
            ["TryRecvPooled(PooledBuffer&)"] = s => s.TryRecvPooled(out _),
            ["TryRecvPooled(TimeSpan,PooledBuffer&,CancellationToken)"] = s => s.TryRecvPooled(TimeSpan.Zero, out _),
            ["SendZeroCopy(ReadOnlyMemory<Byte>,SendFlags)"] = s => s.SendZeroCopy(new byte[] { 1 }.AsMemory()),
            ["SendZeroCopy(Byte[],Int32,ArrayPool<Byte>,SendFlags)"] = s => s.SendZeroCopy(new byte[4], 4, System.Buffers.ArrayPool<byte>.Shared),
            ["SendZeroCopy(IMemoryOwner<Byte>,Int32,SendFlags)"] = s => s.SendZeroCopy(System.Buffers.MemoryPool<byte>.Shared.Rent(4), 4),
            ["SendZeroCopy(IntPtr,Int32,Action<IntPtr>,SendFlags)"] = s => s.SendZeroCopy(IntPtr.Zero, 0, _ => { }),
            ["TrySendZeroCopy(ReadOnlyMemory<Byte>,SendFlags)"] = s => s.TrySendZeroCopy(new byte[] { 1 }.AsMemory()),
            ["TrySendZeroCopy(Byte[],Int32,ArrayPool<Byte>,SendFlags)"] = s => s.TrySendZeroCopy(new byte[4], 4, System.Buffers.ArrayPool<byte>.Shared),
            ["TrySendZeroCopy(IMemoryOwner<Byte>,Int32,SendFlags)"] = s => s.TrySendZeroCopy(System.Buffers.MemoryPool<byte>.Shared.Rent(4), 4),
            ["TrySendZeroCopy(IntPtr,Int32,Action<IntPtr>,SendFlags)"] = s => s.TrySendZeroCopy(IntPtr.Zero, 0, _ => { }),
            ["TrySendZeroCopy(ReadOnlyMemory<Byte>,TimeSpan,SendFlags,CancellationToken)"] = s => s.TrySendZeroCopy(new byte[] { 1 }.AsMemory(), TimeSpan.Zero),
            ["TrySendZeroCopy(Byte[],Int32,ArrayPool<Byte>,TimeSpan,SendFlags,CancellationToken)"] = s => s.TrySendZeroCopy(new byte[4], 4, System.Buffers.ArrayPool<byte>.Shared, TimeSpan.Zero),
            ["TrySendZeroCopy(IMemoryOwner<Byte>,Int32,TimeSpan,SendFlags,CancellationToken)"] = s => s.TrySendZeroCopy(System.Buffers.MemoryPool<byte>.Shared.Rent(4), 4, TimeSpan.Zero),
            ["TrySendZeroCopy(IntPtr,Int32,Action<IntPtr>,TimeSpan,SendFlags,CancellationToken)"] = s => s.TrySendZeroCopy(IntPtr.Zero, 0, _ => { }, TimeSpan.Zero),
            ["SendMultipart(MultipartMessage)"] = s => WithFrames(frames => s.SendMultipart(frames)),
            ["TrySendMultipart(MultipartMessage)"] = s => WithFrames(frames => s.TrySendMultipart(frames)),
            ["TrySendMultipart(MultipartMessage,TimeSpan,CancellationToken)"] = s => WithFrames(frames => s.TrySendMultipart(frames, TimeSpan.Zero)),
            ["SendMultipart(IEnumerable<Byte[]>)"] = s => s.SendMultipart(new[] { new byte[] { 1 } }.AsEnumerable()),
            ["TrySendMultipart(IEnumerable<Byte[]>)"] = s => s.TrySendMultipart(new[] { new byte[] { 1 } }.AsEnumerable()),
            ["TrySendMultipart(IEnumerable<Byte[]>,TimeSpan,CancellationToken)"] = s => s.TrySendMultipart(new[] { new byte[] { 1 } }.AsEnumerable(), TimeSpan.Zero),
            ["SendMultipart(IEnumerable<ReadOnlyMemory<Byte>>)"] = s => s.SendMultipart(new[] { new ReadOnlyMemory<byte>(new byte[] { 1 }) }.AsEnumerable()),
            ["TrySendMultipart(IEnumerable<ReadOnlyMemory<Byte>>)"] = s => s.TrySendMultipart(new[] { new ReadOnlyMemory<byte>(new byte[] { 1 }) }.AsEnumerable()),
            ["TrySendMultipart(IEnumerable<ReadOnlyMemory<Byte>>,TimeSpan,CancellationToken)"] = s => s.TrySendMultipart(new[] { new ReadOnlyMemory<byte>(new byte[] { 1 }) }.AsEnumerable(), TimeSpan.Zero),
            ["SendMultipart(IEnumerable<String>)"] = s => s.SendMultipart(new[] { "a" }.AsEnumerable()),
            ["TrySendMultipart(IEnumerable<String>)"] = s => s.TrySendMultipart(new[] { "a" }.AsEnumerable()),
            ["TrySendMultipart(IEnumerable<String>,TimeSpan,CancellationToken)"] = s => s.TrySendMultipart(new[] { "a" }.AsEnumerable(), TimeSpan.Zero),
            ["SendMultipart(String[])"] = s => s.SendMultipart("a", "b"),
            ["TrySendMultipart(String[])"] = s => s.TrySendMultipart("a", "b"),
            ["RecvMultipart(MultipartMessage)"] = s => WithFrames(frames => s.RecvMultipart(frames)),
            ["TryRecvMultipart(MultipartMessage)"] = s => WithFrames(frames => s.TryRecvMultipart(frames)),
            ["TryRecvMultipart(MultipartMessage,TimeSpan,CancellationToken)"] = s => WithFrames(frames => s.TryRecvMultipart(frames, TimeSpan.Zero)),
            ["RecvMultipart()"] = s => s.RecvMultipart(),
            ["TryRecvMultipart(MultipartMessage&)"] = s => s.TryRecvMultipart(out MultipartMessage? _),
            ["TryRecvMultipart(TimeSpan,MultipartMessage&,CancellationToken)"] = s => s.TryRecvMultipart(TimeSpan.Zero, out MultipartMessage? _),
            ["RecvMultipartBytes()"] = s => s.RecvMultipartBytes(),
            ["TryRecvMultipartBytes(Byte[][]&)"] = s => s.TryRecvMultipartBytes(out _),
            ["TryRecvMultipartBytes(TimeSpan,Byte[][]&,CancellationToken)"] = s => s.TryRecvMultipartBytes(TimeSpan.Zero, out _),
            ["Monitor(MonitorEvents,MonitorProtocol)"] = s => s.Monitor(MonitorEvents.All).Dispose(),
            ["get_RouterNotify()"] = s => NetZeroMQ.Draft.DraftSocketOptions.get_RouterNotify(s),
            ["set_RouterNotify(RouterNotifications)"] = s => NetZeroMQ.Draft.DraftSocketOptions.set_RouterNotify(s, RouterNotifications.Connect),
            ["GetRouterNotify()"] = s => NetZeroMQ.Draft.DraftSocketOptions.GetRouterNotify(s),
            ["SetRouterNotify(RouterNotifications)"] = s => NetZeroMQ.Draft.DraftSocketOptions.SetRouterNotify(s, RouterNotifications.Connect),
            ["SetCurveServer(CurveKeyPair,String)"] = s => s.SetCurveServer(CurveKeyPair.Generate()),
            ["SetCurveClient(CurveKeyPair,CurveKey)"] = s => s.SetCurveClient(CurveKeyPair.Generate(), CurveKeyPair.Generate().PublicKey),
            ["SetPlainServer(String)"] = s => s.SetPlainServer(),
            ["SetPlainClient(String,String)"] = s => s.SetPlainClient("user", "password"),
            ["SetZapDomain(String)"] = s => s.SetZapDomain("global"),
            ["SetOption(SocketOption<Byte[]>,CurveKey)"] = s => s.SetOption(SocketOptions.CurveServerKey, CurveKeyPair.Generate().PublicKey),
            ["GetCurveKey(SocketOption<Byte[]>)"] = s => s.GetCurveKey(SocketOptions.CurvePublicKey),
            ["Join(String)"] = s => NetZeroMQ.Draft.DraftExtensions.Join(s, "group"),
            ["Leave(String)"] = s => NetZeroMQ.Draft.DraftExtensions.Leave(s, "group"),
            ["ConnectPeer(String)"] = s => NetZeroMQ.Draft.DraftExtensions.ConnectPeer(s, "inproc://peer"),
            ["RecvAsync(Memory<Byte>,CancellationToken)"] = s => Await(s.RecvAsync(new byte[8].AsMemory()).AsTask()),
            ["RecvAsync(Message,CancellationToken)"] = s => RecvInto(s, (sock, m) => Await(sock.RecvAsync(m).AsTask())),
            ["RecvBytesAsync(CancellationToken)"] = s => Await(s.RecvBytesAsync().AsTask()),
            ["RecvStringAsync(CancellationToken)"] = s => Await(s.RecvStringAsync().AsTask()),
            ["RecvPooledAsync(CancellationToken)"] = s => Await(s.RecvPooledAsync().AsTask()),
            ["RecvAllAsync(CancellationToken)"] = s => Await(s.RecvAllAsync().GetAsyncEnumerator().MoveNextAsync().AsTask()),
            ["SendAsync(ReadOnlyMemory<Byte>,SendFlags,CancellationToken)"] = s => Await(s.SendAsync(new byte[] { 1 }.AsMemory()).AsTask()),
            ["SendAsync(Message,SendFlags,CancellationToken)"] = s => RecvInto(s, (sock, m) => Await(sock.SendAsync(m).AsTask())),
            ["SendAsync(String,SendFlags,CancellationToken)"] = s => Await(s.SendAsync("x").AsTask()),
            ["SendMultipartAsync(MultipartMessage,CancellationToken)"] = s => WithFrames(frames => Await(s.SendMultipartAsync(frames).AsTask())),
            ["RecvMultipartAsync(MultipartMessage,CancellationToken)"] = s => WithFrames(frames => Await(s.RecvMultipartAsync(frames).AsTask())),
        };

        private static readonly Dictionary<string, Action<Message>> s_messageMembers = new Dictionary<string, Action<Message>>
        {
            ["get_Data()"] = m => _ = m.Data.Length,
            ["set_RoutingId(UInt32)"] = m => NetZeroMQ.Draft.DraftExtensions.set_RoutingId(m, 1),
            ["get_RoutingId()"] = m => NetZeroMQ.Draft.DraftExtensions.get_RoutingId(m),
            ["set_Group(String)"] = m => NetZeroMQ.Draft.DraftExtensions.set_Group(m, "group"),
            ["get_Group()"] = m => NetZeroMQ.Draft.DraftExtensions.get_Group(m),
            ["SetRoutingId(UInt32)"] = m => m.SetRoutingId(1),
            ["GetRoutingId()"] = m => m.GetRoutingId(),
            ["SetGroup(String)"] = m => m.SetGroup("group"),
            ["GetGroup()"] = m => m.GetGroup(),
            ["get_Size()"] = m => _ = m.Size,
            ["get_HasMore()"] = m => _ = m.HasMore,
            ["get_IsShared()"] = m => _ = m.IsShared,
            ["CopyFrom(Message)"] = m => WithOther(other => m.CopyFrom(other)),
            ["MoveFrom(Message)"] = m => WithOther(other => m.MoveFrom(other)),
            ["Rebuild()"] = m => m.Rebuild(),
            ["Rebuild(Int32)"] = m => m.Rebuild(8),
            ["Rebuild(ReadOnlySpan<Byte>)"] = m => m.Rebuild(new byte[] { 1, 2 }.AsSpan()),
            ["ToArray()"] = m => m.ToArray(),
            ["GetString()"] = m => m.GetString(),
            ["GetMetadata(String)"] = m => m.GetMetadata("Socket-Type"),
            ["get_PeerAddress()"] = m => _ = m.PeerAddress,
            ["get_PeerSocketType()"] = m => _ = m.PeerSocketType,
            ["get_UserId()"] = m => _ = m.UserId,
            ["get_PeerRoutingId()"] = m => _ = m.PeerRoutingId,
        };

        private static readonly Dictionary<string, Action<Poller>> s_pollerMembers = new Dictionary<string, Action<Poller>>
        {
            ["get_Count()"] = p => _ = p.Count,
            ["get_Item(Int32)"] = p => _ = p[0],
            ["Add(Socket,PollEvents)"] = p => WithSocket(s => p.Add(s, PollEvents.In)),
            ["Update(Int32,PollEvents)"] = p => p.Update(0, PollEvents.Out),
            ["Remove(Socket)"] = p => WithSocket(s => p.Remove(s)),
            ["Poll(TimeSpan)"] = p => p.Poll(TimeSpan.Zero),
            ["Poll(Int32)"] = p => p.Poll(0),
            ["GetReturnedEvents(Int32)"] = p => p.GetReturnedEvents(0),
            ["IsReadable(Int32)"] = p => p.IsReadable(0),
            ["IsWritable(Int32)"] = p => p.IsWritable(0),
        };

        private static readonly Dictionary<string, Action<Context>> s_contextMembers = new Dictionary<string, Action<Context>>
        {
            ["get_DefaultLinger()"] = c => _ = c.DefaultLinger,
            ["set_DefaultLinger(TimeSpan)"] = c => c.DefaultLinger = TimeSpan.Zero,
            ["get_IOThreads()"] = c => _ = c.IOThreads,
            ["set_IOThreads(Int32)"] = c => c.IOThreads = 1,
            ["get_MaxSockets()"] = c => _ = c.MaxSockets,
            ["set_MaxSockets(Int32)"] = c => c.MaxSockets = 100,
            ["get_SocketLimit()"] = c => _ = c.SocketLimit,
            ["get_MaxMessageSize()"] = c => _ = c.MaxMessageSize,
            ["set_MaxMessageSize(Int32)"] = c => c.MaxMessageSize = 100,
            ["get_IPv6()"] = c => _ = c.IPv6,
            ["set_IPv6(Boolean)"] = c => c.IPv6 = true,
            ["GetOption(ContextOption<Int32>)"] = c => c.GetOption(ContextOptions.IOThreads),
            ["GetOption(ContextOption<Boolean>)"] = c => c.GetOption(ContextOptions.IPv6),
            ["SetOption(ContextOption<Int32>,Int32)"] = c => c.SetOption(ContextOptions.IOThreads, 1),
            ["SetOption(ContextOption<Boolean>,Boolean)"] = c => c.SetOption(ContextOptions.IPv6, true),
            ["Shutdown()"] = c => c.Shutdown(),
            ["SetThreadPriority(Int32)"] = c => c.SetThreadPriority(0),
        };

        public static TheoryData<string> SocketMembers => Keys(s_socketMembers);

        public static TheoryData<string> MessageMembers => Keys(s_messageMembers);

        public static TheoryData<string> PollerMembers => Keys(s_pollerMembers);

        public static TheoryData<string> ContextMembers => Keys(s_contextMembers);

        [Theory]
        [InlineData(typeof(Socket))]
        [InlineData(typeof(Message))]
        [InlineData(typeof(Poller))]
        [InlineData(typeof(Context))]
        public void PublicSurface_EveryMember_IsCoveredOrExempt(Type type)
        {
            (IEnumerable<string> covered, HashSet<string> exempt) = type == typeof(Socket) ? (s_socketMembers.Keys.AsEnumerable(), s_socketExempt)
                : type == typeof(Message) ? (s_messageMembers.Keys.AsEnumerable(), s_messageExempt)
                : type == typeof(Poller) ? (s_pollerMembers.Keys.AsEnumerable(), s_pollerExempt)
                : (s_contextMembers.Keys.AsEnumerable(), s_contextExempt);

            // What a user can call on an instance: its own methods and the library's extension methods for it (features such as
            // monitors and async are extensions built on the core).
            var actual = new SortedSet<string>(
                type.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly).Select(Signature)
                    .Concat(ExtensionMethodsOf(type).Select(ExtensionSignature)),
                StringComparer.Ordinal);
            var expected = new SortedSet<string>(covered.Concat(exempt), StringComparer.Ordinal);

            Assert.Equal(expected, actual);
        }

        [Theory]
        [MemberData(nameof(SocketMembers))]
        public void Socket_MemberAfterDispose_ThrowsObjectDisposed(string member)
        {
            using Context context = Zmq.NewContext();
            Socket socket = Zmq.NewSocket(context, SocketType.Pair);
            socket.Dispose();

            AssertDisposedOrCurveRefused(member, () => s_socketMembers[member](socket));
        }

        [Theory]
        [MemberData(nameof(SocketMembers))]
        public void Socket_MemberAfterContextDispose_ThrowsObjectDisposed(string member)
        {
            Context context = Zmq.NewContext();
            Socket socket = Zmq.NewSocket(context, SocketType.Pair);
            context.Dispose();

            Assert.True(socket.IsDisposed);
            AssertDisposedOrCurveRefused(member, () => s_socketMembers[member](socket));
        }

        /// <summary>
        /// ObjectDisposedException; for a member called with a CURVE key (pair) on a libzmq without CURVE, the refusal of making
        /// that key pair (<c>CurveKeyPair.Generate</c>), which the call never gets past.
        /// </summary>
        private static void AssertDisposedOrCurveRefused(string member, Action use)
        {
            bool takesKeys = member.StartsWith("SetCurve", StringComparison.Ordinal) || member.EndsWith(",CurveKey)", StringComparison.Ordinal);
            if (takesKeys && !LoadedLibzmq.HasCurve)
            {
                LoadedLibzmq.AssertCurveRefused(use);
                return;
            }

            Assert.Throws<ObjectDisposedException>(use);
        }

        [Theory]
        [MemberData(nameof(MessageMembers))]
        public void Message_MemberAfterDispose_ThrowsObjectDisposed(string member)
        {
            var message = new Message(new byte[] { 1, 2, 3 });
            message.Dispose();

            Assert.Throws<ObjectDisposedException>(() => s_messageMembers[member](message));
        }

        [Theory]
        [MemberData(nameof(PollerMembers))]
        public void Poller_MemberAfterDispose_ThrowsObjectDisposed(string member)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Pair);
            var poller = new Poller();
            poller.Add(socket, PollEvents.In);
            poller.Poll(0);
            poller.Dispose();

            Assert.Throws<ObjectDisposedException>(() => s_pollerMembers[member](poller));
        }

        [Theory]
        [MemberData(nameof(ContextMembers))]
        public void Context_MemberAfterDispose_ThrowsObjectDisposed(string member)
        {
            Context context = Zmq.NewContext();
            context.Dispose();

            Assert.Throws<ObjectDisposedException>(() => s_contextMembers[member](context));
        }

        [Fact]
        public void Socket_Constructor_DisposedContext_ThrowsObjectDisposed()
        {
            Context context = Zmq.NewContext();
            context.Dispose();

            Assert.Throws<ObjectDisposedException>(() => new Socket(context, SocketType.Pair));
        }

        [Theory]
        [InlineData("Recv")]
        [InlineData("TryRecv")]
        [InlineData("Send")]
        [InlineData("TrySend")]
        [InlineData("CopyFrom")]
        [InlineData("MoveFrom")]
        public void Message_DisposedMessagePassedToLiveObject_ThrowsObjectDisposed(string call)
        {
            using Context context = Zmq.NewContext();
            using Socket a = Zmq.NewSocket(context, SocketType.Pair);
            using Socket b = Zmq.NewSocket(context, SocketType.Pair);
            string endpoint = Transports.BindAnywhere(a, "inproc");
            b.Connect(endpoint);
            b.Send("queued");
            using var live = new Message(new byte[] { 7 });
            var disposed = new Message(new byte[] { 1 });
            disposed.Dispose();

            Action action = call switch
            {
                "Recv" => () => a.Recv(disposed),
                "TryRecv" => () => a.TryRecv(disposed),
                "Send" => () => b.Send(disposed),
                "TrySend" => () => b.TrySend(disposed),
                "CopyFrom" => () => live.CopyFrom(disposed),
                _ => () => live.MoveFrom(disposed),
            };

            Assert.Throws<ObjectDisposedException>(action);

            // The sockets and the live message are unharmed: the queued frame is still there.
            Assert.Equal("queued", a.RecvString());
            Assert.Equal(new byte[] { 7 }, live.ToArray());
        }

        [Fact]
        public void Socket_DisposeTwice_IsHarmless()
        {
            using Context context = Zmq.NewContext();
            Socket socket = new Socket(context, SocketType.Pair);
            socket.Dispose();
            socket.Dispose();

            Assert.True(socket.IsDisposed);
            Assert.Equal(SocketType.Pair, socket.Type);
            Assert.Same(context, socket.Context);
            Assert.Contains("disposed", socket.ToString());
        }

        [Fact]
        public void Message_DisposeTwice_IsHarmless()
        {
            var message = new Message(100);
            message.Dispose();
            message.Dispose();

            Assert.True(message.IsDisposed);
            Assert.Contains("disposed", message.ToString());
        }

        [Fact]
        public void Poller_DisposeTwice_IsHarmless()
        {
            var poller = new Poller();
            poller.Dispose();
            poller.Dispose();

            Assert.Throws<ObjectDisposedException>(() => poller.Poll(0));
        }

        [Fact]
        public void Context_DisposeTwice_IsHarmless()
        {
            Context context = Zmq.NewContext();
            context.Dispose();
            context.Dispose();

            Assert.True(context.IsDisposed);
        }

        private static void WithFrames(Action<MultipartMessage> call)
        {
            using var frames = new MultipartMessage();
            frames.Add("frame");
            call(frames);
        }

        /// <summary>Waits for a task that is expected to be complete already (a disposed socket fails before any wait).</summary>
        private static void Await(System.Threading.Tasks.Task task)
        {
            if (!((IAsyncResult)task).AsyncWaitHandle.WaitOne(TestTimeouts.Expected))
            {
                throw new TimeoutException("the call did not complete");
            }

            task.GetAwaiter().GetResult(); // rethrows the task's own exception, not an AggregateException
        }

        private static void RecvInto(Socket socket, Action<Socket, Message> call)
        {
            using var message = new Message(new byte[] { 1 });
            call(socket, message);
        }

        private static void WithOther(Action<Message> call)
        {
            using var other = new Message(new byte[] { 1 });
            call(other);
        }

        private static void WithSocket(Action<Socket> call)
        {
            using Context context = Zmq.NewContext();
            using Socket socket = new Socket(context, SocketType.Pair);
            call(socket);
        }

        private static TheoryData<string> Keys<T>(Dictionary<string, T> members)
        {
            var data = new TheoryData<string>();
            foreach (string key in members.Keys)
            {
                data.Add(key);
            }

            return data;
        }

        private static IEnumerable<MethodInfo> ExtensionMethodsOf(Type type) =>
            typeof(Socket).Assembly.GetExportedTypes()
                .Where(t => t.IsAbstract && t.IsSealed)
                .SelectMany(t => t.GetMethods(BindingFlags.Public | BindingFlags.Static | BindingFlags.DeclaredOnly))
                .Where(m => m.GetParameters().Length > 0 && m.GetParameters()[0].ParameterType == type
                    && (m.IsDefined(typeof(System.Runtime.CompilerServices.ExtensionAttribute), false) || IsExtensionPropertyAccessor(m)));

        /// <summary>An extension block's property (C# 14) compiles to a static get_/set_ method that takes the receiver first.</summary>
        private static bool IsExtensionPropertyAccessor(MethodInfo method) =>
            method.Name.StartsWith("get_", StringComparison.Ordinal) || method.Name.StartsWith("set_", StringComparison.Ordinal);

        private static string ExtensionSignature(MethodInfo method) =>
            method.Name + "(" + string.Join(",", method.GetParameters().Skip(1).Select(p => TypeName(p.ParameterType))) + ")";

        private static string Signature(MethodInfo method) =>
            method.Name + "(" + string.Join(",", method.GetParameters().Select(p => TypeName(p.ParameterType))) + ")";

        private static string TypeName(Type type)
        {
            if (type.IsByRef)
            {
                return TypeName(type.GetElementType()!) + "&";
            }

            if (type.IsArray)
            {
                return TypeName(type.GetElementType()!) + "[]";
            }

            if (type.IsGenericType)
            {
                string name = type.Name.Substring(0, type.Name.IndexOf('`'));
                return name + "<" + string.Join(",", type.GetGenericArguments().Select(TypeName)) + ">";
            }

            return type.Name;
        }
    }
}
