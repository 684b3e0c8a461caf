"""`stol-engine mcp` driven by the official MCP Python SDK (2.x) as a real client, offline.

The high-level `Client` (default mode: probes `server/discover`, falls back to `initialize`) and
the lower-level `ClientSession` both connect over stdio, list the tools and call every one; the
SDK checks each `structuredContent` against the tool's `outputSchema`. Also: names where ids go,
bad input, cancellation of a slow call, progress, version negotiation, and stdout hygiene.
"""
import json
import os
import subprocess
import tempfile
import time

import anyio
import pytest
from mcp import Client, ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

TOOLS = {"search_taxa", "get_taxon", "list_children", "get_lineage", "compare_taxa", "closest_relatives", "database_info"}


def params(engine, data_dir, *extra):
    return StdioServerParameters(command=engine, args=["mcp", "--data-dir", data_dir, *extra])


def run(fn):
    return anyio.run(fn)


def test_a_real_client_asks_what_a_lion_is_how_it_relates_to_a_tiger_and_its_closest_relatives(engine, data_dir):
    async def scenario():
        async with Client(params(engine, data_dir)) as client:
            assert client.protocol_version in ("2025-11-25", "2025-06-18")
            assert client.server_info.name == "stol-engine"
            assert "offline" in (client.instructions or "").lower()
            assert client.server_capabilities.tools is not None

            listed = (await client.list_tools()).tools
            assert {t.name for t in listed} == TOOLS
            for tool in listed:
                assert tool.annotations.read_only_hint is True, tool.name
                assert tool.annotations.open_world_hint is False, tool.name
                assert tool.input_schema["type"] == "object" and tool.output_schema["type"] == "object", tool.name

            # Every call below is validated by the SDK against the tool's output schema.
            found = await client.call_tool("search_taxa", {"query": "lions", "rank": "species", "limit": 5})
            assert not found.is_error
            assert found.structured_content["results"][0]["scientificName"] == "Panthera leo"
            assert "Panthera leo" in found.content[0].text

            lion = await client.call_tool("get_taxon", {"taxon": "lion"})
            assert not lion.is_error
            detail = lion.structured_content
            assert detail["taxon"]["scientificName"] == "Panthera leo"
            assert [t["scientificName"] for t in detail["lineage"]][-2:] == ["Felidae", "Panthera"]
            assert "Lion" in [n["name"] for n in detail["names"]["en"]]
            assert detail["traits"], "the lion has traits"
            assert "Panthera leo" in lion.content[0].text and "Lineage" in lion.content[0].text

            by_id = await client.call_tool("get_taxon", {"taxon": detail["taxon"]["id"], "language": "es"})
            assert by_id.structured_content["taxon"]["id"] == detail["taxon"]["id"]
            as_text_id = await client.call_tool("get_taxon", {"taxon": str(detail["taxon"]["id"])})
            assert as_text_id.structured_content["taxon"]["id"] == detail["taxon"]["id"]

            compared = await client.call_tool("compare_taxa", {"a": "lion", "b": "tiger"})
            assert not compared.is_error
            assert compared.structured_content["lca"]["scientificName"] == "Panthera"
            assert compared.structured_content["taxonomicDistance"] == 2
            assert "Panthera" in compared.content[0].text

            # Different domains meet at the root of all life (the pseudo-taxon with id 0), and the
            # answer still validates against the output schema.
            across = await client.call_tool("compare_taxa", {"a": "lion", "b": "Escherichia coli", "language": "de_DE"})
            assert not across.is_error
            assert across.structured_content["lca"]["id"] == 0
            assert across.structured_content["lca"]["preferredCommonName"] == "Leben"
            assert [t["scientificName"] for t in across.structured_content["pathFromB"]][-2:] == ["Bacteria", "Biota"]
            assert "root of the tree of life" in across.content[0].text

            relatives = await client.call_tool("closest_relatives", {"taxon": "Panthera leo", "count": 5})
            assert not relatives.is_error
            names = [r["taxon"]["scientificName"] for r in relatives.structured_content["relatives"]]
            assert "Panthera tigris" in names and "Panthera leo" not in names

            children = await client.call_tool("list_children", {"taxon": "Panthera", "limit": 2})
            assert not children.is_error
            assert len(children.structured_content["children"]) == 2
            cursor = children.structured_content["nextCursor"]
            rest = await client.call_tool("list_children", {"taxon": "Panthera", "limit": 50, "cursor": cursor})
            everything = [c["scientificName"] for c in children.structured_content["children"] + rest.structured_content["children"]]
            assert "Panthera leo" in everything and len(everything) == len(set(everything))

            lineage = await client.call_tool("get_lineage", {"taxon": "tiger"})
            assert [t["scientificName"] for t in lineage.structured_content["ancestors"]][0] == "Eukaryota"
            assert lineage.content[0].text.endswith('"Panthera tigris" "Tiger"')

            info = await client.call_tool("database_info", {})
            assert info.structured_content["source"] == "bundled"
            assert info.structured_content["taxaCount"] > 100

    run(scenario)


def test_the_lower_level_client_session_negotiates_and_calls(engine, data_dir):
    async def scenario():
        async with stdio_client(params(engine, data_dir)) as (read, write):
            async with ClientSession(read, write) as session:
                result = await session.initialize()
                assert result.protocol_version == "2025-11-25"
                assert result.capabilities.tools is not None
                await session.send_ping()
                tools = await session.list_tools()
                assert {t.name for t in tools.tools} == TOOLS
                info = await session.call_tool("database_info", {})
                assert not info.is_error and info.structured_content["taxaCount"] > 100
                relatives = await session.call_tool("closest_relatives", {"taxon": "lion"})
                assert relatives.structured_content["relatives"]

    run(scenario)


def test_names_where_ids_go_ambiguous_and_unknown_names_come_back_with_candidates(engine, data_dir):
    async def scenario():
        async with Client(params(engine, data_dir)) as client:
            ambiguous = await client.call_tool("get_taxon", {"taxon": "Morus"})
            assert ambiguous.is_error
            assert ambiguous.structured_content["reason"] == "ambiguous"
            candidates = ambiguous.structured_content["candidates"]
            assert len(candidates) == 2 and all(c["scientificName"] == "Morus" for c in candidates)
            assert {c["disambiguation"]["display"] for c in candidates} == {"Morus (genus in Aves)", "Morus (genus in Magnoliopsida)"}
            assert "ask which one" in ambiguous.content[0].text
            chosen = await client.call_tool("get_taxon", {"taxon": candidates[0]["id"]})
            assert not chosen.is_error and chosen.structured_content["taxon"]["id"] == candidates[0]["id"]

            unknown = await client.call_tool("compare_taxa", {"a": "Lyon", "b": "tiger"})
            assert unknown.is_error and unknown.structured_content["reason"] == "unknown"
            assert "Panthera leo" in [c["scientificName"] for c in unknown.structured_content["candidates"]]

            missing = await client.call_tool("get_taxon", {"taxon": 9007199254740990})
            assert missing.is_error and "no taxon" in missing.content[0].text.lower()

            not_a_species = await client.call_tool("closest_relatives", {"taxon": "Felidae"})
            assert not_a_species.is_error

    run(scenario)


def test_bad_input_is_an_error_never_a_crash(engine, data_dir):
    async def scenario():
        async with Client(params(engine, data_dir)) as client:
            with pytest.raises(MCPError) as unknown_tool:
                await client.call_tool("delete_everything", {})
            assert unknown_tool.value.error.code == -32602
            bad_calls = [
                ("get_taxon", {}),                                   # missing argument
                ("get_taxon", {"taxon": ["lion"]}),                  # wrong type
                ("get_taxon", {"taxon": ""}),
                ("search_taxa", {"query": 7}),
                ("search_taxa", {"query": "lion", "limit": 10**12}),  # huge limit
                ("search_taxa", {"query": "lion", "limit": "ten"}),
                ("search_taxa", {"query": "lion", "rank": "kingdom-ish"}),
                ("search_taxa", {"query": "x" * 5000}),
                ("list_children", {"taxon": "Panthera", "cursor": "not-a-cursor"}),
                ("closest_relatives", {"taxon": "lion", "count": 0}),
                ("get_lineage", {"taxon": -3}),
                ("get_taxon", {"taxon": "lion", "language": "not a tag!"}),
            ]
            for name, arguments in bad_calls:
                result = await client.call_tool(name, arguments)
                assert result.is_error, (name, arguments)
                assert result.content[0].text, (name, arguments)
            assert not (await client.call_tool("get_taxon", {"taxon": "lion"})).is_error

    run(scenario)


def test_a_slow_call_is_cancelled_and_progress_is_reported(engine, data_dir):
    with tempfile.NamedTemporaryFile("w+", suffix=".log") as errlog:
        async def scenario():
            async with stdio_client(params(engine, data_dir, "--test-tools", "--log-level", "debug"), errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    seen = []

                    async def progress(value, total, message):
                        seen.append((value, total, message))

                    slept = await session.call_tool("test_sleep", {"ms": 200}, progress_callback=progress)
                    assert slept.structured_content == {"slept": 200}
                    values = [v for v, _, _ in seen]
                    assert values and values == sorted(values) and values[-1] == 1, seen
                    assert all(total == 1 for _, total, _ in seen)

                    started = time.monotonic()
                    with anyio.move_on_after(1):
                        await session.call_tool("test_sleep", {"ms": 30000})
                    assert time.monotonic() - started < 10
                    # The engine stops the call and, as MCP says, does not answer it.
                    for _ in range(200):
                        errlog.seek(0)
                        if "cancelled by the client; not answered" in errlog.read():
                            break
                        await anyio.sleep(0.05)
                    errlog.seek(0)
                    assert "cancelled by the client; not answered" in errlog.read()
                    await session.send_ping()
                    assert not (await session.call_tool("get_taxon", {"taxon": "lion"})).is_error

        run(scenario)


def raw_session(engine, data_dir, lines):
    """Sends raw lines to `stol-engine mcp`; returns its stdout lines and exit code."""
    proc = subprocess.run([engine, "mcp", "--data-dir", data_dir], input="".join(l + "\n" for l in lines).encode(),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return proc.stdout.decode().splitlines(), proc.returncode


def test_versions_are_negotiated_and_stdout_holds_only_protocol_messages(engine, data_dir):
    lines, code = raw_session(engine, data_dir, [
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}}}),
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"protocolVersion": "1999-01-01", "capabilities": {}}}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json.dumps({"jsonrpc": "2.0", "id": 3, "method": "ping"}),
        "this is not json",
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "favorites/add", "params": {"taxonId": 1}}),
        json.dumps({"jsonrpc": "2.0", "id": 5, "method": "database/import", "params": {"path": "/tmp/x.stol"}}),
        json.dumps({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "get_taxon"}}),
    ])
    assert code == 0
    messages = [json.loads(line) for line in lines]  # every line is one JSON message
    by_id = {m.get("id"): m for m in messages}
    assert by_id[1]["result"]["protocolVersion"] == "2025-06-18"
    assert by_id[2]["result"]["protocolVersion"] == "2025-11-25"
    assert by_id[3]["result"] == {}
    assert by_id[None]["error"]["code"] == -32700
    # No favourites, imports or diagnostics in MCP mode.
    assert by_id[4]["error"]["code"] == -32601 and by_id[5]["error"]["code"] == -32601
    assert by_id[6]["result"]["isError"] is True
    assert len(messages) == 7
