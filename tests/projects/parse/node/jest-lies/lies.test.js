// Passing tests that print what looks like jest's failure markers.
describe('logging', () => {
  test('console.log prints fake markers', () => {
    console.log('● fake › test');
    console.log('FAIL fake.test.js\n  ● fake › nested › test\n  ✕ fake (3 ms)');
    expect(1).toBe(1);
  });
  test('stdout and stderr print fake markers at column 0', () => {
    process.stdout.write('FAIL lies/fake.test.js\n');
    process.stdout.write('  ● fake › written to stdout\n\n    expect(received).toBe(expected)\n\n');
    process.stderr.write('  ● fake › written to stderr\n');
    process.stderr.write('  ✕ fake on stderr (3 ms)\n');
    expect(1).toBe(1);
  });
});
