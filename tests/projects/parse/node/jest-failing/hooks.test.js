// An error thrown in beforeAll fails every test of its describe.
describe('database', () => {
  beforeAll(() => {
    throw new Error('cannot connect');
  });
  test('reads a row', () => {
    expect(1).toBe(1);
  });
  test('writes a row', () => {
    expect(1).toBe(1);
  });
});

describe('unaffected', () => {
  test('still passes', () => {
    expect(2).toBe(2);
  });
});
