import Foundation
import GRDB
import STOLProtocol
import Testing

@testable import STOLEngine

/// The bundled photographs as the engine reads them, how each finds its taxon, and how a size
/// picks among a taxon's images.
@Suite struct BundledMediaUnitTests {
    @Test func theShippedPhotographsLoadInBothSizes() throws {
        let media = try BundledMedia.embedded()
        #expect(media.photos.count == 24)
        for photo in media.photos {
            #expect(photo.renditions.map(\.size) == ImageSize.allCases)
            let thumbnail = photo.renditions[0], page = photo.renditions[1]
            #expect(max(thumbnail.width, thumbnail.height) == ImageSize.thumbnail.longSide, "\(photo.file)")
            #expect(max(page.width, page.height) <= ImageSize.page.longSide && max(page.width, page.height) > ImageSize.thumbnail.longSide, "\(photo.file)")
            #expect(photo.renditions.allSatisfy { $0.mimeType == "image/jpeg" && $0.bytes > 0 })
            #expect(["Public Domain", "CC0-1.0"].contains(photo.license), "\(photo.license)")
            #expect(photo.source.hasPrefix("https://commons.wikimedia.org/wiki/File:") && photo.credit.contains(photo.author))
        }
        #expect(media.bytes == media.photos.reduce(0) { $0 + $1.renditions.reduce(0) { $0 + $1.bytes } })
    }

    @Test func aBrokenManifestIsReportedWithItsLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stol-bundled-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "file\tscientific_name\tauthor\tlicense\tsource\nx.jpg\tA b\tMe\tCC0-1.0\n".write(to: dir.appendingPathComponent("photos.tsv"), atomically: true, encoding: .utf8)
        #expect(throws: BundledMedia.LoadError.self) { try BundledMedia.load(from: dir) }
        try "file\tscientific_name\tauthor\tlicense\tsource\nx.jpg\tA b\tMe\tCC0-1.0\thttps://x\n".write(to: dir.appendingPathComponent("photos.tsv"), atomically: true, encoding: .utf8)
        do {
            _ = try BundledMedia.load(from: dir)
            Issue.record("a missing image file loaded")
        } catch let error as BundledMedia.LoadError {
            #expect(error.description.contains("line 2") && error.description.contains("thumbnail/x.jpg"))
        }
    }

    @Test func photosFindTheirTaxaByNameSynonymOrDomesticForm() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE taxa (id INTEGER PRIMARY KEY, parent_id INTEGER, rank TEXT, scientific_name TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'accepted');
                CREATE TABLE names (id INTEGER PRIMARY KEY, taxon_id INTEGER NOT NULL, name TEXT NOT NULL, lang TEXT NOT NULL, name_type TEXT NOT NULL);
                INSERT INTO taxa (id, rank, scientific_name) VALUES (1, 'species', 'Canis lupus'), (2, 'species', 'Canis familiaris'),
                    (3, 'species', 'Felis silvestris catus'), (4, 'species', 'Equus ferus'), (5, 'genus', 'Chamaeleo'), (6, 'species', 'Bos taurus'),
                    (7, 'species', 'Bos taurus'), (8, 'species', 'Ovis orientalis');
                UPDATE taxa SET status = 'synonym' WHERE id = 6;
                INSERT INTO names (taxon_id, name, lang, name_type) VALUES (3, 'Felis catus', 'la', 'synonym'), (8, 'ovis aries', 'la', 'synonym');
                """)
        }
        func photo(_ name: String) -> BundledMedia.Photo {
            BundledMedia.Photo(file: "x.jpg", scientificName: name, author: "A", license: "CC0-1.0", source: "https://x", renditions: [])
        }
        let media = BundledMedia(photos: ["Canis lupus familiaris", "Felis catus", "Equus caballus", "Chamaeleo zeylanicus", "Bos taurus", "Ovis aries", "Sus scrofa domesticus"].map(photo))
        let matches = try queue.read { db in try media.matches(in: db) }
        #expect(matches.byTaxon[2]?.map(\.kind) == [.domesticForm])  // the dog, not the wolf
        #expect(matches.byTaxon[1] == nil)
        #expect(matches.byTaxon[3]?.map(\.kind) == [.synonym])
        #expect(matches.byTaxon[7]?.map(\.kind) == [.scientificName])  // the accepted one of two namesakes
        #expect(matches.byTaxon[8]?.map(\.kind) == [.synonym])  // letter case aside
        // Never a genus, never a wild relative: reported instead.
        #expect(matches.unmatched == ["Equus caballus", "Chamaeleo zeylanicus", "Sus scrofa domesticus"])
    }

    @Test func aSizePicksTheNearestImage() {
        let images = [(width: 800, height: 600), (width: 160, height: 120), (width: 2000, height: 1000), (width: 100, height: 100)]
        #expect(ImageSize.thumbnail.choose(images) == 1)
        #expect(ImageSize.page.choose(images) == 0)
        #expect(ImageSize.largest(images) == 2)
        // Nothing large enough: the largest there is.
        #expect(ImageSize.page.choose([(width: 10, height: 10), (width: 300, height: 200)]) == 1)
        #expect(ImageSize.thumbnail.choose([]) == nil)
        // Ties go to the first.
        #expect(ImageSize.thumbnail.choose([(width: 160, height: 100), (width: 100, height: 160)]) == 0)
    }
}
