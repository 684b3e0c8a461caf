import ArgumentParser
import Foundation
import STOLEngine
import STOLPipeline

/// `stol-engine pack-media`: images and a manifest into a signed `.stolmedia` pack.
struct PackMedia: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack-media",
        abstract: "Pack a folder of PNG/JPEG images into a signed .stolmedia file.",
        discussion: "The manifest is CSV: file,taxonId,credit,license (a header row is optional). Width and height are read from each image.")

    @Option(help: "The folder holding the images named in the manifest.")
    var images: String

    @Option(help: "The manifest CSV.")
    var manifest: String

    @Option(help: "The pack id (letters, digits, '.', '_', '-'); installing a pack with the same id replaces it.")
    var id: String

    @Option(help: "The pack's display name.")
    var name: String

    // Not `--version`: every subcommand already has that flag, for the engine's own version.
    @Option(help: "The pack's version.")
    var packVersion: String

    @Option(help: "The secret key file written by keygen.")
    var key: String

    @Option(help: "Where to write the .stolmedia file (replaced if it exists).")
    var out: String

    func run() throws {
        do {
            let secret = try Signing.readSecretKey(at: URL(fileURLWithPath: key))
            let header = try MediaPackBuilder.pack(
                images: URL(fileURLWithPath: images), manifest: URL(fileURLWithPath: manifest), id: id, name: name, version: packVersion,
                secretKey: secret, to: URL(fileURLWithPath: out))
            print("payload sha256: \(Hex.encode(header.payloadSHA256))")
            print("public key: \(Hex.encode(try Signing.publicKey(ofSecretKey: secret)))")
        } catch {
            Stderr.print("error: \(error)")
            throw ExitCode(1)
        }
    }
}
