/* The ctest e2e project's tests: argv[1] names the test. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *mode(void) {
    const char *m = getenv("TESTGATE_FIXTURE");
    return m ? m : "pass";
}

/* Whether this is an odd-numbered run, counted in PROJECT_DIR/.flaky-count
   plus one run per earlier attempt (testgate puts the tree back). */
static int odd_run(void) {
    const char *path = PROJECT_DIR "/.flaky-count";
    int runs = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%d", &runs) != 1) runs = 0;
        fclose(f);
    }
    runs += 1;
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "%d", runs);
        fclose(f);
    }
    const char *attempt = getenv("TESTGATE_ATTEMPT");
    int n = runs + (attempt ? atoi(attempt) : 1) - 1;
    return n % 2 == 1;
}

int main(int argc, char **argv) {
    const char *test = argc > 1 ? argv[1] : "";
    const char *m = mode();
    if (strcmp(test, "calc.adds") == 0) {
        if (strcmp(m, "crash") == 0) raise(SIGSEGV);
        return 2 + 2 == 4 ? 0 : 1;
    }
    if (strcmp(test, "calc.adds_negative") == 0) {
        int want = strcmp(m, "fail") == 0 ? 0 : -1;
        if (1 + -2 != want) {
            printf("calc.c: expected %d, got %d\n", want, 1 + -2);
            return 1;
        }
        return 0;
    }
    if (strcmp(test, "calc.sometimes") == 0) {
        if (strcmp(m, "flaky") == 0 && odd_run()) {
            puts("odd-numbered run");
            return 1;
        }
        return 0;
    }
    if (strcmp(test, "calc.hangs") == 0) {
        if (strcmp(m, "hang") == 0) sleep(3600);
        return 0;
    }
    if (strcmp(test, "big.numbers") == 0) {
        long want = strcmp(m, "fail") == 0 ? 1 : 2000000;
        return 1000000L * 2 == want ? 0 : 1;
    }
    return 1;
}
