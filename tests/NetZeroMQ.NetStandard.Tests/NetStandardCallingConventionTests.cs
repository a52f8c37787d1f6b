using System.Reflection;
using System.Runtime.Versioning;
using NetZeroMQ.Tests.Architecture;
using Xunit;

namespace NetZeroMQ.NetStandard.Tests
{
    /// <summary>
    /// The netstandard2.0 build declares cdecl on every libzmq and libc import and on its callback delegates, as the net8.0
    /// build does (NetZeroMQ.Tests' Architecture/CallingConventionTests, which also proves the audit fails on an undeclared
    /// one). This build has no function pointers: its per-message calls are plain imports, and its callbacks are delegates
    /// marshalled by Marshal.GetFunctionPointerForDelegate, whose convention is the delegate type's
    /// [UnmanagedFunctionPointer] (stdcall on 32-bit Windows without it).
    /// </summary>
    public class NetStandardCallingConventionTests
    {
        [Fact]
        public void NetStandardBuild_EveryImportAndCallbackDelegate_DeclaresCdecl()
        {
            Assembly library = typeof(Context).Assembly;
            Assert.Equal(".NETStandard,Version=v2.0", library.GetCustomAttribute<TargetFrameworkAttribute>()?.FrameworkName);

            CallingConventionAudit audit = CallingConventionAudit.Of(library.Location);

            Assert.True(audit.Violations.Count == 0, "without cdecl:\n" + string.Join("\n", audit.Violations));
            // What the build holds (the counts only guard against reading nothing): every libzmq import, the per-message
            // ones included, the libc imports, and the two zero-copy free callback delegates.
            Assert.InRange(audit.Imports, 45, 1000);
            Assert.Equal(0, audit.FunctionPointers);
            Assert.Equal(2, audit.Callbacks);
        }
    }
}
