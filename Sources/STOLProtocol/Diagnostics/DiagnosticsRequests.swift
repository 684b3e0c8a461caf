/// `diagnostics/setEnabled`: turns the local diagnostics log on or off, and remembers it.
public struct DiagnosticsSetEnabledRequest: RPCRequest, Hashable {
    public typealias Response = DiagnosticsStatus
    public static let method = "diagnostics/setEnabled"
    public static let ordering = MethodOrdering.writes(OrderedResource.diagnostics)

    public var enabled: Bool

    public init(enabled: Bool) {
        self.enabled = enabled
    }
}

/// `diagnostics/status`: whether the log is on, and its size.
public struct DiagnosticsStatusRequest: RPCRequest, Hashable {
    public typealias Response = DiagnosticsStatus
    public static let method = "diagnostics/status"
    public static let ordering = MethodOrdering.reads(OrderedResource.diagnostics)
    public init() {}
}

/// `diagnostics/export`: the log as redacted text, for the user to read and share.
public struct DiagnosticsExportRequest: RPCRequest, Hashable {
    public typealias Response = ExportedText
    public static let method = "diagnostics/export"
    public static let ordering = MethodOrdering.reads(OrderedResource.diagnostics)
    public init() {}
}

/// `diagnostics/delete`: deletes every diagnostics file.
public struct DiagnosticsDeleteRequest: RPCRequest, Hashable {
    public typealias Response = DiagnosticsStatus
    public static let method = "diagnostics/delete"
    public static let ordering = MethodOrdering.writes(OrderedResource.diagnostics)
    public init() {}
}

/// `diagnostics/didChange {enabled}`: another engine on the same data directory turned the log
/// on or off.
public struct DiagnosticsDidChangeNotification: RPCNotification, Hashable {
    public static let method = "diagnostics/didChange"

    public var enabled: Bool

    public init(enabled: Bool) {
        self.enabled = enabled
    }
}

/// Whether the diagnostics log is on, and its size on disk.
public struct DiagnosticsStatus: Codable, Hashable, Sendable {
    public var enabled: Bool
    public var bytes: Int64

    public init(enabled: Bool, bytes: Int64) {
        self.enabled = enabled
        self.bytes = bytes
    }
}
