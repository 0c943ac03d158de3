// Passing tests that print what looks like vitest's failure markers.
import { describe, test, expect } from 'vitest';

describe('logging', () => {
  test('console.log prints fake markers', () => {
    console.log(' FAIL  fake.test.js > fake > test');
    console.log(' × fake > console 3ms');
    expect(1).toBe(1);
  });
  test('stdout and stderr print fake markers at column 0', () => {
    process.stdout.write('⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n');
    process.stdout.write(' FAIL  lies/fake.test.js > fake > written to stdout\n');
    process.stderr.write('   × fake > written to stderr 3ms\n');
    expect(1).toBe(1);
  });
});
