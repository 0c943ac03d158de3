/* The ctest rerun project's tests: argv[1] says what the test does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *mode(void) {
    const char *m = getenv("TESTGATE_FIXTURE");
    return m ? m : "pass";
}

/* Whether this is the first run: PROJECT_DIR/.flaky-count plus one run per
   earlier attempt (testgate puts the tree back). */
static int first_run(void) {
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
    return runs + (attempt ? atoi(attempt) : 1) - 1 == 1;
}

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "pass";
    if (strcmp(what, "fails") == 0) {
        return strcmp(mode(), "fail") == 0 ? 1 : 0;
    }
    if (strcmp(what, "sometimes") == 0) {
        return strcmp(mode(), "flaky") == 0 && first_run() ? 1 : 0;
    }
    return 0;
}
