using System;
using System.Runtime.InteropServices;
using System.Text;

namespace NetZeroMQ
{
    public sealed unsafe partial class Socket
    {
        /// <summary>Strings and binary values up to this size are read on the stack; larger ones are retried with a bigger buffer.</summary>
        private const int SmallOptionBuffer = 1024;

        /// <summary>The first heap buffer, and the most a read of an option this binding does not list may use.</summary>
        private const int LargeOptionBuffer = 64 * 1024;

        /// <summary>
        /// Reads an option with the type its key declares: the one implementation behind the typed <c>GetOption</c> overloads
        /// (<see cref="GetOption(SocketOption{int})"/> and the others), which let only the value types below reach it.
        /// </summary>
        private T GetOptionCore<T>(SocketOption<T> option)
        {
            ThrowIfNot(option, OptionAccess.Read, "write-only");
            SocketOptions.ThrowIfDraftMissing(option.Id);
            Enter();
            try
            {
                if (typeof(T) == typeof(int))
                {
                    return (T)(object)GetInt32Unguarded(option.Id, option.Name);
                }

                if (typeof(T) == typeof(bool))
                {
                    return (T)(object)(GetInt32Unguarded(option.Id, option.Name) != 0);
                }

                if (typeof(T) == typeof(TimeSpan))
                {
                    return (T)(object)Milliseconds.ToTimeSpan(GetInt32Unguarded(option.Id, option.Name));
                }

                if (typeof(T) == typeof(long))
                {
                    long value;
                    GetFixedUnguarded(option.Id, option.Name, &value, sizeof(long));
                    return (T)(object)value;
                }

                if (typeof(T) == typeof(ulong))
                {
                    ulong value;
                    GetFixedUnguarded(option.Id, option.Name, &value, sizeof(ulong));
                    return (T)(object)value;
                }

                if (typeof(T) == typeof(string))
                {
                    return (T)(object)GetStringUnguarded(option.Id, option.Name);
                }

                return (T)(object)GetBytesUnguarded(option.Id, option.Name, option.FixedLength);
            }
            finally
            {
                Exit();
            }
        }

        /// <summary>
        /// Sets an option with the type its key declares: the one implementation behind the typed <c>SetOption</c> overloads
        /// (<see cref="SetOption(SocketOption{int}, int)"/> and the others), which let only the value types below reach it.
        /// </summary>
        private void SetOptionCore<T>(SocketOption<T> option, T value)
        {
            ThrowIfNot(option, OptionAccess.Write, "read-only");
            if (typeof(T) == typeof(int))
            {
                int v = (int)(object)value!;
                SocketOptions.ThrowIfNotAllowed(this, option.Id, v, nameof(value));
                SetRaw(option.Id, option.Name, &v, sizeof(int));
            }
            else if (typeof(T) == typeof(bool))
            {
                int v = (bool)(object)value! ? 1 : 0;
                SetRaw(option.Id, option.Name, &v, sizeof(int));
            }
            else if (typeof(T) == typeof(TimeSpan))
            {
                int v = Milliseconds.FromTimeSpan((TimeSpan)(object)value!, nameof(value), option.Name);
                SocketOptions.ThrowIfNotAllowed(this, option.Id, v, nameof(value));
                SetRaw(option.Id, option.Name, &v, sizeof(int));
            }
            else if (typeof(T) == typeof(long))
            {
                long v = (long)(object)value!;
                SocketOptions.ThrowIfNotAllowed(this, option.Id, v, nameof(value));
                SetRaw(option.Id, option.Name, &v, sizeof(long));
            }
            else if (typeof(T) == typeof(ulong))
            {
                ulong v = (ulong)(object)value!;
                SetRaw(option.Id, option.Name, &v, sizeof(ulong));
            }
            else if (typeof(T) == typeof(string))
            {
                SetString(option.Id, option.Name, (string)(object)value!);
            }
            else
            {
                byte[] bytes = (byte[])(object)value! ?? throw new ArgumentNullException(nameof(value));
                SetBytes(option.Id, option.Name, bytes, option.FixedLength);
            }
        }

        /// <summary>Sets a binary option from a span, without allocating (for example <see cref="SocketOptions.Subscribe"/>).</summary>
        /// <param name="option">A binary option key.</param>
        /// <param name="value">The bytes.</param>
        /// <exception cref="ArgumentNullException"><paramref name="option"/> is null.</exception>
        /// <exception cref="ArgumentException">The value breaks a rule of the option (see <see cref="SetOption(SocketOption{byte[]}, byte[])"/>).</exception>
        public void SetOption(SocketOption<byte[]> option, ReadOnlySpan<byte> value)
        {
            ThrowIfNot(option, OptionAccess.Write, "read-only");
            SetBytes(option.Id, option.Name, value, option.FixedLength);
        }

        /// <summary>
        /// The escape hatch: sets any option number with raw bytes. For options listed in <see cref="SocketOptions"/> the size is
        /// checked first (4 bytes for int/bool/time options, 8 for 64-bit ones, 32 or 40 for CURVE keys), then the value against
        /// the same limits as the typed overloads such as <see cref="SetOption(SocketOption{int}, int)"/>; unknown numbers go to libzmq unchecked.
        /// </summary>
        /// <param name="option">libzmq's option number.</param>
        /// <param name="value">The value's bytes in native layout.</param>
        /// <exception cref="ArgumentException">The size does not fit the option.</exception>
        /// <exception cref="ArgumentOutOfRangeException">The value is outside the limits documented on the option's key.</exception>
        /// <exception cref="ZmqException">libzmq rejected it.</exception>
        public void SetOptionRaw(int option, ReadOnlySpan<byte> value)
        {
            string name = option.ToString(System.Globalization.CultureInfo.InvariantCulture);
            if (SocketOptions.ById.TryGetValue(option, out SocketOptions.OptionInfo info))
            {
                name = info.Name;
                ThrowIfNot(info.Access, OptionAccess.Write, name, "read-only");
                int expected = info.NativeSize;
                bool sizeOk = expected != 0 ? value.Length == expected
                    : info.FixedLength == 0 || value.Length == info.FixedLength || value.Length == 40 || value.Length == 41;
                if (!sizeOk)
                {
                    throw new ArgumentException(
                        "Option " + name + " takes " + (expected != 0 ? expected : info.FixedLength) + " bytes, not " + value.Length + ".",
                        nameof(value));
                }

                // The same limits as the typed setters: the value for numbers (in native layout), the length for the rest.
                long checkedValue = expected == 4 ? MemoryMarshal.Read<int>(value)
                    : expected == 8 && info.ValueType == typeof(long) ? MemoryMarshal.Read<long>(value)
                    : expected == 8 ? 0
                    : value.Length;
                if (expected != 8 || info.ValueType == typeof(long))
                {
                    SocketOptions.ThrowIfNotTypedValue(info, checkedValue, nameof(value));
                    SocketOptions.ThrowIfNotAllowed(this, option, checkedValue, nameof(value));
                }
            }

            ThrowIfInvalidRoutingId(option, value);
            ThrowIfInvalidCurveKey(option, value);
            SocketOptionRules.CheckMetadata(option, value);
            fixed (byte* p = &MemoryMarshal.GetReference(value))
            {
                SetRaw(option, name, p, value.Length);
            }
        }

        /// <summary>
        /// The escape hatch: reads any option number into <paramref name="buffer"/>. For options listed in
        /// <see cref="SocketOptions"/> the buffer must be the exact size of numeric options (libzmq rejects any other size).
        /// </summary>
        /// <param name="option">libzmq's option number.</param>
        /// <param name="buffer">Receives the value in native layout.</param>
        /// <returns>The number of bytes libzmq wrote (strings include their terminating NUL).</returns>
        /// <exception cref="ArgumentException">The buffer size does not fit the option.</exception>
        /// <exception cref="ZmqException">libzmq rejected it (also when a string or binary value does not fit the buffer).</exception>
        public int GetOptionRaw(int option, Span<byte> buffer)
        {
            string name = option.ToString(System.Globalization.CultureInfo.InvariantCulture);
            if (SocketOptions.ById.TryGetValue(option, out SocketOptions.OptionInfo info))
            {
                name = info.Name;
                ThrowIfNot(info.Access, OptionAccess.Read, name, "write-only");
                if (info.NativeSize != 0 && buffer.Length != info.NativeSize)
                {
                    throw new ArgumentException("Option " + name + " needs a buffer of exactly " + info.NativeSize + " bytes.", nameof(buffer));
                }
            }

            SocketOptions.ThrowIfDraftMissing(option);

            Enter();
            try
            {
                fixed (byte* p = &MemoryMarshal.GetReference(buffer))
                {
                    nuint length = (nuint)buffer.Length;
                    if (TryReadKeptOption(option, p, length))
                    {
                        return sizeof(int);
                    }

                    if (Interop.Zmq.zmq_getsockopt(_socket, option, p, &length) != 0)
                    {
                        ZmqThrow.LastError("zmq_getsockopt", option: name);
                    }

                    return (int)length;
                }
            }
            finally
            {
                Exit();
            }
        }

        internal int GetInt32Unguarded(int option, string? name = null)
        {
            int value;
            GetFixedUnguarded(option, name, &value, sizeof(int));
            return value;
        }

        internal void SetInt32Unguarded(int option, int value) =>
            Interop.Zmq.zmq_setsockopt(_socket, option, &value, sizeof(int));

        private void GetFixedUnguarded(int option, string? name, void* value, int size)
        {
            nuint length = (nuint)size;
            if (TryReadKeptOption(option, value, length))
            {
                return;
            }

            if (Interop.Zmq.zmq_getsockopt(_socket, option, value, &length) != 0)
            {
                ZmqThrow.Error(Interop.Zmq.zmq_errno(), "zmq_getsockopt", option: name ?? option.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
        }

        private string GetStringUnguarded(int option, string name)
        {
            byte[] bytes = GetBytesUnguarded(option, name, fixedLength: 0);
            int length = Array.IndexOf(bytes, (byte)0);
            return Encoding.UTF8.GetString(bytes, 0, length < 0 ? bytes.Length : length);
        }

        private byte[] GetBytesUnguarded(int option, string name, int fixedLength)
        {
            if (fixedLength != 0)
            {
                // CURVE keys: libzmq returns raw bytes for a 32-byte buffer (Z85 text for 41), and rejects any other size.
                byte[] key = new byte[fixedLength];
                fixed (byte* p = key)
                {
                    GetFixedUnguarded(option, name, p, fixedLength);
                }

                return key;
            }

            byte* small = stackalloc byte[SmallOptionBuffer];
            nuint length = SmallOptionBuffer;
            if (Interop.Zmq.zmq_getsockopt(_socket, option, small, &length) == 0)
            {
                return new ReadOnlySpan<byte>(small, (int)length).ToArray();
            }

            // libzmq fails with EINVAL when the value does not fit, without saying how big it is, and the same way when the
            // option does not exist in this build. So grow the buffer, but only as far as the option can hold: whatever a
            // setter accepted (or Bind/Connect stored as the last endpoint) is read back; an option this binding does not
            // list gets up to LargeOptionBuffer.
            int error = Interop.Zmq.zmq_errno();
            int limit = SocketOptions.ById.TryGetValue(option, out SocketOptions.OptionInfo info) ? info.MaxReadBytes : LargeOptionBuffer;
            int size = SmallOptionBuffer;
            while (size < limit)
            {
                size = size >= MaxOptionBuffer / 4 ? MaxOptionBuffer : Math.Max(LargeOptionBuffer, size * 4);
                size = Math.Min(size, limit);
                byte[] large = new byte[size];
                fixed (byte* p = large)
                {
                    length = (nuint)size;
                    if (Interop.Zmq.zmq_getsockopt(_socket, option, p, &length) == 0)
                    {
                        Array.Resize(ref large, (int)length);
                        return large;
                    }

                    error = Interop.Zmq.zmq_errno();
                }
            }

            ZmqThrow.Error(error, "zmq_getsockopt", option: name);
            return Array.Empty<byte>();
        }

        /// <summary>The largest buffer a read uses (the largest byte array .NET allows).</summary>
        private const int MaxOptionBuffer = 0x7FFFFFC7;

        private void SetString(int option, string name, string value)
        {
            if (value is null)
            {
                throw new ArgumentNullException(nameof(value));
            }

            Utf8.ThrowIfContainsNul(value, nameof(value));
            int byteCount = Encoding.UTF8.GetByteCount(value);
            SocketOptions.ThrowIfNotAllowed(this, option, byteCount, nameof(value));
            using var text = new Utf8.CString(value, stackalloc byte[Utf8.StackLimit]);
            fixed (byte* p = text)
            {
                SocketOptionRules.CheckMetadata(option, new ReadOnlySpan<byte>(p, byteCount));

                // libzmq takes strings without their NUL ("no NUL or one trailing NUL").
                SetRaw(option, name, p, byteCount);
            }
        }

        private void SetBytes(int option, string name, ReadOnlySpan<byte> value, int fixedLength)
        {
            if (fixedLength != 0 && value.Length != fixedLength)
            {
                throw new ArgumentException(
                    "Option " + name + " takes exactly " + fixedLength + " bytes, not " + value.Length + ". (A 40-character Z85 key " +
                    "is text: decode it first; libzmq would take 32 characters typed by mistake as a binary key.)", nameof(value));
            }

            ThrowIfInvalidRoutingId(option, value);
            ThrowIfInvalidCurveKey(option, value);
            fixed (byte* p = &MemoryMarshal.GetReference(value))
            {
                SetRaw(option, name, p, value.Length);
            }
        }

        private const string Z85Alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

        /// <summary>
        /// CURVE key options (whichever key object names them): 32 raw bytes, or 40 Z85 characters with an optional trailing NUL.
        /// libzmq decodes Z85 with <c>strlen</c>, so a NUL inside the text makes it decode a shorter key and report success (a
        /// silently wrong key), and it relies on the 41st byte being the NUL. Both are checked here instead.
        /// </summary>
        private static void ThrowIfInvalidCurveKey(int option, ReadOnlySpan<byte> value)
        {
            if (option < SocketOptions.CurvePublicKey.Id || option > SocketOptions.CurveServerKey.Id || value.Length == 32)
            {
                return;
            }

            if (value.Length == 40 || (value.Length == 41 && value[40] == 0))
            {
                for (int i = 0; i < 40; i++)
                {
                    if (value[i] >= 128 || Z85Alphabet.IndexOf((char)value[i]) < 0)
                    {
                        throw new ArgumentException(
                            "A 40-character CURVE key must be Z85 text; byte " + i + " (0x" + value[i].ToString("X2", System.Globalization.CultureInfo.InvariantCulture) +
                            ") is not a Z85 character.", nameof(value));
                    }
                }

                return;
            }

            throw new ArgumentException(
                "A CURVE key is 32 bytes, or 40 Z85 characters optionally followed by a NUL; not " + value.Length + " bytes" +
                (value.Length == 41 ? " without the NUL." : "."), nameof(value));
        }

        /// <summary>libzmq's rules for routing ids (1-255 bytes; a leading zero byte is reserved for ids libzmq generates).</summary>
        private static void ThrowIfInvalidRoutingId(int option, ReadOnlySpan<byte> value)
        {
            if (option != SocketOptions.RoutingId.Id && option != SocketOptions.ConnectRoutingId.Id)
            {
                return;
            }

            if (value.Length < 1 || value.Length > 255)
            {
                throw new ArgumentException("A routing id must be 1 to 255 bytes long, not " + value.Length + ".", nameof(value));
            }

            if (value[0] == 0)
            {
                throw new ArgumentException("A routing id must not start with a zero byte; libzmq reserves those for its own ids.", nameof(value));
            }
        }

        /// <summary>The one native setter of every option path: after the value checks, before libzmq.</summary>
        private void SetRaw(int option, string name, void* value, int size)
        {
            SocketOptions.ThrowIfDraftMissing(option);
            Enter();
            try
            {
                if (Interop.Zmq.zmq_setsockopt(_socket, option, value, (nuint)size) != 0)
                {
                    ZmqThrow.Option(Interop.Zmq.zmq_errno(), "zmq_setsockopt", (int)Type, option, name);
                }

                OnOptionWritten(option, value, size);
            }
            finally
            {
                Exit();
            }
        }

        private void ThrowIfNot<T>(SocketOption<T> option, OptionAccess needed, string what)
        {
            if (option is null)
            {
                throw new ArgumentNullException(nameof(option));
            }

            ThrowIfNot(option.Access, needed, option.Name, what);
        }

        private void ThrowIfNot(OptionAccess access, OptionAccess needed, string name, string what)
        {
            if (IsDisposed)
            {
                ThrowDisposed();
            }

            if ((access & needed) == 0)
            {
                throw new InvalidOperationException("Socket option " + name + " is " + what + ".");
            }
        }
    }
}
