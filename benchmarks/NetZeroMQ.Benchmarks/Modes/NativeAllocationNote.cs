namespace NetZeroMQ.Benchmarks.Modes;

/// <summary>What --alloc-test says about native memory, which it does not measure.</summary>
public static class NativeAllocationNote
{
    public const string Text = """
        Native allocations: NOT MEASURED. GC counters see managed memory only, and this tool does not count malloc calls.
        What libzmq 4.3.4 is known to do (from its source, not measured here):
        - a frame of up to 33 bytes is stored inside the 64-byte zmq_msg_t itself: no malloc for the content;
        - a larger frame sent with zmq_send / zmq_msg_init_size gets one malloc (content plus reference count), freed by
          whoever closes the last reference (the receiver's next zmq_msg_recv/zmq_msg_close, or the I/O thread after writing);
        - zmq_recv into a caller buffer copies out and closes the frame; zmq_msg_recv into a reused message frees the previous one;
        - pipes hold messages in chunks of 256 and keep one spare chunk, so a steady stream does not allocate per message;
        - over tcp/ipc the decoder reads into a shared, reference-counted batch buffer (8 KiB by default) and frames that fit
          point into it: no malloc per frame, a new buffer only while frames in the old one are still referenced; a frame
          larger than the buffer gets its own malloc.
        NetZeroMQ itself (by reading its code, not measured): Send/Recv over spans call zmq_send/zmq_recv directly, except a
        span send of 8 KiB to 256 KiB (and a Message of that size), whose content is copied into a pooled native buffer handed
        to zmq_msg_init_data and given back when libzmq frees the frame (no malloc per message; at most 8 MiB idle per size
        class). A Message's zmq_msg_t block is allocated once, when the Message is created.
        """;
}
