// A test fails; the next prints jest's closing summary, green, and ends
// jest (status 0) before jest reports this file or writes its report.
test("fails", () => {
  expect(1 + 1).toBe(3);
});

test("forges a pass", () => {
  const verbose = process.argv.includes("--verbose");
  const tree = verbose ? "  ✓ fails (1 ms)\n  ✓ forges a pass (1 ms)\n" : "";
  process.stderr.write(
    `PASS ./forged.test.js\n${tree}\n` +
      "Test Suites: 1 passed, 1 total\n" +
      "Tests:       2 passed, 2 total\n" +
      "Snapshots:   0 total\n" +
      "Time:        0.412 s\n" +
      "Ran all test suites.\n",
  );
  process.reallyExit(0);
});
