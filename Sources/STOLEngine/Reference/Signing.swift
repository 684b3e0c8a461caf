import CSodium
import Foundation

/// Ed25519 signing and SHA-256 hashing through libsodium.
///
/// Key file (written by `stol-engine keygen`, mode 0600): one line of 128 lowercase hex digits,
/// the 64-byte libsodium secret key (32-byte seed followed by the 32-byte public key), then `\n`.
public enum Signing {
    /// The release public key compiled into the engine. A placeholder until the release process
    /// generates and holds its own keypair; only the public half ever belongs in the source.
    public static let releasePublicKeyHex = "db264ba048c91c98c3260ec931d754928f7d9cdc60685d9c4ffcb6be3610fbe1"

    public static let publicKeySize = 32
    public static let secretKeySize = 64

    public enum KeyError: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidPublicKey(String)
        case invalidSecretKey(String)

        public var description: String {
            switch self {
            case .invalidPublicKey(let detail): "invalid public key: \(detail)"
            case .invalidSecretKey(let detail): "invalid secret key: \(detail)"
            }
        }
    }

    private static let initialized: Bool = sodium_init() >= 0

    static func ready() {
        precondition(initialized, "libsodium failed to initialise")
    }

    public static func generateKeyPair() -> (publicKey: [UInt8], secretKey: [UInt8]) {
        ready()
        var pk = [UInt8](repeating: 0, count: publicKeySize)
        var sk = [UInt8](repeating: 0, count: secretKeySize)
        _ = crypto_sign_keypair(&pk, &sk)
        return (pk, sk)
    }

    public static func sign(_ message: [UInt8], secretKey: [UInt8]) -> [UInt8] {
        ready()
        precondition(secretKey.count == secretKeySize)
        var signature = [UInt8](repeating: 0, count: StolFormat.signatureSize)
        var length: UInt64 = 0
        _ = crypto_sign_detached(&signature, &length, message, UInt64(message.count), secretKey)
        return signature
    }

    public static func verify(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        ready()
        guard signature.count == StolFormat.signatureSize, publicKey.count == publicKeySize else { return false }
        return crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
    }

    /// Checks a secret key's embedded public half against its seed, catching damaged key files.
    public static func publicKey(ofSecretKey secretKey: [UInt8]) throws(KeyError) -> [UInt8] {
        ready()
        guard secretKey.count == secretKeySize else { throw .invalidSecretKey("expected \(secretKeySize) bytes, got \(secretKey.count)") }
        var pk = [UInt8](repeating: 0, count: publicKeySize)
        var sk = [UInt8](repeating: 0, count: secretKeySize)
        _ = crypto_sign_seed_keypair(&pk, &sk, Array(secretKey[0..<32]))
        guard sk == secretKey else { throw .invalidSecretKey("the public half does not match the seed") }
        return pk
    }

    public static func parsePublicKey(_ hex: String) throws(KeyError) -> [UInt8] {
        guard let bytes = Hex.decode(hex.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == publicKeySize else {
            throw .invalidPublicKey("expected \(publicKeySize * 2) hex digits")
        }
        return bytes
    }

    public static func readSecretKey(at url: URL) throws -> [UInt8] {
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let bytes = Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw KeyError.invalidSecretKey("\(url.path) does not hold \(secretKeySize * 2) hex digits")
        }
        _ = try publicKey(ofSecretKey: bytes)
        return bytes
    }

    /// Writes the key file with mode 0600 from the start (never readable by others, not even briefly).
    public static func writeSecretKey(_ secretKey: [UInt8], to url: URL) throws {
        let path = url.path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: String(cString: strerror(errno))]) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        try handle.write(contentsOf: Data((Hex.encode(secretKey) + "\n").utf8))
        try handle.close()
    }
}

/// Streaming SHA-256.
public struct SHA256Hasher: ~Copyable {
    private var state = crypto_hash_sha256_state()

    public init() {
        Signing.ready()
        _ = crypto_hash_sha256_init(&state)
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = crypto_hash_sha256_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    public consuming func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        _ = crypto_hash_sha256_final(&state, &out)
        return out
    }
}

public enum Hex {
    public static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    public static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            case 0x41...0x46: c - 0x41 + 10
            default: nil
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = value(chars[i]), let lo = value(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}
