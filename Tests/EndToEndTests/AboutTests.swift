import Foundation
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

/// `about` over the real binary, on the embedded database and on a fixture.
@Suite struct AboutTests {
    @Test func aboutShowsVersionsDatasetSourcesAndPrivacy() async throws {
        let engine = try EngineProcess()
        let about = try #require(await engine.result(AboutRequest()))
        #expect(about["engine"]?["name"] == "stol-engine")
        #expect(about["engine"]?["version"] == "0.1.0")
        #expect(about["engine"]?["build"]?.stringValue?.isEmpty == false)
        #expect(about["protocolVersion"] == "1.0")
        #expect(about["privacy"] == "No data is collected. Nothing leaves this device.")
        let dataset = try #require(about["dataset"])
        #expect(dataset["source"] == "bundled")
        #expect(dataset["name"]?.stringValue?.contains("default dataset") == true)
        #expect(dataset["version"] == "2026.11")
        #expect(dataset["license"]?.stringValue?.hasPrefix("CC0") == true)
        #expect((dataset["taxaCount"]?.int64Value ?? 0) > 100)
        let sources = try #require(about["sources"]?.arrayValue)
        #expect(sources.first?["attribution"]?.stringValue?.contains("stol-engine project") == true)
        #expect(sources.allSatisfy { $0["attributionRequired"] != nil })
        #expect(about["sourceFiles"]?.arrayValue?.contains("11-birds.taxa") == true)
    }

    @Test func ccBySourcesMustBeCredited() async throws {
        let database = try Fixtures.buildDatabase()
        // Two CC BY credits, one after the other, as build-db joins them.
        _ = try SQLiteCLI.run(database, """
            UPDATE dataset_info SET value = 'Mammal Diversity Database (2025). v2.1. ASM. CC BY 4.0' || char(10) ||
            'AviList Core Team. 2025. AviList v2025. doi:10.2173/avilist.v2025 (CC BY 4.0)' || char(10) ||
            'NCBI Taxonomy (Schoch et al. 2020), public domain' WHERE key = 'attribution'
            """)
        let engine = try EngineProcess(["--database", database.path])
        let sources = try #require(await engine.result(AboutRequest())?["sources"]?.arrayValue)
        #expect(sources.count == 3)
        #expect(sources[0]["license"] == "CC BY 4.0")
        #expect(sources[0]["attributionRequired"] == true)
        #expect(sources[1]["attribution"]?.stringValue?.hasPrefix("AviList") == true)
        #expect(sources[1]["attributionRequired"] == true)
        #expect(sources[2]["license"] == "public domain")
        #expect(sources[2]["attributionRequired"] == false)
    }
}
