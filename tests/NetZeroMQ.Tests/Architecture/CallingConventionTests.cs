using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection.PortableExecutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Emit;
using Xunit;

namespace NetZeroMQ.Tests.Architecture
{
    /// <summary>
    /// Every libzmq and libc import, unmanaged function pointer and native callback of both builds of the library declares
    /// cdecl (src/NetZeroMQ/Interop/Interop.Libraries.cs): on 32-bit Windows an undeclared convention is stdcall, and each
    /// call would leave the stack unbalanced. Checked in the compiled metadata (<see cref="CallingConventionAudit"/>); the
    /// netstandard2.0 build's check is in NetZeroMQ.NetStandard.Tests (NetStandardCallingConventionTests), which runs it.
    /// </summary>
    public class CallingConventionTests
    {
        [Fact]
        public void Net8Build_EveryImportPointerAndCallback_DeclaresCdecl()
        {
            CallingConventionAudit audit = CallingConventionAudit.Of(typeof(Context).Assembly.Location);

            Assert.True(audit.Violations.Count == 0, "without cdecl:\n" + string.Join("\n", audit.Violations));
            // The audit saw what the build holds (the counts grow with the interop; they only guard against reading nothing):
            // the libzmq imports, the libc imports the [LibraryImport] generator wrote, the transfer and draft function
            // pointers, and the two zero-copy free callbacks.
            Assert.InRange(audit.Imports, 40, 1000);
            Assert.InRange(audit.FunctionPointers, 25, 10000);
            Assert.Equal(2, audit.Callbacks);
        }

        [Fact]
        public void Audit_ReportsEveryUndeclaredOrOtherConvention_AndNoCdeclOne()
        {
            // The audit itself must be able to fail: an assembly with each kind of declaration, with and without cdecl.
            const string source = @"
using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Fixture
{
    internal static unsafe class Native
    {
        [DllImport(""libzmq"")] internal static extern int undeclared_import();
        [DllImport(""libzmq"", CallingConvention = CallingConvention.StdCall)] internal static extern int stdcall_import();
        [DllImport(""libzmq"", CallingConvention = CallingConvention.Cdecl)] internal static extern int cdecl_import();
        [DllImport(""libzmq"")]
        [UnmanagedCallConv(CallConvs = new[] { typeof(CallConvCdecl) })]
        internal static extern int callconv_import();

        internal static delegate* unmanaged<int> UndeclaredPointer;
        internal static delegate* unmanaged[Stdcall]<int> StdcallPointer;
        internal static delegate* unmanaged[SuppressGCTransition]<int> OnlySuppressPointer;
        internal static delegate* unmanaged[Cdecl]<int> CdeclPointer;
        internal static delegate* unmanaged[Cdecl, SuppressGCTransition]<int> CdeclSuppressPointer;
        internal static delegate*<int> ManagedPointer;

        internal static int CallUndeclared(void* f) => ((delegate* unmanaged<long, int>)f)(1);
        internal static int CallCdecl(void* f) => ((delegate* unmanaged[Cdecl]<short, int>)f)(1);

        [UnmanagedCallersOnly] private static void UndeclaredCallback() { }
        [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })] private static void CdeclCallback() { }

        private delegate void UndeclaredDelegate(IntPtr data);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)] private delegate void CdeclDelegate(IntPtr data);
    }
}";
            using var image = new MemoryStream();
            EmitResult emitted = CSharpCompilation.Create(
                    "CallingConventionFixture",
                    new[] { CSharpSyntaxTree.ParseText(source) },
                    ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator).Select(p => MetadataReference.CreateFromFile(p)),
                    new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, allowUnsafe: true, optimizationLevel: OptimizationLevel.Release))
                .Emit(image);
            Assert.True(emitted.Success, string.Join("\n", emitted.Diagnostics));
            image.Position = 0;
            using var pe = new PEReader(image);

            CallingConventionAudit audit = CallingConventionAudit.Of(pe, type => type.StartsWith("Fixture.", StringComparison.Ordinal));

            string[] expected =
            {
                "import Fixture.Native.undeclared_import ",
                "import Fixture.Native.stdcall_import ",
                "function pointer in field Fixture.Native.UndeclaredPointer:",
                "function pointer in field Fixture.Native.StdcallPointer:",
                "function pointer in field Fixture.Native.OnlySuppressPointer:",
                "function pointer in a calli in Fixture.Native.CallUndeclared:",
                "function pointer in locals of Fixture.Native.CallUndeclared:", // the pointer waits in a local while the argument is pushed
                "callback Fixture.Native.UndeclaredCallback:",
                "callback delegate Fixture.Native+UndeclaredDelegate:",
            };
            foreach (string violation in expected)
            {
                Assert.True(audit.Violations.Count(v => v.StartsWith(violation, StringComparison.Ordinal)) == 1,
                    "expected one violation starting with '" + violation + "' in:\n" + string.Join("\n", audit.Violations));
            }

            Assert.True(expected.Length == audit.Violations.Count, "unexpected violations:\n" + string.Join("\n", audit.Violations));
            Assert.Equal(4, audit.Imports);
            Assert.Equal(4, audit.Callbacks);
            // Five unmanaged pointer fields, and two calls each with its local and its calli, declared and not (the managed
            // delegate*<int> is no transition).
            Assert.Equal(9, audit.FunctionPointers);
        }
    }
}
