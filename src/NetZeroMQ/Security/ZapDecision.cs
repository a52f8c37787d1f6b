using System;
using System.Text;

namespace NetZeroMQ
{
    /// <summary>
    /// The answer to one ZAP request (RFC 27): a status code, a status text and, when allowed, the user id libzmq attaches to
    /// the peer's messages as their <c>User-Id</c> property (<see cref="Message.UserId"/>).
    /// </summary>
    /// <remarks>Fail closed: <c>default(ZapDecision)</c> is not an allow; an authenticator answers it with 500.</remarks>
    public readonly struct ZapDecision : IEquatable<ZapDecision>
    {
        private readonly string? _statusText;
        private readonly string? _userId;

        private ZapDecision(int statusCode, string statusText, string userId)
        {
            StatusCode = statusCode;
            _statusText = statusText;
            _userId = userId;
        }

        /// <summary>200 allowed, 300 temporary failure, 400 authentication failure, 500 internal error; 0 for <c>default</c>.</summary>
        public int StatusCode { get; }

        /// <summary>A short reason, for logs (never a credential).</summary>
        public string StatusText => _statusText ?? string.Empty;

        /// <summary>The user id given to an allowed peer; empty otherwise.</summary>
        public string UserId => _userId ?? string.Empty;

        /// <summary>Whether this allows the connection (status 200).</summary>
        public bool IsAllowed => StatusCode == 200;

        /// <summary>Allows the connection (200).</summary>
        /// <param name="userId">The user id receivers see as <c>User-Id</c>; at most 255 UTF-8 bytes. Empty for none.</param>
        /// <returns>The decision.</returns>
        /// <exception cref="ArgumentException"><paramref name="userId"/> is over 255 UTF-8 bytes or contains a NUL.</exception>
        public static ZapDecision Allow(string userId = "")
        {
            ThrowIfInvalidText(userId ?? string.Empty, nameof(userId));
            return new ZapDecision(200, "OK", userId ?? string.Empty);
        }

        /// <summary>Denies the connection as an authentication failure (400).</summary>
        /// <param name="statusText">The reason, for logs; at most 255 UTF-8 bytes. Never put a credential here.</param>
        /// <returns>The decision.</returns>
        /// <exception cref="ArgumentException"><paramref name="statusText"/> is over 255 UTF-8 bytes or contains a NUL.</exception>
        public static ZapDecision Deny(string statusText = "Denied") => Failure(400, statusText);

        /// <summary>Denies the connection as a temporary failure (300): the client may try again later.</summary>
        /// <param name="statusText">The reason, for logs; at most 255 UTF-8 bytes.</param>
        /// <returns>The decision.</returns>
        /// <exception cref="ArgumentException"><paramref name="statusText"/> is over 255 UTF-8 bytes or contains a NUL.</exception>
        public static ZapDecision TemporaryFailure(string statusText = "Try again later") => Failure(300, statusText);

        /// <summary>Denies the connection because the authenticator itself failed (500).</summary>
        /// <param name="statusText">The reason, for logs; at most 255 UTF-8 bytes.</param>
        /// <returns>The decision.</returns>
        /// <exception cref="ArgumentException"><paramref name="statusText"/> is over 255 UTF-8 bytes or contains a NUL.</exception>
        public static ZapDecision InternalError(string statusText = "Internal error") => Failure(500, statusText);

        /// <inheritdoc/>
        public bool Equals(ZapDecision other) =>
            StatusCode == other.StatusCode && StatusText == other.StatusText && UserId == other.UserId;

        /// <inheritdoc/>
        public override bool Equals(object? obj) => obj is ZapDecision other && Equals(other);

        /// <inheritdoc/>
        public override int GetHashCode() => StatusCode ^ StatusText.GetHashCode() ^ UserId.GetHashCode();

        /// <summary>For example "200 OK (user alice)" or "400 Unknown key".</summary>
        /// <returns>The text.</returns>
        public override string ToString() =>
            StatusCode + " " + StatusText + (UserId.Length != 0 ? " (user " + UserId + ")" : string.Empty);

        /// <summary>Whether two decisions are equal.</summary>
        /// <param name="left">A decision.</param>
        /// <param name="right">A decision.</param>
        /// <returns>True if equal.</returns>
        public static bool operator ==(ZapDecision left, ZapDecision right) => left.Equals(right);

        /// <summary>Whether two decisions differ.</summary>
        /// <param name="left">A decision.</param>
        /// <param name="right">A decision.</param>
        /// <returns>True if not equal.</returns>
        public static bool operator !=(ZapDecision left, ZapDecision right) => !left.Equals(right);

        private static ZapDecision Failure(int code, string statusText)
        {
            ThrowIfInvalidText(statusText ?? string.Empty, nameof(statusText));
            return new ZapDecision(code, statusText ?? string.Empty, string.Empty);
        }

        private static void ThrowIfInvalidText(string value, string paramName)
        {
            if (value.IndexOf('\0') >= 0 || Encoding.UTF8.GetByteCount(value) > 255)
            {
                throw new ArgumentException("A ZAP " + paramName + " is at most 255 UTF-8 bytes, without NUL.", paramName);
            }
        }
    }
}
