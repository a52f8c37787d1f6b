using System;
using System.Reflection;
using System.Runtime.InteropServices;

namespace NetZeroMQ
{
    /// <summary>
    /// Loads native libraries and installs the import resolver. On modern .NET this is <c>NativeLibrary</c>; the
    /// netstandard2.0 build reaches the same API by reflection when it runs on .NET Core 3.0 or later, and otherwise leaves
    /// probing to the runtime (on .NET Framework and Mono, a libzmq.dll next to the application is found as usual).
    /// </summary>
    internal static class NativeLoader
    {
#if NET
        /// <summary>Whether this runtime can load native libraries by path (NativeLibrary): always on modern .NET.</summary>
        internal static bool CanLoadLibraries => true;
#else
        /// <summary>Whether this runtime can load native libraries by path (NativeLibrary, .NET Core 3.0+).</summary>
        internal static bool CanLoadLibraries => s_tryLoad is not null;
#endif

        internal static bool TryLoad(string pathOrName, out nint handle) => TryLoad(pathOrName, out handle, out _);

        internal static bool TryLoad(string pathOrName, out nint handle, out string? error)
        {
            error = null;
#if NET
            try
            {
                handle = NativeLibrary.Load(pathOrName);
                return true;
            }
            catch (DllNotFoundException e)
            {
                error = FirstLine(e.Message);
            }
            catch (BadImageFormatException e)
            {
                error = "wrong architecture: " + FirstLine(e.Message);
            }

            handle = 0;
            return false;
#else
            if (s_tryLoad is null)
            {
                handle = 0;
                error = "no NativeLibrary on this runtime";
                return false;
            }

            object?[] args = { pathOrName, IntPtr.Zero };
            bool ok = (bool)s_tryLoad.Invoke(null, args)!;
            handle = ok ? (IntPtr)args[1]! : 0;
            if (!ok)
            {
                error = "not found or not loadable";
            }

            return ok;
#endif
        }

#if NET
        private static string FirstLine(string message)
        {
            int newline = message.IndexOf('\n');
            return newline < 0 ? message : message.Substring(0, newline).TrimEnd();
        }

        // CA2255 warns that module initializers are for applications; a library whose every P/Invoke depends on its resolver is
        // the case they exist for: the resolver must be in place before the first call, whichever public type is touched first.
#pragma warning disable CA2255
        [System.Runtime.CompilerServices.ModuleInitializer]
#pragma warning restore CA2255
        internal static void InstallResolver()
        {
            NativeLibrary.SetDllImportResolver(typeof(NativeLoader).Assembly, static (name, _, _) => LibzmqResolver.Resolve(name));
        }
#else
        private static readonly MethodInfo? s_tryLoad =
            Type.GetType("System.Runtime.InteropServices.NativeLibrary")?.GetMethod(
                "TryLoad", new[] { typeof(string), typeof(IntPtr).MakeByRefType() });

        /// <summary>Installs the resolver through reflection when the runtime has NativeLibrary (.NET Core 3.0+).</summary>
        [System.Runtime.CompilerServices.ModuleInitializer]
        internal static void InstallResolver()
        {
            Type? nativeLibrary = Type.GetType("System.Runtime.InteropServices.NativeLibrary");
            Type? resolverType = Type.GetType("System.Runtime.InteropServices.DllImportResolver");
            MethodInfo? setResolver = nativeLibrary?.GetMethod("SetDllImportResolver");
            if (resolverType is null || setResolver is null)
            {
                return;
            }

            MethodInfo callback = typeof(NativeLoader).GetMethod(nameof(ResolveForRuntime), BindingFlags.NonPublic | BindingFlags.Static)!;
            Delegate resolver = Delegate.CreateDelegate(resolverType, callback);
            setResolver.Invoke(null, new object[] { typeof(NativeLoader).Assembly, resolver });
        }

        private static IntPtr ResolveForRuntime(string libraryName, Assembly assembly, DllImportSearchPath? searchPath) =>
            LibzmqResolver.Resolve(libraryName);
#endif
    }
}
