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
        internal static bool CanLoadLibraries => s_load is not null;
#endif

        internal static bool TryLoad(string pathOrName, out nint handle) => TryLoad(pathOrName, out handle, out _);

        /// <summary>
        /// Loads a library; on failure, <paramref name="reason"/> is the operating system loader's own explanation in full (on
        /// Linux and macOS the <c>dlerror</c> text, such as "cannot open shared object file: No such file or directory").
        /// </summary>
        internal static bool TryLoad(string pathOrName, out nint handle, out string? reason)
        {
            reason = null;
            try
            {
#if NET
                handle = NativeLibrary.Load(pathOrName);
#else
                if (s_load is null)
                {
                    handle = 0;
                    reason = "this runtime has no NativeLibrary API";
                    return false;
                }

                handle = (IntPtr)s_load.Invoke(null, new object[] { pathOrName })!;
#endif
                return true;
            }
#if !NET
            catch (TargetInvocationException e)
            {
                // Decided here, not in a 'when' filter: src/NetZeroMQ/README.md, "Exception filters".
                if (!(e.InnerException is DllNotFoundException or BadImageFormatException))
                {
                    throw;
                }

                reason = LoaderReason(e.InnerException);
            }
#endif
            catch (DllNotFoundException e)
            {
                reason = LoaderReason(e);
            }
            catch (BadImageFormatException e)
            {
                reason = LoaderReason(e);
            }

            handle = 0;
            return false;
        }

        /// <summary>Whether the loaded library exports <paramref name="name"/> (false where this runtime cannot tell).</summary>
        internal static bool HasExport(nint handle, string name)
        {
#if NET
            return NativeLibrary.TryGetExport(handle, name, out _);
#else
            if (s_tryGetExport is null)
            {
                return false;
            }

            object?[] args = { (IntPtr)handle, name, IntPtr.Zero };
            return (bool)s_tryGetExport.Invoke(null, args)!;
#endif
        }

        /// <summary>Releases a library this class loaded and that will not be used.</summary>
        internal static void Free(nint handle)
        {
#if NET
            NativeLibrary.Free(handle);
#else
            s_free?.Invoke(null, new object[] { (IntPtr)handle });
#endif
        }

        /// <summary>
        /// The loader's explanation inside the runtime's exception. The runtime's message is one generic sentence ("Unable to load
        /// shared library 'x' or one of its dependencies. In order to help diagnose loading problems, consider using a tool like
        /// strace...") and then, on the following lines, the operating system loader's own text: that text is the reason, and it
        /// is kept whole. A message of one line (Windows: "Unable to load DLL 'x' or one of its dependencies: The specified module
        /// could not be found.") is the reason as it stands.
        /// </summary>
        internal static string LoaderReason(Exception e)
        {
            string message = e.Message.Replace("\r\n", "\n");
            int newline = message.IndexOf('\n');
            string osText = newline < 0 ? message : message.Substring(newline + 1);
            string[] lines = osText.Split(new[] { '\n' }, StringSplitOptions.RemoveEmptyEntries);
            for (int i = 0; i < lines.Length; i++)
            {
                lines[i] = lines[i].Trim();
            }

            string reason = string.Join("; ", lines).Trim();
            return reason.Length > 0 ? reason : message.Trim();
        }

#if NET
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
        private static readonly Type? s_nativeLibrary = Type.GetType("System.Runtime.InteropServices.NativeLibrary");

        private static readonly MethodInfo? s_load = s_nativeLibrary?.GetMethod("Load", new[] { typeof(string) });

        private static readonly MethodInfo? s_tryGetExport = s_nativeLibrary?.GetMethod(
            "TryGetExport", new[] { typeof(IntPtr), typeof(string), typeof(IntPtr).MakeByRefType() });

        private static readonly MethodInfo? s_free = s_nativeLibrary?.GetMethod("Free", new[] { typeof(IntPtr) });

        /// <summary>Installs the resolver through reflection when the runtime has NativeLibrary (.NET Core 3.0+).</summary>
        [System.Runtime.CompilerServices.ModuleInitializer]
        internal static void InstallResolver()
        {
            Type? resolverType = Type.GetType("System.Runtime.InteropServices.DllImportResolver");
            MethodInfo? setResolver = s_nativeLibrary?.GetMethod("SetDllImportResolver");
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
