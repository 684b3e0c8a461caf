import Foundation

/// The `.stol` envelope: a signed, gzip-compressed taxonomy database.
///
/// ```
/// offset  size  field
///      0     8  magic "STOL\0DB\x01" (53 54 4F 4C 00 44 42 01)
///      8     4  schema_version, unsigned little-endian
///     12    32  SHA-256 of the gzip payload (every byte from offset 108 to the end)
///     44    64  Ed25519 detached signature of the signed message below
///    108     …  gzip payload (one or more members) inflating to a SQLite database
/// ```
/// The signed message is 36 bytes: the 32-byte SHA-256 followed by the 4-byte little-endian
/// schema_version, so neither can be altered without the signature failing.
///
/// Media packs use the same envelope with the magic `STOL\0MP\x01`; their signed message also
/// ends with that magic, so a signed database can never pass as a media pack or the reverse.
public enum StolFormat {
    public static let magic: [UInt8] = Kind.database.magic

    /// What a signed file holds.
    public enum Kind: Sendable, Equatable {
        case database, media

        public var magic: [UInt8] {
            switch self {
            case .database: [0x53, 0x54, 0x4F, 0x4C, 0x00, 0x44, 0x42, 0x01]
            case .media: [0x53, 0x54, 0x4F, 0x4C, 0x00, 0x4D, 0x50, 0x01]
            }
        }

        public func signedMessage(sha256: [UInt8], schemaVersion: UInt32) -> [UInt8] {
            switch self {
            case .database: StolFormat.signedMessage(sha256: sha256, schemaVersion: schemaVersion)
            case .media: StolFormat.signedMessage(sha256: sha256, schemaVersion: schemaVersion) + magic
            }
        }
    }
    public static let headerSize = 108
    public static let hashSize = 32
    public static let signatureSize = 64

    public struct Header: Sendable, Equatable {
        public var schemaVersion: UInt32
        public var payloadSHA256: [UInt8]
        public var signature: [UInt8]
        public var kind: Kind

        public init(schemaVersion: UInt32, payloadSHA256: [UInt8], signature: [UInt8], kind: Kind = .database) {
            self.schemaVersion = schemaVersion
            self.payloadSHA256 = payloadSHA256
            self.signature = signature
            self.kind = kind
        }

        /// The bytes the signature covers (36 for a database).
        public var signedMessage: [UInt8] { kind.signedMessage(sha256: payloadSHA256, schemaVersion: schemaVersion) }

        public var bytes: [UInt8] {
            var out = kind.magic
            out += StolFormat.littleEndian(schemaVersion)
            out += payloadSHA256
            out += signature
            return out
        }
    }

    public static func signedMessage(sha256: [UInt8], schemaVersion: UInt32) -> [UInt8] {
        sha256 + littleEndian(schemaVersion)
    }

    /// Parses the first `headerSize` bytes; nil when they are too few or the magic is wrong.
    public static func parseHeader(_ bytes: [UInt8], kind: Kind = .database) -> Header? {
        guard bytes.count >= headerSize, Array(bytes[0..<8]) == kind.magic else { return nil }
        let version = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[8 + $1]) << (8 * UInt32($1)) }
        return Header(schemaVersion: version, payloadSHA256: Array(bytes[12..<44]), signature: Array(bytes[44..<108]), kind: kind)
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
    }
}
