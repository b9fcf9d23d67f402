#ifndef BOTHAM_CLIBFUZZER_H
#define BOTHAM_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, `FuzzerDriver.cpp`): parses libFuzzer's flags from `argv` and calls `callback`
/// once per input. Only fuzz builds (`-sanitize=fuzzer`) link it; plain builds never reference it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
