using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Text;
using NetZeroMQ.Tests.TestUtilities;

namespace NetZeroMQ.Tests.Security
{
    /// <summary>
    /// A pyzmq peer: Debian's <c>/usr/bin/python3</c> (which has pyzmq; the python3 on PATH may not) running an inline script
    /// in a child process. Lines it prints are read with a timeout; the process is killed on dispose. A missing python3 or
    /// pyzmq is a failure, not a skip (<c>./build.sh</c> installs python3-zmq).
    /// </summary>
    internal sealed class PythonPeer : IDisposable
    {
        private const string Python = "/usr/bin/python3";

        private readonly Process _process;
        private readonly BlockingCollection<string> _lines = new BlockingCollection<string>();
        private readonly StringBuilder _errors = new StringBuilder();

        internal PythonPeer(string script, params string[] arguments)
        {
            var start = new ProcessStartInfo(Python)
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            };
            start.ArgumentList.Add("-u");
            start.ArgumentList.Add("-c");
            start.ArgumentList.Add(script);
            foreach (string argument in arguments)
            {
                start.ArgumentList.Add(argument);
            }

            _process = new Process { StartInfo = start };
            _process.OutputDataReceived += (_, e) =>
            {
                if (e.Data is null)
                {
                    _lines.CompleteAdding();
                }
                else
                {
                    _lines.Add(e.Data);
                }
            };
            _process.ErrorDataReceived += (_, e) =>
            {
                lock (_errors)
                {
                    _errors.AppendLine(e.Data);
                }
            };
            _process.Start();
            _process.BeginOutputReadLine();
            _process.BeginErrorReadLine();
        }

        /// <summary>The next line the script printed, waiting at most <see cref="TestTimeouts.Expected"/>.</summary>
        internal string ReadLine()
        {
            if (_lines.TryTake(out string? line, TestTimeouts.Expected))
            {
                return line;
            }

            throw new TimeoutException("pyzmq peer printed nothing more; exited: " + _process.HasExited + "; stderr:\n" + Errors);
        }

        /// <summary>The next line, which must start with <paramref name="prefix"/> and a space; returns the rest.</summary>
        internal string ReadValue(string prefix)
        {
            string line = ReadLine();
            if (!line.StartsWith(prefix + " ", StringComparison.Ordinal))
            {
                throw new InvalidOperationException("Expected '" + prefix + " ...' from pyzmq, got '" + line + "'; stderr:\n" + Errors);
            }

            return line.Substring(prefix.Length + 1);
        }

        /// <summary>Waits (bounded) for the script to end and returns its exit code.</summary>
        internal int WaitForExit()
        {
            if (!_process.WaitForExit((int)TestTimeouts.Expected.TotalMilliseconds))
            {
                throw new TimeoutException("pyzmq peer did not exit; stderr:\n" + Errors);
            }

            _process.WaitForExit();
            return _process.ExitCode;
        }

        internal string Errors
        {
            get
            {
                lock (_errors)
                {
                    return _errors.ToString();
                }
            }
        }

        public void Dispose()
        {
            try
            {
                if (!_process.HasExited)
                {
                    _process.Kill(entireProcessTree: true);
                    _process.WaitForExit((int)TestTimeouts.Expected.TotalMilliseconds);
                }
            }
            catch (InvalidOperationException)
            {
                // Already gone.
            }

            _process.Dispose();
        }
    }
}
