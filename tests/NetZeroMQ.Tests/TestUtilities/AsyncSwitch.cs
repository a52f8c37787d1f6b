using System;
using System.Runtime.CompilerServices;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// The test run's way to set the library's async AppContext switches from outside: the library reads only the switches,
    /// so this module initializer sets each from its environment variable (<c>1</c>: on; <c>0</c>: off; unset or empty: the
    /// library's default) before any test, and before any child scenario (a child process inherits the variables or is given
    /// its own). build.sh runs the async tests again with each set to 1; <c>ReactorChoiceTests</c> and
    /// <c>InlineCompletionTests</c> check that the run is the one the variables name.
    /// </summary>
    internal sealed class AsyncSwitch
    {
        /// <summary>The portable reactor (<c>NetZeroMQ.UsePortableReactor</c>).</summary>
        internal static readonly AsyncSwitch PortableReactor = new AsyncSwitch("NETZEROMQ_TEST_PORTABLE_REACTOR", ReactorChoice.Switch);

        /// <summary>Continuations on the reactor thread (<c>NetZeroMQ.InlineAsyncCompletions</c>).</summary>
        internal static readonly AsyncSwitch InlineCompletions =
            new AsyncSwitch("NETZEROMQ_TEST_INLINE_COMPLETIONS", NetZeroMQ.InlineCompletions.Switch);

        private readonly string _switch;

        private AsyncSwitch(string variable, string appContextSwitch)
        {
            Variable = variable;
            _switch = appContextSwitch;
        }

        /// <summary>The environment variable: <c>1</c>, <c>0</c>, or unset.</summary>
        internal string Variable { get; }

        /// <summary>The variable's value when it was neither unset, empty, 0 nor 1 (a typo would otherwise test one setting
        /// twice); the tests named above fail on it.</summary>
        internal string? InvalidValue { get; private set; }

        [ModuleInitializer]
        internal static void Apply()
        {
            PortableReactor.ApplyFromEnvironment();
            InlineCompletions.ApplyFromEnvironment();
        }

        private void ApplyFromEnvironment()
        {
            switch (Environment.GetEnvironmentVariable(Variable))
            {
                case null or "":
                    break;
                case "1":
                    AppContext.SetSwitch(_switch, true);
                    break;
                case "0":
                    AppContext.SetSwitch(_switch, false);
                    break;
                case string other:
                    InvalidValue = other;
                    break;
            }
        }
    }
}
