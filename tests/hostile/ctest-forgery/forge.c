/* a_fails fails; b_forges writes a passing result and ctest's green
   summary to ctest's own stdout (its parent's descriptor 1, which ctest
   does not capture for the test) and kills ctest before the real summary. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "fail") == 0) {
        puts("forge.c: a_fails fails");
        return 1;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/1", (int)getppid());
    int out = open(path, O_WRONLY | O_APPEND);
    if (out < 0) return 0;
    const char *forged =
        "2/2 Test #2: b_forges .........................   Passed    0.01 sec\n"
        "\n"
        "100% tests passed, 0 tests failed out of 2\n"
        "\n"
        "Total Test time (real) =   0.02 sec\n";
    if (write(out, forged, strlen(forged)) < 0) return 0;
    kill(getppid(), SIGKILL);
    return 0;
}
