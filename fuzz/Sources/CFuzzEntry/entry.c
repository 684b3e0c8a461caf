// SwiftPM on Linux links executables with `--defsym main=<Target>_main`, so libFuzzer's own
// `main` is not used; these entries hand control to libFuzzer's driver instead. Each executable
// defines its own `LLVMFuzzerTestOneInput` and uses only its own entry.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int RPCFuzzer_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}

int DispatchFuzzer_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
