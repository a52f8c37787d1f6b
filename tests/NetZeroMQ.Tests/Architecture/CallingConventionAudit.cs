using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;

namespace NetZeroMQ.Tests.Architecture
{
    /// <summary>
    /// Reads an assembly's metadata (not its source: what the compiler and the source generators emitted) and lists every
    /// transition to native code whose calling convention is not cdecl, or is left to the platform's default (stdcall on
    /// 32-bit Windows):
    /// 1. every P/Invoke (a method with an ImplMap row: each <c>[DllImport]</c>, and the <c>[DllImport]</c> that
    ///    <c>[LibraryImport]</c>'s generator writes), whose ImplMap says cdecl or which carries
    ///    <c>[UnmanagedCallConv(CallConvs = { typeof(CallConvCdecl) })]</c>;
    /// 2. every unmanaged function pointer type in a signature (fields, method parameters and returns, locals, the call
    ///    sites of <c>calli</c>, references to other assemblies' members), whose convention is <c>unmanaged cdecl</c> or
    ///    <c>unmanaged</c> with a <c>CallConvCdecl</c> modifier;
    /// 3. every <c>[UnmanagedCallersOnly]</c> method (a callback libzmq calls), whose <c>CallConvs</c> name cdecl;
    /// 4. every non-public delegate type (the netstandard2.0 build's callbacks, marshalled with
    ///    <c>Marshal.GetFunctionPointerForDelegate</c>), which carries <c>[UnmanagedFunctionPointer(CallingConvention.Cdecl)]</c>.
    /// </summary>
    internal sealed class CallingConventionAudit
    {
        private const string CallConvCdecl = "System.Runtime.CompilerServices.CallConvCdecl";

        private const int CallingConventionCdeclValue = 2; // System.Runtime.InteropServices.CallingConvention.Cdecl

        private readonly MetadataReader _reader;
        private readonly PEReader _pe;
        private readonly Func<string, bool>? _includeType;
        private readonly SignatureNames _names;
        private readonly List<string> _violations = new List<string>();
        private string? _site; // where the signature being decoded is, for the report

        private CallingConventionAudit(PEReader pe, Func<string, bool>? includeType)
        {
            _pe = pe;
            _reader = pe.GetMetadataReader();
            _includeType = includeType;
            _names = new SignatureNames(this);
        }

        /// <summary>What was found without cdecl, one line each, naming the type and member.</summary>
        internal IReadOnlyList<string> Violations => _violations;

        /// <summary>P/Invoke methods checked.</summary>
        internal int Imports { get; private set; }

        /// <summary>Unmanaged function pointer types checked (each occurrence in a signature).</summary>
        internal int FunctionPointers { get; private set; }

        /// <summary>[UnmanagedCallersOnly] methods and callback delegate types checked.</summary>
        internal int Callbacks { get; private set; }

        /// <summary>
        /// Audits the assembly at <paramref name="path"/>: all of it, or only the types (by full name) that
        /// <paramref name="includeType"/> picks, without the references to other assemblies' members.
        /// </summary>
        internal static CallingConventionAudit Of(string path, Func<string, bool>? includeType = null)
        {
            using var stream = System.IO.File.OpenRead(path);
            using var pe = new PEReader(stream);
            return Of(pe, includeType);
        }

        internal static CallingConventionAudit Of(PEReader pe, Func<string, bool>? includeType = null)
        {
            var audit = new CallingConventionAudit(pe, includeType);
            audit.Run();
            return audit;
        }

        private void Run()
        {
            foreach (TypeDefinitionHandle typeHandle in _reader.TypeDefinitions)
            {
                TypeDefinition type = _reader.GetTypeDefinition(typeHandle);
                string typeName = FullName(type);
                if (_includeType is not null && !_includeType(typeName))
                {
                    continue;
                }

                CheckDelegate(type, typeName);
                foreach (FieldDefinitionHandle fieldHandle in type.GetFields())
                {
                    FieldDefinition field = _reader.GetFieldDefinition(fieldHandle);
                    _site = "field " + typeName + "." + _reader.GetString(field.Name);
                    field.DecodeSignature(_names, null);
                }

                foreach (MethodDefinitionHandle methodHandle in type.GetMethods())
                {
                    MethodDefinition method = _reader.GetMethodDefinition(methodHandle);
                    string methodName = typeName + "." + _reader.GetString(method.Name);
                    _site = "signature of " + methodName;
                    method.DecodeSignature(_names, null);
                    CheckImport(method, methodName);
                    CheckUnmanagedCallersOnly(method, methodName);
                    if (method.RelativeVirtualAddress == 0)
                    {
                        continue;
                    }

                    MethodBodyBlock body = _pe.GetMethodBody(method.RelativeVirtualAddress);
                    if (!body.LocalSignature.IsNil)
                    {
                        _site = "locals of " + methodName;
                        _reader.GetStandaloneSignature(body.LocalSignature).DecodeLocalSignature(_names, null);
                    }

                    foreach (StandaloneSignatureHandle calli in CalliSignatures(body))
                    {
                        // A calli's signature is the called function's own: its header holds the convention.
                        _site = "a calli in " + methodName;
                        MethodSignature<string> called = _reader.GetStandaloneSignature(calli).DecodeMethodSignature(_names, null);
                        FunctionPointer(called, "calli " + called.Header.CallingConvention + "<" +
                            string.Join(", ", called.ParameterTypes.Append(called.ReturnType)) + ">");
                    }
                }
            }

            if (_includeType is null)
            {
                // Everything else that can hold a function pointer type: references to other assemblies' members.
                foreach (MemberReferenceHandle referenceHandle in _reader.MemberReferences)
                {
                    MemberReference reference = _reader.GetMemberReference(referenceHandle);
                    _site = "reference to " + _reader.GetString(reference.Name);
                    if (reference.GetKind() == MemberReferenceKind.Method)
                    {
                        reference.DecodeMethodSignature(_names, null);
                    }
                    else
                    {
                        reference.DecodeFieldSignature(_names, null);
                    }
                }
            }
        }

        private void CheckImport(MethodDefinition method, string methodName)
        {
            if ((method.Attributes & MethodAttributes.PinvokeImpl) == 0)
            {
                return;
            }

            Imports++;
            MethodImport import = method.GetImport();
            MethodImportAttributes convention = import.Attributes & MethodImportAttributes.CallingConventionMask;
            if (convention == MethodImportAttributes.CallingConventionCDecl || NamesCdecl(method.GetCustomAttributes(), "UnmanagedCallConvAttribute"))
            {
                return;
            }

            string module = _reader.GetString(_reader.GetModuleReference(import.Module).Name);
            _violations.Add("import " + methodName + " (" + module + "!" + _reader.GetString(import.Name) + "): " + convention);
        }

        private void CheckUnmanagedCallersOnly(MethodDefinition method, string methodName)
        {
            if (!HasAttribute(method.GetCustomAttributes(), "UnmanagedCallersOnlyAttribute"))
            {
                return;
            }

            Callbacks++;
            if (!NamesCdecl(method.GetCustomAttributes(), "UnmanagedCallersOnlyAttribute"))
            {
                _violations.Add("callback " + methodName + ": [UnmanagedCallersOnly] without CallConvs = { typeof(CallConvCdecl) }");
            }
        }

        private void CheckDelegate(TypeDefinition type, string typeName)
        {
            bool isDelegate = !type.BaseType.IsNil && BaseName(type.BaseType) == "System.MulticastDelegate";
            if (!isDelegate || (type.Attributes & TypeAttributes.VisibilityMask) is TypeAttributes.Public or TypeAttributes.NestedPublic)
            {
                return;
            }

            Callbacks++;
            foreach (CustomAttributeHandle handle in type.GetCustomAttributes())
            {
                CustomAttribute attribute = _reader.GetCustomAttribute(handle);
                if (AttributeName(attribute) == "UnmanagedFunctionPointerAttribute"
                    && attribute.DecodeValue(_names).FixedArguments.Single().Value is int value && value == CallingConventionCdeclValue)
                {
                    return;
                }
            }

            _violations.Add("callback delegate " + typeName + ": no [UnmanagedFunctionPointer(CallingConvention.Cdecl)]");
        }

        /// <summary>Called for every function pointer type the signatures hold.</summary>
        private void FunctionPointer(MethodSignature<string> signature, string text)
        {
            SignatureCallingConvention convention = signature.Header.CallingConvention;
            if (convention == SignatureCallingConvention.Default)
            {
                return; // a managed function pointer (delegate*<...>): no native transition
            }

            FunctionPointers++;
            bool cdecl = convention == SignatureCallingConvention.CDecl
                || (convention == SignatureCallingConvention.Unmanaged && signature.ReturnType.Contains("modopt(" + CallConvCdecl + ")", StringComparison.Ordinal));
            if (!cdecl)
            {
                _violations.Add("function pointer in " + _site + ": " + text);
            }
        }

        private bool NamesCdecl(CustomAttributeHandleCollection attributes, string attributeName)
        {
            foreach (CustomAttributeHandle handle in attributes)
            {
                CustomAttribute attribute = _reader.GetCustomAttribute(handle);
                if (AttributeName(attribute) != attributeName)
                {
                    continue;
                }

                foreach (CustomAttributeNamedArgument<string> argument in attribute.DecodeValue(_names).NamedArguments)
                {
                    if (argument.Name == "CallConvs" && argument.Value is ImmutableArray<CustomAttributeTypedArgument<string>> types
                        && types.Any(t => t.Value is string name && (name == CallConvCdecl || name.StartsWith(CallConvCdecl + ",", StringComparison.Ordinal))))
                    {
                        return true;
                    }
                }
            }

            return false;
        }

        private bool HasAttribute(CustomAttributeHandleCollection attributes, string attributeName) =>
            attributes.Any(handle => AttributeName(_reader.GetCustomAttribute(handle)) == attributeName);

        private string AttributeName(CustomAttribute attribute)
        {
            EntityHandle parent = attribute.Constructor.Kind == HandleKind.MemberReference
                ? _reader.GetMemberReference((MemberReferenceHandle)attribute.Constructor).Parent
                : _reader.GetMethodDefinition((MethodDefinitionHandle)attribute.Constructor).GetDeclaringType();
            return parent.Kind switch
            {
                HandleKind.TypeReference => _reader.GetString(_reader.GetTypeReference((TypeReferenceHandle)parent).Name),
                HandleKind.TypeDefinition => _reader.GetString(_reader.GetTypeDefinition((TypeDefinitionHandle)parent).Name),
                _ => string.Empty,
            };
        }

        private string BaseName(EntityHandle handle) => handle.Kind switch
        {
            HandleKind.TypeReference => Name(_reader.GetTypeReference((TypeReferenceHandle)handle)),
            HandleKind.TypeDefinition => FullName(_reader.GetTypeDefinition((TypeDefinitionHandle)handle)),
            _ => string.Empty,
        };

        private string Name(TypeReference type) =>
            (type.Namespace.IsNil ? string.Empty : _reader.GetString(type.Namespace) + ".") + _reader.GetString(type.Name);

        private string FullName(TypeDefinition type)
        {
            string name = _reader.GetString(type.Name);
            TypeDefinitionHandle declaring = type.GetDeclaringType();
            if (!declaring.IsNil)
            {
                return FullName(_reader.GetTypeDefinition(declaring)) + "+" + name;
            }

            return type.Namespace.IsNil ? name : _reader.GetString(type.Namespace) + "." + name;
        }

        /// <summary>
        /// The signatures of the <c>calli</c> instructions of a method body: the IL is walked instruction by instruction (an
        /// operand is never mistaken for an opcode).
        /// </summary>
        private static IEnumerable<StandaloneSignatureHandle> CalliSignatures(MethodBodyBlock body)
        {
            BlobReader il = body.GetILReader();
            var found = new List<StandaloneSignatureHandle>();
            while (il.RemainingBytes > 0)
            {
                int opcode = il.ReadByte();
                if (opcode == 0xFE)
                {
                    opcode = 0xFE00 | il.ReadByte();
                }

                if (opcode == 0x29)
                {
                    found.Add((StandaloneSignatureHandle)MetadataTokens.EntityHandle(il.ReadInt32()));
                    continue;
                }

                il.Offset += OperandSize(opcode, ref il);
            }

            return found;
        }

        /// <summary>The operand size of an IL opcode (ECMA-335 III); for <c>switch</c> its table is read past too.</summary>
        private static int OperandSize(int opcode, ref BlobReader il)
        {
            switch (opcode)
            {
                case 0x0E: case 0x0F: case 0x10: case 0x11: case 0x12: case 0x13: // ldarg.s .. stloc.s
                case 0x1F: // ldc.i4.s
                case 0xDE: // leave.s
                case 0xFE12: // unaligned.
                case 0xFE19: // no.
                    return 1;
                case 0xFE09: case 0xFE0A: case 0xFE0B: case 0xFE0C: case 0xFE0D: case 0xFE0E: // ldarg .. stloc
                    return 2;
                case 0x21: case 0x23: // ldc.i8, ldc.r8
                    return 8;
                case 0x45: // switch: a count, then that many 4-byte targets
                    return il.ReadInt32() * 4;
            }

            if (opcode >= 0x2B && opcode <= 0x37)
            {
                return 1; // short branches
            }

            if ((opcode >= 0x38 && opcode <= 0x44) || opcode == 0xDD)
            {
                return 4; // branches, leave
            }

            return opcode switch
            {
                0x20 or 0x22 => 4, // ldc.i4, ldc.r4
                0x27 or 0x28 or 0x6F or 0x70 or 0x71 or 0x72 or 0x73 or 0x74 or 0x75 or 0x79 or 0x7B or 0x7C or 0x7D or 0x7E
                    or 0x7F or 0x80 or 0x81 or 0x8C or 0x8D or 0x8F or 0xA3 or 0xA4 or 0xA5 or 0xC2 or 0xC6 or 0xD0
                    or 0xFE06 or 0xFE07 or 0xFE15 or 0xFE16 or 0xFE1C => 4, // tokens
                _ => 0,
            };
        }

        /// <summary>Signature types as text; reports each function pointer to the audit as it is decoded.</summary>
        private sealed class SignatureNames : ISignatureTypeProvider<string, object?>, ICustomAttributeTypeProvider<string>
        {
            private readonly CallingConventionAudit _audit;

            internal SignatureNames(CallingConventionAudit audit) => _audit = audit;

            public string GetFunctionPointerType(MethodSignature<string> signature)
            {
                string text = "delegate* " + signature.Header.CallingConvention + "<" +
                    string.Join(", ", signature.ParameterTypes.Append(signature.ReturnType)) + ">";
                _audit.FunctionPointer(signature, text);
                return text;
            }

            public string GetModifiedType(string modifier, string unmodifiedType, bool isRequired) =>
                unmodifiedType + (isRequired ? " modreq(" : " modopt(") + modifier + ")";

            public string GetArrayType(string elementType, ArrayShape shape) => elementType + "[" + new string(',', shape.Rank - 1) + "]";

            public string GetByReferenceType(string elementType) => "ref " + elementType;

            public string GetGenericInstantiation(string genericType, ImmutableArray<string> typeArguments) =>
                genericType + "<" + string.Join(", ", typeArguments) + ">";

            public string GetGenericMethodParameter(object? genericContext, int index) => "!!" + index;

            public string GetGenericTypeParameter(object? genericContext, int index) => "!" + index;

            public string GetPinnedType(string elementType) => elementType + " pinned";

            public string GetPointerType(string elementType) => elementType + "*";

            public string GetPrimitiveType(PrimitiveTypeCode typeCode) => typeCode.ToString();

            public string GetSZArrayType(string elementType) => elementType + "[]";

            public string GetTypeFromDefinition(MetadataReader reader, TypeDefinitionHandle handle, byte rawTypeKind) =>
                _audit.FullName(reader.GetTypeDefinition(handle));

            public string GetTypeFromReference(MetadataReader reader, TypeReferenceHandle handle, byte rawTypeKind) =>
                _audit.Name(reader.GetTypeReference(handle));

            public string GetTypeFromSpecification(MetadataReader reader, object? genericContext, TypeSpecificationHandle handle, byte rawTypeKind) =>
                reader.GetTypeSpecification(handle).DecodeSignature(this, genericContext);

            public string GetSystemType() => "System.Type";

            public bool IsSystemType(string type) => type == "System.Type";

            public string GetTypeFromSerializedName(string name) => name;

            public PrimitiveTypeCode GetUnderlyingEnumType(string type) => PrimitiveTypeCode.Int32;
        }
    }
}
