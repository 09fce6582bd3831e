internal import CLibSecretShims

/// The GVariant reads and builds Swift makes itself, with the non-variadic
/// functions (g_variant_new is varargs): tuples and their children, strings,
/// object paths and byte arrays. Replies come with the types the call asked
/// GDBus for, so the reads need no check of their own.
enum GVariantReading {
    /// GVariant's type "y", the element type of a byte array; never freed.
    nonisolated(unsafe) private static let byteType = g_variant_type_new("y")!

    /// The child at `index` of a tuple, which the caller unrefs.
    static func child(_ value: OpaquePointer, _ index: Int) -> OpaquePointer {
        g_variant_get_child_value(value, gsize(index))!
    }

    /// The string or object path at `index` of a tuple.
    static func string(_ value: OpaquePointer, _ index: Int) -> String {
        let child = child(value, index)
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }

    /// The object paths ("ao") at `index` of a tuple.
    static func objectPaths(_ value: OpaquePointer, _ index: Int) -> [String] {
        let child = child(value, index)
        defer { g_variant_unref(child) }
        return CStringArray.take(g_variant_dup_objv(child, nil))
    }

    /// The D-Bus signature of `value`'s type, such as "(bv)".
    static func type(of value: OpaquePointer) -> String {
        String(cString: g_variant_get_type_string(value))
    }

    /// Whether `value` is a byte array ("ay").
    static func isBytes(_ value: OpaquePointer) -> Bool {
        type(of: value) == "ay"
    }

    /// A floating "(ao)" holding the valid object paths of `paths` (the argument of Service.Unlock).
    static func objectPathsTuple(_ paths: [String]) -> OpaquePointer {
        var children: [OpaquePointer?] = [
            CStringArray.with(paths.filter { g_variant_is_object_path($0) != 0 }) { g_variant_new_objv($0, -1) }
        ]
        return g_variant_new_tuple(&children, 1)
    }

    /// Lends the bytes of a byte array ("ay").
    static func withBytes<Result>(_ value: OpaquePointer, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
        -> Result
    {
        var count: gsize = 0
        let start = g_variant_get_fixed_array(value, &count, 1)
        return try body(UnsafeRawBufferPointer(start: start, count: Int(count)))
    }

    /// A floating byte array ("ay") holding a copy of `bytes`.
    static func bytes(_ bytes: [UInt8]) -> OpaquePointer {
        guard !bytes.isEmpty else {
            // An empty array still needs a valid pointer.
            var none: UInt8 = 0
            return g_variant_new_fixed_array(byteType, &none, 0, 1)!
        }
        return bytes.withUnsafeBytes { g_variant_new_fixed_array(byteType, $0.baseAddress, gsize($0.count), 1)! }
    }

    /// A floating tuple of `children` (each floating, or owned by the caller).
    static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer {
        var children = children
        return g_variant_new_tuple(&children, gsize(children.count))
    }

    /// A floating "(s)": the argument of a method that takes one string, such as NameHasOwner.
    static func stringTuple(_ value: String) -> OpaquePointer {
        tuple([g_variant_new_string(value)])
    }

    /// A floating "(ss)": the arguments of Properties.Get, the interface and the property.
    static func propertyTuple(_ interface: String, _ property: String) -> OpaquePointer {
        tuple([g_variant_new_string(interface), g_variant_new_string(property)])
    }

    /// The boolean at `index` of a tuple.
    static func boolean(_ value: OpaquePointer, _ index: Int) -> Bool {
        let child = child(value, index)
        defer { g_variant_unref(child) }
        return g_variant_get_boolean(child) != 0
    }

    /// The 32-bit unsigned integer at `index` of a tuple.
    static func uint32(_ value: OpaquePointer, _ index: Int) -> UInt32 {
        let child = child(value, index)
        defer { g_variant_unref(child) }
        return g_variant_get_uint32(child)
    }

    /// The strings ("as") at `index` of a tuple.
    static func strings(_ value: OpaquePointer, _ index: Int) -> [String] {
        let child = child(value, index)
        defer { g_variant_unref(child) }
        return CStringArray.take(g_variant_dup_strv(child, nil))
    }

    /// A floating "a{sv}" of `entries`, each value floating (g_variant_builder_add is varargs).
    static func dictionary(_ entries: [(String, OpaquePointer)]) -> OpaquePointer {
        var children: [OpaquePointer?] = entries.map {
            g_variant_new_dict_entry(g_variant_new_string($0.0), g_variant_new_variant($0.1))
        }
        let entryType = g_variant_type_new("{sv}")
        defer { g_variant_type_free(entryType) }
        return g_variant_new_array(entryType, &children, gsize(children.count))
    }
}
