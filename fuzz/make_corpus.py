#!/usr/bin/env python3
"""Writes the libFuzzer seed corpus for fuzz/RPCFuzzer from the conformance vectors.

Each input is one control byte (the framer's size cap: byte b < 128 means a cap of b + 1 bytes,
anything else the default 64 MiB) followed by the stream: every case's whole input, and every
single step of it, as separate files.

usage: make_corpus.py OUTPUT_DIR [--vectors DIR]
"""
import argparse
import glob
import hashlib
import json
import os

MAX_INPUT = 8192  # keep seeds within run.sh's -max_len


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
            for data in [b"".join(steps)] + steps:
                if data:
                    seeds.add(bytes([cap]) + data[:MAX_INPUT - 1])
                    seeds.add(bytes([0x10]) + data[:MAX_INPUT - 1])  # and with a 17-byte cap
    for seed in seeds:
        name = hashlib.sha1(seed).hexdigest()
        with open(os.path.join(args.output, name), "wb") as f:
            f.write(seed)
    print(f"{len(seeds)} seeds written to {args.output}")


if __name__ == "__main__":
    main()
