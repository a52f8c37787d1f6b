#if NET
// Every import of this assembly is blittable (pointers, integers, blittable structs), so one plain [DllImport] serves both
// targets and needs no marshalling stub. Disabling runtime marshalling on net8.0 keeps that honest: a declaration that would
// need marshalling (a string, a bool, a ref parameter, SetLastError) no longer compiles into a silent stub but fails. The few
// libc calls that need errno use [LibraryImport], whose generated code reads errno itself.
[assembly: System.Runtime.CompilerServices.DisableRuntimeMarshalling]
#endif
