/* replay.c - a main() for the fuzz harnesses built without libFuzzer (gcc,
 * `make check`): runs LLVMFuzzerTestOneInput once on each file named, so
 * that the committed corpus and the crashes found are regression tests
 * (tests/e2e/68-fuzz-corpus.t).  Prints "ok FILE" after each.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 2;
        }
        size_t cap = 4096, n = 0, got;
        uint8_t *buf = malloc(cap);
        while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
            n += got;
            if (n == cap) {
                uint8_t *nb = realloc(buf, cap *= 2);
                if (!nb)
                    free(buf);
                buf = nb;
            }
        }
        fclose(f);
        if (!buf) {
            fprintf(stderr, "%s: out of memory\n", argv[i]);
            return 2;
        }
        /* libFuzzer's copy is exactly `size` bytes: so is this one, for ASan */
        uint8_t *exact = malloc(n ? n : 1);
        if (!exact)
            return 2;
        for (size_t k = 0; k < n; k++)
            exact[k] = buf[k];
        free(buf);
        LLVMFuzzerTestOneInput(exact, n);
        free(exact);
        printf("ok %s\n", argv[i]);
        fflush(stdout);
    }
    return 0;
}
