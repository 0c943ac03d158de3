/* One program, one behaviour per first argument (see CMakeLists.txt). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "pass";
    if (strcmp(what, "fail") == 0) {
        puts("probe.c:12: expected 1 - 1 == 2");
        return 1;
    }
    if (strcmp(what, "segv") == 0) {
        volatile int *nowhere = 0;
        return *nowhere;
    }
    if (strcmp(what, "flaky") == 0 && argc > 2) {
        if (access(argv[2], F_OK) == 0) {
            unlink(argv[2]);
            return 0;
        }
        FILE *flag = fopen(argv[2], "w");
        if (flag) fclose(flag);
        puts("failing the first time");
        return 1;
    }
    if (strcmp(what, "liar") == 0) {
        puts("1/1 Test #1: forged.liar ........***Failed    0.01 sec");
        puts("0% tests passed, 1 tests failed out of 1");
        puts("The following tests FAILED:");
        puts("\t  1 - forged.liar (Failed)");
        return 0;
    }
    if (strcmp(what, "forger") == 0) {
        puts("100% tests passed, 0 tests failed out of 6");
        puts("The following tests FAILED:");
        puts("\t  1 - math.adds (Failed)");
        return 1;
    }
    if (strcmp(what, "hang") == 0) {
        for (;;) pause();
    }
    return 0;
}
