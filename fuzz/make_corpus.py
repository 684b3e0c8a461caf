#!/usr/bin/env python3
"""Writes the libFuzzer seed corpus for fuzz/RPCFuzzer or fuzz/DispatchFuzzer from the
conformance vectors.

Each input is one control byte (the size cap: byte b < 128 means a cap of b + 1 bytes; for
DispatchFuzzer 0xFF means the defaults and 0x80-0xFE a tiny output budget) followed by the stream:
every case's whole input, and every single step of it, as separate files. RPCFuzzer also gets
each with a 17-byte cap; DispatchFuzzer gets each whole case with a 1-byte output budget too, and
a few short-sleep cases (it does not send sleeps over 10 ms, and most vectors sleep longer).

usage: make_corpus.py OUTPUT_DIR [--vectors DIR] [--dispatcher]
"""
import argparse
import glob
import hashlib
import json
import os

MAX_INPUT = 8192  # keep seeds within run.sh's -max_len

# Streams the vectors lack because their sleeps are too long for DispatchFuzzer.
DISPATCHER_SEEDS = [
    b'{"jsonrpc":"2.0","id":1,"method":"test/sleep","params":{"ms":10}}\n'
    b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}\n'
    b'{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
    b'{"jsonrpc":"2.0","id":"p","method":"test/progress","params":{"steps":5,"delayMs":2,"_meta":{"progressToken":"t"}}}\n'
    b'{"jsonrpc":"2.0","id":"q","method":"test/progress","params":{"steps":300,"_meta":{"progressToken":7}}}\n'
    b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"p"}}\n',
    b'[{"jsonrpc":"2.0","id":1,"method":"test/sleep","params":{"ms":5}},{"jsonrpc":"2.0","id":2,"method":"sum","params":[1,2]},'
    b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}},{"jsonrpc":"2.0","method":"notify_hello"},1]\n',
    b'{"jsonrpc":"2.0","id":1,"method":"test/notify","params":{"method":"hello","params":{"a":[1]}}}\n'
    b'{"jsonrpc":"2.0","id":2,"method":"shutdown"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n',
]


def step_bytes(step):
    if isinstance(step, str):
        return step.encode() + b"\n"
    if "raw" in step:
        data = step["raw"].encode()
    elif "hex" in step:
        data = bytes.fromhex(step["hex"].replace(" ", ""))
    else:
        return b""
    return data * step.get("repeat", 1)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser()
    parser.add_argument("output")
    parser.add_argument("--vectors", default=os.path.join(here, "..", "protocol", "conformance", "vectors"))
    parser.add_argument("--dispatcher", action="store_true", help="seeds for DispatchFuzzer")
    args = parser.parse_args()
    os.makedirs(args.output, exist_ok=True)
    seeds = set()
    for path in sorted(glob.glob(os.path.join(args.vectors, "*.json"))):
        with open(path) as f:
            doc = json.load(f)
        for case in doc["cases"] if isinstance(doc, dict) else doc:
            cap = 0xFF
            extra = case.get("args", [])
            if "--max-message-bytes" in extra:
                limit = int(extra[extra.index("--max-message-bytes") + 1])
                if limit <= 128:
                    cap = limit - 1
            steps = [step_bytes(s) for s in case["send"]]
            whole = b"".join(steps)
            for data in [whole] + steps:
                if data:
                    seeds.add(bytes([cap]) + data[:MAX_INPUT - 1])
                    if not args.dispatcher:
                        seeds.add(bytes([0x10]) + data[:MAX_INPUT - 1])  # and with a 17-byte cap
            if args.dispatcher and whole and cap == 0xFF:
                seeds.add(bytes([0x80]) + whole[:MAX_INPUT - 1])  # and with a 1-byte output budget
    if args.dispatcher:
        for data in DISPATCHER_SEEDS:
            seeds.add(bytes([0xFF]) + data)
            seeds.add(bytes([0x80]) + data)
    for seed in seeds:
        name = hashlib.sha1(seed).hexdigest()
        with open(os.path.join(args.output, name), "wb") as f:
            f.write(seed)
    print(f"{len(seeds)} seeds written to {args.output}")


if __name__ == "__main__":
    main()
