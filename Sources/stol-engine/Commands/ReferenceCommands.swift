import ArgumentParser
import Foundation
import STOLEngine
import STOLPipeline
import STOLSupport

/// `stol-engine keygen`: a new Ed25519 keypair for signing `.stol` files.
struct Keygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create an Ed25519 signing key for .stol files.",
        discussion: "Writes the secret key (128 hex digits, mode 0600; refuses to overwrite) and prints the public key in hex on stdout.")

    @Option(help: "Where to write the secret key file.")
    var out: String

    func run() throws {
        let pair = Signing.generateKeyPair()
        do {
            try Signing.writeSecretKey(pair.secretKey, to: URL(fileURLWithPath: out))
        } catch {
            Stderr.print("error: cannot write \(out): \(error.localizedDescription)")
            throw ExitCode(1)
        }
        print(Hex.encode(pair.publicKey))
    }
}

/// `stol-engine pack`: gzip, hash and sign a taxonomy database into a `.stol` file.
struct Pack: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Pack a taxonomy database into a signed .stol file.")

    @Option(help: "The taxonomy database to pack.")
    var db: String

    @Option(help: "The secret key file written by keygen.")
    var key: String

    @Option(help: "Where to write the .stol file (replaced if it exists).")
    var out: String

    @Option(help: .hidden)
    var schemaVersion: UInt32?

    @Flag(help: .hidden)
    var unchecked = false

    @Option(help: .hidden)
    var level: Int32 = 6

    func run() throws {
        do {
            let secret = try Signing.readSecretKey(at: URL(fileURLWithPath: key))
            let database = URL(fileURLWithPath: db)
            // --unchecked packs any file (test vectors for hostile inputs); the header then says
            // --schema-version, or 1.
            let version = unchecked ? (schemaVersion ?? 1) : try schemaVersion ?? StolPacker.schemaVersion(of: database)
            let header = try StolPacker.pack(database: database, secretKey: secret, schemaVersion: version, to: URL(fileURLWithPath: out), level: level)
            print("schema version: \(header.schemaVersion)")
            print("payload sha256: \(Hex.encode(header.payloadSHA256))")
            print("public key: \(Hex.encode(try Signing.publicKey(ofSecretKey: secret)))")
        } catch {
            Stderr.print("error: \(error)")
            throw ExitCode(1)
        }
    }
}

/// `stol-engine verify`: every check `database/import` makes, without installing anything.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a .stol file as database/import would; exit code 0 only if it is valid.")

    @Argument(help: "The .stol file.")
    var file: String

    @Option(help: "Also trust this public key (hex); repeatable.")
    var trustedKey: [String] = []

    func run() throws {
        var keys: [[UInt8]] = []
        do {
            keys.append(try Signing.parsePublicKey(Signing.releasePublicKeyHex))
            for hex in trustedKey { keys.append(try Signing.parsePublicKey(hex)) }
        } catch {
            Stderr.print("error: \(error)")
            throw ExitCode(2)
        }
        let scratch = ScratchDirectory(in: FileManager.default.temporaryDirectory)
        defer { scratch.remove() }
        let importer = StolFileImporter(scratch: scratch, trustedKeys: keys, limits: .init(), preparesCopy: false)
        let lastStage = LastStage()
        let checks: [(String, String)] = [
            ("copying", "readable"), ("checking size", "size within limits"), ("checking header", "magic"),
            ("verifying checksum", "payload sha256"), ("verifying signature", "signature"), ("decompressing", "decompressed within limits"),
            ("opening database", "opens read-only"), ("checking schema version", "schema version"), ("checking integrity", "integrity, values, tree and full-text indexes"),
        ]
        do {
            let staged = try importer.stage(URL(fileURLWithPath: file), job: ImportJob()) { _, message in
                if lastStage.set(message), let index = checks.firstIndex(where: { $0.0 == message }), index > 0 {
                    print("ok: \(checks[index - 1].1)")
                }
            }
            print("ok: integrity, values, tree and full-text indexes")
            print(staged.statisticsAreOwn ? "ok: planner statistics are ANALYZE's" : "note: planner statistics are not ANALYZE's; an import recomputes them")
            print("schema version: \(staged.schemaVersion)")
            print("signed by: \(Hex.encode(staged.signedBy))\(staged.signedBy == keys[0] ? " (release key)" : "")")
            print("valid")
        } catch {
            let stage = checks.first { $0.0 == lastStage.value }?.1 ?? "file"
            print("FAILED: \(stage): \(error.kind): \(error)")
            throw ExitCode(1)
        }
    }

    /// The stage last reported, so each check is printed once.
    final class LastStage: Sendable {
        private let current = Locked("")
        var value: String { current.withLock { $0 } }
        func set(_ stage: String) -> Bool {
            current.withLock {
                guard stage != $0 else { return false }
                $0 = stage
                return true
            }
        }
    }
}
