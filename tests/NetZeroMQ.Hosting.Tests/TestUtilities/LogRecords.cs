using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Logging;

namespace NetZeroMQ.Hosting.Tests.TestUtilities
{
    /// <summary>A logger provider that keeps every record (category, level, event id, message, exception) for assertions.</summary>
    internal sealed class LogRecords : ILoggerProvider
    {
        private readonly List<LogRecord> _records = new List<LogRecord>();

        internal IReadOnlyList<LogRecord> All
        {
            get
            {
                lock (_records)
                {
                    return _records.ToArray();
                }
            }
        }

        internal IEnumerable<LogRecord> WithId(int eventId) => All.Where(r => r.EventId.Id == eventId);

        /// <summary>Waits until a record with the event id satisfies the condition; fails the test after the timeout.</summary>
        internal async Task<LogRecord> WaitForAsync(int eventId, Func<LogRecord, bool>? condition = null)
        {
            DateTime end = DateTime.UtcNow + TestHosts.Timeout;
            while (DateTime.UtcNow < end)
            {
                LogRecord? record = WithId(eventId).FirstOrDefault(r => condition is null || condition(r));
                if (record is not null)
                {
                    return record;
                }

                await Task.Delay(20);
            }

            throw new TimeoutException("No log record with event id " + eventId + " came; records: " + string.Join(" | ", All.Select(r => r.EventId.Id + " " + r.Message)));
        }

        public ILogger CreateLogger(string categoryName) => new Logger(this, categoryName);

        public void Dispose()
        {
        }

        internal sealed record LogRecord(string Category, LogLevel Level, EventId EventId, string Message, Exception? Exception);

        private sealed class Logger : ILogger
        {
            private readonly LogRecords _owner;
            private readonly string _category;

            public Logger(LogRecords owner, string category)
            {
                _owner = owner;
                _category = category;
            }

            public IDisposable? BeginScope<TState>(TState state)
                where TState : notnull => null;

            public bool IsEnabled(LogLevel logLevel) => true;

            public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
            {
                lock (_owner._records)
                {
                    _owner._records.Add(new LogRecord(_category, logLevel, eventId, formatter(state, exception), exception));
                }
            }
        }
    }
}
