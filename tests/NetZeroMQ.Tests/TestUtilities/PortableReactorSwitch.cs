using System;
using System.Runtime.CompilerServices;

namespace NetZeroMQ.Tests.TestUtilities
{
    /// <summary>
    /// The test run's way to choose the async reactor from outside: the library reads only the AppContext switch
    /// <c>NetZeroMQ.UsePortableReactor</c>, so this module initializer sets it from the environment variable
    /// <see cref="Variable"/> (<c>1</c>: the portable reactor; <c>0</c>: the default) before any test, and before any child
    /// scenario (a child process inherits the variable or is given its own). build.sh's second pass of the async tests sets
    /// it to 1; <c>ReactorChoiceTests</c> checks that the run's reactor is the one it names.
    /// </summary>
    internal static class PortableReactorSwitch
    {
        /// <summary>The environment variable: <c>1</c>, <c>0</c>, or unset (the library's default).</summary>
        internal const string Variable = "NETZEROMQ_TEST_PORTABLE_REACTOR";

        /// <summary>The variable's value when it was neither unset, empty, 0 nor 1 (a typo would otherwise test one reactor
        /// twice); <c>ReactorChoiceTests</c> fails on it.</summary>
        internal static string? InvalidValue { get; private set; }

        [ModuleInitializer]
        internal static void Apply()
        {
            switch (Environment.GetEnvironmentVariable(Variable))
            {
                case null or "":
                    break;
                case "1":
                    AppContext.SetSwitch(ReactorChoice.Switch, true);
                    break;
                case "0":
                    AppContext.SetSwitch(ReactorChoice.Switch, false);
                    break;
                case string other:
                    InvalidValue = other;
                    break;
            }
        }
    }
}
